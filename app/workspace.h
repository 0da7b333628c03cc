#pragma once
// Workspace: the state of what the window looks at, apart from any widget — the dataset, the
// variable, the view (what to compute and how to show it: a ViewSpec), what is on the screen,
// and the views gone through for Undo and Redo. `apply` is the one place a view changes; it
// says what changed, and the window draws that. No Qt here: tested without a QApplication.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "strata/core/colour_range.h"
#include "strata/core/dataset.h"
#include "strata/io/geo.h"
#include "view_history.h"
#include "view_spec.h"

namespace strata::app {

// What `Workspace::apply` changed, from the view before it.
struct ViewChange {
    ViewSpec before;
    bool variable = false;   // another variable or file
    bool roles = false;      // X, Y, reductions or the area weighting (or another variable)
    bool frame = false;      // anything that decides the frame's values (keyOf differs)
    bool colouring = false;  // colour map, range or the colours of missing and out-of-range values
    bool window = false;     // the zoom and pan window
    bool projection = false; // the map projection
};

// The frame on the screen, and the view it is a frame of.
struct OnScreen {
    std::optional<ViewSpec> view; // unset: no frame of this dataset is shown
    DataArray frame;              // 2-D (y, x) or 1-D (x); on the compute device or the host
    std::optional<MinMax> variableRange, frameRange;
};

class Workspace {
public:
    // Another dataset (or none): the variable, the view, the screen and the history are its
    // own from here on; the previous one's mean nothing for it. The map projection stays: it
    // is the window's, and the next view is shown in it. `keepView`: a newer version of the
    // same data (Python's view.update) — the view stays, to be applied to it.
    void setDataset(std::shared_ptr<const Dataset> ds, bool keepView = false);
    const std::shared_ptr<const Dataset>& dataset() const { return ds_; }
    // A grid file opened beside the dataset (a mesh its files lack): views are checked with it.
    void setGridFile(std::shared_ptr<const Dataset> grid) { grid_ = std::move(grid); }
    // strata.show(..., vmin=, vmax=): the colour range of data held in memory, kept by later
    // datasets shown without one.
    void setMemoryRange(std::optional<ColourRange> range) {
        if (range) memoryRange_ = range;
    }
    const std::optional<ColourRange>& memoryRange() const { return memoryRange_; }

    const ViewSpec& view() const { return view_; }
    const DataArray& variable() const { return var_; } // the variable the view shows

    // Makes `next` the view, its file (and file set) the dataset's. Throws strata::Error, and
    // changes nothing, when the dataset has no such variable or the view does not fit it.
    // Kept for Undo unless `record` is false (an undone or redone view).
    ViewChange apply(ViewSpec next, bool record = true);
    // No view: the dataset has nothing to show (the projection stays, as with setDataset).
    void clearView();
    // The map projection while there is no view (the command line's --projection before the
    // file is open): the next view is shown in it.
    void setProjection(std::string projection) { view_.projection = std::move(projection); }
    // Undo starts from the view shown now (a file's first view is not a change to undo).
    void forgetHistory() { history_.clear(); }

    // Edit ▸ Undo / Redo: the view to apply (without recording), or none.
    std::optional<ViewSpec> undo();
    std::optional<ViewSpec> redo();
    bool canUndo() const { return history_.canUndo(); }
    bool canRedo() const { return history_.canRedo(); }
    // Whether Undo would return to `view` (a Cancel of the last change goes back that way).
    bool undoReturnsTo(const ViewSpec& view) const;
    // What Undo and Redo would change back ("Colour Map"); empty when there is none.
    std::string undoText() const;
    std::string redoText() const;

    // What is on the screen.
    void showFrame(OnScreen shown) { screen_ = std::move(shown); }
    void clearScreen() { screen_ = {}; }
    const OnScreen& screen() const { return screen_; }

    // The requests whose answers the view waits for (the frame service's ids; 0: none). An
    // answer to another is overtaken and dropped.
    void awaitFrame(std::uint64_t id) { wantedFrame_ = id; }
    void awaitSeries(std::uint64_t id) { wantedSeries_ = id; }
    bool awaitsFrame(std::uint64_t id) const { return id != 0 && id == wantedFrame_; }
    bool awaitsSeries(std::uint64_t id) const { return id != 0 && id == wantedSeries_; }

    // Latitude and longitude of the variable's cells where the file gives them (2-D
    // coordinates, a grid mapping), for the probe; made once per variable.
    const io::LatLonLocator& latLon();

private:
    std::shared_ptr<const Dataset> ds_;
    std::shared_ptr<const Dataset> grid_;
    std::optional<ColourRange> memoryRange_;
    DataArray var_;
    ViewSpec view_;
    ViewHistory history_;
    OnScreen screen_;
    std::uint64_t wantedFrame_ = 0, wantedSeries_ = 0;
    std::shared_ptr<const io::LatLonLocator> latLon_;
};

} // namespace strata::app
