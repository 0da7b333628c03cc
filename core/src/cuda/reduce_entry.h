#pragma once
// The reduction families, one .cu file each (so they compile in parallel and stay small).
#include "cuda/plan.h"
#include "strata/core/stream.h"

namespace strata::cuda {
void reduceSums(const ReducePlan& plan, Stream stream);    // sum, mean, count
void reduceMoments(const ReducePlan& plan, Stream stream); // std, var
void reduceMin(const ReducePlan& plan, Stream stream);
void reduceMax(const ReducePlan& plan, Stream stream);
void reduceArgMin(const ReducePlan& plan, Stream stream);
void reduceArgMax(const ReducePlan& plan, Stream stream);
// Weighted mean with float32 or float64 weights (others are converted first).
void reduceWeightedF32(const ReducePlan& plan, Stream stream);
void reduceWeightedF64(const ReducePlan& plan, Stream stream);
} // namespace strata::cuda
