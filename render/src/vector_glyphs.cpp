// Arrows and wind barbs as strokes and filled outlines.
#include "vector_glyphs.h"

#include <algorithm>
#include <cmath>

namespace strata::detail {

BarbParts barbParts(double knots) {
    BarbParts p;
    const int rounded = int(std::lround(std::max(knots, 0.0) / 5)) * 5;
    if (rounded == 0) {
        p.calm = true;
        return p;
    }
    p.pennants = rounded / 50;
    p.barbs = rounded % 50 / 10;
    p.halves = rounded % 10 / 5;
    return p;
}

void addBarb(Glyphs& g, double x, double y, double dx, double dy, double knots, double length,
             bool southern) {
    const BarbParts parts = barbParts(knots);
    if (parts.calm) {
        PixelPolyline ring;
        const double r = 0.15 * length;
        for (int k = 0; k <= 16; ++k)
            ring.xy.insert(ring.xy.end(), {x + r * std::cos(k * M_PI / 8), y + r * std::sin(k * M_PI / 8)});
        g.lines.push_back(std::move(ring));
        return;
    }
    const double n = std::hypot(dx, dy);
    if (!(n > 0)) return;
    // Along the staff, from the station to its far end: where the wind comes from.
    const double sx = -dx / n, sy = -dy / n;
    // The feathers' side: the wind's way turned a quarter clockwise (its left) in the north.
    const double side = southern ? -1 : 1;
    const double fx = side * sy, fy = side * -sx; // the staff turned a quarter clockwise
    const double tipX = x + sx * length, tipY = y + sy * length;
    g.lines.push_back({{x, y, tipX, tipY}});
    const double gap = length / 7, feather = 0.45 * length;
    double at = 0; // back from the tip along the staff
    for (int k = 0; k < parts.pennants; ++k, at += 1.2 * gap) {
        const double ax = tipX - sx * at, ay = tipY - sy * at;
        const double bx = tipX - sx * (at + gap), by = tipY - sy * (at + gap);
        g.fills.push_back({{ax, ay, ax + fx * feather, ay + fy * feather, bx, by, ax, ay}});
    }
    if (parts.pennants && !parts.barbs && !parts.halves) return;
    if (!parts.pennants && !parts.barbs) at = gap; // a half barb alone: one place in
    auto stroke = [&](double size) {
        const double ax = tipX - sx * at, ay = tipY - sy * at;
        // Slanted out toward the tip, as barbs are drawn.
        g.lines.push_back(
            {{ax, ay, ax + size * (fx * 0.94 + sx * 0.34), ay + size * (fy * 0.94 + sy * 0.34)}});
        at += gap;
    };
    for (int k = 0; k < parts.barbs; ++k) stroke(feather);
    for (int k = 0; k < parts.halves; ++k) stroke(0.5 * feather);
}

void addArrow(Glyphs& g, double x, double y, double vx, double vy, double head) {
    const double n = std::hypot(vx, vy);
    if (!(n >= 0.5)) return;
    const double h = std::min(head, 0.5 * n), ux = vx / n, uy = vy / n;
    const double ex = x + vx, ey = y + vy; // the point
    const double bx = ex - ux * h, by = ey - uy * h, w = 0.4 * h;
    g.lines.push_back({{x, y, bx, by}});
    g.fills.push_back({{ex, ey, bx - uy * w, by + ux * w, bx + uy * w, by - ux * w, ex, ey}});
}

bool planeDirection(const LonLatPlace& place, double lon, double lat, double ue, double vn, double& dx,
                    double& dy) {
    constexpr double d = 0.01;
    const double c = std::max(std::cos(lat * M_PI / 180), 1e-6);
    // Centred steps (one-sided within a step of the pole).
    const double north = std::min(lat + d, 90.0), south = std::max(lat - d, -90.0);
    double wx, wy, ex, ey, nx, ny, sx, sy;
    if (!place(lon - d / c, lat, wx, wy) || !place(lon + d / c, lat, ex, ey) || !place(lon, north, nx, ny) ||
        !place(lon, south, sx, sy))
        return false;
    const double ns = (north - south) / d; // the north step's length, in steps of d
    dx = ue * (ex - wx) / 2 + vn * (nx - sx) / ns;
    dy = ue * (ey - wy) / 2 + vn * (ny - sy) / ns;
    const double n = std::hypot(dx, dy);
    if (!(n > 0) || !std::isfinite(n)) return false;
    dx /= n;
    dy /= n;
    return true;
}

bool gridToEarth(const std::function<bool(double ix, double iy, double& lon, double& lat)>& lonLatAt,
                 double ix, double iy, double u, double v, double& ue, double& vn) {
    constexpr double h = 0.05;
    // Centred steps: at the grid's edge, where lonLatAt holds a step to the last cell, one of
    // the two still moves.
    double lon, lat, wx, wy, ex0, ey0, sx, sy, nx0, ny0;
    if (!lonLatAt(ix, iy, lon, lat) || !lonLatAt(ix - h, iy, wx, wy) || !lonLatAt(ix + h, iy, ex0, ey0) ||
        !lonLatAt(ix, iy - h, sx, sy) || !lonLatAt(ix, iy + h, nx0, ny0))
        return false;
    const double c = std::cos(lat * M_PI / 180);
    const double ex = std::remainder(ex0 - wx, 360.0) * c, ey = ey0 - wy; // the grid's x on the ground
    const double nx = std::remainder(nx0 - sx, 360.0) * c, ny = ny0 - sy; // and its y
    const double ne = std::hypot(ex, ey), nn = std::hypot(nx, ny);
    if (!(ne > 0 && nn > 0)) return false;
    ue = u * ex / ne + v * nx / nn;
    vn = u * ey / ne + v * ny / nn;
    return true;
}

double referenceSpeed(std::vector<double> speeds) {
    std::erase_if(speeds, [](double s) { return !(s > 0) || !std::isfinite(s); });
    if (speeds.empty()) return 0;
    const std::size_t k = std::min(speeds.size() - 1, std::size_t(0.95 * double(speeds.size())));
    std::nth_element(speeds.begin(), speeds.begin() + std::ptrdiff_t(k), speeds.end());
    const double p = speeds[k];
    double scale = std::pow(10.0, std::floor(std::log10(p)));
    for (int guard = 0; guard < 2; ++guard, scale *= 10)
        for (double m : {1.0, 2.0, 5.0})
            if (m * scale >= p * (1 - 1e-12)) return m * scale;
    return 10 * scale;
}

} // namespace strata::detail
