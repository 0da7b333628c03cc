// Weighted mean with float32 weights.
#include "cuda/reduce_entry.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::cuda {

void reduceWeightedF32(const ReducePlan& plan, Stream stream) {
    const StoreInfo st{plan.out, plan.outType, plan.op};
    visitNumeric(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        runReduce<WeightedAcc, T, float>(plan, st, stream);
    });
}

} // namespace strata::cuda
