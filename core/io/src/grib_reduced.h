#pragma once
// A reduced Gaussian grid (reduced_gg: ERA5's and IFS's N and O grids) as the cells Strata draws:
// each point the centre of a quadrilateral bounded north and south by the midpoints between its
// row's latitude and its neighbours' (the poles beyond the outer rows of a global grid), and east
// and west by half its row's spacing on either side. No interpolation: the values stay on their
// points, one `values` dim as cfgrib gives them, and the cells are a UGRID mesh (mesh.h).
#include <cstdint>
#include <string>
#include <vector>

namespace strata::io::detail {

struct GribReducedGrid {
    std::vector<std::int64_t> rowStart; // each row's first point, then the number of points
    std::vector<double> north, south;   // each row's cells' bounds, degrees
    std::vector<double> west, step;     // each row's first point's longitude, and the spacing

    std::int64_t rows() const { return std::int64_t(north.size()); }
    std::int64_t points() const { return rowStart.empty() ? 0 : rowStart.back(); }
    // Nodes: each row's northern then southern edge, pl + 1 nodes each (a global row's last
    // node is its first again, 360 degrees on).
    std::int64_t nodes() const { return 2 * (points() + rows()); }
    std::vector<double> nodeLongitudes() const;
    std::vector<double> nodeLatitudes() const;
    // points x 4: south-west, south-east, north-east, north-west (anticlockwise seen from above).
    std::vector<double> faceNodes() const;
};

// The cells of a grid of `pl` points per row (north to south) whose points ecCodes places at
// `lat`, `lon` (row after row). `n` is the grid's N (rows between a pole and the equator):
// a grid of 2N rows reaches the poles. Returns an empty grid with `problem` set when the points
// do not fit the rows (a count that differs, a row whose latitude varies or that goes south to
// north).
GribReducedGrid gribReducedGrid(const std::vector<long>& pl, long n, const std::vector<double>& lat,
                                const std::vector<double>& lon, std::string& problem);

} // namespace strata::io::detail
