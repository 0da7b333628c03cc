// FaceLocator's tables on a device. They go up on a stream of their own the first time a device
// is searched on; each search's stream waits for the upload (an event), and the tables' stream
// waits for each search in turn, so that when the locator goes the tables are freed (ordered on
// their stream) only after the last search that reads them.
#include <string>

#include "cuda/launch.h"
#include "face_device.h"
#include "strata/core/error.h"

namespace strata::mesh::detail {

struct FaceTablesOnDevice {
    explicit FaceTablesOnDevice(Device d) : own(d) {}
    ~FaceTablesOnDevice() {
        if (ready) cudaEventDestroy(ready); // never throws; pending waits keep what they need
        if (used) cudaEventDestroy(used);
    }
    FaceTablesOnDevice(const FaceTablesOnDevice&) = delete;
    FaceTablesOnDevice& operator=(const FaceTablesOnDevice&) = delete;

    OwnedStream own; // first: destroyed last, after the Buffers' frees are queued on it
    cudaEvent_t ready = nullptr, used = nullptr;
    Buffer xyz, faceNodes, sign, binStart, binFaces;
    FaceTables view; // into the Buffers
};

namespace {

// Throws ValueError unless p is in memory of device `ordinal` (device or managed memory).
void checkOn(const void* p, int ordinal, const char* what) {
    cudaPointerAttributes a{};
    const cudaError_t status = cudaPointerGetAttributes(&a, p);
    if (status != cudaSuccess) cudaGetLastError();
    STRATA_EXPECTS(status == cudaSuccess &&
                       (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) &&
                       a.device == ordinal,
                   ValueError,
                   std::string("FaceLocator::findOnDevice: the ") + what +
                       " are not in memory of cuda:" + std::to_string(ordinal));
}

std::shared_ptr<FaceTablesOnDevice> upload(const FaceTables& host, const FaceTableSizes& n, Device device) {
    auto t = std::make_shared<FaceTablesOnDevice>(device);
    const Stream s = t->own.get();
    const auto up = [&](Buffer& b, const void* from, std::size_t bytes) {
        b = Buffer(bytes, device, s);
        copyBytes(b.data(), device, from, Device::host(), bytes, s);
        return b.data();
    };
    t->view = host;
    t->view.xyz = static_cast<const double*>(up(t->xyz, host.xyz, n.xyz * sizeof(double)));
    t->view.faceNodes = static_cast<const std::int64_t*>(
        up(t->faceNodes, host.faceNodes, n.faceNodes * sizeof(std::int64_t)));
    t->view.sign = static_cast<const std::int8_t*>(up(t->sign, host.sign, n.sign));
    t->view.binStart =
        static_cast<const std::int64_t*>(up(t->binStart, host.binStart, n.binStart * sizeof(std::int64_t)));
    t->view.binFaces =
        static_cast<const std::uint32_t*>(up(t->binFaces, host.binFaces, n.binFaces * sizeof(std::uint32_t)));
    if (!host.binStart) t->view.binStart = nullptr; // no bins: nothing is found
    STRATA_CUDA_TRY(cudaEventCreateWithFlags(&t->ready, cudaEventDisableTiming));
    STRATA_CUDA_TRY(cudaEventCreateWithFlags(&t->used, cudaEventDisableTiming));
    STRATA_CUDA_TRY(cudaEventRecord(t->ready, cuda::streamOf(s)));
    return t;
}

} // namespace

void findFacesCuda(FaceDeviceCache& cache, const FaceTables& host, const FaceTableSizes& sizes,
                   const double* lon, const double* lat, std::int64_t n, std::int64_t* out, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const int ordinal = stream.device().ordinal;
    checkOn(lon, ordinal, "longitudes");
    checkOn(lat, ordinal, "latitudes");
    checkOn(out, ordinal, "faces to write");
    std::lock_guard lock(cache.mutex);
    if (cache.byOrdinal.size() <= std::size_t(ordinal)) cache.byOrdinal.resize(std::size_t(ordinal) + 1);
    std::shared_ptr<FaceTablesOnDevice>& t = cache.byOrdinal[std::size_t(ordinal)];
    if (!t) t = upload(host, sizes, stream.device());
    STRATA_CUDA_TRY(cudaStreamWaitEvent(cuda::streamOf(stream), t->ready, 0));
    launchFindFaces(t->view, lon, lat, n, out, stream);
    STRATA_CUDA_TRY(cudaEventRecord(t->used, cuda::streamOf(stream)));
    STRATA_CUDA_TRY(cudaStreamWaitEvent(cuda::streamOf(t->own.get()), t->used, 0));
}

} // namespace strata::mesh::detail
