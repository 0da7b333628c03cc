#include "pyramid_view.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "strata/core/error.h"
#if STRATA_HAVE_RENDER
#include "strata/render/pixel_footprint.h"
#endif

namespace strata::app {

std::optional<healpix::Pyramid> pyramidOfDataset(const Dataset& ds) {
    try {
        return healpix::pyramidOf(ds);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

double viewFootprint(const ViewSpec& spec, int width, int height) {
    const double turn = 2 * std::numbers::pi / std::max(1, width);
#if STRATA_HAVE_RENDER
    try {
        const Projection p = Projection::byName(spec.projection.empty() ? "PlateCarree" : spec.projection);
        MapExtent window = fitExtent(p.extent(), std::max(1, width), std::max(1, height));
        if (spec.window) window = {spec.window->x0, spec.window->x1, spec.window->y0, spec.window->y1};
        const double f = pixelFootprint(p, window, width, height);
        if (f > 0) return f;
    } catch (const Error&) { // an unknown projection: said where the map is drawn
    }
#else
    (void)spec, (void)height; // a window in map metres needs the projections: the whole turn
#endif
    return turn;
}

ZoomedView atPyramidZoom(const healpix::Pyramid* pyramid, const ViewSpec& spec, int width, int height,
                         int otherwise) {
    if (!pyramid || !pyramid->has(spec.variable)) return {spec, -1};
    const bool map = spec.yDim.empty() && spec.xDim == pyramid->dim;
    const healpix::PyramidLevel* other = pyramid->level(otherwise);
    const healpix::PyramidLevel& level = map     ? pyramid->levelFor(viewFootprint(spec, width, height))
                                         : other ? *other
                                                 : pyramid->levels.front();
    ZoomedView v{spec, level.zoom};
    v.spec.variable = pyramid->pathOf(spec.variable, level);
    return v;
}

int zoomOfPath(const healpix::Pyramid& pyramid, const std::string& variablePath) {
    for (const healpix::PyramidLevel& l : pyramid.levels)
        if (variablePath.size() > l.group.size() + 1 &&
            variablePath.compare(0, l.group.size(), l.group) == 0 && variablePath[l.group.size()] == '/' &&
            pyramid.has(variablePath.substr(l.group.size() + 1)))
            return l.zoom;
    return -1;
}

} // namespace strata::app
