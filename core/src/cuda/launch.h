#pragma once
// Private helpers of the CUDA backend's host launch code: the stream of a Stream, a guard
// that makes the stream's device current, launch-error checks, device limits, and scratch
// memory: a Buffer, taken stream-ordered from the device's pool.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "cuda_check.h"
#include "strata/core/buffer.h"
#include "strata/core/stream.h"

// Throws CudaError naming the kernel and the place when the last launch failed.
#define STRATA_CUDA_CHECK_LAUNCH(kernelName)                                                                 \
    do {                                                                                                     \
        cudaError_t strata_launch_ = cudaGetLastError();                                                     \
        if (strata_launch_ != cudaSuccess)                                                                   \
            ::strata::detail::throwCudaError(strata_launch_, "launch of " kernelName, __FILE__, __LINE__);   \
    } while (0)

namespace strata::cuda {

inline cudaStream_t streamOf(Stream s) { return static_cast<cudaStream_t>(s.handle()); }

// Makes the stream's device current for the guard's life (launches and pool allocations go
// to the current device); restores the previous one. Never throws from its destructor.
class DeviceGuard {
public:
    explicit DeviceGuard(Stream s);
    ~DeviceGuard();
    DeviceGuard(const DeviceGuard&) = delete;
    DeviceGuard& operator=(const DeviceGuard&) = delete;

private:
    int previous_ = 0;
    bool changed_ = false;
};

// Multiprocessors of the current device (cached per device).
int multiprocessors();

// Scratch bytes on the stream's device: a Buffer, so counted in device memory use and subject
// to injected faults like any other. Allocated on `stream`, freed on it when the object dies,
// so work queued before the free may still use it. Throws OutOfMemoryError.
class Scratch {
public:
    Scratch(std::size_t bytes, Stream stream) : buffer_(bytes, stream.device(), stream) {}
    template <class T> T* as() { return static_cast<T*>(buffer_.data()); }
    template <class T> const T* as() const { return static_cast<const T*>(buffer_.data()); }

private:
    Buffer buffer_;
};

inline std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
inline std::int64_t roundUp(std::int64_t a, std::int64_t b) { return ceilDiv(a, b) * b; }

} // namespace strata::cuda
