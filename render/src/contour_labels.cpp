#include "contour_labels.h"

#include <algorithm>
#include <cmath>

#include "map_plan.h"
#include "strata/core/format.h"
#include "strata/core/value_format.h"

namespace strata::detail {

std::vector<std::string> contourLabelTexts(const std::vector<double>& levels) {
    std::vector<std::string> out;
    if (levels.size() < 2) {
        for (double v : levels) out.push_back(formatNumber(v));
        return out;
    }
    double gap = HUGE_VAL;
    for (std::size_t k = 1; k < levels.size(); ++k) gap = std::min(gap, std::abs(levels[k] - levels[k - 1]));
    ValueFormat f;
    for (f.decimals = 0; f.decimals < 10; ++f.decimals) {
        const double unit = std::pow(10.0, -f.decimals);
        bool fits = true;
        for (double v : levels) fits = fits && std::abs(std::round(v / unit) * unit - v) <= 0.01 * gap;
        if (fits) break;
    }
    for (double v : levels) {
        std::string s = f.number(v);
        if (s.find_first_not_of("-0.") == std::string::npos) s = f.number(0); // "-0" is 0
        out.push_back(std::move(s));
    }
    return out;
}

namespace {

struct Walk {
    const std::vector<double>& xy;
    std::vector<double> at; // the length along the line to each point
    explicit Walk(const std::vector<double>& points) : xy(points) {
        at.push_back(0);
        for (std::size_t k = 2; k + 1 < xy.size(); k += 2)
            at.push_back(at.back() + std::hypot(xy[k] - xy[k - 2], xy[k + 1] - xy[k - 1]));
    }
    double length() const { return at.back(); }
    void point(double s, double& x, double& y) const {
        s = std::clamp(s, 0.0, length());
        const std::size_t i = std::min<std::size_t>(
            std::size_t(std::upper_bound(at.begin(), at.end(), s) - at.begin()), at.size() - 1);
        const std::size_t a = i == 0 ? 0 : i - 1;
        const double span = at[i] - at[a], t = span > 0 ? (s - at[a]) / span : 0;
        x = xy[2 * a] + t * (xy[2 * i] - xy[2 * a]);
        y = xy[2 * a + 1] + t * (xy[2 * i + 1] - xy[2 * a + 1]);
    }
};

bool overlaps(const PixelRect& a, const PixelRect& b, double pad) {
    return a.x0 - pad < b.x1 && b.x0 - pad < a.x1 && a.y0 - pad < b.y1 && b.y0 - pad < a.y1;
}

} // namespace

std::vector<TextItem> placeContourLabels(std::vector<LabelledLine> lines, const PixelRect& plot, double size,
                                         double spacing) {
    std::vector<std::pair<double, std::size_t>> order;
    std::vector<Walk> walks;
    walks.reserve(lines.size());
    for (std::size_t k = 0; k < lines.size(); ++k) {
        walks.emplace_back(lines[k].line->xy);
        order.emplace_back(-walks.back().length(), k);
    }
    std::stable_sort(order.begin(), order.end());
    std::vector<TextItem> out;
    std::vector<PixelRect> taken;
    for (const auto& [negLength, k] : order) {
        const Walk& w = walks[k];
        TextItem probe = textAt(*lines[k].text, 0, 0, size, Align::Centre, VAlign::Centre);
        const PixelRect box0 = textBox(probe);
        const double width = box0.width();
        if (w.length() < 3 * width) continue;
        // The first half a spacing in, or half way along a line shorter than a spacing.
        for (double s = std::min(spacing, w.length()) / 2; s <= w.length() - width; s += spacing) {
            for (double nudge : {0.0, 0.25, -0.25}) {
                const double at = s + nudge * spacing;
                if (at < width || at > w.length() - width) continue;
                double x, y, xa, ya, xb, yb;
                w.point(at, x, y);
                w.point(at - width / 2, xa, ya);
                w.point(at + width / 2, xb, yb);
                if (std::hypot(xb - xa, yb - ya) < 0.85 * width) continue; // bends under the label
                TextItem t = probe;
                t.x = x;
                t.y = y;
                t.halo = true;
                const PixelRect b = textBox(t);
                if (b.x0 < plot.x0 + 2 || b.x1 > plot.x1 - 2 || b.y0 < plot.y0 + 2 || b.y1 > plot.y1 - 2)
                    continue;
                if (std::any_of(taken.begin(), taken.end(),
                                [&](const PixelRect& o) { return overlaps(o, b, 6); }))
                    continue;
                taken.push_back(b);
                out.push_back(std::move(t));
                break;
            }
        }
    }
    return out;
}

} // namespace strata::detail
