#pragma once
// The reduction families, one .cu file each (so they compile in parallel and stay small).
#include <cuda_runtime.h>

#include "cuda/plan.h"

namespace strata::cuda {
void reduceSums(const ReducePlan& plan, cudaStream_t stream);    // sum, mean, count
void reduceMoments(const ReducePlan& plan, cudaStream_t stream); // std, var
void reduceMin(const ReducePlan& plan, cudaStream_t stream);
void reduceMax(const ReducePlan& plan, cudaStream_t stream);
void reduceArgMin(const ReducePlan& plan, cudaStream_t stream);
void reduceArgMax(const ReducePlan& plan, cudaStream_t stream);
// Weighted mean with float32 or float64 weights (others are converted first).
void reduceWeightedF32(const ReducePlan& plan, cudaStream_t stream);
void reduceWeightedF64(const ReducePlan& plan, cudaStream_t stream);
} // namespace strata::cuda
