// The cells of a HEALPix grid under a map's pixels: one thread a pixel (healpix_map_backend.h).
#include <cuda_runtime.h>

#include <string>

#include "../healpix_map_backend.h"
#include "strata/core/error.h"

namespace strata::detail {
namespace {

__global__ void __launch_bounds__(256) healpixIndexKernel(const HealpixMapProblem p, std::int64_t* out) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t j = blockIdx.y;
    if (i >= p.pixels.width) return;
    out[j * p.pixels.width + i] = healpixIndexAt(p, p.pixels.x(i), p.pixels.y(j));
}

} // namespace

void healpixIndexCuda(const HealpixMapProblem& p, std::int64_t* out) {
    if (p.pixels.width <= 0 || p.pixels.height <= 0) return;
    const dim3 grid(static_cast<unsigned>((p.pixels.width + 255) / 256),
                    static_cast<unsigned>(p.pixels.height));
    healpixIndexKernel<<<grid, dim3(256), 0, static_cast<cudaStream_t>(p.stream)>>>(p, out);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess)
        STRATA_FAIL(CudaError, std::string("the HEALPix index kernel's launch failed: ") +
                                   cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

} // namespace strata::detail
