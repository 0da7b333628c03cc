// histogramCpu: counts of finite values in equal bins over [lo, hi]; per-chunk counts
// added in chunk order (integers, so the order does not matter anyway).
#include <algorithm>
#include <cmath>
#include <vector>

#include "backend.h"
#include "cpu/flat.h"
#include "cpu/thread_pool.h"
#include "strata/core/detail/dtype_visit.h"

namespace strata::detail {
namespace {

// bin = trunc((v − lo) · bins / (hi − lo)), v == hi in the last bin; the CUDA backend uses
// the same expression, so both put a value on a bin edge in the same bin.
template <class T>
void histogramTyped(const ArrayView& in, int bins, double lo, double hi, std::int64_t* out) {
    const cpu::Flat f = cpu::flatten(in);
    const T* src = static_cast<const T*>(in.data);
    const double scale = hi > lo ? bins / (hi - lo) : 0.0;
    const std::int64_t chunks = cpu::chunksFor(f.total, std::int64_t(1) << 17);
    const std::int64_t step = (f.total + chunks - 1) / chunks;
    std::vector<std::vector<std::int64_t>> counts(static_cast<std::size_t>(chunks));
    cpu::forEachChunk(chunks, [&](std::int64_t c) {
        auto& mine = counts[static_cast<std::size_t>(c)];
        mine.assign(static_cast<std::size_t>(bins), 0);
        const std::int64_t a = c * step, b = std::min(f.total, a + step);
        cpu::forFlatSegments(f, a, b, [&](std::int64_t off, std::int64_t, std::int64_t len) {
            const T* x = src + off;
            for (std::int64_t i = 0; i < len; ++i) {
                const double v = static_cast<double>(x[i * f.rowStride]);
                if (!(v >= lo && v <= hi)) continue; // NaN, ±inf (lo, hi are finite) and outside
                int k = static_cast<int>((v - lo) * scale);
                k = k >= bins ? bins - 1 : (k < 0 ? 0 : k);
                ++mine[static_cast<std::size_t>(k)];
            }
        });
    });
    std::fill(out, out + bins, 0);
    for (const auto& mine : counts)
        for (int k = 0; k < bins; ++k) out[k] += mine[static_cast<std::size_t>(k)];
}

} // namespace

void histogramCpu(const ArrayView& in, int bins, double lo, double hi, std::int64_t* out) {
    if (in.size() == 0) {
        std::fill(out, out + bins, 0);
        return;
    }
    visitNumeric(in.dtype, [&](auto tag) { histogramTyped<decltype(tag)>(in, bins, lo, hi, out); });
}

} // namespace strata::detail
