#pragma once
// How a frame's values are mapped onto a colour map: the range mode, as view state.
// (render/ resolves it to the [vmin, vmax] the colour map and the colour bar use.)
#include <string_view>
#include <utility>

namespace strata {

enum class RangeMode {
    Frame,     // the finite extremes of the frame shown
    Variable,  // the finite extremes of the whole variable (computed once, by the caller)
    Fixed,     // [fixedMin, fixedMax] as given
    Symmetric, // [-m, m] with m the largest |extreme| (of the variable when known, else the frame)
};
std::string_view name(RangeMode m);         // "frame", "variable", "fixed", "symmetric"
RangeMode parseRangeMode(std::string_view); // throws ValueError listing the modes
// True for the modes drawn with the whole variable's extremes (Variable, Symmetric).
bool needsVariableRange(RangeMode m);

struct ColourRange {
    RangeMode mode = RangeMode::Frame;
    double fixedMin = 0, fixedMax = 1;
    friend bool operator==(const ColourRange&, const ColourRange&) = default;
};

using MinMax = std::pair<double, double>;

} // namespace strata
