#pragma once
// How much of the sphere one screen pixel spans where a map is drawn: what a HEALPix pyramid's
// zoom is chosen by (healpix_pyramid.h, Pyramid::levelFor).
#include "strata/render/projection.h"

namespace strata {

// The angle (radians) one pixel spans on the sphere where `window` (map metres) of `projection`
// is drawn over a plot of width × height pixels: at 5 × 5 places spread over the plot, the arc
// from each to its neighbour a pixel to the right and the one a pixel up (the larger of the two),
// the smallest over the places on the map (where the map is most magnified). NaN when no place
// is on the map, or the plot has no pixels.
double pixelFootprint(const Projection& projection, const MapExtent& window, int width, int height);

} // namespace strata
