// Flat index of the minimum, NaN skipped, first on ties.
#include "cuda/reduce_entry.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::cuda {

void reduceArgMin(const ReducePlan& plan, Stream stream) {
    const StoreInfo st{plan.out, plan.outType, plan.op};
    visitNumeric(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        runReduce<ArgAcc<T, false>, T, NoWeight>(plan, st, stream);
    });
}

} // namespace strata::cuda
