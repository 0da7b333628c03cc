#pragma once
// The colour range of every frame of a view at once. For a variable and the two dims it is
// displayed on, the smallest and largest finite value of each frame (one frame per index of
// the other dims) are computed in one pass on the variable's device and copied to the host
// once: stepping through the frames then needs no copy from the device for their colour bar.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "strata/core/colour_range.h" // MinMax
#include "strata/core/data_array.h"

namespace strata {

class FrameRanges {
public:
    FrameRanges() = default;

    // The table for `var` (loaded) displayed on `xDim` and `yDim`. Throws ValueError when either
    // is not a dim of `var`, or they are the same dim. The copy to the host is counted.
    static FrameRanges compute(const DataArray& var, const std::string& xDim, const std::string& yDim,
                               Stream stream);

    // The frame at these indices of the other dims (a dim not named is at 0): its extremes as
    // minmax() gives them (both NaN when it has no finite value). Unset when the table cannot say
    // exactly: the frame holds ±inf (which minmax() skips), or an index is out of range.
    std::optional<MinMax> at(const std::vector<std::pair<std::string, std::int64_t>>& indices) const;

    const std::vector<std::string>& dims() const { return dims_; } // the other dims, in var's order
    std::size_t size() const { return lo_.size(); }                // frames in the table

private:
    std::vector<std::string> dims_;
    std::vector<std::int64_t> shape_;
    std::vector<double> lo_, hi_;
};

} // namespace strata
