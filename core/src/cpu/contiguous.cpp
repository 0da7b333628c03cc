// contiguousCpu: the strided gather behind isel/transpose, by element size, in parallel.
#include <cstring>

#include "backend.h"
#include "cpu/flat.h"
#include "cpu/thread_pool.h"

namespace strata::detail {
namespace {

template <class E> void gather(const ArrayView& in, void* out) {
    const cpu::Flat f = cpu::flatten(in);
    const E* src = static_cast<const E*>(in.data);
    E* dst = static_cast<E*>(out);
    // Strided reads cost a cache line each: smaller pieces keep every thread busy.
    const std::int64_t grain = f.rowStride == 1 ? std::int64_t(1) << 16 : std::int64_t(1) << 12;
    const bool farApart = f.rowStride * std::int64_t(sizeof(E)) >= 64;
    cpu::parallelFor(f.total, grain, [&](std::int64_t a, std::int64_t b) {
        cpu::forFlatSegments(f, a, b, [&](std::int64_t off, std::int64_t flat, std::int64_t len) {
            const E* s = src + off;
            E* d = dst + flat;
            if (f.rowStride == 1) {
                std::memcpy(d, s, static_cast<std::size_t>(len) * sizeof(E));
            } else {
                const std::int64_t st = f.rowStride;
                if (farApart) {
                    // One line per element: ask for the lines well ahead of their use.
                    constexpr std::int64_t ahead = 24;
                    for (std::int64_t i = 0; i < len; ++i) {
                        if (i + ahead < len) __builtin_prefetch(s + (i + ahead) * st);
                        d[i] = s[i * st];
                    }
                } else {
                    for (std::int64_t i = 0; i < len; ++i) d[i] = s[i * st];
                }
            }
        });
    });
}

} // namespace

void contiguousCpu(const ArrayView& in, void* out) {
    if (in.size() == 0) return;
    switch (sizeOf(in.dtype)) {
    case 1:
        gather<std::uint8_t>(in, out);
        break;
    case 2:
        gather<std::uint16_t>(in, out);
        break;
    case 4:
        gather<std::uint32_t>(in, out);
        break;
    default:
        gather<std::uint64_t>(in, out);
        break;
    }
}

} // namespace strata::detail
