// A HEALPix frame drawn as a map: one thread a pixel (healpix_map_backend.h).
#include <cuda_runtime.h>

#include <string>

#include "../healpix_map_backend.h"
#include "strata/core/error.h"

namespace strata::detail {
namespace {

template <class T> __global__ void __launch_bounds__(256) healpixMapKernel(const HealpixMapProblem p) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t j = blockIdx.y;
    if (i >= p.pixels.width) return;
    const std::int64_t k = healpixIndexAt(p, p.pixels.x(i), p.pixels.y(j));
    static_cast<T*>(p.dst)[j * p.pixels.width + i] =
        k >= 0 ? static_cast<const T*>(p.src)[k * p.stride] : static_cast<T>(p.fill);
}

} // namespace

void healpixMapCuda(const HealpixMapProblem& p) {
    if (p.pixels.width <= 0 || p.pixels.height <= 0) return;
    const dim3 block(256),
        grid(static_cast<unsigned>((p.pixels.width + 255) / 256), static_cast<unsigned>(p.pixels.height));
    auto stream = static_cast<cudaStream_t>(p.stream);
    if (p.cellBytes == 8)
        healpixMapKernel<unsigned long long><<<grid, block, 0, stream>>>(p);
    else
        healpixMapKernel<unsigned><<<grid, block, 0, stream>>>(p);
    const cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess)
        STRATA_FAIL(CudaError, std::string("the HEALPix map kernel's launch failed: ") +
                                   cudaGetErrorName(status) + " (" + cudaGetErrorString(status) + ")");
}

} // namespace strata::detail
