#include "colour_bar_plan.h"

#include <algorithm>
#include <cmath>

namespace strata::detail {

ColourBarContent colourBarContent(const Colouring& colouring, std::vector<Rgba8> table, MinMax range,
                                  const FrameValues& values) {
    ColourBarContent c;
    if (colouring.range.mode == RangeMode::Fixed && !table.empty()) {
        c.extendLow = values.extremes.first < range.first; // false for NaN
        c.extendHigh = values.extremes.second > range.second;
    }
    if (!table.empty()) {
        c.under = colouring.underColour.value_or(table.front());
        c.over = colouring.overColour.value_or(table.back());
    }
    if (values.missing) c.missing = colouring.nanColour;
    c.table = std::move(table);
    c.range = range;
    return c;
}

double ColourBarPlan::valueY(double value, MinMax range) const {
    const auto [vmin, vmax] = range;
    return bands.y0 + (value - vmin) / (vmax - vmin) * bands.height();
}

ColourBarPlan planColourBar(const ViewLayout& l, const ColourBarContent& content) {
    const double s = l.scale;
    const PixelRect& cb = l.colourBar;
    ColourBarPlan p;
    p.bands = cb;
    // Triangles as tall as the bar is wide, at most a sixth of its height each.
    const double t = std::round(std::min(cb.width(), cb.height() / 6));
    const double mid = (cb.x0 + cb.x1) / 2;
    if (content.extendLow && t > 0) {
        p.bands.y0 = cb.y0 + t;
        p.under = Triangle{{cb.x0, p.bands.y0, cb.x1, p.bands.y0, mid, cb.y0}};
    }
    if (content.extendHigh && t > 0) {
        p.bands.y1 = cb.y1 - t;
        p.over = Triangle{{cb.x0, p.bands.y1, cb.x1, p.bands.y1, mid, cb.y1}};
    }
    if (content.missing) {
        // Below the bar, clear of the x axis's tick labels, a square as wide as the bar.
        const double top = std::round(cb.y0 - 24 * s), side = std::round(cb.width());
        p.missing = PixelRect{cb.x0, top - side, cb.x0 + side, top};
        p.missingLabelX = cb.x0 + side + std::round(5 * s);
        p.missingLabelY = top - side / 2;
    }
    return p;
}

} // namespace strata::detail
