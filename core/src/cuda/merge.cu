// Merge steps of streamed reductions on a CUDA device (see MergeProblem).
#define STRATA_HD __host__ __device__
#include "../merge.inc.h"
#include "launch.h"

#include <algorithm>

namespace strata::detail {
namespace {

__global__ void mergeKernel(MergeProblem p) {
    for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; i < p.n;
         i += std::int64_t(gridDim.x) * blockDim.x)
        mergeElement(p, i);
}

} // namespace

void mergeCuda(const MergeProblem& p, Stream stream) {
    if (p.n == 0) return;
    const int threads = 256;
    const int blocks = int(std::min<std::int64_t>((p.n + threads - 1) / threads, 65536));
    cuda::DeviceGuard guard(stream);
    mergeKernel<<<blocks, threads, 0, cuda::streamOf(stream)>>>(p);
    STRATA_CUDA_CHECK_LAUNCH("mergeKernel");
}

} // namespace strata::detail
