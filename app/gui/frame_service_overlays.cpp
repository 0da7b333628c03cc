// What the frame service computes over a frame, on its worker: the frames of a vector pair and
// of a contour variable, and the isolines it traces beside the colours (the steps ahead come
// with theirs, so that a step with contours on draws them without tracing on the GUI thread).
#include "export_view.h" // vectorPairFor
#include "frame_service.h"
#include "strata/core/cancel.h"
#include "strata/core/runtime.h"

namespace strata::app {
namespace {

// The colour range the view resolves for a frame of `spec`, where it is known without reading
// the frame: the colours' own, or resolved from the frame's extremes (when known) and the
// variable's. nullopt when the frame's extremes are needed and not known.
std::optional<MinMax> knownColourRange(const ViewSpec& spec, const ColouredFrame* coloured,
                                       std::optional<MinMax> variableRange,
                                       std::optional<MinMax> frameRange) {
    if (coloured) return coloured->range;
    if (frameRange || !needsFrameRange(spec.colouring.range, variableRange.has_value()))
        return resolveRange(spec.colouring.range, frameRange, variableRange);
    return std::nullopt;
}

// `t` when it is at the levels `spec`'s contours take in `range`, else null.
std::shared_ptr<const TracedIsolines> atLevels(const std::shared_ptr<const TracedIsolines>& t,
                                               const ViewSpec& spec, MinMax range) {
    return t && t->levels == contourLevels(*spec.contours, range.first, range.second) ? t : nullptr;
}

} // namespace

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
        // The levels follow the colour range as the view resolves it; the frame's extremes are
        // read once (for the range and the isolines alike), and only where they are not known.
        std::optional<MinMax> extremes = coloured ? coloured->extremes : std::nullopt;
        if (!extremes) {
            std::lock_guard lock(mutex_);
            extremes = ranges_.frameRange(spec);
        }
        std::optional<MinMax> range = knownColourRange(spec, coloured, variableRange, extremes);
        if (!range) {
            extremes = minmaxValues(frame);
            range = resolveRange(spec.colouring.range, extremes, variableRange);
        }
        if (had)
            if (auto same = atLevels(had->isolines, spec, *range)) return same;
        return traceIsolines(frame, *spec.contours, *range, extremes);
    } catch (const CancelledError&) {
        throw;
    } catch (const std::exception&) {
        return nullptr; // too many crossings, a device that failed: the view traces them and says why
    }
}

std::shared_ptr<const TracedIsolines>
FrameService::cachedIsolines(const CachedFrame& hit, const ViewSpec& spec, const ColouredFrame* coloured,
                             std::optional<MinMax> variableRange, std::optional<MinMax> frameRange) {
    if (!spec.contours || !spec.contourVariable.empty()) return nullptr;
    // The colour range, where it is known without reading the frame (this is the GUI thread).
    const std::optional<MinMax> range = knownColourRange(spec, coloured, variableRange, frameRange);
    return range ? atLevels(hit.isolines, spec, *range) : nullptr;
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
