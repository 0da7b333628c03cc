#include "prefetch_plan.h"

#include <algorithm>

namespace strata::app {

PrefetchPlan::PrefetchPlan(int ahead, int behind)
    : ahead_(std::max(0, ahead)), behind_(std::max(0, behind)) {}

PrefetchPlan::Steps PrefetchPlan::around(const FrameSpec& spec, const std::vector<std::string>& dims,
                                         const std::vector<std::int64_t>& shape,
                                         const std::string& steppingDim, int direction) const {
    int ahead = ahead_, behind = behind_;
    if (ahead == 0 && behind == 0) return {};
    std::string dim = steppingDim;
    if (dim.empty() || direction == 0) { // a new view: the first slider's dim, forwards, one step
        const auto sliced = spec.slicedDims(dims);
        if (sliced.empty()) return {};
        if (dim.empty()) dim = sliced.front();
        direction = 1;
        ahead = std::min(ahead, 1);
        behind = 0;
    }
    direction = direction > 0 ? 1 : -1;
    const auto at = std::find(dims.begin(), dims.end(), dim);
    if (at == dims.end() || shape.size() != dims.size()) return {};
    const std::int64_t n = shape[std::size_t(at - dims.begin())];
    if (n <= 0) return {};
    const std::int64_t here = spec.indexOf(dim);
    std::vector<std::int64_t> offsets;
    for (int k = 1; k <= std::min(ahead, 2); ++k) offsets.push_back(k * direction);
    if (behind > 0) offsets.push_back(-direction);
    for (int k = 3; k <= ahead; ++k) offsets.push_back(k * direction);
    for (int k = 2; k <= behind; ++k) offsets.push_back(-k * direction);
    Steps steps{dim, {}};
    for (const std::int64_t offset : offsets) {
        const std::int64_t next = ((here + offset) % n + n) % n; // play loops
        if (next != here &&
            std::find(steps.indices.begin(), steps.indices.end(), next) == steps.indices.end())
            steps.indices.push_back(next); // a short dim reaches a step twice
    }
    return steps;
}

} // namespace strata::app
