// Sum, mean and count reductions.
#include "cuda/reduce_entry.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::cuda {

void reduceSums(const ReducePlan& plan, Stream stream) {
    const StoreInfo st{plan.out, plan.outType, plan.op};
    visitNumeric(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        runReduce<SumAcc, T, NoWeight>(plan, st, stream);
    });
}

} // namespace strata::cuda
