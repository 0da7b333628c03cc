#include "view_history.h"

namespace strata::app {
namespace {

constexpr std::size_t kMaxEntries = 200; // ViewSpecs are small: this bounds a long session

} // namespace

bool differsOnlyInIndices(const ViewSpec& a, const ViewSpec& b) {
    ViewSpec x = a;
    x.indices = b.indices;
    return x == b;
}

void ViewHistory::record(const ViewSpec& before, const ViewSpec& after) {
    if (before == after || differsOnlyInIndices(before, after)) return;
    ViewSpec windowless = before;
    windowless.window = after.window;
    const bool windowOnly = windowless == after;
    redo_.clear();
    if (windowOnly && lastWasWindow_ && !undo_.empty()) return; // the same zoom and pan gesture
    lastWasWindow_ = windowOnly;
    undo_.push_back(before);
    if (undo_.size() > kMaxEntries) undo_.erase(undo_.begin());
}

bool ViewHistory::undo(const ViewSpec& current, ViewSpec& out) {
    if (undo_.empty()) return false;
    out = undo_.back();
    undo_.pop_back();
    redo_.push_back(current);
    lastWasWindow_ = false;
    return true;
}

bool ViewHistory::redo(const ViewSpec& current, ViewSpec& out) {
    if (redo_.empty()) return false;
    out = redo_.back();
    redo_.pop_back();
    undo_.push_back(current);
    lastWasWindow_ = false;
    return true;
}

void ViewHistory::clear() {
    undo_.clear();
    redo_.clear();
    lastWasWindow_ = false;
}

std::string describeChange(const ViewSpec& a, const ViewSpec& b) {
    const Colouring &ca = a.colouring, &cb = b.colouring;
    const std::pair<bool, const char*> parts[] = {
        {a.variable != b.variable, "Variable"},
        {a.xDim != b.xDim || a.yDim != b.yDim, "Axes"},
        {a.reductions != b.reductions, "Reduction"},
        {a.areaWeighted != b.areaWeighted, "Area Weighting"},
        {ca.colormap != cb.colormap || ca.reversed != cb.reversed, "Colour Map"},
        {!(ca.range == cb.range), "Colour Range"},
        {!(ca.nanColour == cb.nanColour) || ca.underColour != cb.underColour ||
             ca.overColour != cb.overColour,
         "Colours"},
        {a.projection != b.projection, "Projection"},
        {a.window != b.window, "Zoom"},
        {a.indices != b.indices, "Slice"},
    };
    std::string out;
    int n = 0;
    for (const auto& [differs, what] : parts)
        if (differs && n++ < 2) out += (out.empty() ? "" : " and ") + std::string(what);
    return out.empty() ? "View" : out;
}

} // namespace strata::app
