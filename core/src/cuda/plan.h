#pragma once
// Host-side shaping of problems before launch: dims of length 1 dropped, adjacent dims that
// walk memory as one merged, so kernels see the fewest dims (often one or two).
#include <cstdint>

#include "backend.h"

namespace strata::cuda {

// A group of dims with data strides and (optionally) weight strides, in elements.
struct Dims {
    int n = 0;
    std::int64_t shape[kMaxDims] = {};
    std::int64_t stride[kMaxDims] = {};
    std::int64_t wstride[kMaxDims] = {};
    std::int64_t size() const {
        std::int64_t s = 1;
        for (int i = 0; i < n; ++i) s *= shape[i];
        return s;
    }
};

// Dims [first, last) of `v` (and of `w` when w.data is set), length-1 dims dropped and
// mergeable neighbours merged, order kept (so flat indices over them are unchanged).
Dims collapse(const ArrayView& v, const ArrayView& w, int first, int last);

// All dims of `v` ordered by decreasing stride, then collapsed: for order-free work
// (minmax, histogram) a transposed view walks memory as its original did.
Dims collapseAnyOrder(const ArrayView& v);

// A reduction ready for the kernels: kept dims (output order) and reduced dims.
struct ReducePlan {
    const void* data = nullptr;
    DType dtype = DType::Float32;
    const void* weights = nullptr;
    DType wtype = DType::Float64;
    Dims kept, reduced;
    std::int64_t nOut = 0, nRed = 0;
    void* out = nullptr;
    DType outType = DType::Float64;
    ReduceOp op = ReduceOp::Sum;
};

ReducePlan planReduce(const detail::ReduceProblem& p);
// Every dim of `v` reduced, in any order (for minmax).
ReducePlan planWhole(const ArrayView& v);

} // namespace strata::cuda
