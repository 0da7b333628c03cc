#pragma once
// ViewHistory: the views a user went through, for Edit ▸ Undo and Redo. Each entry is a whole
// ViewSpec (roles, reductions with the sliced indices of the moment, colours, range, zoom), so
// an undo shows exactly the view that was on the screen before. Steps through a sliced dim are
// not entries of their own (playing would bury every other change); they are part of the view
// the next change records. Consecutive zoom and pan changes make one entry.
#include <vector>

#include "view_spec.h"

namespace strata::app {

class ViewHistory {
public:
    // The view went from `before` to `after`: `before` is kept for Undo and Redo is forgotten,
    // unless the two differ only in sliced indices (nothing kept), or only in the zoom and pan
    // window right after another such change (merged with it).
    void record(const ViewSpec& before, const ViewSpec& after);
    // The view to go back to from `current` (which Redo will return), or none.
    bool undo(const ViewSpec& current, ViewSpec& out);
    bool redo(const ViewSpec& current, ViewSpec& out);
    bool canUndo() const { return !undo_.empty(); }
    bool canRedo() const { return !redo_.empty(); }
    const ViewSpec* last() const { return undo_.empty() ? nullptr : &undo_.back(); } // Undo's
    const ViewSpec* next() const { return redo_.empty() ? nullptr : &redo_.back(); } // Redo's

    void clear();

private:
    std::vector<ViewSpec> undo_, redo_;
    bool lastWasWindow_ = false;
};

// What a change from `a` to `b` changed, for Edit ▸ Undo and Redo ("Colour Map", "Axes and
// Reduction"): the two foremost of variable, axes, reduction, area weighting, colour map,
// colour range, colours, projection, zoom and slice, title-cased; "View" when nothing differs.
std::string describeChange(const ViewSpec& a, const ViewSpec& b);

// Whether `a` and `b` differ in nothing but the sliced dims' indices.
bool differsOnlyInIndices(const ViewSpec& a, const ViewSpec& b);

} // namespace strata::app
