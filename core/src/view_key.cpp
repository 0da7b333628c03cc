// keyOf, and the hashes of FrameKey and FrameSpec.
#include <algorithm>

#include "strata/core/hash.h"
#include "strata/core/view.h"

namespace strata {

FrameKey keyOf(const FrameSpec& spec) {
    FrameKey k{spec.file,    spec.variable,   spec.xDim,        spec.yDim,
               spec.indices, spec.reductions, spec.areaWeighted};
    std::sort(k.indices.begin(), k.indices.end());
    return k;
}

} // namespace strata

std::size_t std::hash<strata::FrameKey>::operator()(const strata::FrameKey& k) const noexcept {
    std::size_t seed = 0;
    strata::hashCombine(seed, k.file);
    strata::hashCombine(seed, k.variable);
    strata::hashCombine(seed, k.xDim);
    strata::hashCombine(seed, k.yDim);
    strata::hashCombine(seed, k.indices);
    strata::hashCombine(seed, k.reductions);
    strata::hashCombine(seed, k.areaWeighted);
    return seed;
}

std::size_t std::hash<strata::FrameSpec>::operator()(const strata::FrameSpec& s) const noexcept {
    // Over the fields as they are (indices in their order), as == compares them.
    std::size_t seed = 0;
    strata::hashCombine(seed, s.file);
    strata::hashCombine(seed, s.files.size());
    for (const std::string& f : s.files) strata::hashCombine(seed, f);
    strata::hashCombine(seed, s.variable);
    strata::hashCombine(seed, s.xDim);
    strata::hashCombine(seed, s.yDim);
    strata::hashCombine(seed, s.indices);
    strata::hashCombine(seed, s.reductions);
    strata::hashCombine(seed, s.areaWeighted);
    return seed;
}
