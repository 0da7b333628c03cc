#include "strata/core/stream.h"

#include <mutex>
#include <vector>

#include "cuda_check.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"

namespace strata {

void Stream::synchronize() const {
#if STRATA_HAVE_CUDA
    if (device_.isCuda()) STRATA_CUDA_TRY(cudaStreamSynchronize(static_cast<cudaStream_t>(handle_)));
#endif
}

Stream defaultStream(Device device) {
    if (device.isHost()) return Stream::host();
#if STRATA_HAVE_CUDA
    // One non-blocking stream per device, created on first use and kept for the process's
    // life (destroying it at exit would race the driver's own shutdown).
    static std::mutex mutex;
    static std::vector<cudaStream_t> streams;
    std::lock_guard<std::mutex> lock(mutex);
    STRATA_EXPECTS(device.ordinal >= 0 && device.ordinal < cudaDeviceCount(), ValueError,
                   "no CUDA device " + device.toString());
    if (streams.size() <= static_cast<std::size_t>(device.ordinal))
        streams.resize(device.ordinal + 1, nullptr);
    cudaStream_t& s = streams[device.ordinal];
    if (!s) {
        STRATA_CUDA_TRY(cudaSetDevice(device.ordinal));
        STRATA_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    }
    return Stream::cuda(device.ordinal, s);
#else
    STRATA_FAIL(ValueError, "this build has no CUDA backend: no stream for " + device.toString());
#endif
}

OwnedStream::OwnedStream(Device device) : stream_(Stream::host()) {
    if (device.isHost()) return;
#if STRATA_HAVE_CUDA
    STRATA_CUDA_TRY(cudaSetDevice(device.ordinal));
    cudaStream_t s = nullptr;
    STRATA_CUDA_TRY(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    stream_ = Stream::cuda(device.ordinal, s);
#else
    STRATA_FAIL(ValueError, "this build has no CUDA backend: no stream for " + device.toString());
#endif
}

OwnedStream::~OwnedStream() {
#if STRATA_HAVE_CUDA
    if (stream_.device().isCuda()) {
        cudaStream_t s = static_cast<cudaStream_t>(stream_.handle());
        cudaStreamSynchronize(s); // never throws: errors here cannot be reported
        cudaStreamDestroy(s);
    }
#endif
}

} // namespace strata
