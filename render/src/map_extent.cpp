// Where a map's window and a grid lie on a projection's map (map_extent.h).
#include "map_extent.h"

#include <algorithm>
#include <cmath>

#include "native_map.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/sphere_cells.h"

namespace strata::detail {

// The longitude/latitude box a map's window shows: the inverse (map x/y to degrees; false off
// the globe) of a 33 × 33 grid of its points, with a margin of 2°; all longitudes where the
// window holds a pole or its points span the seam both ways, the whole globe where none is on
// it. Enough for the coastlines' bins: a little more than shown is read, never less.
LonLatBox visibleBox(const ViewWindow& w,
                     const std::function<bool(double, double, double&, double&)>& inverse) {
    constexpr int kSide = 32;
    std::vector<double> lons;
    double latMin = 90, latMax = -90;
    for (int j = 0; j <= kSide; ++j)
        for (int i = 0; i <= kSide; ++i) {
            double lon = 0, lat = 0;
            if (!inverse(w.x0 + (w.x1 - w.x0) * i / kSide, w.y0 + (w.y1 - w.y0) * j / kSide, lon, lat) ||
                !std::isfinite(lon) || !std::isfinite(lat))
                continue;
            lons.push_back(std::remainder(lon, 360.0)); // -180..180
            latMin = std::min(latMin, lat);
            latMax = std::max(latMax, lat);
        }
    if (lons.empty()) return {};
    LonLatBox box{-180, 180, std::max(-90.0, latMin - 2), std::min(90.0, latMax + 2)};
    if (latMax > 88 || latMin < -88) return box; // a pole in view: every longitude
    // The narrower of the spans about 0° and about 180°.
    const auto [lo, hi] = std::minmax_element(lons.begin(), lons.end());
    double east0 = 1e300, east1 = -1e300;
    for (double l : lons) {
        const double e = l < 0 ? l + 360 : l; // 0..360
        east0 = std::min(east0, e);
        east1 = std::max(east1, e);
    }
    if (*hi - *lo <= east1 - east0) {
        box.lonMin = *lo - 2;
        box.lonMax = *hi + 2;
    } else {
        box.lonMin = east0 - 2;
        box.lonMax = east1 + 2;
    }
    if (box.lonMax - box.lonMin > 300) box.lonMin = -180, box.lonMax = 180;
    return box;
}

// The part of projection p's map that the points (lon, lat degrees) fall in, forward-projected,
// with a margin of a twentieth, within the whole map; the whole map when none of them is on it.
MapExtent extentOnMap(const Projection& p, std::vector<double> lon, std::vector<double> lat) {
    p.forward(lon, lat);
    const MapExtent whole = p.extent();
    MapExtent e{1e300, -1e300, 1e300, -1e300};
    for (std::size_t k = 0; k < lon.size(); ++k) {
        if (!std::isfinite(lon[k]) || !std::isfinite(lat[k])) continue;
        e.x0 = std::min(e.x0, lon[k]);
        e.x1 = std::max(e.x1, lon[k]);
        e.y0 = std::min(e.y0, lat[k]);
        e.y1 = std::max(e.y1, lat[k]);
    }
    if (!(e.x1 > e.x0 && e.y1 > e.y0)) return whole;
    const double mx = (e.x1 - e.x0) / 20, my = (e.y1 - e.y0) / 20;
    return MapExtent{std::max(whole.x0, e.x0 - mx), std::min(whole.x1, e.x1 + mx),
                     std::max(whole.y0, e.y0 - my), std::min(whole.y1, e.y1 + my)};
}

// The part of projection p's map that a grid in its own CRS covers: its outline (edges sampled
// along each side) through PROJ to longitude/latitude and p's forward, with a margin of a
// twentieth, within the whole map.
MapExtent regionOnMap(const Projection& p, const MapCrs& crs, const std::vector<double>& xEdges,
                      const std::vector<double>& yEdges) {
    const NativeMap native(crs);
    std::vector<double> lon, lat;
    auto add = [&](double x, double y) {
        double a = 0, b = 0;
        if (native.inverse(x, y, a, b)) {
            lon.push_back(a);
            lat.push_back(b);
        }
    };
    constexpr int kSide = 64;
    const double x0 = xEdges.front(), x1 = xEdges.back(), y0 = yEdges.front(), y1 = yEdges.back();
    for (int k = 0; k <= kSide; ++k) {
        const double f = double(k) / kSide;
        add(x0 + f * (x1 - x0), y0);
        add(x0 + f * (x1 - x0), y1);
        add(x0, y0 + f * (y1 - y0));
        add(x1, y0 + f * (y1 - y0));
    }
    return extentOnMap(p, std::move(lon), std::move(lat));
}

// The part of projection p's map that a curvilinear grid's cells cover (their centres
// forward-projected), with a margin of a twentieth, within the whole map; the whole map when
// they reach a pole's cap (a polar or global grid).
MapExtent cellsOnMap(const Projection& p, const CurvilinearGrid& g) {
    std::vector<double> lon, lat;
    bool polar = false;
    for (std::size_t k = 0; k < g.lon.size(); ++k) {
        if (!std::isfinite(g.lon[k]) || !std::isfinite(g.lat[k])) continue;
        polar = polar || std::fabs(g.lat[k]) > 80;
        lon.push_back(g.lon[k]);
        lat.push_back(g.lat[k]);
    }
    if (polar) return p.extent();
    return extentOnMap(p, std::move(lon), std::move(lat));
}

// The part of projection p's map that sphere cells cover (their centres forward-projected, at
// most 200,000 of them evenly spread), with a margin of a twentieth; the whole map when they reach
// a pole's cap or cover most of the sphere.
MapExtent sphereCellsOnMap(const Projection& p, const SphereCells& cells) {
    const std::int64_t n = cells.size();
    const std::int64_t step = std::max<std::int64_t>(1, n / 200000);
    std::vector<double> lon, lat;
    for (std::int64_t k = 0; k < n; k += step) {
        double a = 0, b = 0;
        cells.centre(k, a, b);
        if (!std::isfinite(a) || !std::isfinite(b)) continue;
        if (std::fabs(b) > 80) return p.extent();
        lon.push_back(a);
        lat.push_back(b);
    }
    return extentOnMap(p, std::move(lon), std::move(lat));
}

} // namespace strata::detail
