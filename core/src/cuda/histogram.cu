// Histogram of the finite values in equal bins over [lo, hi]: per-block counts in shared
// memory (global atomics when the bins do not fit), added into the zeroed output. Integer
// sums: the result does not depend on the order of the atomics.
#include "backend.h"
#include "cuda/index.cuh"
#include "cuda/launch.h"
#include "cuda/plan.h"

namespace strata::detail {
namespace {

using cuda::i64;

constexpr int kThreads = 256;
constexpr int kSharedBins = 12288; // 48 KiB of uint32 counters

struct HistArgs {
    const void* data = nullptr;
    cuda::Dims outer; // all dims but the innermost
    i64 L = 0, s = 0; // the innermost dim: length, stride
    i64 P = 0, Q = 1, units = 0;
    int bins = 0;
    double lo = 0, hi = 0, scale = 0; // scale = bins / (hi - lo)
    unsigned long long* out = nullptr;
};

template <class T> __device__ __forceinline__ int binOf(T x, const HistArgs& a) {
    if (!cuda::isFinite(x)) return -1;
    const double v = double(x);
    if (!(v >= a.lo && v <= a.hi)) return -1;
    int b = int((v - a.lo) * a.scale);
    return b >= a.bins ? a.bins - 1 : (b < 0 ? 0 : b);
}

template <class T, bool Shared>
__global__ void __launch_bounds__(kThreads) histogramKernel(const HistArgs a) {
    extern __shared__ unsigned counts[];
    if constexpr (Shared) {
        for (int b = threadIdx.x; b < a.bins; b += blockDim.x) counts[b] = 0;
        __syncthreads();
    }
    for (i64 u = blockIdx.x; u < a.units; u += gridDim.x) {
        const i64 row = a.Q == 1 ? u : u / a.Q;
        const i64 piece = u - row * a.Q;
        i64 off = 0, unused = 0;
        cuda::unravelDims(row, a.outer, off, unused);
        const T* x = static_cast<const T*>(a.data) + off;
        const i64 e1 = min((piece + 1) * a.P, a.L);
        for (i64 e = piece * a.P + threadIdx.x; e < e1; e += blockDim.x) {
            const int b = binOf(x[e * a.s], a);
            if (b >= 0) {
                if constexpr (Shared)
                    atomicAdd(&counts[b], 1u);
                else
                    atomicAdd(&a.out[b], 1ull);
            }
        }
    }
    if constexpr (Shared) {
        __syncthreads();
        for (int b = threadIdx.x; b < a.bins; b += blockDim.x)
            if (counts[b]) atomicAdd(&a.out[b], static_cast<unsigned long long>(counts[b]));
    }
}

} // namespace

void histogramCuda(const ArrayView& in, int bins, double lo, double hi, std::int64_t* out, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const cudaStream_t s = cuda::streamOf(stream);
    STRATA_EXPECTS(bins > 0, ValueError, "histogram needs at least one bin");
    STRATA_CUDA_TRY(cudaMemsetAsync(out, 0, std::size_t(bins) * sizeof(std::int64_t), s));
    if (in.size() == 0 || !(hi >= lo)) return;
    const cuda::Dims d = cuda::collapseAnyOrder(in);
    HistArgs a;
    a.data = in.data;
    a.outer = d;
    a.outer.n = d.n > 0 ? d.n - 1 : 0;
    a.L = d.n > 0 ? d.shape[d.n - 1] : 1;
    a.s = d.n > 0 ? d.stride[d.n - 1] : 0;
    a.P = a.L <= 16384 ? a.L : 16384;
    a.Q = cuda::ceilDiv(a.L, a.P);
    a.units = (in.size() / a.L) * a.Q;
    a.bins = bins;
    a.lo = lo;
    a.hi = hi;
    a.scale = hi > lo ? bins / (hi - lo) : 0.0;
    a.out = reinterpret_cast<unsigned long long*>(out);
    const i64 blocks = std::min<i64>(a.units, i64(cuda::multiprocessors()) * 8);
    visitNumeric(in.dtype, [&](auto tag) {
        using T = decltype(tag);
        if (bins <= kSharedBins) {
            histogramKernel<T, true><<<unsigned(blocks), kThreads, std::size_t(bins) * 4, s>>>(a);
        } else {
            histogramKernel<T, false><<<unsigned(blocks), kThreads, 0, s>>>(a);
        }
        STRATA_CUDA_CHECK_LAUNCH("histogramKernel");
    });
}

} // namespace strata::detail
