// FaceLocator's search on the device: a thread a point, each by face_find.h's findFace as the
// host finds it. Built with -fmad=false (core/CMakeLists.txt), so that no multiply-add is fused
// where the host rounds twice.
#include "cuda/launch.h"
#include "face_device.h"

namespace strata::mesh::detail {
namespace {

__global__ void __launch_bounds__(256)
    findKernel(FaceTables t, const double* lon, const double* lat, std::int64_t n, std::int64_t* out) {
    const std::int64_t stride = std::int64_t(gridDim.x) * blockDim.x;
    for (std::int64_t k = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride)
        out[k] = findFace(t, lon[k], lat[k]);
}

} // namespace

void launchFindFaces(const FaceTables& t, const double* lon, const double* lat, std::int64_t n,
                     std::int64_t* out, Stream stream) {
    constexpr int kBlock = 256;
    const std::int64_t blocks = std::min<std::int64_t>(cuda::ceilDiv(n, kBlock), std::int64_t(1) << 30);
    findKernel<<<unsigned(blocks), kBlock, 0, cuda::streamOf(stream)>>>(t, lon, lat, n, out);
    STRATA_CUDA_CHECK_LAUNCH("findKernel");
}

} // namespace strata::mesh::detail
