// The isolines the frame service traces on its worker, beside the colours: the steps ahead come
// with theirs, so that a step with contours on draws them without tracing them on the GUI thread.
#include "frame_service.h"
#include "strata/core/cancel.h"
#include "strata/core/runtime.h"

namespace strata::app {

std::shared_ptr<const TracedIsolines> FrameService::isolinesFor(const ViewSpec& spec, const DataArray& frame,
                                                                const ColouredFrame* coloured,
                                                                std::optional<MinMax> variableRange,
                                                                const std::optional<CachedFrame>& had,
                                                                bool serial) {
    if (!spec.contours || !spec.contourVariable.empty() || frame.ndim() != 2 || !frame.isLoaded())
        return nullptr;
    if (needsVariableRange(spec.colouring.range.mode) && !variableRange) return nullptr;
    std::optional<HostSerialScope> alone;
    if (serial) alone.emplace();
    try {
        // The levels follow the colour range as the view resolves it.
        MinMax range;
        if (coloured) {
            range = coloured->range;
        } else {
            std::optional<MinMax> known;
            {
                std::lock_guard lock(mutex_);
                known = ranges_.frameRange(spec);
            }
            range = frameColourRange(spec.colouring.range, frame, variableRange, known);
        }
        if (had && had->isolines &&
            had->isolines->levels == contourLevels(*spec.contours, range.first, range.second))
            return had->isolines;
        return traceIsolines(frame, *spec.contours, range);
    } catch (const CancelledError&) {
        throw;
    } catch (const std::exception&) {
        return nullptr; // too many crossings, a device that failed: the view traces them and says why
    }
}

std::shared_ptr<const TracedIsolines>
FrameService::cachedIsolines(const CachedFrame& hit, const ViewSpec& spec, const ColouredFrame* coloured,
                             std::optional<MinMax> variableRange, std::optional<MinMax> frameRange) {
    if (!hit.isolines || !spec.contours || !spec.contourVariable.empty()) return nullptr;
    // The colour range, where it is known without reading the frame (this is the GUI thread).
    std::optional<MinMax> range;
    if (coloured)
        range = coloured->range;
    else if (frameRange || !needsFrameRange(spec.colouring.range, variableRange.has_value()))
        range = resolveRange(spec.colouring.range, frameRange, variableRange);
    if (!range || hit.isolines->levels != contourLevels(*spec.contours, range->first, range->second))
        return nullptr;
    return hit.isolines;
}

void FrameService::contourVariableIsolines(const ViewSpec& spec, FrameResult& result) {
    if (!spec.contours || !result.contourFrame || result.contourFrame->ndim() != 2) return;
    try {
        result.isolines = traceIsolines(*result.contourFrame, *spec.contours, std::nullopt);
    } catch (const std::exception&) {
        result.isolines.reset(); // the view traces them, and says why it cannot
    }
}

} // namespace strata::app
