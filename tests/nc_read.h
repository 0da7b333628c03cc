#pragma once
// An oracle apart from Strata's reader: a variable of a file as netCDF-C itself gives it, for
// the render and app tests to compute expected frames, ranges and exports by hand.
#include <netcdf.h>

#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

namespace nctest {

// A variable's values, C order, as float, with its dims' lengths.
struct NcValues {
    std::vector<std::size_t> shape;
    std::vector<float> values;
    // The value at index (i, j, k) of a 3-D variable.
    float at(std::size_t i, std::size_t j, std::size_t k) const {
        return values[(i * shape[1] + j) * shape[2] + k];
    }
};

// Every value of `var` in `path` (nc_get_var_float), its _FillValue (read with
// nc_get_att_float) replaced by NaN; no scale or offset applied. Empty values when the file or
// the variable cannot be read.
inline NcValues readNcFloats(const std::string& path, const std::string& var) {
    NcValues out;
    int nc = 0, id = 0, ndims = 0;
    if (nc_open(path.c_str(), NC_NOWRITE, &nc) != NC_NOERR) return out;
    int dims[NC_MAX_VAR_DIMS];
    std::size_t n = 1;
    bool ok = nc_inq_varid(nc, var.c_str(), &id) == NC_NOERR && nc_inq_varndims(nc, id, &ndims) == NC_NOERR &&
              nc_inq_vardimid(nc, id, dims) == NC_NOERR;
    for (int d = 0; ok && d < ndims; ++d) {
        std::size_t len = 0;
        ok = nc_inq_dimlen(nc, dims[d], &len) == NC_NOERR;
        out.shape.push_back(len);
        n *= len;
    }
    std::vector<float> values(n);
    ok = ok && nc_get_var_float(nc, id, values.data()) == NC_NOERR;
    float fill = 0;
    const bool hasFill = ok && nc_get_att_float(nc, id, "_FillValue", &fill) == NC_NOERR;
    nc_close(nc);
    if (!ok) return {};
    if (hasFill)
        for (float& v : values)
            if (v == fill) v = NAN;
    out.values = std::move(values);
    return out;
}

} // namespace nctest
