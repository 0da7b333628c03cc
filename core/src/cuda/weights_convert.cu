// Weights of integer types, converted once to compact float64 over their own (non-broadcast)
// dims, so the weighted-mean kernels need only float32 and float64 weights.
#include "cuda/device.cuh"
#include "cuda/launch.h"
#include "cuda/weights_convert.h"

namespace strata::cuda {
namespace {

struct ConvertArgs {
    const void* w = nullptr;
    DType type = DType::Float64;
    int nd = 0;
    i64 shape[kMaxDims] = {}, stride[kMaxDims] = {};
    i64 n = 0;
    double* out = nullptr;
};

__global__ void __launch_bounds__(256) convertKernel(const ConvertArgs a) {
    for (i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += i64(gridDim.x) * blockDim.x) {
        i64 rest = i, off = 0;
        for (int d = a.nd - 1; d >= 0; --d) {
            const i64 q = rest / a.shape[d];
            off += (rest - q * a.shape[d]) * a.stride[d];
            rest = q;
        }
        a.out[i] = loadAsDouble(a.w, a.type, off);
    }
}

} // namespace

std::int64_t compactWeightCount(const ArrayView& w) {
    i64 n = 1;
    for (int d = 0; d < w.ndim; ++d)
        if (w.strides[d] != 0) n *= w.shape[d];
    return n;
}

ArrayView convertWeights(const ArrayView& w, double* out, cudaStream_t stream) {
    ConvertArgs a;
    a.w = w.data;
    a.type = w.dtype;
    a.out = out;
    ArrayView compact = w;
    compact.data = out;
    compact.dtype = DType::Float64;
    i64 stride = 1;
    for (int d = w.ndim - 1; d >= 0; --d) {
        if (w.strides[d] == 0) continue;
        compact.strides[d] = stride;
        stride *= w.shape[d];
    }
    for (int d = 0; d < w.ndim; ++d) {
        if (w.strides[d] == 0) continue;
        a.shape[a.nd] = w.shape[d];
        a.stride[a.nd] = w.strides[d];
        ++a.nd;
    }
    a.n = stride;
    if (a.n == 0) return compact;
    const i64 blocks = std::min<i64>(ceilDiv(a.n, 256), i64(multiprocessors()) * 8);
    convertKernel<<<unsigned(blocks), 256, 0, stream>>>(a);
    STRATA_CUDA_CHECK_LAUNCH("convertKernel");
    return compact;
}

} // namespace strata::cuda
