#include "map_plan.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace strata::detail {
namespace {

constexpr double kDeg = M_PI / 180;

// Adds the projected polyline through the points (lon, lat degrees) to `out`, cut where a point
// is off the map or two neighbours lie either side of the seam.
void project(std::vector<PixelPolyline>& out, const double* lon, const double* lat, std::size_t n,
             const ProjParams& p, const ViewTransform& t, double thin) {
    const PixelRect& r = t.plot();
    PixelPolyline cur;
    double bx0 = 1e300, bx1 = -1e300, by0 = 1e300, by1 = -1e300; // the current line's box
    double lastRel = 0;
    auto flush = [&] {
        const bool meets = bx1 >= r.x0 && bx0 <= r.x1 && by1 >= r.y0 && by0 <= r.y1;
        if (cur.xy.size() >= 4 && meets) out.push_back(std::move(cur));
        cur.xy.clear();
        bx0 = by0 = 1e300;
        bx1 = by1 = -1e300;
    };
    for (std::size_t i = 0; i < n; ++i) {
        double x = 0, y = 0;
        const double rel = wrapPi(lon[i] * kDeg - p.lon0);
        if (!projForward(p, lon[i] * kDeg, lat[i] * kDeg, x, y)) {
            flush();
            continue;
        }
        if (!cur.xy.empty() && std::fabs(rel - lastRel) > M_PI) flush(); // across the seam
        lastRel = rel;
        const double px = t.pixelX(x), py = t.pixelY(y);
        const bool last = i + 1 == n;
        if (cur.xy.size() >= 2 && !last) {
            const double dx = px - cur.xy[cur.xy.size() - 2], dy = py - cur.xy.back();
            if (dx * dx + dy * dy < thin * thin) continue;
        }
        cur.xy.push_back(px);
        cur.xy.push_back(py);
        bx0 = std::min(bx0, px);
        bx1 = std::max(bx1, px);
        by0 = std::min(by0, py);
        by1 = std::max(by1, py);
    }
    flush();
}

bool inside(const PixelRect& r, double x, double y) {
    return x >= r.x0 && x <= r.x1 && y >= r.y0 && y <= r.y1;
}

} // namespace

std::vector<PixelPolyline> planProjectedLines(const std::vector<LonLatLine>& lines, const ProjParams& p,
                                              const ViewTransform& t, double thin) {
    std::vector<PixelPolyline> out;
    for (const LonLatLine& l : lines) project(out, l.lon.data(), l.lat.data(), l.lon.size(), p, t, thin);
    return out;
}

std::string lonLabel(double lon) {
    const long v = std::lround(std::remainder(lon, 360.0));
    if (v == 0) return "0°";
    if (v == 180 || v == -180) return "180°";
    return std::to_string(std::labs(v)) + (v > 0 ? "°E" : "°W");
}

std::string latLabel(double lat) {
    const long v = std::lround(lat);
    if (v == 0) return "0°";
    return std::to_string(std::labs(v)) + (v > 0 ? "°N" : "°S");
}

Graticule planGraticule(const ProjParams& p, const ViewTransform& t, double size) {
    Graticule g;
    const PixelRect& r = t.plot();
    const double latLo = p.latLo / kDeg, latHi = p.latHi / kDeg, lon0 = p.lon0 / kDeg;
    const double gap = size / 3;
    std::vector<double> lon, lat;
    // Meridians, from the lowest latitude drawn to the highest.
    const double labelLat = p.kind == ProjKind::NorthPolarStereo   ? latLo
                            : p.kind == ProjKind::SouthPolarStereo ? latHi
                                                                   : 0.0;
    for (int m = -180; m < 180; m += 30) {
        lon.clear();
        lat.clear();
        for (double b = latLo; b <= latHi + 1e-9; b += 1) {
            lon.push_back(m);
            lat.push_back(std::min(b, latHi));
        }
        project(g.lines, lon.data(), lat.data(), lon.size(), p, t, 0.5);
        double x = 0, y = 0;
        // Not on the seam itself: there the meridian is the map's outline, labelled at both ends.
        if (std::fabs(wrapPi(m * kDeg - p.lon0)) > M_PI - 1e-9) continue;
        if (projForward(p, m * kDeg, labelLat * kDeg, x, y) && inside(r, t.pixelX(x), t.pixelY(y)))
            g.labels.push_back(
                textAt(lonLabel(m), t.pixelX(x) + gap, t.pixelY(y) - gap, size, Align::Left, VAlign::Top));
    }
    // Parallels, across the whole map from seam to seam.
    for (int b = -60; b <= 60; b += 30) {
        if (b < latLo || b > latHi) continue;
        lon.clear();
        lat.clear();
        for (double l = -180 + 1e-6; l <= 180; l += 1) {
            lon.push_back(lon0 + std::min(l, 180 - 1e-6));
            lat.push_back(b);
        }
        const std::size_t before = g.lines.size();
        project(g.lines, lon.data(), lat.data(), lon.size(), p, t, 0.5);
        // The label at the parallel's leftmost point inside the plot.
        double lx = 1e300, ly = 0;
        for (std::size_t k = before; k < g.lines.size(); ++k)
            for (std::size_t i = 0; i + 1 < g.lines[k].xy.size(); i += 2)
                if (inside(r, g.lines[k].xy[i], g.lines[k].xy[i + 1]) && g.lines[k].xy[i] < lx) {
                    lx = g.lines[k].xy[i];
                    ly = g.lines[k].xy[i + 1];
                }
        if (lx < 1e300)
            g.labels.push_back(textAt(latLabel(b), lx + gap, ly + gap, size, Align::Left, VAlign::Bottom));
    }
    return g;
}

} // namespace strata::detail
