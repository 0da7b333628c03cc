#pragma once
// Conversion of integer weights to float64 for the weighted-mean kernels.
#include <cuda_runtime.h>

#include <cstdint>

#include "strata/core/array_view.h"

namespace strata::cuda {
// Elements of `w` over its dims of non-zero stride.
std::int64_t compactWeightCount(const ArrayView& w);
// Writes those elements as float64 (C order over those dims) into `out` on `stream`; returns
// the view of `out` with w's shape (zero strides where w had them).
ArrayView convertWeights(const ArrayView& w, double* out, cudaStream_t stream);
} // namespace strata::cuda
