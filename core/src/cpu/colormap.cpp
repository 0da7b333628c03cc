// colormapCpu: t = (v − vmin) / (vmax − vmin) in double, index = clamp(floor(t·n), 0, n−1),
// NaN → nanColour, vmax <= vmin (or a NaN range) → entry 0 — the CUDA backend's formula.
// floor is not called: for t·n in [0, n) truncation is floor, and below 0 (or NaN) / at or
// above n the clamp decides, which gives the same index for every input.
#include <algorithm>
#include <cstring>
#include <vector>

#include "backend.h"
#include "cpu/kernels.h"
#include "cpu/thread_pool.h"
#include "strata/core/detail/dtype_visit.h"

namespace strata::detail {
namespace {

template <class T> void colormapTyped(const ColormapProblem& p) {
    const T* frame = static_cast<const T*>(p.frame.data);
    const std::int64_t h = p.frame.shape[0], w = p.frame.shape[1];
    const std::int64_t sy = p.frame.strides[0], sx = p.frame.strides[1];
    double lo = p.vmin, hi = p.vmax;
    if (p.range) {
        lo = p.range[0];
        hi = p.range[1];
    }
    const bool flat = !(hi > lo);
    const double span = hi - lo, n = p.lutSize, top = p.lutSize - 1;
    std::uint32_t lut[256];
    std::vector<std::uint32_t> bigLut;
    if (p.lutSize > 256) bigLut.resize(static_cast<std::size_t>(p.lutSize));
    std::uint32_t* table = p.lutSize > 256 ? bigLut.data() : lut;
    std::memcpy(table, p.lut, static_cast<std::size_t>(p.lutSize) * 4);
    std::uint32_t nanBits;
    std::memcpy(&nanBits, &p.nanColour, 4);
    std::uint32_t* out = reinterpret_cast<std::uint32_t*>(p.out);
    cpu::parallelFor(h, std::max<std::int64_t>(1, 32768 / std::max<std::int64_t>(1, w)),
                     [&](std::int64_t y0, std::int64_t y1) {
                         alignas(64) std::int32_t idx[512];
                         for (std::int64_t y = y0; y < y1; ++y) {
                             const T* row = frame + y * sy;
                             std::uint32_t* o = out + y * w;
                             for (std::int64_t x0 = 0; x0 < w; x0 += 512) {
                                 const int m = static_cast<int>(std::min<std::int64_t>(512, w - x0));
                                 // Indices first (a loop that vectorises), then the table look-ups.
                                 if (flat) {
                                     for (int i = 0; i < m; ++i) idx[i] = 0;
                                 } else if (sx == 1) {
                                     for (int i = 0; i < m; ++i) {
                                         const double tn = (static_cast<double>(row[x0 + i]) - lo) / span * n;
                                         const double c = tn >= 0 ? (tn < n ? tn : top) : 0.0;
                                         idx[i] = static_cast<std::int32_t>(c);
                                     }
                                 } else {
                                     for (int i = 0; i < m; ++i) {
                                         const double tn =
                                             (static_cast<double>(row[(x0 + i) * sx]) - lo) / span * n;
                                         const double c = tn >= 0 ? (tn < n ? tn : top) : 0.0;
                                         idx[i] = static_cast<std::int32_t>(c);
                                     }
                                 }
                                 for (int i = 0; i < m; ++i) {
                                     const T v = row[(x0 + i) * sx];
                                     o[x0 + i] = cpu::okBit(v) ? table[idx[i]] : nanBits;
                                 }
                             }
                         }
                     });
}

} // namespace

void colormapCpu(const ColormapProblem& p) {
    if (p.frame.size() == 0) return;
    visitNumeric(p.frame.dtype, [&](auto tag) { colormapTyped<decltype(tag)>(p); });
}

} // namespace strata::detail
