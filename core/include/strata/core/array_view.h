#pragma once
// Plain, trivially copyable descriptions of strided arrays, passed to kernels and CPU loops.
// They own nothing. Strides are in elements and may be zero (broadcast) but not negative.
#include <cstdint>

#include "strata/core/dtype.h"

namespace strata {

inline constexpr int kMaxDims = 8;

struct ArrayView {
    const void* data = nullptr; // first element of the view (offset already applied)
    DType dtype = DType::Float32;
    int ndim = 0;
    std::int64_t shape[kMaxDims] = {};
    std::int64_t strides[kMaxDims] = {};

    std::int64_t size() const {
        std::int64_t n = 1;
        for (int i = 0; i < ndim; ++i) n *= shape[i];
        return n;
    }
};

struct MutableArrayView {
    void* data = nullptr;
    DType dtype = DType::Float32;
    int ndim = 0;
    std::int64_t shape[kMaxDims] = {};
    std::int64_t strides[kMaxDims] = {};
};

} // namespace strata
