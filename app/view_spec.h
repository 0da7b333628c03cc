#pragma once
// The app's view: what to compute (core's FrameSpec) and how to show it — the colouring, the
// zoom and pan window and the map projection. The window, the command line, saved views and
// Python all describe what they show as a ViewSpec; core sees only its FrameSpec.
#include <optional>
#include <string>

#include "strata/core/colour_range.h"
#include "strata/core/contour.h"
#include "strata/core/flow.h"
#include "strata/core/view.h"
#include "strata/core/view_window.h"

namespace strata::app {

struct ViewSpec : FrameSpec {
    Colouring colouring;
    std::optional<ViewWindow> window; // zoom and pan of an image; unset shows the whole frame
    // The map projection a longitude/latitude frame is drawn in (a name the render layer's
    // Projection knows); empty: none, the frame in its own longitude and latitude. Like the
    // window, it changes how a frame is seen, not its values.
    std::string projection;
    // The derived variables' statements (`NAME = EXPR`) a saved view brings with it, so that it
    // shows a derived variable in a dataset opened afresh; empty in the window's own view.
    std::vector<std::string> derived;
    // The other datasets those statements read by alias (`b.tas`): each alias with its paths
    // (one file, or a file set in record order), opened again with the view.
    struct Other {
        std::string alias;
        std::vector<std::string> paths;
        friend bool operator==(const Other&, const Other&) = default;
    };
    std::vector<Other> with;
    // The grid file a saved view's mesh is read from (a mesh its data files lack: --grid-file,
    // File ▸ Open Grid File…), opened again with the view; empty in the window's own view.
    std::string gridFile;
    // Isolines over the frame, as a saved view keeps them (the window keeps its own in the image
    // view's settings): their levels (unset: none), labels and dashes below zero.
    std::optional<ContourSpec> contours;
    bool contourLabels = true;
    bool contourDashes = false;
    Rgba8 contourColour{72, 72, 72, 255};
    double contourWidth = 1;
    bool filledContours = false; // the colours banded at the levels (the contours', else auto)
    // The levels they are banded at when no lines are drawn (unset: automatic).
    std::optional<ContourSpec> fillLevels;
    // Another variable whose isolines are drawn over the frame (zg over ta), on its grid and
    // computed as the frame is; empty: the frame's own.
    std::string contourVariable;
    // A vector pair over the frame: how it is drawn (None: not at all), and its components
    // (empty: the dataset's first pair with the variable's dims, by CF standard names).
    VectorStyle vectors = VectorStyle::None;
    std::string vectorU, vectorV;

    // The part that says what to compute.
    const FrameSpec& frame() const { return *this; }
    FrameSpec& frame() { return *this; }

    friend bool operator==(const ViewSpec&, const ViewSpec&) = default;
};

} // namespace strata::app

// A hash agreeing with ==, for unordered containers keyed by a view.
template <> struct std::hash<strata::app::ViewSpec> {
    std::size_t operator()(const strata::app::ViewSpec& s) const noexcept;
};
