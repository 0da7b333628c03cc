// Minimum, NaN skipped.
#include "cuda/reduce_entry.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::cuda {

void reduceMin(const ReducePlan& plan, Stream stream) {
    const StoreInfo st{plan.out, plan.outType, plan.op};
    visitNumeric(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        runReduce<ExtremeAcc<T, false>, T, NoWeight>(plan, st, stream);
    });
}

} // namespace strata::cuda
