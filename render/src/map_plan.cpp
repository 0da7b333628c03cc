#include "map_plan.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
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

} // namespace

std::vector<PixelPolyline> planProjectedLines(const std::vector<LonLatLine>& lines, const ProjParams& p,
                                              const ViewTransform& t, double thin) {
    std::vector<PixelPolyline> out;
    for (const LonLatLine& l : lines) project(out, l.lon.data(), l.lat.data(), l.lon.size(), p, t, thin);
    return out;
}

PixelRect textBox(const TextItem& t) {
    std::size_t glyphs = 0;
    for (unsigned char c : t.text) glyphs += (c & 0xC0) != 0x80; // UTF-8: "°" is one glyph
    const double w = 0.68 * t.size * double(glyphs), h = 1.15 * t.size;
    const double x0 = t.h == Align::Left ? t.x : t.h == Align::Centre ? t.x - w / 2 : t.x - w;
    const double y0 = t.v == VAlign::Bottom ? t.y : t.v == VAlign::Centre ? t.y - h / 2 : t.y - h;
    return {x0, y0, x0 + w, y0 + h};
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

namespace {

bool meets(const PixelRect& a, const PixelRect& b, double pad) {
    return a.x0 - pad < b.x1 && b.x0 - pad < a.x1 && a.y0 - pad < b.y1 && b.y0 - pad < a.y1;
}

// A label `gap` beyond (x, y) in the direction (dx, dy) (pixels, y up): centred on the ray
// from (x, y) that way, just far enough that its box clears the gap.
TextItem labelBeyond(std::string text, double x, double y, double dx, double dy, double gap, double size,
                     const std::function<bool(const PixelRect&)>& touchesMap) {
    const double len = std::hypot(dx, dy);
    if (len > 0) {
        dx /= len;
        dy /= len;
    } else {
        dy = -1;
    }
    TextItem item = textAt(std::move(text), 0, 0, size, Align::Centre, VAlign::Centre);
    const PixelRect b = textBox(item);
    const double hw = b.width() / 2, hh = b.height() / 2;
    // From the box's centre along (dx, dy), its edge is this far.
    const double reach = std::min(std::fabs(dx) > 1e-9 ? hw / std::fabs(dx) : 1e300,
                                  std::fabs(dy) > 1e-9 ? hh / std::fabs(dy) : 1e300);
    item.x = x + dx * (gap + reach);
    item.y = y + dy * (gap + reach);
    // A curved edge can still reach under a corner: pushed out until no corner is on the map.
    for (int k = 0; k < 4 * size && touchesMap(textBox(item)); ++k) {
        item.x += dx;
        item.y += dy;
    }
    return item;
}

// The outward normal, in pixels, of the map's edge at (lon, lat) degrees: the edge runs along
// the parallel there (`inLon` 0: a meridian's end at the map's outer latitude, the map inside
// towards `inLat`) or along the seam's meridian (`inLon` 1: a parallel's western end, the map
// inside to the east). `along` (the line's own outward direction) where the edge has no length
// there (meridians meeting at a pole).
std::pair<double, double> edgeNormal(const ProjParams& p, const ViewTransform& t, double lon, double lat,
                                     double inLon, double inLat, double alongX, double alongY) {
    auto px = [&](double lo, double la, double& x, double& y) {
        double mx = 0, my = 0;
        if (!projForward(p, lo * kDeg, std::clamp(la, p.latLo / kDeg, p.latHi / kDeg) * kDeg, mx, my))
            return false;
        x = t.pixelX(mx);
        y = t.pixelY(my);
        return true;
    };
    const double h = 0.25; // degrees either side
    double ax = 0, ay = 0, bx = 0, by = 0, cx = 0, cy = 0, qx = 0, qy = 0;
    const bool ok = inLon == 0 ? px(lon - h, lat, ax, ay) && px(lon + h, lat, bx, by)
                               : px(lon, lat - h, ax, ay) && px(lon, lat + h, bx, by);
    if (!ok || !px(lon, lat, cx, cy) || !px(lon + inLon, lat + inLat, qx, qy) ||
        std::hypot(bx - ax, by - ay) < 1e-3)
        return {alongX, alongY};
    double nx = -(by - ay), ny = bx - ax;
    if (nx * (cx - qx) + ny * (cy - qy) < 0) nx = -nx, ny = -ny; // away from the map's inside
    return {nx, ny};
}

// Where the polyline first crosses the horizontal y = at (or vertical x = at) within [lo, hi]
// of the other axis.
std::optional<std::pair<double, double>> crossing(const PixelPolyline& l, bool horizontal, double at,
                                                  double lo, double hi) {
    for (std::size_t i = 0; i + 3 < l.xy.size(); i += 2) {
        const double a0 = horizontal ? l.xy[i + 1] : l.xy[i], a1 = horizontal ? l.xy[i + 3] : l.xy[i + 2];
        if ((a0 - at) * (a1 - at) > 0 || a0 == a1) continue;
        const double f = (at - a0) / (a1 - a0);
        const double b0 = horizontal ? l.xy[i] : l.xy[i + 1], b1 = horizontal ? l.xy[i + 2] : l.xy[i + 3];
        const double b = b0 + f * (b1 - b0);
        if (b >= lo && b <= hi) return horizontal ? std::pair{b, at} : std::pair{at, b};
    }
    return std::nullopt;
}

} // namespace

Graticule planGraticule(const ProjParams& p, const ViewTransform& t, double size, const LabelRoom& room) {
    Graticule g;
    // Whether a box has a corner, an edge's middle or its centre on the map.
    const auto touchesMap = [&](const PixelRect& b) {
        for (double fx : {0.0, 0.5, 1.0})
            for (double fy : {0.0, 0.5, 1.0}) {
                double lon = 0, lat = 0;
                if (projInverse(p, t.dataX(b.x0 + fx * b.width()), t.dataY(b.y0 + fy * b.height()), lon, lat))
                    return true;
            }
        return false;
    };
    const PixelRect& r = t.plot();
    const double latLo = p.latLo / kDeg, latHi = p.latHi / kDeg, lon0 = p.lon0 / kDeg;
    const double gap = size / 3;
    const bool north = p.kind == ProjKind::NorthPolarStereo, south = p.kind == ProjKind::SouthPolarStereo;
    const double bottom = std::min(r.y0, r.y1), top = std::max(r.y0, r.y1);
    const double left = std::min(r.x0, r.x1), right = std::max(r.x0, r.x1);
    std::vector<TextItem> outside, inline_; // labels beyond the map's edge; on a polar map's parallels
    std::vector<double> lon, lat;
    // Meridians, from the map's outer latitude inwards: labelled beyond that end (the map's edge)
    // when it is in the plot, else where the meridian leaves the plot at its bottom.
    const double outer = south ? latHi : latLo, inner = south ? latLo : latHi, step = south ? -1 : 1;
    // Where the meridians meet at a point (a pole, as Mollweide's), their ends leave no room
    // for labels: there they are labelled where they cross the equator, on a halo.
    double ax = 0, ay = 0, bx = 0, by = 0, ex = 0, ey = 0, wx = 0, wy = 0;
    const bool meet = !(north || south) && projForward(p, p.lon0 - 30 * kDeg, outer * kDeg, ax, ay) &&
                      projForward(p, p.lon0 + 30 * kDeg, outer * kDeg, bx, by) &&
                      projForward(p, p.lon0 - 30 * kDeg, 0, wx, wy) &&
                      projForward(p, p.lon0 + 30 * kDeg, 0, ex, ey) &&
                      std::hypot(ax - bx, ay - by) < 0.25 * std::hypot(ex - wx, ey - wy);
    for (int m = -180; m < 180; m += 30) {
        lon.clear();
        lat.clear();
        for (double b = outer; step * (b - inner) <= 1e-9; b += step) {
            lon.push_back(m);
            lat.push_back(b);
        }
        const std::size_t before = g.lines.size();
        project(g.lines, lon.data(), lat.data(), lon.size(), p, t, 0.5);
        // Not on the seam itself: there the meridian is the map's outline.
        if (std::fabs(wrapPi(m * kDeg - p.lon0)) > M_PI - 1e-9 || g.lines.size() == before) continue;
        if (meet) {
            double qx = 0, qy = 0;
            if (projForward(p, m * kDeg, 0, qx, qy) && r.contains(t.pixelX(qx), t.pixelY(qy))) {
                TextItem item = textAt(lonLabel(m), t.pixelX(qx) + gap, t.pixelY(qy) - gap, size, Align::Left,
                                       VAlign::Top);
                item.halo = true;
                inline_.push_back(std::move(item));
            }
            continue;
        }
        const PixelPolyline& first = g.lines[before];
        const double x = first.xy[0], y = first.xy[1];
        double ex = 0, ey = 0;
        const bool atEdge = projForward(p, m * kDeg, outer * kDeg, ex, ey) &&
                            std::hypot(t.pixelX(ex) - x, t.pixelY(ey) - y) < 1e-6;
        if (atEdge && r.contains(x, y)) {
            const auto [nx, ny] = edgeNormal(p, t, m, outer, 0, step, x - first.xy[2], y - first.xy[3]);
            outside.push_back(labelBeyond(lonLabel(m), x, y, nx, ny, gap, size, touchesMap));
        } else {
            for (std::size_t k = before; k < g.lines.size(); ++k)
                if (const auto c = crossing(g.lines[k], true, bottom, left, right)) {
                    outside.push_back(
                        textAt(lonLabel(m), c->first, bottom - gap, size, Align::Centre, VAlign::Top));
                    break;
                }
        }
    }
    // Parallels, across the whole map from seam to seam: labelled beyond their western end (the
    // map's edge), else where they leave the plot at its left; a polar map's closed parallels
    // along the meridian 45° west of the central one.
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
        if (g.lines.size() == before) continue;
        if (north || south) {
            double x = 0, y = 0;
            if (projForward(p, (lon0 - 45) * kDeg, b * kDeg, x, y) && r.contains(t.pixelX(x), t.pixelY(y))) {
                TextItem item =
                    textAt(latLabel(b), t.pixelX(x), t.pixelY(y), size, Align::Centre, VAlign::Centre);
                item.halo = true; // over the data
                inline_.push_back(std::move(item));
            }
            continue;
        }
        const PixelPolyline& first = g.lines[before];
        const double x = first.xy[0], y = first.xy[1];
        if (r.contains(x, y)) {
            const auto [nx, ny] =
                edgeNormal(p, t, lon0 - 180 + 1e-6, b, 1, 0, x - first.xy[2], y - first.xy[3]);
            outside.push_back(labelBeyond(latLabel(b), x, y, nx, ny, gap, size, touchesMap));
        } else {
            for (std::size_t k = before; k < g.lines.size(); ++k)
                if (const auto c = crossing(g.lines[k], false, left, bottom, top)) {
                    outside.push_back(
                        textAt(latLabel(b), left - gap, c->second, size, Align::Right, VAlign::Centre));
                    break;
                }
        }
    }
    // Kept in order where each fits: within the room, clear of the colour bar, and over no label
    // kept before it.
    std::vector<PixelRect> kept;
    for (std::vector<TextItem>* labels : {&outside, &inline_})
        for (TextItem& item : *labels) {
            const PixelRect b = textBox(item);
            const bool fits = !room.area || (b.x0 >= room.area->x0 && b.x1 <= room.area->x1 &&
                                             b.y0 >= room.area->y0 && b.y1 <= room.area->y1);
            const bool clear = !room.avoid || !meets(b, *room.avoid, 2);
            if (!fits || !clear ||
                std::any_of(kept.begin(), kept.end(), [&](const PixelRect& k) { return meets(k, b, 4); }))
                continue;
            kept.push_back(b);
            g.labels.push_back(std::move(item));
        }
    return g;
}

} // namespace strata::detail
