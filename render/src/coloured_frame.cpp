// colourFrame / colouredFor: a frame colour-mapped off the GUI thread, as ImageScene would.
#include <utility>

#include "strata/core/error.h"
#include "strata/render/colormaps.h"
#include "strata/render/colour_range.h"
#include "strata/render/image_settings.h"

namespace strata {

ColouredFrame colourFrame(const DataArray& frame, const ImageViewSettings& settings,
                          std::optional<MinMax> variableRange, PixelOrder order) {
    STRATA_EXPECTS(frame.ndim() == 2 && frame.device().isHost(), ValueError,
                   "colourFrame: '" + frame.name() + "' must be a 2-D frame on the host");
    ColouredFrame c;
    c.colormap = settings.colormap;
    c.reversed = settings.reversed;
    c.mode = settings.range;
    c.nanColour = settings.nanColour;
    c.order = order;
    c.range = frameColourRange(settings.range, frame, variableRange);
    std::vector<Rgba8> table = colormapTable(settings.colormap, settings.reversed);
    Rgba8 nan = settings.nanColour;
    if (order == PixelOrder::Bgra) {
        for (Rgba8& t : table) std::swap(t.r, t.b);
        std::swap(nan.r, nan.b);
    }
    const DataArray lut = colormapLut(table, Device::host(), Stream::host());
    c.rgba = colormap(frame, lut, c.range.first, c.range.second, nan, Stream::host());
    return c;
}

bool colouredFor(const ColouredFrame& c, const ImageViewSettings& s, const DataArray& frame) {
    return c.colormap == s.colormap && c.reversed == s.reversed && c.mode == s.range &&
           c.nanColour == s.nanColour && c.rgba.ndim() == 3 && frame.ndim() == 2 &&
           c.rgba.shape()[0] == frame.shape()[0] && c.rgba.shape()[1] == frame.shape()[1];
}

} // namespace strata
