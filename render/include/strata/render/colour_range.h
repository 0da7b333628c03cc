#pragma once
// How a frame's values are mapped onto a colour map: the range mode, and its resolution to
// the [vmin, vmax] the colour map and the colour bar use.
#include <optional>

#include "strata/core/colour_range.h"
#include "strata/core/data_array.h"

namespace strata {

// The [vmin, vmax] to draw with. `frame` is the frame's (min, max) (NaN when it has no finite
// value; may be unset when the mode does not need it), `variable` the variable's. A mode that
// needs a range it is not given falls back: Variable → frame's. An empty range (vmin == vmax)
// is widened by ±0.5 (or ±|v|/2) so that it shows the middle colour; no finite value gives [0, 1].
MinMax resolveRange(const ColourRange& range, std::optional<MinMax> frame, std::optional<MinMax> variable);

// True when resolveRange needs the frame's extremes for this mode and these inputs.
bool needsFrameRange(const ColourRange& range, bool variableKnown);

// resolveRange for `frame` (2-D, on the host or a device): its extremes are `known` when given
// (minmax() of the frame, found before), else computed only when the mode needs them (16 bytes
// from a device).
MinMax frameColourRange(const ColourRange& range, const DataArray& frame, std::optional<MinMax> variable,
                        std::optional<MinMax> known = std::nullopt);

} // namespace strata
