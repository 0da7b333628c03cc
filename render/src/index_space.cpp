// Index space to axes' values and a curvilinear grid's longitude and latitude, and back.
#include "index_space.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

#include "coast_plan.h"
#include "strata/core/whole_turn.h"

namespace strata::detail {

double along(const std::vector<double>& centres, double at) {
    if (centres.size() < 2) return centres.empty() ? at : centres[0];
    if (at > double(centres.size() - 1)) {
        const double step = centres[centres.size() - 1] - centres[centres.size() - 2];
        return centres.back() + (at - double(centres.size() - 1)) * step;
    }
    const double k = std::clamp(at, 0.0, double(centres.size() - 1));
    const std::size_t i = std::min(static_cast<std::size_t>(k), centres.size() - 2);
    return centres[i] + (k - double(i)) * (centres[i + 1] - centres[i]);
}

void lonLatAt(const CurvilinearGrid& g, double x, double y, double& lon, double& lat) {
    const double cx = std::clamp(x, 0.0, double(g.columns - 1)), cy = std::clamp(y, 0.0, double(g.rows - 1));
    const std::int64_t i = std::min<std::int64_t>(std::int64_t(cx), std::max<std::int64_t>(g.columns - 2, 0));
    const std::int64_t j = std::min<std::int64_t>(std::int64_t(cy), std::max<std::int64_t>(g.rows - 2, 0));
    const double u = cx - double(i), v = cy - double(j);
    const std::int64_t i1 = std::min(i + 1, g.columns - 1), j1 = std::min(j + 1, g.rows - 1);
    auto k = [&](std::int64_t jj, std::int64_t ii) { return std::size_t(jj * g.columns + ii); };
    const double l00 = g.lon[k(j, i)];
    auto un = [&](double l) { return l00 + std::remainder(l - l00, 360.0); };
    lon = (1 - v) * ((1 - u) * l00 + u * un(g.lon[k(j, i1)])) +
          v * ((1 - u) * un(g.lon[k(j1, i)]) + u * un(g.lon[k(j1, i1)]));
    lat = (1 - v) * ((1 - u) * g.lat[k(j, i)] + u * g.lat[k(j, i1)]) +
          v * ((1 - u) * g.lat[k(j1, i)] + u * g.lat[k(j1, i1)]);
}

bool wholeTurn(const AxisGrid& x, const AxisGrid& y) { return isLonLatView(x, y) && isWholeTurn(x.centres); }

bool indexAlong(const std::vector<double>& c, double v, double& at) {
    const std::size_t n = c.size();
    if (n == 0 || !std::isfinite(v)) return false;
    if (n == 1) {
        at = 0;
        return v == c[0];
    }
    const bool up = c.back() >= c.front();
    if (up ? (v < c.front() || v > c.back()) : (v > c.front() || v < c.back())) return false;
    const auto it = up ? std::upper_bound(c.begin(), c.end(), v)
                       : std::upper_bound(c.begin(), c.end(), v, std::greater<>());
    const std::size_t k =
        std::min<std::size_t>(std::size_t(std::max<std::ptrdiff_t>(it - c.begin() - 1, 0)), n - 2);
    const double step = c[k + 1] - c[k];
    at = double(k) + (step != 0 ? (v - c[k]) / step : 0);
    return true;
}

} // namespace strata::detail
