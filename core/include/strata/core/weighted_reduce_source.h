#pragma once
// A lazy variable's source that also computes weighted means where its values are (a Dask graph
// on its cluster): the window's area-weighted means come back as their result alone, as its
// plain reductions do through DataSource::reduceBox. The frame pipeline asks it before it reads
// the box (source_reduce.cpp); a source that is not one is read and reduced here.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "strata/core/buffer.h"
#include "strata/core/ops.h"

namespace strata {

class WeightedReduceSource {
public:
    // One step of a reduction, applied in order: `op` over the source axes `axes` together. With
    // `weights` (only for Mean) the step is sum(w·x) / sum(w) over the elements where neither x
    // nor w is NaN (weightedMean's meaning): w is float64 in C order over every source axis of the
    // box, of length `weightShape[i]`: the box's count along the axes it varies along, 1 elsewhere.
    struct Step {
        std::vector<int> axes;
        ReduceOp op;
        std::shared_ptr<const std::vector<double>> weights; // null: unweighted
        std::vector<std::int64_t> weightShape;
    };

    virtual ~WeightedReduceSource();
    // The box reduced by each step in turn, NaN skipped as reduce() skips it: a new contiguous
    // buffer on `device` of the decoded (floating) type, the axes left in source order.
    // nullopt: the box is read and reduced here.
    virtual std::optional<Buffer> reduceBoxSteps(std::span<const std::int64_t> start,
                                                 std::span<const std::int64_t> count,
                                                 std::span<const std::int64_t> stride,
                                                 std::span<const Step> steps, Device device,
                                                 Stream stream) const = 0;
};

} // namespace strata
