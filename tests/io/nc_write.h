#pragma once
// Writing small netCDF files from tests, through netCDF-C directly (independent of strata_io).
#include <netcdf.h>

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

} // namespace nctest
