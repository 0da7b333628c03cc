// colormap(), colormapInto(): a 2-D frame to RGBA8 through a look-up table.
#include "backend.h"
#include "ops_common.h"
#include "strata/core/ops.h"

namespace strata {
namespace {

// Checks the frame, the LUT and the range, and fills everything of the problem but `out`.
// `lutStore` keeps a contiguous copy of a strided LUT alive.
detail::ColormapProblem prepare(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                                const DataArray* range, const OffScaleColours& colours, Stream stream,
                                DataArray& lutStore) {
    detail::ColormapProblem p;
    p.frame = detail::checkedView(frame, "colormap", stream);
    const std::string what = "colormap of " + detail::describe(frame);
    STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                   what + ": needs a 2-D frame, got " + std::to_string(frame.ndim()) + " dims");
    STRATA_EXPECTS(lut.isLoaded() && lut.dtype() == DType::UInt8 && lut.ndim() == 2 && lut.shape()[1] == 4 &&
                       lut.shape()[0] >= 1,
                   ValueError, what + ": the LUT must be a loaded uint8 array of shape {n, 4} with n >= 1");
    detail::checkSameDevice(frame, lut, "colormap", "LUT");
    lutStore = lut.variable().isContiguous() ? lut : contiguous(lut, stream);
    p.lut = static_cast<const Rgba8*>(lutStore.variable().view().data);
    p.lutSize = static_cast<int>(lut.shape()[0]);
    p.vmin = vmin;
    p.vmax = vmax;
    p.nanColour = colours.nan;
    // Unset, the under and over colours are the LUT's ends: what the clamp gives anyway.
    p.hasUnder = colours.under.has_value();
    p.hasOver = colours.over.has_value();
    p.underColour = colours.under.value_or(Rgba8{});
    p.overColour = colours.over.value_or(Rgba8{});
    if (range) {
        STRATA_EXPECTS(range->isLoaded() && range->dtype() == DType::Float64 && range->size() == 2 &&
                           range->variable().isContiguous(),
                       ValueError, what + ": the range must be a minmax() result (float64, 2 values)");
        detail::checkSameDevice(frame, *range, "colormap", "range");
        p.range = static_cast<const double*>(range->variable().view().data);
    }
    return p;
}

void run(const detail::ColormapProblem& p, Device device, Stream stream) {
    if (p.frame.size() == 0) return;
    if (device.isHost()) {
        detail::colormapCpu(p);
    } else {
#if STRATA_HAVE_CUDA
        detail::colormapCuda(p, stream);
#else
        (void)stream;
        STRATA_FAIL(ValueError, "colormap: CUDA data, but the CUDA backend is not built");
#endif
    }
}

DataArray colormapNew(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                      const DataArray* range, const OffScaleColours& colours, Stream stream) {
    DataArray lutStore;
    detail::ColormapProblem p = prepare(frame, lut, vmin, vmax, range, colours, stream, lutStore);
    const std::int64_t h = frame.shape()[0], w = frame.shape()[1];
    Buffer out = detail::allocateOn(static_cast<std::size_t>(h * w) * 4, frame.device(), stream);
    p.out = static_cast<Rgba8*>(out.data());
    run(p, frame.device(), stream);
    std::vector<std::string> dims = frame.dims();
    dims.push_back("rgba");
    Variable result(dims, {h, w, 4}, DType::UInt8, std::move(out));
    return DataArray(frame.name(), std::move(result), detail::keptCoords(frame, frame.dims()));
}

} // namespace

DataArray colormap(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                   const OffScaleColours& colours, Stream stream) {
    return colormapNew(frame, lut, vmin, vmax, nullptr, colours, stream);
}

DataArray colormap(const DataArray& frame, const DataArray& lut, const DataArray& range,
                   const OffScaleColours& colours, Stream stream) {
    return colormapNew(frame, lut, 0, 1, &range, colours, stream);
}

void colormapInto(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                  const DataArray* range, const OffScaleColours& colours, void* out, Stream stream) {
    DataArray lutStore;
    detail::ColormapProblem p = prepare(frame, lut, vmin, vmax, range, colours, stream, lutStore);
    STRATA_EXPECTS(out != nullptr || frame.size() == 0, ValueError, "colormapInto: no output memory given");
    p.out = static_cast<Rgba8*>(out);
    run(p, frame.device(), stream);
}

} // namespace strata
