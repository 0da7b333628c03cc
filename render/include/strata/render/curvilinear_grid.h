#pragma once
// A curvilinear grid: a frame whose two dims are spanned by 2-D longitude/latitude coordinates
// (named by the variable's CF `coordinates` attribute, recognised as a true longitude and
// latitude by isLongitude and isLatitude of strata/core/cf_axis.h). Each cell is a quadrilateral in lon/lat
// space: its corners from the CF `bounds` of the 2-D coordinates when the frame carries them (shape (y, x,
// 4)), else derived from the centres (the mean on the sphere of the four centres around each corner,
// extrapolated one step along the grid lines at the edges). Longitudes are unwrapped per cell about its
// centre, so that no cell spans the globe at the seam (0/360 or ±180). Everything here lives on the host, as
// index coordinates do.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/attributes.h"
#include "strata/core/data_array.h"
#include "strata/core/view_window.h"

namespace strata {

struct CurvilinearGrid {
    std::int64_t rows = 0, columns = 0; // the frame's dims 0 and 1
    std::string lonName, latName;       // the 2-D coordinates on the frame
    std::vector<double> lon, lat;       // cell centres, rows × columns, row-major in frame order
    // Four corners per cell, anticlockwise in index space: (j-½, i-½), (j-½, i+½), (j+½, i+½),
    // (j+½, i-½) — the order of CF's 2-D bounds. NaN for a cell whose centre or corners are missing.
    std::vector<double> cornerLon, cornerLat;
    bool fromBounds = false; // corners read from the coordinates' bounds
    ViewWindow extent;       // longitude (x) and latitude (y) spanned by the finite corners
    // The cells were moved into one turn of longitude, [extent.x0, extent.x0 + 360), for they
    // spanned more: a cell across its edges is drawn on both sides (wrapShifts).
    bool wraps = false;

    std::int64_t cells() const { return rows * columns; }
    bool valid(std::int64_t k) const; // all four corners finite
    // True when (lon, lat) lies inside cell k (a point on an edge belongs to one cell of two).
    bool contains(std::int64_t k, double lon, double lat) const;
    // The longitude shifts at which cell k is drawn: 0, and for a grid that wraps, ±360 where
    // the cell reaches past the turn's edge (at most three; `n` says how many).
    int wrapShifts(std::int64_t k, double (&shifts)[3]) const;
};

// The curvilinear grid of a 2-D frame, or none when the frame has no 2-D longitude and latitude
// over its own two dims. Throws ValueError naming the variable and the problem for coordinates
// that cannot make cells (bounds not (y, x, 4); fewer than 2 cells along a dim without bounds).
std::optional<CurvilinearGrid> curvilinearGrid(const DataArray& frame);

// Cells derived from 2-D centres alone (rows × columns, row-major), as curvilinearGrid does
// without bounds. Throws ValueError for fewer than 2 cells along a dim.
CurvilinearGrid gridFromCentres(std::int64_t rows, std::int64_t columns, std::vector<double> lon,
                                std::vector<double> lat);

// The cell under a point of lon/lat space, by a coarse grid of buckets over the grid's extent
// (each bucket lists the cells whose bounding box meets it). The grid must outlive it.
class CellLocator {
public:
    explicit CellLocator(const CurvilinearGrid& grid);
    std::int64_t find(double lon, double lat) const; // the cell index (row * columns + column), -1 for none

private:
    std::int64_t findAt(double lon, double lat) const; // without the turn's wrap
    const CurvilinearGrid* grid_;
    int nx_ = 1, ny_ = 1;
    double x0_ = 0, y0_ = 0, dx_ = 1, dy_ = 1;
    std::vector<std::int64_t> start_, cells_; // per bucket, its cells (CSR)
};

} // namespace strata
