#pragma once
// How a frame's values are mapped onto a colour map: the range mode, and its resolution to
// the [vmin, vmax] the colour map and the colour bar use.
#include <optional>
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

struct ColourRange {
    RangeMode mode = RangeMode::Frame;
    double fixedMin = 0, fixedMax = 1;
    friend bool operator==(const ColourRange&, const ColourRange&) = default;
};

using MinMax = std::pair<double, double>;

// The [vmin, vmax] to draw with. `frame` is the frame's (min, max) (NaN when it has no finite
// value; may be unset when the mode does not need it), `variable` the variable's. A mode that
// needs a range it is not given falls back: Variable → frame's. An empty range (vmin == vmax)
// is widened by ±0.5 (or ±|v|/2) so that it shows the middle colour; no finite value gives [0, 1].
MinMax resolveRange(const ColourRange& range, std::optional<MinMax> frame, std::optional<MinMax> variable);

// True when resolveRange needs the frame's extremes for this mode and these inputs.
bool needsFrameRange(const ColourRange& range, bool variableKnown);

} // namespace strata
