// Standard deviation and variance (ddof = 0) in one pass.
#include "cuda/reduce_entry.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::cuda {

void reduceMoments(const ReducePlan& plan, Stream stream) {
    const StoreInfo st{plan.out, plan.outType, plan.op};
    visitNumeric(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        runReduce<MomentAcc, T, NoWeight>(plan, st, stream);
    });
}

} // namespace strata::cuda
