// The resampling kernel: one thread per output pixel inverse-projects the pixel's centre with
// the projection's own formulas (projection_math.h), finds the source cell by its edges and
// copies the cell (4 or 8 bytes), or writes the fill off the map and outside the data.
#include <cuda_runtime.h>

#include <string>

#include "../interpolate_math.h"
#include "../reproject_backend.h"
#include "strata/core/error.h"

namespace strata::detail {
namespace {

template <class T> __global__ void __launch_bounds__(256) reprojectKernel(const ReprojectProblem p) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t j = blockIdx.y;
    if (i >= p.pixels.width) return;
    T out = static_cast<T>(p.fill);
    double lon = 0, lat = 0;
    std::int64_t row = 0, col = 0;
    if (projInverse(p.params, p.pixels.x(i), p.pixels.y(j), lon, lat) &&
        sourceCell(p.edges, lon, lat, row, col))
        out = static_cast<const T*>(p.src)[row * p.rowStride + col * p.colStride];
    static_cast<T*>(p.dst)[j * p.pixels.width + i] = out;
}

// One thread per output pixel: the cell the map names, or the fill.
template <class T>
__global__ void __launch_bounds__(256)
    gatherKernel(const ReprojectProblem p, const std::int64_t* __restrict cells, const std::int64_t ncol) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    const std::int64_t j = blockIdx.y;
    if (i >= p.pixels.width) return;
    const std::int64_t k = j * p.pixels.width + i;
    const std::int64_t cell = cells[k];
    T out = static_cast<T>(p.fill);
    if (cell >= 0)
        out = static_cast<const T*>(p.src)[(cell / ncol) * p.rowStride + (cell % ncol) * p.colStride];
    static_cast<T*>(p.dst)[k] = out;
}

// One thread per output pixel: its value from its nodes' (interpolate_math.h).
template <class T>
__global__ void __launch_bounds__(256)
    interpolateKernel(const T* __restrict src, std::int64_t stride, const std::int32_t* __restrict nodes,
                      const float* __restrict weights, int k, std::int64_t n, T* __restrict dst) {
    const std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= n) return;
    dst[i] = interpolateNodes(src, stride, nodes + i * k, weights + i * k, k);
}

__global__ void inverseKernel(const ProjParams p, const double* x, const double* y, double* lon, double* lat,
                              std::int64_t n) {
    const std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= n) return;
    double a = 0, b = 0;
    if (!projInverse(p, x[k], y[k], a, b)) a = b = __longlong_as_double(0x7ff8000000000000ll);
    lon[k] = a;
    lat[k] = b;
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        STRATA_FAIL(CudaError, std::string(what) + " failed: " + cudaGetErrorName(status) + " (" +
                                   cudaGetErrorString(status) + ")");
}

} // namespace

void reprojectCuda(const ReprojectProblem& p) {
    if (p.pixels.width <= 0 || p.pixels.height <= 0) return;
    const dim3 block(256),
        grid(static_cast<unsigned>((p.pixels.width + 255) / 256), static_cast<unsigned>(p.pixels.height));
    auto stream = static_cast<cudaStream_t>(p.stream);
    if (p.cellBytes == 8)
        reprojectKernel<unsigned long long><<<grid, block, 0, stream>>>(p);
    else
        reprojectKernel<unsigned><<<grid, block, 0, stream>>>(p);
    check(cudaGetLastError(), "the reprojection kernel's launch");
}

void gatherCuda(const ReprojectProblem& p, const std::int64_t* cells, std::int64_t ncol) {
    if (p.pixels.width <= 0 || p.pixels.height <= 0) return;
    const dim3 block(256),
        grid(static_cast<unsigned>((p.pixels.width + 255) / 256), static_cast<unsigned>(p.pixels.height));
    auto stream = static_cast<cudaStream_t>(p.stream);
    if (p.cellBytes == 8)
        gatherKernel<unsigned long long><<<grid, block, 0, stream>>>(p, cells, ncol);
    else
        gatherKernel<unsigned><<<grid, block, 0, stream>>>(p, cells, ncol);
    check(cudaGetLastError(), "the reprojection gather kernel's launch");
}

void interpolateCuda(const void* src, std::int64_t stride, int valueBytes, const std::int32_t* nodes,
                     const float* weights, int nodesPerPixel, std::int64_t n, void* dst, void* stream) {
    if (n <= 0) return;
    const auto blocks = static_cast<unsigned>((n + 255) / 256);
    auto s = static_cast<cudaStream_t>(stream);
    if (valueBytes == 8)
        interpolateKernel<<<blocks, 256, 0, s>>>(static_cast<const double*>(src), stride, nodes, weights,
                                                 nodesPerPixel, n, static_cast<double*>(dst));
    else
        interpolateKernel<<<blocks, 256, 0, s>>>(static_cast<const float*>(src), stride, nodes, weights,
                                                 nodesPerPixel, n, static_cast<float*>(dst));
    check(cudaGetLastError(), "the node interpolation kernel's launch");
}

void inverseCuda(const ProjParams& params, const double* x, const double* y, double* lon, double* lat,
                 std::int64_t n, void* stream) {
    if (n <= 0) return;
    inverseKernel<<<static_cast<unsigned>((n + 255) / 256), 256, 0, static_cast<cudaStream_t>(stream)>>>(
        params, x, y, lon, lat, n);
    check(cudaGetLastError(), "the inverse projection kernel's launch");
}

} // namespace strata::detail
