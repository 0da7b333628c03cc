#include "cuda/launch.h"

#include <array>
#include <atomic>
#include <string>

namespace strata::cuda {

DeviceGuard::DeviceGuard(Stream s) {
    STRATA_EXPECTS(s.device().isCuda(), ValueError,
                   "a CUDA operation needs a CUDA stream, got one of " + s.device().toString());
    STRATA_CUDA_TRY(cudaGetDevice(&previous_));
    if (previous_ != s.device().ordinal) {
        STRATA_CUDA_TRY(cudaSetDevice(s.device().ordinal));
        changed_ = true;
    }
}

DeviceGuard::~DeviceGuard() {
    if (changed_) cudaSetDevice(previous_); // cannot report from a destructor
}

int multiprocessors() {
    static std::array<std::atomic<int>, 64> cache{};
    int device = 0;
    STRATA_CUDA_TRY(cudaGetDevice(&device));
    if (device >= 0 && device < int(cache.size())) {
        if (int n = cache[device].load(std::memory_order_relaxed); n > 0) return n;
    }
    int n = 0;
    STRATA_CUDA_TRY(cudaDeviceGetAttribute(&n, cudaDevAttrMultiProcessorCount, device));
    if (device >= 0 && device < int(cache.size())) cache[device].store(n, std::memory_order_relaxed);
    return n;
}

} // namespace strata::cuda
