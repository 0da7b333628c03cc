#include "strata/render/pixel_footprint.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <vector>

namespace strata {
namespace {

// The great-circle arc (radians) between two points in degrees (haversine: exact for small arcs).
double arc(double lon1, double lat1, double lon2, double lat2) {
    constexpr double r = std::numbers::pi / 180;
    const double dLat = (lat2 - lat1) * r, dLon = (lon2 - lon1) * r;
    const double a = std::sin(dLat / 2) * std::sin(dLat / 2) +
                     std::cos(lat1 * r) * std::cos(lat2 * r) * std::sin(dLon / 2) * std::sin(dLon / 2);
    return 2 * std::asin(std::min(1.0, std::sqrt(a)));
}

} // namespace

double pixelFootprint(const Projection& projection, const MapExtent& window, int width, int height) {
    constexpr int kPlaces = 5;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (width < 1 || height < 1 || !(window.width() > 0) || !(window.height() > 0)) return nan;
    const double dx = window.width() / width, dy = window.height() / height;
    std::vector<double> x, y; // each place, then its neighbour to the right, then the one up
    for (int j = 0; j < kPlaces; ++j)
        for (int i = 0; i < kPlaces; ++i) {
            const double px = window.x0 + (i + 0.5) / kPlaces * window.width();
            const double py = window.y0 + (j + 0.5) / kPlaces * window.height();
            x.insert(x.end(), {px, px + dx, px});
            y.insert(y.end(), {py, py, py + dy});
        }
    const std::vector<double> mapX = x, mapY = y;
    projection.inverse(x, y);
    // Off the map PROJ may give a place anyway (Robinson's inverse clamps): a place is on the
    // map when it projects back onto the point it came from.
    std::vector<double> backX = x, backY = y;
    projection.forward(backX, backY);
    const auto onMap = [&](std::size_t k) {
        return std::fabs(backX[k] - mapX[k]) <= 1e-3 * dx && std::fabs(backY[k] - mapY[k]) <= 1e-3 * dy;
    };
    double smallest = nan;
    for (std::size_t k = 0; k < x.size(); k += 3) {
        if (!onMap(k) || !onMap(k + 1) || !onMap(k + 2)) continue;
        const double right = arc(x[k], y[k], x[k + 1], y[k + 1]), up = arc(x[k], y[k], x[k + 2], y[k + 2]);
        const double span = std::max(right, up);
        if (std::isfinite(right) && std::isfinite(up) && span > 0 && !(span >= smallest)) smallest = span;
    }
    return smallest;
}

} // namespace strata
