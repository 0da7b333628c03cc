// The smallest and largest finite values of a whole array, as two doubles on the device:
// the rows/columns reduction with FiniteAcc, its partials merged by a second small kernel
// on the same stream (no host round trip, no atomics).
#include "backend.h"
#include "cuda/reduce_kernels.cuh"

namespace strata::detail {

void minmaxCuda(const ArrayView& in, double* out2, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const cuda::ReducePlan plan = cuda::planWhole(in);
    const cuda::StoreInfo st{out2, DType::Float64, ReduceOp::Min};
    visitNumeric(in.dtype, [&](auto tag) {
        using T = decltype(tag);
        cuda::runReduce<cuda::FiniteAcc<T>, T, cuda::NoWeight>(plan, st, stream);
    });
}

} // namespace strata::detail
