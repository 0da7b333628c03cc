// Entry points of the CUDA reductions: plan on the host, then the family's kernels.
#include "backend.h"
#include "cuda/launch.h"
#include "cuda/reduce_entry.h"
#include "cuda/weights_convert.h"

namespace strata::detail {

void reduceCuda(const ReduceProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const cuda::ReducePlan plan = cuda::planReduce(p);
    switch (p.op) {
    case ReduceOp::Sum:
    case ReduceOp::Mean:
    case ReduceOp::Count:
        cuda::reduceSums(plan, stream);
        break;
    case ReduceOp::Std:
    case ReduceOp::Var:
        cuda::reduceMoments(plan, stream);
        break;
    case ReduceOp::Min:
        cuda::reduceMin(plan, stream);
        break;
    case ReduceOp::Max:
        cuda::reduceMax(plan, stream);
        break;
    case ReduceOp::ArgMin:
        cuda::reduceArgMin(plan, stream);
        break;
    case ReduceOp::ArgMax:
        cuda::reduceArgMax(plan, stream);
        break;
    }
}

void weightedMeanCuda(const ReduceProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    STRATA_EXPECTS(p.weights.data != nullptr || p.in.size() == 0, ValueError, "weighted mean needs weights");
    if (p.weights.dtype == DType::Float32) {
        cuda::reduceWeightedF32(cuda::planReduce(p), stream);
    } else if (p.weights.dtype == DType::Float64) {
        cuda::reduceWeightedF64(cuda::planReduce(p), stream);
    } else {
        cuda::Scratch compact(std::size_t(cuda::compactWeightCount(p.weights)) * sizeof(double), stream);
        ReduceProblem q = p;
        q.weights = cuda::convertWeights(p.weights, compact.as<double>(), cuda::streamOf(stream));
        cuda::reduceWeightedF64(cuda::planReduce(q), stream);
    }
}

} // namespace strata::detail
