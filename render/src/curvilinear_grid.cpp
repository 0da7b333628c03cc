#include "strata/render/curvilinear_grid.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "strata/core/cf_axis.h"
#include "strata/core/error.h"

namespace strata {
namespace {

// `x` moved by whole turns to within half a turn of `ref`.
double unwrapped(double x, double ref) { return x - 360 * std::round((x - ref) / 360); }

// Strides of a coordinate's values along the frame's two dims (and its third dim, if any).
struct Strides {
    std::int64_t row = 0, column = 0, extra = 0, extraSize = 0;
};
std::optional<Strides> stridesOf(const Coordinate& c, const std::string& d0, const std::string& d1) {
    Strides s;
    std::int64_t stride = 1;
    bool has0 = false, has1 = false;
    for (std::size_t k = c.dims.size(); k-- > 0;) {
        if (c.dims[k] == d0) {
            s.row = stride;
            has0 = true;
        } else if (c.dims[k] == d1) {
            s.column = stride;
            has1 = true;
        } else {
            s.extra = stride;
            s.extraSize = c.shape[k];
        }
        stride *= c.shape[k];
    }
    if (!has0 || !has1 || static_cast<std::int64_t>(c.values.size()) != stride) return std::nullopt;
    return s;
}

std::vector<double> gather(const Coordinate& c, const Strides& s, std::int64_t rows, std::int64_t columns) {
    std::vector<double> out(static_cast<std::size_t>(rows * columns));
    for (std::int64_t j = 0; j < rows; ++j)
        for (std::int64_t i = 0; i < columns; ++i)
            out[static_cast<std::size_t>(j * columns + i)] =
                c.values[static_cast<std::size_t>(j * s.row + i * s.column)];
    return out;
}

// Corners derived from the centres: each the mean of the four centres around it, taken as unit
// vectors on the sphere (so that longitudes need no unwrapping, and cells about a pole or along a
// tripolar fold take the corners the sphere gives them); beyond the grid's edges a centre is
// extrapolated from the two nearest inside, one more step along their great circle.
void deriveCorners(CurvilinearGrid& g) {
    const std::int64_t rows = g.rows, columns = g.columns;
    constexpr double kRad = M_PI / 180;
    std::vector<std::array<double, 3>> p(static_cast<std::size_t>(rows * columns));
    for (std::size_t k = 0; k < p.size(); ++k) {
        const double lo = g.lon[k] * kRad, la = g.lat[k] * kRad;
        p[k] = {std::cos(la) * std::cos(lo), std::cos(la) * std::sin(lo), std::sin(la)};
    }
    using V = std::array<double, 3>;
    // b reflected through a: a step from b to a taken once more along their great circle.
    auto lin = [](const V& a, const V& b) {
        const double d = 2 * (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
        return V{d * a[0] - b[0], d * a[1] - b[1], d * a[2] - b[2]};
    };
    auto ext = [&](auto&& self, std::int64_t j, std::int64_t i) -> V {
        if (j < 0) return lin(self(self, 0, i), self(self, 1, i));
        if (j >= rows) return lin(self(self, rows - 1, i), self(self, rows - 2, i));
        if (i < 0) return lin(self(self, j, 0), self(self, j, 1));
        if (i >= columns) return lin(self(self, j, columns - 1), self(self, j, columns - 2));
        return p[static_cast<std::size_t>(j * columns + i)];
    };
    // The (rows + 1) × (columns + 1) corners, each shared by up to four cells.
    const std::int64_t cw = columns + 1;
    std::vector<double> lonAt(static_cast<std::size_t>((rows + 1) * cw)), latAt(lonAt.size());
    for (std::int64_t j = 0; j <= rows; ++j)
        for (std::int64_t i = 0; i <= columns; ++i) {
            V sum{0, 0, 0};
            for (const V& v :
                 {ext(ext, j - 1, i - 1), ext(ext, j - 1, i), ext(ext, j, i - 1), ext(ext, j, i)})
                for (std::size_t d = 0; d < 3; ++d) sum[d] += v[d];
            const auto at = static_cast<std::size_t>(j * cw + i);
            lonAt[at] = std::atan2(sum[1], sum[0]) / kRad; // unwrapped about each cell's centre in finish()
            latAt[at] = std::atan2(sum[2], std::hypot(sum[0], sum[1])) / kRad;
        }
    g.cornerLon.resize(static_cast<std::size_t>(rows * columns * 4));
    g.cornerLat.resize(g.cornerLon.size());
    for (std::int64_t j = 0; j < rows; ++j)
        for (std::int64_t i = 0; i < columns; ++i) {
            // Anticlockwise in index space from (j-½, i-½): corner-grid points (j, i), (j, i+1),
            // (j+1, i+1), (j+1, i).
            const std::int64_t from[4] = {j * cw + i, j * cw + i + 1, (j + 1) * cw + i + 1, (j + 1) * cw + i};
            for (std::size_t c = 0; c < 4; ++c) {
                const auto to = static_cast<std::size_t>((j * columns + i) * 4) + c;
                g.cornerLon[to] = lonAt[static_cast<std::size_t>(from[c])];
                g.cornerLat[to] = latAt[static_cast<std::size_t>(from[c])];
            }
        }
}

void finish(CurvilinearGrid& g) {
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (std::int64_t k = 0; k < g.cells(); ++k) {
        const auto at = static_cast<std::size_t>(k * 4);
        const double ref = g.lon[static_cast<std::size_t>(k)];
        bool ok = std::isfinite(ref) && std::isfinite(g.lat[static_cast<std::size_t>(k)]);
        for (std::size_t c = 0; c < 4; ++c) {
            double& lon = g.cornerLon[at + c];
            if (std::isfinite(ref)) lon = unwrapped(lon, ref); // no cell spans the seam
            ok = ok && std::isfinite(lon) && std::isfinite(g.cornerLat[at + c]);
        }
        if (!ok) {
            for (std::size_t c = 0; c < 4; ++c) g.cornerLon[at + c] = g.cornerLat[at + c] = NAN;
            continue;
        }
        for (std::size_t c = 0; c < 4; ++c) {
            x0 = std::min(x0, g.cornerLon[at + c]);
            x1 = std::max(x1, g.cornerLon[at + c]);
            y0 = std::min(y0, g.cornerLat[at + c]);
            y1 = std::max(y1, g.cornerLat[at + c]);
        }
    }
    if (!(x1 > x0) || !(y1 > y0)) x0 = 0, x1 = 1, y0 = 0, y1 = 1; // no finite cell
    // Cells spanning more than a turn (a tripolar ocean grid whose longitudes run -280..80 or
    // 73..433, or whose cap's cells reach past the seam): each moved by whole turns into one
    // turn, from -180 when the longitudes go below 0, else from 0. Cells across its edges are
    // drawn on both sides (wraps).
    if (x1 - x0 > 360 + 1e-9) {
        double lowest = std::numeric_limits<double>::infinity();
        for (double v : g.lon)
            if (std::isfinite(v)) lowest = std::min(lowest, v);
        const double start = lowest < 0 ? -180 : 0;
        for (std::int64_t k = 0; k < g.cells(); ++k) {
            auto& centre = g.lon[static_cast<std::size_t>(k)];
            if (!g.valid(k)) continue;
            const double shift = 360 * std::floor((centre - start) / 360);
            centre -= shift;
            for (std::size_t c = 0; c < 4; ++c) g.cornerLon[static_cast<std::size_t>(k * 4) + c] -= shift;
        }
        x0 = start;
        x1 = start + 360;
        g.wraps = true;
    }
    g.extent = {x0, x1, y0, y1};
}

} // namespace

bool CurvilinearGrid::valid(std::int64_t k) const {
    return std::isfinite(cornerLon[static_cast<std::size_t>(k * 4)]);
}

int CurvilinearGrid::wrapShifts(std::int64_t k, double (&shifts)[3]) const {
    int n = 0;
    shifts[n++] = 0;
    if (!wraps) return n;
    const auto at = static_cast<std::size_t>(k * 4);
    const auto [lo, hi] =
        std::minmax({cornerLon[at], cornerLon[at + 1], cornerLon[at + 2], cornerLon[at + 3]});
    if (lo < extent.x0) shifts[n++] = 360;
    if (hi > extent.x1) shifts[n++] = -360;
    return n;
}

bool CurvilinearGrid::contains(std::int64_t k, double x, double y) const {
    const auto at = static_cast<std::size_t>(k * 4);
    bool in = false;
    for (std::size_t e = 0; e < 4; ++e) {
        const std::size_t f = (e + 1) % 4;
        const double xa = cornerLon[at + e], ya = cornerLat[at + e], xb = cornerLon[at + f],
                     yb = cornerLat[at + f];
        if ((ya > y) != (yb > y) && x < xa + (y - ya) * (xb - xa) / (yb - ya)) in = !in;
    }
    return in;
}

CurvilinearGrid gridFromCentres(std::int64_t rows, std::int64_t columns, std::vector<double> lon,
                                std::vector<double> lat) {
    STRATA_EXPECTS(rows >= 2 && columns >= 2, ValueError,
                   "cells of a curvilinear grid without bounds need at least 2 centres along each dim, not " +
                       std::to_string(rows) + " x " + std::to_string(columns));
    CurvilinearGrid g;
    g.rows = rows;
    g.columns = columns;
    g.lon = std::move(lon);
    g.lat = std::move(lat);
    deriveCorners(g);
    finish(g);
    return g;
}

std::optional<CurvilinearGrid> curvilinearGrid(const DataArray& frame) {
    if (frame.ndim() != 2) return std::nullopt;
    const std::string &d0 = frame.dims()[0], &d1 = frame.dims()[1];
    const Coordinate *lon = nullptr, *lat = nullptr;
    for (const Coordinate& c : frame.coords()) {
        if (c.dims.size() != 2 || !stridesOf(c, d0, d1) || !c.problem.empty()) continue;
        if (!lon && isLongitude(c.attrs)) lon = &c;
        if (!lat && isLatitude(c.attrs)) lat = &c;
    }
    if (!lon || !lat) return std::nullopt;
    const std::int64_t rows = frame.shape()[0], columns = frame.shape()[1];
    const std::string where = "'" + frame.name() + "': ";
    const Strides ls = *stridesOf(*lon, d0, d1), as = *stridesOf(*lat, d0, d1);
    std::vector<double> lonC = gather(*lon, ls, rows, columns), latC = gather(*lat, as, rows, columns);

    // Bounds of both coordinates, when the frame carries them: (y, x, 4) in any order of y and x.
    const Coordinate* lonB = frame.coords().find(lon->attrs.text("bounds").value_or(""));
    const Coordinate* latB = frame.coords().find(lat->attrs.text("bounds").value_or(""));
    CurvilinearGrid g;
    if (lonB && latB) {
        for (const Coordinate* b : {lonB, latB}) {
            const auto s = stridesOf(*b, d0, d1);
            STRATA_EXPECTS(s && b->dims.size() == 3 && s->extraSize == 4, ValueError,
                           where + "bounds '" + b->name + "' must be (" + d0 + ", " + d1 +
                               ", 4): the four corners of each cell");
        }
        const Strides lb = *stridesOf(*lonB, d0, d1), ab = *stridesOf(*latB, d0, d1);
        g.rows = rows;
        g.columns = columns;
        g.cornerLon.resize(static_cast<std::size_t>(rows * columns * 4));
        g.cornerLat.resize(g.cornerLon.size());
        for (std::int64_t j = 0; j < rows; ++j)
            for (std::int64_t i = 0; i < columns; ++i)
                for (std::int64_t c = 0; c < 4; ++c) {
                    const auto to = static_cast<std::size_t>((j * columns + i) * 4 + c);
                    g.cornerLon[to] =
                        lonB->values[static_cast<std::size_t>(j * lb.row + i * lb.column + c * lb.extra)];
                    g.cornerLat[to] =
                        latB->values[static_cast<std::size_t>(j * ab.row + i * ab.column + c * ab.extra)];
                }
        g.lon = std::move(lonC);
        g.lat = std::move(latC);
        g.fromBounds = true;
        finish(g);
    } else {
        try {
            g = gridFromCentres(rows, columns, std::move(lonC), std::move(latC));
        } catch (const ValueError& e) {
            STRATA_FAIL(ValueError, where + "'" + lon->name + "'/'" + lat->name + "': " + e.what());
        }
    }
    g.lonName = lon->name;
    g.latName = lat->name;
    return g;
}

CellLocator::CellLocator(const CurvilinearGrid& grid) : grid_(&grid) {
    const ViewWindow& e = grid.extent;
    const auto n = static_cast<int>(std::clamp(std::sqrt(static_cast<double>(grid.cells())), 1.0, 1024.0));
    nx_ = ny_ = n;
    x0_ = e.x0;
    y0_ = e.y0;
    dx_ = (e.x1 - e.x0) / nx_;
    dy_ = (e.y1 - e.y0) / ny_;
    auto range = [&](std::int64_t k, int& bx0, int& bx1, int& by0, int& by1) {
        const auto at = static_cast<std::size_t>(k * 4);
        const auto lo = std::minmax(
            {grid.cornerLon[at], grid.cornerLon[at + 1], grid.cornerLon[at + 2], grid.cornerLon[at + 3]});
        const auto la = std::minmax(
            {grid.cornerLat[at], grid.cornerLat[at + 1], grid.cornerLat[at + 2], grid.cornerLat[at + 3]});
        bx0 = std::clamp(static_cast<int>((lo.first - x0_) / dx_), 0, nx_ - 1);
        bx1 = std::clamp(static_cast<int>((lo.second - x0_) / dx_), 0, nx_ - 1);
        by0 = std::clamp(static_cast<int>((la.first - y0_) / dy_), 0, ny_ - 1);
        by1 = std::clamp(static_cast<int>((la.second - y0_) / dy_), 0, ny_ - 1);
    };
    start_.assign(static_cast<std::size_t>(nx_) * static_cast<std::size_t>(ny_) + 1, 0);
    int bx0, bx1, by0, by1;
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<std::int64_t> fill(start_.begin(), start_.end() - 1);
        for (std::int64_t k = 0; k < grid.cells(); ++k) {
            if (!grid.valid(k)) continue;
            range(k, bx0, bx1, by0, by1);
            for (int by = by0; by <= by1; ++by)
                for (int bx = bx0; bx <= bx1; ++bx) {
                    const auto b = static_cast<std::size_t>(by) * static_cast<std::size_t>(nx_) +
                                   static_cast<std::size_t>(bx);
                    if (pass == 0)
                        ++start_[b + 1];
                    else
                        cells_[static_cast<std::size_t>(fill[b]++)] = k;
                }
        }
        if (pass == 0) {
            for (std::size_t b = 1; b < start_.size(); ++b) start_[b] += start_[b - 1];
            cells_.resize(static_cast<std::size_t>(start_.back()));
        }
    }
}

std::int64_t CellLocator::find(double lon, double lat) const {
    if (const std::int64_t k = findAt(lon, lat); k >= 0 || !grid_->wraps) return k;
    // A cell across the turn's edge lies where its centre is: its part beyond is a turn away.
    for (double turn : {360.0, -360.0})
        if (const std::int64_t k = findAt(lon + turn, lat); k >= 0) return k;
    return -1;
}

std::int64_t CellLocator::findAt(double lon, double lat) const {
    if (!std::isfinite(lon) || !std::isfinite(lat)) return -1;
    double fx = (lon - x0_) / dx_;
    const double fy = (lat - y0_) / dy_;
    if (grid_->wraps && fx >= -1 && fx <= nx_ + 1)
        fx = std::clamp(fx, 0.0, double(nx_)); // in the edge buckets
    if (fx < 0 || fy < 0 || fx > nx_ || fy > ny_) return -1;
    const auto b =
        static_cast<std::size_t>(std::min(static_cast<int>(fy), ny_ - 1)) * static_cast<std::size_t>(nx_) +
        static_cast<std::size_t>(std::min(static_cast<int>(fx), nx_ - 1));
    for (std::int64_t p = start_[b]; p < start_[b + 1]; ++p)
        if (grid_->contains(cells_[static_cast<std::size_t>(p)], lon, lat))
            return cells_[static_cast<std::size_t>(p)];
    return -1;
}

} // namespace strata
