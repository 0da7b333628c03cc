#pragma once
// Index arithmetic over collapsed dims (plan.h) in device code.
#include "cuda/device.cuh"
#include "cuda/plan.h"

namespace strata::cuda {

// Offsets (data, weights) of flat index `flat` over dims [0, n) of `d`.
__device__ __forceinline__ void unravel(i64 flat, int n, const Dims& d, i64& off, i64& woff) {
    for (int i = n - 1; i > 0; --i) {
        const i64 q = flat / d.shape[i];
        const i64 r = flat - q * d.shape[i];
        off += r * d.stride[i];
        woff += r * d.wstride[i];
        flat = q;
    }
    if (n > 0) {
        off += flat * d.stride[0];
        woff += flat * d.wstride[0];
    }
}

__device__ __forceinline__ void unravelDims(i64 flat, const Dims& d, i64& off, i64& woff) {
    unravel(flat, d.n, d, off, woff);
}

} // namespace strata::cuda
