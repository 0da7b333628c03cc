#include "view_spec.h"

#include "strata/core/hash.h"

namespace strata::app {
namespace {

void hashColouring(std::size_t& seed, const Colouring& c) {
    hashCombine(seed, c.colormap);
    hashCombine(seed, c.reversed);
    hashCombine(seed, c.range.mode);
    hashCombine(seed, c.range.fixedMin);
    hashCombine(seed, c.range.fixedMax);
    for (const std::uint8_t channel : {c.nanColour.r, c.nanColour.g, c.nanColour.b, c.nanColour.a})
        hashCombine(seed, channel);
    for (const std::optional<Rgba8>& end : {c.underColour, c.overColour}) {
        hashCombine(seed, end.has_value());
        if (end)
            for (const std::uint8_t channel : {end->r, end->g, end->b, end->a}) hashCombine(seed, channel);
    }
}

void hashWindow(std::size_t& seed, const std::optional<ViewWindow>& w) {
    hashCombine(seed, w.has_value());
    if (!w) return;
    for (const double v : {w->x0, w->x1, w->y0, w->y1}) hashCombine(seed, v);
}

} // namespace
} // namespace strata::app

std::size_t std::hash<strata::app::ViewSpec>::operator()(const strata::app::ViewSpec& s) const noexcept {
    std::size_t seed = std::hash<strata::FrameSpec>{}(s.frame());
    strata::app::hashColouring(seed, s.colouring);
    strata::app::hashWindow(seed, s.window);
    strata::hashCombine(seed, s.projection);
    for (const std::string& d : s.derived) strata::hashCombine(seed, d);
    for (const auto& o : s.with) {
        strata::hashCombine(seed, o.alias);
        for (const std::string& p : o.paths) strata::hashCombine(seed, p);
    }
    if (s.contours) strata::hashCombine(seed, strata::toString(*s.contours));
    strata::hashCombine(seed, s.contourLabels);
    strata::hashCombine(seed, s.contourDashes);
    strata::hashCombine(seed, (std::uint32_t(s.contourColour.r) << 24) |
                                  (std::uint32_t(s.contourColour.g) << 16) |
                                  (std::uint32_t(s.contourColour.b) << 8) | s.contourColour.a);
    strata::hashCombine(seed, s.contourWidth);
    strata::hashCombine(seed, s.filledContours);
    strata::hashCombine(seed, s.contourVariable);
    strata::hashCombine(seed, int(s.vectors));
    strata::hashCombine(seed, s.vectorU);
    strata::hashCombine(seed, s.vectorV);
    return seed;
}
