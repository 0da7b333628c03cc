// The strided gather behind isel/transpose: any view into a C-order copy. Works on element
// sizes (the dtype does not matter). One or two collapsed dims with unit inner stride go to
// the copy engine (cudaMemcpyAsync / cudaMemcpy2DAsync); otherwise a kernel with the inner
// dim across threads and the next dim across blocks (no division per element), or, when
// the inner dim is short, a flat kernel with multiply-shift division.
#include <cstdint>

#include "backend.h"
#include "cuda/index.cuh"
#include "cuda/launch.h"

namespace strata::detail {
namespace {

using cuda::i64;

struct GatherArgs {
    const void* in = nullptr;
    void* out = nullptr;
    cuda::Dims outer; // dims before the last two
    i64 O = 1, M = 1, sm = 0, L = 1, s = 0;
};

template <class E> __global__ void __launch_bounds__(256) gatherKernel(const GatherArgs a) {
    const E* in = static_cast<const E*>(a.in);
    E* out = static_cast<E*>(a.out);
    for (i64 z = blockIdx.z; z < a.O; z += gridDim.z) {
        i64 zoff = 0, unused = 0;
        cuda::unravelDims(z, a.outer, zoff, unused);
        for (i64 y = blockIdx.y; y < a.M; y += gridDim.y) {
            const E* src = in + zoff + y * a.sm;
            E* dst = out + (z * a.M + y) * a.L;
            for (i64 x = i64(blockIdx.x) * blockDim.x + threadIdx.x; x < a.L;
                 x += i64(gridDim.x) * blockDim.x)
                dst[x] = src[x * a.s];
        }
    }
}

// n / d for n < 2^31 by a multiply and a shift (d < 2^31).
struct FastDiv {
    unsigned d = 1, m = 1, shift = 0;
    static FastDiv make(unsigned d) {
        FastDiv f;
        f.d = d;
        while ((1u << f.shift) < d) ++f.shift;
        f.m = unsigned(((std::uint64_t(1) << 32) * ((std::uint64_t(1) << f.shift) - d)) / d + 1);
        return f;
    }
    __device__ __forceinline__ unsigned div(unsigned n) const { return (__umulhi(n, m) + n) >> shift; }
};

struct FlatArgs {
    const void* in = nullptr;
    void* out = nullptr;
    int nd = 0;
    FastDiv div[kMaxDims];
    i64 stride[kMaxDims] = {};
    unsigned n = 0;
};

template <class E> __global__ void __launch_bounds__(256) flatGatherKernel(const FlatArgs a) {
    const E* in = static_cast<const E*>(a.in);
    E* out = static_cast<E*>(a.out);
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < a.n; i += gridDim.x * blockDim.x) {
        unsigned rest = i;
        i64 off = 0;
        for (int d = a.nd - 1; d >= 0; --d) {
            const unsigned q = a.div[d].div(rest);
            off += i64(rest - q * a.div[d].d) * a.stride[d];
            rest = q;
        }
        out[i] = in[off];
    }
}

template <class E> void gather(const cuda::Dims& d, const void* in, void* out, i64 n, cudaStream_t s) {
    const i64 L = d.shape[d.n - 1];
    if (L < 32 && n < (i64(1) << 31)) {
        FlatArgs f;
        f.in = in;
        f.out = out;
        f.nd = d.n;
        f.n = unsigned(n);
        for (int i = 0; i < d.n; ++i) {
            f.div[i] = FastDiv::make(unsigned(d.shape[i]));
            f.stride[i] = d.stride[i];
        }
        const i64 blocks = std::min<i64>(cuda::ceilDiv(n, 256), i64(cuda::multiprocessors()) * 16);
        flatGatherKernel<E><<<unsigned(blocks), 256, 0, s>>>(f);
        STRATA_CUDA_CHECK_LAUNCH("flatGatherKernel");
        return;
    }
    GatherArgs a;
    a.in = in;
    a.out = out;
    a.L = L;
    a.s = d.stride[d.n - 1];
    if (d.n >= 2) {
        a.M = d.shape[d.n - 2];
        a.sm = d.stride[d.n - 2];
    }
    a.outer = d;
    a.outer.n = d.n >= 2 ? d.n - 2 : 0;
    a.O = a.outer.size();
    const dim3 grid(unsigned(std::min<i64>(cuda::ceilDiv(L, 256), 1 << 20)),
                    unsigned(std::min<i64>(a.M, 65535)), unsigned(std::min<i64>(a.O, 65535)));
    gatherKernel<E><<<grid, 256, 0, s>>>(a);
    STRATA_CUDA_CHECK_LAUNCH("gatherKernel");
}

} // namespace

void contiguousCuda(const ArrayView& in, void* out, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const cudaStream_t s = cuda::streamOf(stream);
    const i64 n = in.size();
    if (n == 0) return;
    const std::size_t es = sizeOf(in.dtype);
    const cuda::Dims d = cuda::collapse(in, ArrayView{}, 0, in.ndim);
    if (d.n == 0 || (d.n == 1 && d.stride[0] == 1)) {
        STRATA_CUDA_TRY(cudaMemcpyAsync(out, in.data, std::size_t(n) * es, cudaMemcpyDeviceToDevice, s));
        return;
    }
    if (d.n == 2 && d.stride[1] == 1 && d.stride[0] >= d.shape[1]) {
        const std::size_t width = std::size_t(d.shape[1]) * es;
        STRATA_CUDA_TRY(cudaMemcpy2DAsync(out, width, in.data, std::size_t(d.stride[0]) * es, width,
                                          std::size_t(d.shape[0]), cudaMemcpyDeviceToDevice, s));
        return;
    }
    switch (es) {
    case 1:
        gather<std::uint8_t>(d, in.data, out, n, s);
        break;
    case 2:
        gather<std::uint16_t>(d, in.data, out, n, s);
        break;
    case 4:
        gather<std::uint32_t>(d, in.data, out, n, s);
        break;
    case 8:
        gather<std::uint64_t>(d, in.data, out, n, s);
        break;
    default:
        STRATA_FAIL(ValueError, "contiguous: unsupported element size " + std::to_string(es));
    }
}

} // namespace strata::detail
