#include "strata/render/grid_geometry.h"

#include <algorithm>
#include <cmath>

#include "strata/core/error.h"
#include "strata/core/format.h"

namespace strata {

std::vector<double> cellEdges(const std::vector<double>& m) {
    STRATA_EXPECTS(!m.empty(), ValueError, "cellEdges: no midpoints");
    for (double v : m) STRATA_EXPECTS(std::isfinite(v), ValueError, "cellEdges: a midpoint is not finite");
    const std::size_t n = m.size();
    std::vector<double> e(n + 1);
    if (n == 1) {
        e[0] = m[0] - 0.5;
        e[1] = m[0] + 0.5;
        return e;
    }
    const bool up = m[1] > m[0];
    for (std::size_t i = 1; i < n; ++i)
        STRATA_EXPECTS(up ? m[i] > m[i - 1] : m[i] < m[i - 1], ValueError,
                       "cellEdges: midpoints are not strictly monotonic (at index " + std::to_string(i) +
                           ")");
    for (std::size_t i = 1; i < n; ++i) e[i] = 0.5 * (m[i - 1] + m[i]);
    e[0] = m[0] - 0.5 * (m[1] - m[0]);
    e[n] = m[n - 1] + 0.5 * (m[n - 1] - m[n - 2]);
    return e;
}

std::int64_t cellIndex(const std::vector<double>& edges, double value) {
    if (edges.size() < 2 || !std::isfinite(value)) return -1;
    const auto n = static_cast<std::int64_t>(edges.size()) - 1;
    if (edges.back() >= edges.front()) {
        if (value < edges.front() || value > edges.back()) return -1;
        auto it = std::upper_bound(edges.begin(), edges.end(), value);
        return std::min<std::int64_t>(n - 1, (it - edges.begin()) - 1);
    }
    if (value > edges.front() || value < edges.back()) return -1;
    auto it = std::upper_bound(edges.begin(), edges.end(), value, std::greater<double>());
    return std::min<std::int64_t>(n - 1, (it - edges.begin()) - 1);
}

bool isUniform(const std::vector<double>& e) {
    if (e.size() <= 2) return true;
    const double step = (e.back() - e.front()) / static_cast<double>(e.size() - 1);
    for (std::size_t i = 1; i < e.size(); ++i)
        if (std::abs((e[i] - e[i - 1]) - step) > 1e-6 * std::abs(step)) return false;
    return true;
}

std::string AxisGrid::label(std::int64_t i) const {
    if (i < 0 || i >= size()) return {};
    if (coordinate && !fromIndices) return coordinate->label(i);
    return std::to_string(i);
}

std::string axisTitle(const std::string& name, const Attributes& attrs, bool isTime) {
    std::string t = attrs.text("long_name").value_or(attrs.text("standard_name").value_or(name));
    if (t.empty()) t = name;
    auto units = attrs.text("units");
    if (!isTime && units && !units->empty()) t += " [" + *units + "]";
    return t;
}

AxisGrid axisGrid(const DataArray& frame, int axis) {
    STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                   "the frame '" + frame.name() + "' has " + std::to_string(frame.ndim()) + " dims, not 2");
    AxisGrid g;
    g.dim = frame.dims()[static_cast<std::size_t>(axis)];
    const std::int64_t n = frame.shape()[static_cast<std::size_t>(axis)];
    STRATA_EXPECTS(n > 0, ValueError, "the frame '" + frame.name() + "' is empty along " + g.dim);
    const Coordinate* c = frame.coords().find(g.dim);
    if (c && c->dims.size() == 1 && c->dims[0] == g.dim && static_cast<std::int64_t>(c->values.size()) == n &&
        c->problem.empty()) {
        try {
            g.edges = cellEdges(c->values);
            g.centres = c->values;
            g.coordinate = c;
            g.time = c->time;
        } catch (const ValueError& e) {
            g.problem = "coordinate '" + g.dim + "' not used: " + e.what();
        }
    } else if (c) {
        g.problem = c->problem.empty() ? "coordinate '" + g.dim + "' does not match the dim" : c->problem;
    }
    if (g.centres.empty()) {
        g.fromIndices = true;
        g.centres.resize(static_cast<std::size_t>(n));
        for (std::int64_t i = 0; i < n; ++i) g.centres[static_cast<std::size_t>(i)] = static_cast<double>(i);
        g.edges = cellEdges(g.centres);
        g.title = g.dim;
        return g;
    }
    g.title = axisTitle(g.dim, c->attrs, g.time.has_value());
    return g;
}

} // namespace strata
