#pragma once
// Writing small netCDF files from tests, through netCDF-C directly (independent of strata_io).
#include <netcdf.h>

#include <cmath>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

namespace nctest {

inline void ok(int status, const char* what) {
    if (status != NC_NOERR) throw std::runtime_error(std::string(what) + ": " + nc_strerror(status));
}

// A file being written; enddef() before putting data; closed by the destructor.
class Writer {
public:
    Writer(const std::string& path, int mode) {
        ok(nc_create(path.c_str(), mode | NC_CLOBBER, &id_), "nc_create");
    }
    ~Writer() { nc_close(id_); }
    Writer(const Writer&) = delete;
    Writer& operator=(const Writer&) = delete;
    int id() const { return id_; }

    int dim(const char* name, size_t len, int group = -1) {
        int d = 0;
        ok(nc_def_dim(group < 0 ? id_ : group, name, len, &d), name);
        return d;
    }
    int var(const char* name, nc_type type, std::vector<int> dims, int group = -1) {
        int v = 0;
        ok(nc_def_var(group < 0 ? id_ : group, name, type, int(dims.size()), dims.data(), &v), name);
        return v;
    }
    int group(const char* name, int parent = -1) {
        int g = 0;
        ok(nc_def_grp(parent < 0 ? id_ : parent, name, &g), name);
        return g;
    }
    void text(int var, const char* name, const std::string& value, int group = -1) {
        ok(nc_put_att_text(group < 0 ? id_ : group, var, name, value.size(), value.data()), name);
    }
    template <class T>
    void att(int var, const char* name, nc_type type, std::vector<T> values, int group = -1) {
        ok(nc_put_att(group < 0 ? id_ : group, var, name, type, values.size(), values.data()), name);
    }
    void enddef() { ok(nc_enddef(id_), "nc_enddef"); }
    template <class T> void put(int var, const std::vector<T>& values, int group = -1) {
        ok(nc_put_var(group < 0 ? id_ : group, var, values.data()), "nc_put_var");
    }
    template <class T>
    void putAt(int var, std::vector<size_t> start, std::vector<size_t> count, const std::vector<T>& values) {
        ok(nc_put_vara(id_, var, start.data(), count.data(), values.data()), "nc_put_vara");
    }

private:
    int id_ = -1;
};

// Replaces the one occurrence of `from` in the bytes of file `path` by `to` (same length).
inline void replaceBytes(const std::string& path, const std::string& from, const std::string& to) {
    std::string bytes;
    {
        std::ifstream in(path, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    const auto at = bytes.find(from);
    if (from.size() != to.size() || at == std::string::npos || bytes.find(from, at + 1) != std::string::npos)
        throw std::runtime_error(path + ": no single '" + from + "' to replace");
    bytes.replace(at, from.size(), to);
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), std::streamsize(bytes.size()));
}

// A netCDF-3 file holding one packed short `t2m(y, x)` of 2 × 3 `packed` values, with
// scale_factor 0.01 and add_offset 250 (doubles) and a double NaN _FillValue, as ECMWF
// reanalysis files carry. netCDF-C refuses to write a _FillValue of another type than its
// variable's, so it is written as "_FillValuX" and renamed in the bytes of the closed file.
inline void writeNanFillShort(const std::string& path, const std::vector<short>& packed) {
    if (packed.size() != 6) throw std::invalid_argument("writeNanFillShort: 2 × 3 values");
    {
        Writer w(path, 0);
        const int y = w.dim("y", 2), x = w.dim("x", 3);
        const int v = w.var("t2m", NC_SHORT, {y, x});
        w.att(v, "_FillValuX", NC_DOUBLE, std::vector<double>{std::nan("")});
        w.att(v, "scale_factor", NC_DOUBLE, std::vector<double>{0.01});
        w.att(v, "add_offset", NC_DOUBLE, std::vector<double>{250});
        w.text(v, "units", "K");
        w.enddef();
        w.put(v, packed);
    }
    replaceBytes(path, "_FillValuX", "_FillValue");
}

} // namespace nctest
