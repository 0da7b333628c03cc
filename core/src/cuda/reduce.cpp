// Entry points of the CUDA reductions: plan on the host, then the family's kernels.
#include "backend.h"
#include "cuda/launch.h"
#include "cuda/reduce_entry.h"
#include "cuda/weights_convert.h"

namespace strata::detail {

void reduceCuda(const ReduceProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const cuda::ReducePlan plan = cuda::planReduce(p);
    const cudaStream_t s = cuda::streamOf(stream);
    switch (p.op) {
    case ReduceOp::Sum:
    case ReduceOp::Mean:
    case ReduceOp::Count:
        cuda::reduceSums(plan, s);
        break;
    case ReduceOp::Std:
    case ReduceOp::Var:
        cuda::reduceMoments(plan, s);
        break;
    case ReduceOp::Min:
        cuda::reduceMin(plan, s);
        break;
    case ReduceOp::Max:
        cuda::reduceMax(plan, s);
        break;
    case ReduceOp::ArgMin:
        cuda::reduceArgMin(plan, s);
        break;
    case ReduceOp::ArgMax:
        cuda::reduceArgMax(plan, s);
        break;
    }
}

void weightedMeanCuda(const ReduceProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    STRATA_EXPECTS(p.weights.data != nullptr || p.in.size() == 0, ValueError, "weighted mean needs weights");
    const cudaStream_t s = cuda::streamOf(stream);
    if (p.weights.dtype == DType::Float32) {
        cuda::reduceWeightedF32(cuda::planReduce(p), s);
    } else if (p.weights.dtype == DType::Float64) {
        cuda::reduceWeightedF64(cuda::planReduce(p), s);
    } else {
        cuda::Scratch compact(std::size_t(cuda::compactWeightCount(p.weights)) * sizeof(double), s);
        ReduceProblem q = p;
        q.weights = cuda::convertWeights(p.weights, compact.as<double>(), s);
        cuda::reduceWeightedF64(cuda::planReduce(q), s);
    }
}

} // namespace strata::detail
