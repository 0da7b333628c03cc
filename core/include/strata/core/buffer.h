#pragma once
// Buffer owns bytes on one device. It is move-only: copyTo() is the only way across devices
// and the only deep copy, and it counts the bytes it moves (see transfer.h).
#include <cstddef>
#include <memory>

#include "strata/core/device.h"
#include "strata/core/stream.h"

namespace strata {

enum class HostMemory { Pageable, Pinned };

class Buffer {
public:
    Buffer() = default;
    // Allocates `bytes` on `device`, stream-ordered on `stream` for a CUDA device (from the
    // device's memory pool). Host memory is 64-byte aligned; Pinned is page-locked when the
    // CUDA runtime is present (falls back to pageable otherwise). Throws OutOfMemoryError.
    Buffer(std::size_t bytes, Device device, Stream stream, HostMemory host = HostMemory::Pageable);
    ~Buffer();
    Buffer(Buffer&& other) noexcept;
    Buffer& operator=(Buffer&& other) noexcept;
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;

    // A Buffer that borrows `bytes` at `data` on `device` (memory another library owns, e.g. an
    // array imported through DLPack): nothing is allocated, counted or freed here; `owner` is
    // kept alive until this Buffer is destroyed, then released. `stream` orders work on it.
    static Buffer borrow(void* data, std::size_t bytes, Device device, Stream stream,
                         std::shared_ptr<const void> owner);
    bool isBorrowed() const { return owner_ != nullptr; }

    void* data() { return data_; }
    const void* data() const { return data_; }
    std::size_t size() const { return size_; }
    Device device() const { return device_; }
    Stream stream() const { return stream_; }
    bool isPinned() const { return pinned_; }

    // A deep copy on `target`, ordered on `stream` (which must belong to the CUDA side of the
    // copy when one is involved). Host→device and device→host bytes are counted.
    Buffer copyTo(Device target, Stream stream) const;

private:
    void release() noexcept;
    void* data_ = nullptr;
    std::size_t size_ = 0;
    Device device_ = Device::host();
    Stream stream_ = Stream::host();
    bool pinned_ = false;
    std::shared_ptr<const void> owner_; // set when borrowed: what keeps the memory alive
};

// Copies `bytes` between two allocations (any devices), ordered on `stream`, counted like
// Buffer::copyTo. For staging pipelines that reuse buffers.
void copyBytes(void* dst, Device dstDevice, const void* src, Device srcDevice, std::size_t bytes,
               Stream stream);

} // namespace strata
