#include "strata/core/frame_ranges.h"

#include <algorithm>
#include <cmath>

#include "strata/core/error.h"
#include "strata/core/ops.h"

namespace strata {

FrameRanges FrameRanges::compute(const DataArray& var, const std::string& xDim, const std::string& yDim,
                                 Stream stream) {
    const auto& dims = var.dims();
    for (const std::string* d : {&xDim, &yDim})
        STRATA_EXPECTS(std::find(dims.begin(), dims.end(), *d) != dims.end(), ValueError,
                       "frame ranges of '" + var.name() + "': it has no dim '" + *d + "'");
    STRATA_EXPECTS(xDim != yDim, ValueError,
                   "frame ranges of '" + var.name() + "': X and Y are both '" + xDim + "'");
    // Min and max skip NaN but not ±inf, which minmax() skips: an entry with an infinite end
    // is left unknown (at() says so) rather than differing from the frame's own minmax().
    const DataArray lo = reduce(var, {xDim, yDim}, ReduceOp::Min, stream).asHost();
    const DataArray hi = reduce(var, {xDim, yDim}, ReduceOp::Max, stream).asHost();
    FrameRanges t;
    t.dims_ = lo.dims();
    t.shape_.assign(lo.shape().begin(), lo.shape().end());
    t.lo_ = lo.values<double>();
    t.hi_ = hi.values<double>();
    return t;
}

std::optional<MinMax>
FrameRanges::at(const std::vector<std::pair<std::string, std::int64_t>>& indices) const {
    if (lo_.empty()) return std::nullopt;
    std::size_t flat = 0;
    for (std::size_t k = 0; k < dims_.size(); ++k) {
        std::int64_t i = 0;
        for (const auto& [dim, index] : indices)
            if (dim == dims_[k]) i = index;
        if (i < 0 || i >= shape_[k]) return std::nullopt;
        flat = flat * static_cast<std::size_t>(shape_[k]) + static_cast<std::size_t>(i);
    }
    const double lo = lo_[flat], hi = hi_[flat];
    if (std::isnan(lo) && std::isnan(hi)) return MinMax{lo, hi}; // no finite value
    if (!std::isfinite(lo) || !std::isfinite(hi)) return std::nullopt;
    return MinMax{lo, hi};
}

} // namespace strata
