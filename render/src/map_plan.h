#pragma once
// What a projected view draws over its map: the coastlines and the graticule (meridians and
// parallels every 30°) forward-projected with the projection's own formulas into window pixels,
// and the graticule's labels. A line is cut where it leaves the map (beyond the latitudes drawn)
// or crosses the map's seam (the meridian opposite the central one). Painters clip to the plot.
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

// Meridians every 30° from -180° and parallels every 30° within the map's latitudes, sampled
// each degree. A meridian is labelled where it meets the equator (polar maps: their outer
// parallel), a parallel at its leftmost point in the plot, both just inside; labels of
// `size` pixels, those whose anchor is outside the plot left out.
Graticule planGraticule(const ProjParams& p, const ViewTransform& t, double size);

// "30°E", "150°W", "0°", "180°" for a longitude; "30°N", "60°S", "0°" for a latitude.
std::string lonLabel(double lon);
std::string latLabel(double lat);

} // namespace strata::detail
