// keyOf, and the hashes of FrameKey and FrameSpec.
#include <algorithm>

#include "strata/core/hash.h"
#include "strata/core/view.h"

namespace strata {
namespace {

// The fields FrameSpec and FrameKey share, in their order.
template <class Frame> std::size_t hashFrameFields(std::size_t seed, const Frame& f) {
    hashCombine(seed, f.file);
    hashCombine(seed, f.variable);
    hashCombine(seed, f.xDim);
    hashCombine(seed, f.yDim);
    hashCombine(seed, f.indices);
    hashCombine(seed, f.reductions);
    hashCombine(seed, f.areaWeighted);
    hashCombine(seed, f.units);
    return seed;
}

} // namespace

FrameKey keyOf(const FrameSpec& spec) {
    FrameKey k{spec.file,    spec.variable,   spec.xDim,         spec.yDim,
               spec.indices, spec.reductions, spec.areaWeighted, spec.units};
    std::sort(k.indices.begin(), k.indices.end());
    return k;
}

} // namespace strata

std::size_t std::hash<strata::FrameKey>::operator()(const strata::FrameKey& k) const noexcept {
    return strata::hashFrameFields(0, k);
}

std::size_t std::hash<strata::FrameSpec>::operator()(const strata::FrameSpec& s) const noexcept {
    // Over the fields as they are (indices in their order), as == compares them; and the files.
    std::size_t seed = 0;
    for (const std::string& f : s.files) strata::hashCombine(seed, f);
    return strata::hashFrameFields(seed, s);
}
