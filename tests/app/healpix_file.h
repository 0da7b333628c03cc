#pragma once
// A small HEALPix file for the window's and the command line's tests, written with netCDF-C:
// the easygems form (a `crs` with healpix_nside and healpix_order), tas(time, cell) over the
// whole sky at nside 16, nest, with tas[t, k] = k + 10000 t, so that a value names its cell.
#include <string>
#include <vector>

#include "io/nc_write.h"
#include "strata/core/healpix.h"

namespace test {

constexpr std::int64_t kHealpixNside = 16;

inline void writeHealpixFile(const std::string& path) {
    nctest::Writer w(path, NC_NETCDF4);
    const std::int64_t n = strata::healpix::cellCount(kHealpixNside);
    const int time = w.dim("time", 2), cell = w.dim("cell", std::size_t(n));
    const int crs = w.var("crs", NC_INT, {});
    w.att(crs, "healpix_nside", NC_INT, std::vector<int>{int(kHealpixNside)});
    w.text(crs, "healpix_order", "nest");
    const int tas = w.var("tas", NC_FLOAT, {time, cell});
    w.text(tas, "grid_mapping", "crs");
    w.text(tas, "units", "K");
    w.enddef();
    std::vector<float> v(std::size_t(2 * n));
    for (std::size_t k = 0; k < v.size(); ++k)
        v[k] = float(k % std::size_t(n)) + 10000.0f * float(k / std::size_t(n));
    w.put(tas, v);
    w.put(crs, std::vector<int>{0});
}

} // namespace test
