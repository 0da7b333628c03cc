// Derived variables on the GPU: the program of derived_program.h, one thread per element (the
// same code the CPU runs). Every thread of a warp runs the same instruction, so the switch does
// not diverge; the inputs' loads are coalesced along the innermost dim.
#include "backend.h"
#include "cuda/device.cuh"
#include "cuda/launch.h"
#include "derived_depth.h"

namespace strata::detail {
namespace {

using cuda::i64;

template <int Depth, class Out>
__global__ void __launch_bounds__(256)
    derivedEvalKernel(const DerivedProgram p, const DerivedBox box, const i64 n, Out* __restrict out) {
    i64 index[kMaxDims];
    for (i64 k = i64(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += i64(gridDim.x) * blockDim.x) {
        derivedBoxIndex(box, p.ndim, k, index);
        out[k] = static_cast<Out>(derivedEval<Depth>(p, index));
    }
}

template <int Depth> __global__ void __launch_bounds__(256) derivedTableKernel(const DerivedTableProblem q) {
    for (i64 p = i64(blockIdx.x) * blockDim.x + threadIdx.x; p < q.points; p += i64(gridDim.x) * blockDim.x)
        derivedTablePoint<Depth>(q, p);
}

__global__ void __launch_bounds__(256) derivedFinishKernel(const DerivedFinishProblem f) {
    for (i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x; i < f.n; i += i64(gridDim.x) * blockDim.x)
        derivedFinishAt(f, i);
}

unsigned blocksFor(i64 n) {
    return unsigned(
        std::max<i64>(1, std::min<i64>(cuda::ceilDiv(n, 256), i64(cuda::multiprocessors()) * 32)));
}

} // namespace

void derivedEvalCuda(const DerivedProgram& p, const DerivedBox& box, std::int64_t n, void* out, DType outType,
                     Stream stream) {
    if (n <= 0) return;
    const cuda::DeviceGuard guard(stream);
    const cudaStream_t s = cuda::streamOf(stream);
    withDepth(p.stack, [&]<int Depth>() {
        if (outType == DType::Float64)
            derivedEvalKernel<Depth, double>
                <<<blocksFor(n), 256, 0, s>>>(p, box, n, static_cast<double*>(out));
        else
            derivedEvalKernel<Depth, float><<<blocksFor(n), 256, 0, s>>>(p, box, n, static_cast<float*>(out));
    });
    STRATA_CUDA_CHECK_LAUNCH("derivedEvalKernel");
}

void derivedTableCuda(const DerivedTableProblem& q, Stream stream) {
    if (q.points <= 0) return;
    const cuda::DeviceGuard guard(stream);
    const cudaStream_t s = cuda::streamOf(stream);
    withDepth(q.program.stack,
              [&]<int Depth>() { derivedTableKernel<Depth><<<blocksFor(q.points), 256, 0, s>>>(q); });
    STRATA_CUDA_CHECK_LAUNCH("derivedTableKernel");
}

void derivedFinishCuda(const DerivedFinishProblem& f, Stream stream) {
    if (f.n <= 0) return;
    const cuda::DeviceGuard guard(stream);
    derivedFinishKernel<<<blocksFor(f.n), 256, 0, cuda::streamOf(stream)>>>(f);
    STRATA_CUDA_CHECK_LAUNCH("derivedFinishKernel");
}

} // namespace strata::detail
