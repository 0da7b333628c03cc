#pragma once
// What a projected view draws over its map: the coastlines and the graticule (meridians and
// parallels every 30°) forward-projected with the projection's own formulas into window pixels,
// and the graticule's labels. A line is cut where it leaves the map (beyond the latitudes drawn)
// or crosses the map's seam (the meridian opposite the central one). Painters clip to the plot.
#include <optional>
#include <vector>

#include "annotation_plan.h"
#include "coast_plan.h"
#include "projection_math.h"

namespace strata::detail {

// `lines` (degrees) through projection `p` and `t` (map metres to pixels); points closer than
// `thin` pixels to the last kept are dropped; lines wholly outside the plot are left out.
std::vector<PixelPolyline> planProjectedLines(const std::vector<LonLatLine>& lines, const ProjParams& p,
                                              const ViewTransform& t, double thin = 0.5);

struct Graticule {
    std::vector<PixelPolyline> lines;
    std::vector<TextItem> labels; // "30°E", "60°N", "0°", "180°"
};

// Where a graticule's labels may go: within `area` (the view less the title's band), clear of
// `avoid` (the colour bar); unset, anywhere.
struct LabelRoom {
    std::optional<PixelRect> area, avoid;
};

// Meridians every 30° from -180° and parallels every 30° within the map's latitudes, sampled
// each degree, labelled as cartopy does: outside the map's edge, each beyond the end of its
// line there (meridians at the map's outer latitude, parallels at their western end), or
// where the line leaves the plot (bottom, left) when that end is outside it; a polar map's
// closed parallels inside, on a halo, along the meridian 45° west of the central one. Labels
// of `size` pixels; one that would leave `room` or cover a label kept before it is left out.
Graticule planGraticule(const ProjParams& p, const ViewTransform& t, double size, const LabelRoom& room = {});

// The box a label of one line takes, in pixels (y up): its width estimated from its glyphs
// (0.68 of its size each: DejaVu Sans at its widest), its height 1.15 of its size.
PixelRect textBox(const TextItem& t);

// "30°E", "150°W", "0°", "180°" for a longitude; "30°N", "60°S", "0°" for a latitude.
std::string lonLabel(double lon);
std::string latLabel(double lat);

} // namespace strata::detail
