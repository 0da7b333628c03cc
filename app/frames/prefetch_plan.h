#pragma once
// PrefetchPlan: which steps the frame service computes ahead around a frame just asked for.
// While the user steps along a dim, the steps in the direction of the steps come first and a few
// behind: nearest first (two ahead, one behind, the rest ahead, the rest behind), wrapping round
// the ends of the dim as play does, each step once and never the frame itself. For a new view
// (no direction), only the next step along the first sliced dim (or the dim named).
#include <cstdint>
#include <string>
#include <vector>

#include "strata/core/view.h"

namespace strata::app {

class PrefetchPlan {
public:
    // `ahead` steps in the direction of the steps, `behind` against it (negatives count as 0).
    PrefetchPlan(int ahead, int behind);

    struct Steps {
        std::string dim;                   // the dim stepped along (empty: none, nothing to compute)
        std::vector<std::int64_t> indices; // along it, in the order to compute them (none: a dim of 1)
    };
    // The steps around the frame `spec` shows of a variable with `dims` and `shape`.
    // `steppingDim` (empty: the first sliced dim) and `direction` (+1, -1; 0: a new view).
    Steps around(const FrameSpec& spec, const std::vector<std::string>& dims,
                 const std::vector<std::int64_t>& shape, const std::string& steppingDim, int direction) const;

private:
    int ahead_, behind_;
};

} // namespace strata::app
