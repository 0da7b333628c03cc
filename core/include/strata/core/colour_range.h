#pragma once
// How a frame's values are mapped onto a colour map, as view state: the range mode, and the
// whole colouring (map, direction, range, NaN colour) as one value. (render/ resolves the range
// to the [vmin, vmax] the colour map and the colour bar use.)
#include <cstdint>
#include <optional>
#include <string>
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

struct Rgba8 {
    std::uint8_t r = 0, g = 0, b = 0, a = 255;
    friend bool operator==(const Rgba8&, const Rgba8&) = default;
};

// The colours of values a colour map does not cover: missing ones (NaN), and, when set, those
// below vmin (under) and above vmax (over); unset, those take the map's end colours.
struct OffScaleColours {
    Rgba8 nan;
    std::optional<Rgba8> under, over;
    OffScaleColours(Rgba8 nanColour, std::optional<Rgba8> underColour = {}, // NOLINT: implicit
                    std::optional<Rgba8> overColour = {})
        : nan(nanColour), under(underColour), over(overColour) {}
    friend bool operator==(const OffScaleColours&, const OffScaleColours&) = default;
};

// The missing-value colour by default: a neutral grey, told apart from the frame by the colour
// bar's "missing" swatch (and lighter than the grey shown outside the frame).
inline constexpr Rgba8 kDefaultNanColour{128, 128, 128, 255};

// Everything that decides a frame's colours once its values are known: the view, the image
// view, colour-mapped frames and the command line's PNG each hold one.
struct Colouring {
    std::string colormap = "viridis";
    bool reversed = false;
    ColourRange range;
    Rgba8 nanColour = kDefaultNanColour;
    // Values beyond a fixed range (unset: the map's end colours; only Fixed leaves values beyond).
    std::optional<Rgba8> underColour, overColour;
    OffScaleColours offScale() const { return {nanColour, underColour, overColour}; }
    friend bool operator==(const Colouring&, const Colouring&) = default;
};

} // namespace strata
