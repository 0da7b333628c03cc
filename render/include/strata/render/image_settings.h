#pragma once
// What the image view shows and how: plain, copyable state (the app's view settings hold one),
// read by the on-screen view and by PNG export alike.
#include <optional>
#include <string>

#include "strata/core/data_array.h"
#include "strata/core/ops.h"
#include "strata/render/colour_range.h"
#include "strata/render/view_layout.h"

namespace strata {

struct ImageViewSettings {
    std::string colormap = "viridis";
    bool reversed = false;
    ColourRange range;
    Rgba8 nanColour{255, 0, 255, 255}; // magenta: in none of the maps
    AspectMode aspect = AspectMode::Auto;
    std::optional<ViewWindow> window; // zoom and pan; unset shows the whole frame
    bool allowInterop = true;         // false forces the host upload (for comparisons)
    friend bool operator==(const ImageViewSettings&, const ImageViewSettings&) = default;
};

// A frame to show: a 2-D array (dims: rows drawn vertically, columns horizontally) on the
// host or a device, with what the view cannot work out from it.
struct ImageFrame {
    DataArray frame;
    std::string title;                   // empty: frameTitle(frame)
    std::optional<MinMax> variableRange; // the whole variable's extremes, for RangeMode::Variable
};

} // namespace strata
