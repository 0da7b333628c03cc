#pragma once
// The colour bar's parts, laid out once for both painters (the GL scene's annotations and the
// raster scene): the map's bands, the triangles for values beyond a fixed range (in the under
// and over colours), and the "missing" swatch in the NaN colour below the bar. Window pixels,
// origin bottom left.
#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/colour_range.h"
#include "strata/render/view_layout.h"

namespace strata::detail {

// What the bar shows, apart from where.
struct ColourBarContent {
    std::vector<Rgba8> table; // the colour map, low values first
    MinMax range{0, 1};
    bool extendLow = false, extendHigh = false; // the frame has values below / above the range
    Rgba8 under, over;                          // the triangles' colours (the map's ends unless set)
    std::optional<Rgba8> missing;               // the NaN colour, when the frame has missing values
    friend bool operator==(const ColourBarContent&, const ColourBarContent&) = default;
};
// What the frame's values say about the bar: its finite extremes (NaN when it has none; only
// looked at for a fixed range, the one mode that can leave values beyond) and whether any value
// is missing.
struct FrameValues {
    MinMax extremes{NAN, NAN};
    bool missing = false;
};
// `colouring` resolved against its map's `table`, the resolved `range` and the frame's values.
ColourBarContent colourBarContent(const Colouring& colouring, std::vector<Rgba8> table, MinMax range,
                                  const FrameValues& values);

struct Triangle {
    std::array<double, 6> xy; // three corners: x0, y0, x1, y1, x2, y2
    friend bool operator==(const Triangle&, const Triangle&) = default;
};

struct ColourBarPlan {
    PixelRect bands;                             // the map's entries, low at the bottom
    std::optional<Triangle> under, over;         // below and above the bands, pointing away
    std::optional<PixelRect> missing;            // the NaN swatch
    double missingLabelX = 0, missingLabelY = 0; // the swatch's label: left end, vertical centre
    // The pixel row of `value` on the bands (vmin at the bottom edge, vmax at the top).
    double valueY(double value, MinMax range) const;
    friend bool operator==(const ColourBarPlan&, const ColourBarPlan&) = default;
};
ColourBarPlan planColourBar(const ViewLayout& layout, const ColourBarContent& content);

inline constexpr const char* kMissingLabel = "missing";

} // namespace strata::detail
