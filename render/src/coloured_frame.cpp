// colourFrame / colouredFor: a frame colour-mapped off the GUI thread, as ImageScene would.
#include <utility>

#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/core/startup_trace.h"
#include "strata/render/colormaps.h"
#include "strata/render/colour_range.h"
#include "strata/render/image_settings.h"

namespace strata {

std::optional<ContourSpec> fillBands(const ImageViewSettings& settings) {
    if (!settings.filledContours) return std::nullopt;
    return settings.contours.value_or(settings.fillLevels);
}

ColouredFrame colourFrame(const DataArray& frame, const Colouring& colouring,
                          std::optional<MinMax> variableRange, PixelOrder order,
                          const std::optional<ContourSpec>& bands, std::optional<MinMax> extremes) {
    STRATA_EXPECTS(frame.ndim() == 2 && frame.device().isHost(), ValueError,
                   "colourFrame: '" + frame.name() + "' must be a 2-D frame on the host");
    ColouredFrame c;
    c.colouring = colouring;
    c.order = order;
    if (needsFrameRange(colouring.range, variableRange.has_value()))
        c.extremes = extremes ? extremes : minmaxValues(frame);
    c.range = resolveRange(colouring.range, c.extremes, variableRange);
    std::vector<Rgba8> table = colormapTable(colouring.colormap, colouring.reversed);
    if (bands) table = bandedTable(table, c.range, contourLevels(*bands, c.range.first, c.range.second));
    OffScaleColours off = colouring.offScale();
    if (order == PixelOrder::Bgra) {
        auto swapped = [](Rgba8 x) { return Rgba8{x.b, x.g, x.r, x.a}; };
        for (Rgba8& t : table) t = swapped(t);
        off.nan = swapped(off.nan);
        if (off.under) off.under = swapped(*off.under);
        if (off.over) off.over = swapped(*off.over);
    }
    const DataArray lut = colormapLut(table, Device::host(), Stream::host());
    c.rgba = colormap(frame, lut, c.range.first, c.range.second, off, Stream::host());
    startup::mark(startup::Milestone::Coloured);
    return c;
}

bool colouredFor(const ColouredFrame& c, const Colouring& colouring, const DataArray& frame) {
    return c.colouring == colouring && c.rgba.ndim() == 3 && frame.ndim() == 2 &&
           c.rgba.shape()[0] == frame.shape()[0] && c.rgba.shape()[1] == frame.shape()[1];
}

} // namespace strata
