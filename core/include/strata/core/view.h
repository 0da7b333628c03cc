#pragma once
// What the user looks at, as plain data: a variable, which dims are on X and Y, which are
// sliced (at an index) or reduced (with an op), the colouring, and the zoom and pan window.
// The app's state and the command line's options both become a ViewSpec; computeView turns
// one into a frame. A FrameKey is the part of it that decides the frame's values.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "strata/core/cancel.h"
#include "strata/core/colour_range.h"
#include "strata/core/data_array.h"
#include "strata/core/fallback.h"
#include "strata/core/memory_budget.h"
#include "strata/core/ops.h"
#include "strata/core/view_window.h"

namespace strata {

struct ViewSpec {
    std::string file;
    std::vector<std::string> files; // a file set's files, in record order (empty: one file)
    std::string variable;
    std::string xDim;
    std::string yDim;                                          // empty: a line along xDim
    std::vector<std::pair<std::string, std::int64_t>> indices; // sliced dims; others default to 0
    std::vector<std::pair<std::string, ReduceOp>> reductions;  // applied in this order
    // The mean reductions are one area-weighted mean over their dims together (where the first
    // of them is in the order): weighted by the cell areas the variable's cell_measures names,
    // else by cos(latitude). Needs the latitude (or the cell areas' dims) among them.
    bool areaWeighted = false;
    Colouring colouring;
    std::optional<ViewWindow> window; // zoom and pan of an image; unset shows the whole frame
    // The map projection a longitude/latitude frame is drawn in (a name the render layer's
    // Projection knows); empty: none, the frame in its own longitude and latitude. Like the
    // window, it changes how a frame is seen, not its values.
    std::string projection;

    // The dims of `var` that are neither displayed nor reduced (they are sliced).
    std::vector<std::string> slicedDims(const std::vector<std::string>& varDims) const;
    // The index of a sliced dim (0 when not given).
    std::int64_t indexOf(const std::string& dim) const;
    // The dims of the area-weighted mean (those reduced with Mean), when areaWeighted; else none.
    std::vector<std::string> areaMeanDims() const;

    friend bool operator==(const ViewSpec&, const ViewSpec&) = default; // indices in order, too
};

// What decides a frame's values (not its colours, nor the window it is seen through): two
// specs with equal keys have the same frame. Indices are sorted by dim; reductions keep their
// order (it is the order they are applied in).
struct FrameKey {
    std::string file;
    std::string variable;
    std::string xDim;
    std::string yDim;
    std::vector<std::pair<std::string, std::int64_t>> indices;
    std::vector<std::pair<std::string, ReduceOp>> reductions;
    bool areaWeighted = false;
    friend bool operator==(const FrameKey&, const FrameKey&) = default;
};
FrameKey keyOf(const ViewSpec& spec);

// Checks the spec against the array's dims: X (and Y) given, every named dim exists, no dim
// has two roles, indices in range. Throws ValueError / IndexError naming the dim.
void validate(const ViewSpec& spec, const DataArray& var);

// `a` with the spec's reductions applied in order (the area-weighted mean as one step), on a's
// device. An area-weighted result is named "<name> (area-weighted mean)".
DataArray applyReductions(const DataArray& a, const ViewSpec& spec, Stream stream);

// The frame the spec describes, on `device`: sliced dims indexed first (a lazy variable reads
// only that hyperslab), then loaded, reduced, and transposed to (y, x) — or (x) for a line.
// The result is contiguous and keeps the coordinates of its dims (and scalar ones of slices).
DataArray computeView(const DataArray& var, const ViewSpec& spec, Device device, Stream stream);

// How much a view may read at once. A view whose selection (after slicing) is larger than
// `loadAtOnce` and that reduces is streamed: its first reduction read in slabs of `slabBytes`.
struct ViewLimits {
    std::size_t loadAtOnce = kUnlimitedMemory;
    std::size_t slabBytes = std::size_t(64) << 20;
    CancelToken cancel;                            // a streamed reduction stops (CancelledError)
    std::function<void(double fraction)> progress; // told after each slab of a streamed reduction
};

// The one frame pipeline, behind the window and the command line alike: the frame `spec`
// describes, computed on `device` (a resident `var` is sliced in place; a lazy one reads only
// its hyperslab, or streams), through the CPU when the device fails (`note` says why). The
// result is finished (its stream synchronised): ready to draw or copy. Throws strata::Error
// for failures that are not the device's.
DataArray computeFrame(const DataArray& var, const ViewSpec& spec, Device device, FallbackNote& note,
                       const ViewLimits& limits = {});

} // namespace strata

// Hashes agreeing with ==, for unordered containers keyed by a view or a frame.
template <> struct std::hash<strata::FrameKey> {
    std::size_t operator()(const strata::FrameKey& k) const noexcept;
};
template <> struct std::hash<strata::ViewSpec> {
    std::size_t operator()(const strata::ViewSpec& s) const noexcept;
};
