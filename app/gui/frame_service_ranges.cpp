// The colour ranges the frame service works out (kept in its RangeBook): each variable's
// extremes (for the whole-variable range) and, once a variable is resident on a device, the
// table of each frame's extremes.
#include <algorithm>

#include "frame_service.h"
#include "strata/core/runtime.h"
#include "strata/core/streaming.h"
#include "strata/core/units.h"

namespace strata::app {

void FrameService::ensureFrameRanges(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) {
    // A view without reductions: its frames are slices of the variable, so one reduction of the
    // resident copy over X and Y gives every frame's extremes. On the host nothing would be saved.
    if (!RangeBook::takesFrameTable(spec) ||
        !needsFrameRange(spec.colouring.range, needsVariableRange(spec.colouring.range.mode)))
        return;
    std::uint64_t generation;
    {
        std::lock_guard lock(mutex_);
        if (ranges_.hasFrameTable(spec)) return;
        generation = ranges_.generation();
    }
    const DataArray var = source(spec, ds);
    if (!var.isLoaded() || var.device().isHost()) return; // not resident on a device (yet)
    std::shared_ptr<const FrameRanges> table;
    try {
        // Capped: a table of more frames than this is not worth its copy.
        constexpr std::int64_t kMaxFrames = std::int64_t(1) << 20;
        if (var.size() / std::max<std::int64_t>(1, var.sizeOf(spec.xDim) * var.sizeOf(spec.yDim)) <=
            kMaxFrames)
            table = std::make_shared<const FrameRanges>(
                FrameRanges::compute(var, spec.xDim, spec.yDim, var.variable().buffer()->stream()));
    } catch (const std::exception&) {
        // Out of device memory, an empty dim: each frame's range is read with it, as before.
    }
    std::lock_guard lock(mutex_);
    ranges_.setFrameTable(spec, std::move(table), generation,
                          var.attrs().text("units").value_or("")); // refused when another file is open
}

std::optional<MinMax> FrameService::knownRange(const ViewSpec& spec) {
    if (!needsVariableRange(spec.colouring.range.mode)) return std::nullopt;
    std::lock_guard lock(mutex_);
    return ranges_.variableRange(variableKeyOf(spec), spec.units);
}

std::optional<MinMax> FrameService::variableRange(const ViewSpec& spec,
                                                  const std::shared_ptr<const Dataset>& ds,
                                                  const StreamProgress& progress) {
    std::uint64_t generation;
    {
        std::lock_guard lock(mutex_);
        if (auto known = ranges_.variableRange(variableKeyOf(spec), spec.units)) return known;
        generation = ranges_.generation();
    }
    // Resident: one pass over memory. Else slab by slab (the exact extremes of a variable larger
    // than memory); stopped when the file is closed or the service stops.
    std::pair<double, double> extremes;
    const DataArray var = source(spec, ds);
    const std::string units = var.attrs().text("units").value_or("");
    try {
        extremes = minmaxStreamed(var, computeDevice(), limits().slabBytes, closing_, progress);
    } catch (const CancelledError&) {
        return std::nullopt;
    }
    const auto [lo, hi] = extremes;
    const MinMax r{lo, hi};
    std::lock_guard lock(mutex_);
    if (generation == ranges_.generation()) ranges_.setVariableRange(variableKeyOf(spec), r, units);
    return rangeInUnits(r, units, spec.units);
}

} // namespace strata::app
