// What the frame service computes over a frame, on its worker: the frames of a vector pair and
// of a contour variable, and the isolines it traces beside the colours (the steps ahead come
// with theirs, so that a step with contours on draws them without tracing on the GUI thread).
#include "export_view.h" // vectorPairFor
#include "frame_service.h"
#include "strata/core/cancel.h"
#include "strata/core/runtime.h"

namespace strata::app {

DataArray FrameService::overlayFrame(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds,
                                     const std::string& name, Device device) {
    ViewSpec s = spec;
    s.variable = name;
    s.units.clear(); // another quantity: in its own units
    FallbackNote note;
    return computeViewFrame(*ds, source(s, ds), s, device, note, limits(), gridFile().get());
}

void FrameService::vectorFrames(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds,
                                FrameResult& result) {
    try {
        const VectorPair pair = vectorPairFor(*ds, spec.variable, spec.vectorU, spec.vectorV);
        result.vectorU = overlayFrame(spec, ds, pair.u, result.frame.device());
        result.vectorV = overlayFrame(spec, ds, pair.v, result.frame.device());
        result.vectorsGridRelative = pair.gridRelative;
    } catch (const CancelledError&) {
        throw;
    } catch (const std::exception& e) { // the frame is shown; the status bar says why the pair is not
        result.vectorError = QString::fromStdString(e.what());
        result.vectorU.reset();
        result.vectorV.reset();
    }
}

void FrameService::contourFrame(const ViewSpec& spec, const std::shared_ptr<const Dataset>& ds,
                                FrameResult& result) {
    try {
        result.contourFrame = overlayFrame(spec, ds, spec.contourVariable, result.frame.device());
    } catch (const CancelledError&) {
        throw;
    } catch (const std::exception& e) { // the frame is shown with its own isolines; the status bar says why
        result.contourError = QString::fromStdString(e.what());
        result.contourFrame.reset();
    }
}

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
