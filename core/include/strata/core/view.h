#pragma once
// What to compute, as plain data: a variable, which dims are on X and Y, which are sliced (at
// an index) or reduced (with an op). The app's view (which adds how the frame is shown: its
// colours, zoom window and projection) derives from a FrameSpec; computeFrame turns one into a
// frame. A FrameKey is a FrameSpec normalised: two specs with equal keys have the same frame.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "strata/core/cancel.h"
#include "strata/core/data_array.h"
#include "strata/core/fallback.h"
#include "strata/core/memory_budget.h"
#include "strata/core/ops.h"

namespace strata {

struct FrameSpec {
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
    // The units the frame is shown in (empty: the variable's own): converted on the frame's
    // device after the reductions (strata/core/units.h).
    std::string units;

    // The dims of `var` that are neither displayed nor reduced (they are sliced).
    std::vector<std::string> slicedDims(const std::vector<std::string>& varDims) const;
    // The index of a sliced dim (0 when not given).
    std::int64_t indexOf(const std::string& dim) const;
    // The dims of the area-weighted mean (those reduced with Mean), when areaWeighted; else none.
    std::vector<std::string> areaMeanDims() const;

    friend bool operator==(const FrameSpec&, const FrameSpec&) = default; // indices in order, too
};

// A FrameSpec normalised: two specs with equal keys have the same frame. Indices are sorted by dim;
// reductions keep their order (it is the order they are applied in).
struct FrameKey {
    std::string file;
    std::string variable;
    std::string xDim;
    std::string yDim;
    std::vector<std::pair<std::string, std::int64_t>> indices;
    std::vector<std::pair<std::string, ReduceOp>> reductions;
    bool areaWeighted = false;
    std::string units;
    friend bool operator==(const FrameKey&, const FrameKey&) = default;
};
FrameKey keyOf(const FrameSpec& spec);

// Checks the spec against the array's dims: X (and Y) given, every named dim exists, no dim
// has two roles, indices in range. Throws ValueError / IndexError naming the dim.
void validate(const FrameSpec& spec, const DataArray& var);

// `a` with the spec's reductions applied in order (the area-weighted mean as one step), on a's
// device. An area-weighted result is named "<name> (area-weighted mean)".
DataArray applyReductions(const DataArray& a, const FrameSpec& spec, Stream stream);

// The frame the spec describes, on `device`: sliced dims indexed first (a lazy variable reads
// only that hyperslab), then loaded, reduced, and transposed to (y, x) — or (x) for a line.
// The result is contiguous and keeps the coordinates of its dims (and scalar ones of slices).
DataArray computeView(const DataArray& var, const FrameSpec& spec, Device device, Stream stream);

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
// its hyperslab, or streams), through the CPU when the device fails (`note` says why), and
// shown in spec.units when the frame has units (a count's or a variance's has none). The
// result is finished (its stream synchronised): ready to draw or copy. Throws strata::Error
// for failures that are not the device's.
DataArray computeFrame(const DataArray& var, const FrameSpec& spec, Device device, FallbackNote& note,
                       const ViewLimits& limits = {});

} // namespace strata

// Hashes agreeing with ==, for unordered containers keyed by a spec or a frame.
template <> struct std::hash<strata::FrameKey> {
    std::size_t operator()(const strata::FrameKey& k) const noexcept;
};
template <> struct std::hash<strata::FrameSpec> {
    std::size_t operator()(const strata::FrameSpec& s) const noexcept;
};
