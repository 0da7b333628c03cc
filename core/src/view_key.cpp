// keyOf, and the hash of FrameKey.
#include <algorithm>
#include <functional>

#include "strata/core/view.h"

namespace strata {
namespace {

// Mixes `v`'s hash into `seed` (boost's hash_combine with a 64-bit constant).
template <class T> void combine(std::size_t& seed, const T& v) {
    seed ^= std::hash<T>{}(v) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

template <class A, class B> void combine(std::size_t& seed, const std::vector<std::pair<A, B>>& pairs) {
    combine(seed, pairs.size());
    for (const auto& [a, b] : pairs) {
        combine(seed, a);
        combine(seed, b);
    }
}

} // namespace

FrameKey keyOf(const ViewSpec& spec) {
    FrameKey k{spec.file,    spec.variable,   spec.xDim,        spec.yDim,
               spec.indices, spec.reductions, spec.areaWeighted};
    std::sort(k.indices.begin(), k.indices.end());
    return k;
}

} // namespace strata

std::size_t std::hash<strata::FrameKey>::operator()(const strata::FrameKey& k) const noexcept {
    std::size_t seed = 0;
    strata::combine(seed, k.file);
    strata::combine(seed, k.variable);
    strata::combine(seed, k.xDim);
    strata::combine(seed, k.yDim);
    strata::combine(seed, k.indices);
    strata::combine(seed, k.reductions);
    strata::combine(seed, k.areaWeighted);
    return seed;
}
