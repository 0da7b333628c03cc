#pragma once
// A HEALPix pyramid's variable (healpix_pyramid.h) shown at the zoom that fits the view: the
// window, the command line's and Python's exports choose it alike, from the footprint of one
// pixel of the plot on the sphere. No Qt here.
#include <optional>

#include "strata/core/healpix_pyramid.h"
#include "view_spec.h"

namespace strata::app {

struct ZoomedView {
    ViewSpec spec; // its variable the zoom's ("/z3/tas"), or as it was
    int zoom = -1; // the zoom; -1 when the variable is no pyramid's
};

// The pyramid `ds`'s groups make, or nullopt (never throws).
std::optional<healpix::Pyramid> pyramidOfDataset(const Dataset& ds);

// The angle (radians) one pixel spans where `spec`'s map (its projection, plate carrée when
// none; its window, the whole map when none) is drawn over a plot of width × height pixels.
// Without the render layer, or where the map cannot say: a whole turn over `width`.
double viewFootprint(const ViewSpec& spec, int width, int height);

// `spec` at a zoom of `pyramid` when it shows one of the pyramid's variables by its name at the
// root; `spec` as it is otherwise (a zoom's own group's variable, "/z3/tas", stays at its zoom).
// A map of the cells (x the cell dim, no y) takes the zoom whose cells are no wider than a pixel
// of a plot of width × height (Pyramid::levelFor). Another view (a mean over the cells, a series)
// has no pixels on the sphere: it takes `otherwise` (the window's: the zoom on the screen) when
// the pyramid has that zoom, else the coarsest, never the finest's whole record unasked.
ZoomedView atPyramidZoom(const healpix::Pyramid* pyramid, const ViewSpec& spec, int width, int height,
                         int otherwise = -1);

// The zoom a variable path names ("/z3/tas" → 3), -1 when it is no level of `pyramid`'s.
int zoomOfPath(const healpix::Pyramid& pyramid, const std::string& variablePath);

} // namespace strata::app
