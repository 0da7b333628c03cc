// The colour ranges the frame service knows: each variable's extremes (for the whole-variable
// range) and, once a variable is resident on a device, the table of each frame's extremes.
#include "frame_service.h"

#include <algorithm>

#include "strata/core/runtime.h"
#include "strata/core/streaming.h"

namespace strata::app {

void FrameService::ensureFrameRanges(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds) {
    // A view without reductions: its frames are slices of the variable, so one reduction of the
    // resident copy over X and Y gives every frame's extremes. On the host nothing would be saved.
    if (spec.yDim.empty() || !spec.reductions.empty() ||
        !needsFrameRange(spec.colouring.range, needsVariableRange(spec.colouring.range.mode)))
        return;
    const VariableKey key = variableKeyOf(spec);
    std::uint64_t generation;
    {
        std::lock_guard lock(mutex_);
        generation = generation_;
        if (frameRanges_ && frameRanges_->variable == key && frameRanges_->xDim == spec.xDim &&
            frameRanges_->yDim == spec.yDim)
            return;
    }
    const DataArray var = source(spec, ds);
    if (!var.isLoaded() || var.device().isHost()) return; // not resident on a device (yet)
    FrameRangesEntry entry{key, spec.xDim, spec.yDim, nullptr};
    try {
        // Capped: a table of more frames than this is not worth its copy.
        constexpr std::int64_t kMaxFrames = std::int64_t(1) << 20;
        if (var.size() / std::max<std::int64_t>(1, var.sizeOf(spec.xDim) * var.sizeOf(spec.yDim)) <=
            kMaxFrames)
            entry.table = std::make_shared<const FrameRanges>(
                FrameRanges::compute(var, spec.xDim, spec.yDim, var.variable().buffer()->stream()));
    } catch (const std::exception&) {
        // Out of device memory, an empty dim: each frame's range is read with it, as before.
    }
    std::lock_guard lock(mutex_);
    if (generation == generation_) frameRanges_ = std::move(entry); // else another file is open
}

std::optional<MinMax> FrameService::frameRangeLocked(const ViewSpec& spec) const {
    if (!frameRanges_ || !frameRanges_->table || spec.yDim.empty() || !spec.reductions.empty() ||
        frameRanges_->xDim != spec.xDim || frameRanges_->yDim != spec.yDim ||
        !(frameRanges_->variable == variableKeyOf(spec)))
        return std::nullopt;
    return frameRanges_->table->at(spec.indices);
}

std::optional<MinMax> FrameService::knownRange(const ViewSpec& spec) {
    if (!needsVariableRange(spec.colouring.range.mode)) return std::nullopt;
    std::lock_guard lock(mutex_);
    return knownRangeLocked(spec);
}

std::optional<MinMax> FrameService::knownRangeLocked(const ViewSpec& spec) const {
    const VariableKey key = variableKeyOf(spec);
    for (const auto& [k, r] : ranges_)
        if (k == key) return r;
    return std::nullopt;
}

std::optional<MinMax> FrameService::variableRange(const ViewSpec& spec,
                                                  const std::shared_ptr<const Dataset>& ds,
                                                  const StreamProgress& progress) {
    {
        std::lock_guard lock(mutex_);
        if (auto known = knownRangeLocked(spec)) return known;
    }
    // Resident: one pass over memory. Else slab by slab (the exact extremes of a variable larger
    // than memory); stopped when the file is closed or the service stops.
    std::pair<double, double> extremes;
    try {
        extremes = minmaxStreamed(source(spec, ds), computeDevice(), limits().slabBytes, closing_, progress);
    } catch (const CancelledError&) {
        return std::nullopt;
    }
    const auto [lo, hi] = extremes;
    const MinMax r{lo, hi};
    std::lock_guard lock(mutex_);
    ranges_.push_front({variableKeyOf(spec), r});
    return r;
}

} // namespace strata::app
