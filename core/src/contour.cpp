// Contour levels and marching squares on the host.
#include "strata/core/contour.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_map>

#include "strata/core/error.h"
#include "strata/core/format.h"

namespace strata {
namespace {

constexpr int kMaxLevels = 1000;

double number(std::string_view text, std::string_view whole) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    STRATA_EXPECTS(ec == std::errc() && end == text.data() + text.size() && std::isfinite(v), ValueError,
                   "contour levels '" + std::string(whole) + "': '" + std::string(text) +
                       "' is not a number");
    return v;
}

// One segment of an isoline in a cell: the two edges it joins.
struct Segment {
    std::int64_t a, b;
};

} // namespace

ContourSpec parseContourSpec(std::string_view text) {
    ContourSpec s;
    if (text == "auto") return s;
    if (const auto colon = text.find(':'); colon != std::string_view::npos) {
        s.kind = ContourSpec::Kind::Step;
        s.step = number(text.substr(0, colon), text);
        s.base = number(text.substr(colon + 1), text);
        STRATA_EXPECTS(s.step > 0, ValueError,
                       "contour levels '" + std::string(text) + "': the step must be above 0");
        return s;
    }
    if (text.find(',') == std::string_view::npos) {
        const double n = number(text, text);
        if (n != std::floor(n)) { // one level: 3.5
            s.kind = ContourSpec::Kind::List;
            s.values = {n};
            return s;
        }
        STRATA_EXPECTS(n >= 1 && n <= kMaxLevels, ValueError,
                       "contour levels '" + std::string(text) +
                           "': a count is a whole number from 1 to 1000 (one whole level is written with a "
                           "comma: 5,)");
        s.kind = ContourSpec::Kind::Count;
        s.count = static_cast<int>(n);
        return s;
    }
    s.kind = ContourSpec::Kind::List;
    std::string_view rest = text;
    if (rest.back() == ',') rest.remove_suffix(1); // "5," is the one level 5
    std::size_t start = 0;
    while (start <= rest.size()) {
        const std::size_t comma = std::min(rest.find(',', start), rest.size());
        s.values.push_back(number(rest.substr(start, comma - start), text));
        start = comma + 1;
    }
    for (std::size_t k = 1; k < s.values.size(); ++k)
        STRATA_EXPECTS(s.values[k] > s.values[k - 1], ValueError,
                       "contour levels '" + std::string(text) + "': the levels " +
                           formatNumber(s.values[k - 1]) + "," + formatNumber(s.values[k]) +
                           " are not increasing");
    return s;
}

std::string toString(const ContourSpec& s) {
    switch (s.kind) {
    case ContourSpec::Kind::Auto:
        return "auto";
    case ContourSpec::Kind::Count:
        return std::to_string(s.count);
    case ContourSpec::Kind::Step:
        return formatNumber(s.step) + ":" + formatNumber(s.base);
    case ContourSpec::Kind::List:
        break;
    }
    std::string out;
    for (double v : s.values) out += (out.empty() ? "" : ",") + formatNumber(v);
    if (s.values.size() == 1 && s.values[0] == std::floor(s.values[0])) out += ","; // not a count
    return out;
}

std::vector<double> contourLevels(const ContourSpec& s, double lo, double hi) {
    std::vector<double> out;
    if (!(std::isfinite(lo) && std::isfinite(hi) && hi > lo)) return out;
    auto between = [&](double base, double step) {
        const double k0 = std::floor((lo - base) / step) + 1, k1 = std::ceil((hi - base) / step) - 1;
        for (double k = k0; k <= k1 && out.size() < kMaxLevels; ++k) {
            const double v = base + k * step;
            if (v > lo && v < hi) out.push_back(v);
        }
    };
    switch (s.kind) {
    case ContourSpec::Kind::Auto: {
        // The smallest nice step at least a tenth of the range.
        const double raw = (hi - lo) / 10, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        double step = 10 * magnitude;
        for (double m : {1.0, 2.0, 2.5, 5.0})
            if (m * magnitude >= raw) {
                step = m * magnitude;
                break;
            }
        between(0, step);
        break;
    }
    case ContourSpec::Kind::Count:
        for (int k = 1; k <= s.count; ++k) out.push_back(lo + (hi - lo) * k / (s.count + 1));
        break;
    case ContourSpec::Kind::List:
        for (double v : s.values)
            if (v > lo && v < hi) out.push_back(v);
        break;
    case ContourSpec::Kind::Step:
        between(s.base, s.step);
        break;
    }
    return out;
}

std::vector<Isoline> isolines(const DataArray& frame, const std::vector<double>& levels) {
    STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                   "contours need a 2-D frame; '" + frame.name() + "' has " + std::to_string(frame.ndim()) +
                       " dims");
    STRATA_EXPECTS(frame.device().isHost(), ValueError, "isolines: the frame must be on the host (asHost())");
    const std::int64_t ny = frame.shape()[0], nx = frame.shape()[1];
    std::vector<Isoline> out;
    if (ny < 2 || nx < 2) return out;
    const std::vector<double> v = frame.values<double>();
    auto at = [&](std::int64_t j, std::int64_t i) { return v[static_cast<std::size_t>(j * nx + i)]; };
    // Edges: horizontal (j, i)–(j, i+1) first, then vertical (j, i)–(j+1, i).
    const std::int64_t horizontal = ny * (nx - 1);
    auto hEdge = [&](std::int64_t j, std::int64_t i) { return j * (nx - 1) + i; };
    auto vEdge = [&](std::int64_t j, std::int64_t i) { return horizontal + j * nx + i; };
    for (const double level : levels) {
        std::vector<Segment> segments;
        for (std::int64_t j = 0; j + 1 < ny; ++j)
            for (std::int64_t i = 0; i + 1 < nx; ++i) {
                // Corners anticlockwise in index space: a (j, i), b (j, i+1), c (j+1, i+1), d (j+1, i).
                const double a = at(j, i), b = at(j, i + 1), c = at(j + 1, i + 1), d = at(j + 1, i);
                if (std::isnan(a) || std::isnan(b) || std::isnan(c) || std::isnan(d)) continue;
                const bool A = a >= level, B = b >= level, C = c >= level, D = d >= level;
                const std::int64_t bottom = hEdge(j, i), right = vEdge(j, i + 1), top = hEdge(j + 1, i),
                                   left = vEdge(j, i);
                if (A == C && B == D && A != B) { // a saddle: the mean of the corners decides
                    const bool centre = (a + b + c + d) / 4 >= level;
                    if (centre == A) { // a and c joined through the middle: b and d cut off
                        segments.push_back({bottom, right});
                        segments.push_back({top, left});
                    } else { // b and d joined: a and c cut off
                        segments.push_back({left, bottom});
                        segments.push_back({right, top});
                    }
                    continue;
                }
                std::int64_t crossed[2];
                int n = 0;
                if (A != B) crossed[n++] = bottom;
                if (B != C) crossed[n++] = right;
                if (C != D && n < 2) crossed[n++] = top;
                if (D != A && n < 2) crossed[n++] = left;
                if (n == 2) segments.push_back({crossed[0], crossed[1]});
            }
        // Where the level crosses an edge, linearly between its two samples.
        auto point = [&](std::int64_t e, std::vector<double>& xy) {
            std::int64_t j0, i0, j1, i1;
            if (e < horizontal) {
                j0 = j1 = e / (nx - 1);
                i0 = e % (nx - 1);
                i1 = i0 + 1;
            } else {
                const std::int64_t k = e - horizontal;
                j0 = k / nx;
                i0 = i1 = k % nx;
                j1 = j0 + 1;
            }
            const double v0 = at(j0, i0), v1 = at(j1, i1);
            const double t = v1 == v0 ? 0.5 : std::clamp((level - v0) / (v1 - v0), 0.0, 1.0);
            xy.push_back(double(i0) + t * double(i1 - i0));
            xy.push_back(double(j0) + t * double(j1 - j0));
        };
        // Joined through the edges they share: an edge is met by at most two segments.
        std::unordered_map<std::int64_t, std::vector<std::size_t>> byEdge;
        for (std::size_t s = 0; s < segments.size(); ++s) {
            byEdge[segments[s].a].push_back(s);
            byEdge[segments[s].b].push_back(s);
        }
        std::vector<bool> used(segments.size(), false);
        auto next = [&](std::int64_t edge, std::size_t from) -> std::ptrdiff_t {
            for (std::size_t s : byEdge[edge])
                if (s != from && !used[s]) return static_cast<std::ptrdiff_t>(s);
            return -1;
        };
        for (std::size_t s0 = 0; s0 < segments.size(); ++s0) {
            if (used[s0]) continue;
            used[s0] = true;
            // Walk back from edge a to the line's start, then forward through b to its end.
            std::vector<std::int64_t> edges{segments[s0].a, segments[s0].b};
            for (int way = 0; way < 2; ++way) {
                std::size_t cur = s0;
                std::int64_t edge = way == 0 ? segments[s0].a : segments[s0].b;
                for (std::ptrdiff_t s; (s = next(edge, cur)) >= 0;) {
                    cur = static_cast<std::size_t>(s);
                    used[cur] = true;
                    edge = segments[cur].a == edge ? segments[cur].b : segments[cur].a;
                    if (way == 0)
                        edges.insert(edges.begin(), edge);
                    else
                        edges.push_back(edge);
                }
            }
            Isoline line;
            line.level = level;
            line.closed = edges.size() > 2 && edges.front() == edges.back();
            for (std::int64_t e : edges) point(e, line.xy);
            out.push_back(std::move(line));
        }
    }
    return out;
}

} // namespace strata
