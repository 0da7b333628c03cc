// Maximum, NaN skipped.
#include "cuda/reduce_entry.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::cuda {

void reduceMax(const ReducePlan& plan, Stream stream) {
    const StoreInfo st{plan.out, plan.outType, plan.op};
    visitNumeric(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        runReduce<ExtremeAcc<T, true>, T, NoWeight>(plan, st, stream);
    });
}

} // namespace strata::cuda
