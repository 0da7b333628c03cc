// Colour-maps a 2-D frame into RGBA8: t = (v − vmin) / (vmax − vmin) in double (the exact
// division of the formula, as the CPU does: a frame is ~1e6 pixels, so it costs well under a
// microsecond), index = clamp(floor(t · n), 0, n − 1); NaN → nanColour; where set,
// v < vmin → under and v > vmax → over; vmax <= vmin (or a NaN range) → entry 0. The range is read on the
// device when given (a minmax() result).
#include <cstring>

#include "backend.h"
#include "cuda/device.cuh"
#include "cuda/launch.h"

namespace strata::detail {
namespace {

using cuda::i64;

struct ColormapArgs {
    const void* frame = nullptr;
    i64 h = 0, w = 0, sy = 0, sx = 0;
    const unsigned char* lut = nullptr;
    int n = 0;
    double vmin = 0, vmax = 1;
    const double* range = nullptr;
    unsigned nan = 0; // the NaN colour's bytes
    bool hasUnder = false, hasOver = false;
    unsigned under = 0, over = 0;
    unsigned char* out = nullptr;
};

template <bool Aligned> __device__ __forceinline__ unsigned lutEntry(const unsigned char* lut, int i) {
    if constexpr (Aligned)
        return reinterpret_cast<const unsigned*>(lut)[i];
    else {
        const unsigned char* p = lut + 4 * i;
        return unsigned(p[0]) | unsigned(p[1]) << 8 | unsigned(p[2]) << 16 | unsigned(p[3]) << 24;
    }
}

template <class T, bool Aligned> __global__ void __launch_bounds__(256) colormapKernel(const ColormapArgs a) {
    const i64 x = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (x >= a.w) return;
    double lo = a.vmin, hi = a.vmax;
    if (a.range) {
        lo = a.range[0];
        hi = a.range[1];
    }
    const bool flat = !(hi > lo);
    const double span = hi - lo;
    const double n = double(a.n);
    const T* frame = static_cast<const T*>(a.frame);
    for (i64 y = blockIdx.y; y < a.h; y += gridDim.y) {
        const T v = frame[y * a.sy + x * a.sx];
        unsigned c;
        if (cuda::isNan(v)) {
            c = a.nan;
        } else if (flat) {
            c = lutEntry<Aligned>(a.lut, 0);
        } else if (a.hasUnder && double(v) < lo) {
            c = a.under;
        } else if (a.hasOver && double(v) > hi) {
            c = a.over;
        } else {
            const double t = (double(v) - lo) / span;
            const double f = floor(t * n);
            const int i = f >= 0 ? (f > n - 1 ? a.n - 1 : int(f)) : 0; // NaN t → 0
            c = lutEntry<Aligned>(a.lut, i);
        }
        const i64 o = y * a.w + x;
        if constexpr (Aligned) {
            reinterpret_cast<unsigned*>(a.out)[o] = c;
        } else {
            unsigned char* p = a.out + 4 * o;
            p[0] = c & 0xff;
            p[1] = (c >> 8) & 0xff;
            p[2] = (c >> 16) & 0xff;
            p[3] = c >> 24;
        }
    }
}

} // namespace

void colormapCuda(const ColormapProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    STRATA_EXPECTS(p.frame.ndim == 2, ValueError, "colormap needs a 2-D frame");
    STRATA_EXPECTS(p.lutSize > 0, ValueError, "colormap needs a LUT of at least one entry");
    ColormapArgs a;
    a.frame = p.frame.data;
    a.h = p.frame.shape[0];
    a.w = p.frame.shape[1];
    a.sy = p.frame.strides[0];
    a.sx = p.frame.strides[1];
    a.lut = reinterpret_cast<const unsigned char*>(p.lut);
    a.n = p.lutSize;
    a.vmin = p.vmin;
    a.vmax = p.vmax;
    a.range = p.range;
    std::memcpy(&a.nan, &p.nanColour, 4);
    a.hasUnder = p.hasUnder;
    a.hasOver = p.hasOver;
    std::memcpy(&a.under, &p.underColour, 4);
    std::memcpy(&a.over, &p.overColour, 4);
    a.out = reinterpret_cast<unsigned char*>(p.out);
    if (a.h == 0 || a.w == 0) return;
    const bool aligned =
        reinterpret_cast<std::uintptr_t>(p.lut) % 4 == 0 && reinterpret_cast<std::uintptr_t>(p.out) % 4 == 0;
    const dim3 block(256);
    const dim3 grid(unsigned(cuda::ceilDiv(a.w, 256)), unsigned(std::min<i64>(a.h, 65535)));
    STRATA_EXPECTS(cuda::ceilDiv(a.w, 256) < (i64(1) << 31), ValueError, "colormap frame too wide");
    const cudaStream_t s = cuda::streamOf(stream);
    visitNumeric(p.frame.dtype, [&](auto tag) {
        using T = decltype(tag);
        if (aligned)
            colormapKernel<T, true><<<grid, block, 0, s>>>(a);
        else
            colormapKernel<T, false><<<grid, block, 0, s>>>(a);
        STRATA_CUDA_CHECK_LAUNCH("colormapKernel");
    });
}

} // namespace strata::detail
