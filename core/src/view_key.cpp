// keyOf, and the hashes of FrameKey and ViewSpec.
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

void combine(std::size_t& seed, const Colouring& c) {
    combine(seed, c.colormap);
    combine(seed, c.reversed);
    combine(seed, c.range.mode);
    combine(seed, c.range.fixedMin);
    combine(seed, c.range.fixedMax);
    for (const std::uint8_t channel : {c.nanColour.r, c.nanColour.g, c.nanColour.b, c.nanColour.a})
        combine(seed, channel);
    for (const std::optional<Rgba8>& end : {c.underColour, c.overColour}) {
        combine(seed, end.has_value());
        if (end)
            for (const std::uint8_t channel : {end->r, end->g, end->b, end->a}) combine(seed, channel);
    }
}

void combine(std::size_t& seed, const std::optional<ViewWindow>& w) {
    combine(seed, w.has_value());
    if (!w) return;
    for (const double v : {w->x0, w->x1, w->y0, w->y1}) combine(seed, v);
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

std::size_t std::hash<strata::ViewSpec>::operator()(const strata::ViewSpec& s) const noexcept {
    // Over the fields as they are (indices in their order), as == compares them.
    std::size_t seed = 0;
    strata::combine(seed, s.file);
    strata::combine(seed, s.variable);
    strata::combine(seed, s.xDim);
    strata::combine(seed, s.yDim);
    strata::combine(seed, s.indices);
    strata::combine(seed, s.reductions);
    strata::combine(seed, s.areaWeighted);
    strata::combine(seed, s.colouring);
    strata::combine(seed, s.window);
    return seed;
}
