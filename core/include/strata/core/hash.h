#pragma once
// Mixing hashes of several fields into one, for the std::hash specialisations of plain structs
// (FrameSpec, FrameKey, the app's view).
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace strata {

// Mixes `v`'s hash into `seed` (boost's hash_combine with a 64-bit constant).
template <class T> void hashCombine(std::size_t& seed, const T& v) {
    seed ^= std::hash<T>{}(v) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

// A list of pairs: its length, then each pair's two halves in order.
template <class A, class B> void hashCombine(std::size_t& seed, const std::vector<std::pair<A, B>>& pairs) {
    hashCombine(seed, pairs.size());
    for (const auto& [a, b] : pairs) {
        hashCombine(seed, a);
        hashCombine(seed, b);
    }
}

} // namespace strata
