#pragma once
// A non-owning handle to an ordered queue of work on a device: a cudaStream_t for a CUDA
// device, nothing for the host (host work runs synchronously). Operations take one as their
// last parameter; there is no implicit default stream.
#include "strata/core/device.h"

namespace strata {

class Stream {
public:
    // The host "stream": work happens before the call returns.
    static Stream host() { return Stream(Device::host(), nullptr); }
    // Wraps an existing cudaStream_t (passed as void* so this header needs no CUDA).
    static Stream cuda(int ordinal, void* cudaStream) { return Stream(Device::cuda(ordinal), cudaStream); }

    Device device() const { return device_; }
    void* handle() const { return handle_; } // cudaStream_t, or nullptr for the host
    // Blocks until all work queued so far is done. Call only where a value must reach the host.
    void synchronize() const;
    friend bool operator==(const Stream&, const Stream&) = default;

private:
    Stream(Device d, void* h) : device_(d), handle_(h) {}
    Device device_;
    void* handle_;
};

// The process-wide stream of a device (created on first use, non-blocking; the host's is
// Stream::host()). Data created without an explicit stream is ordered on it.
Stream defaultStream(Device device);

// A stream of its own on `device` (non-blocking; the host's for the host), destroyed with this
// object after the work queued on it is done. For work that must not queue behind the frames
// (a variable's background load).
class OwnedStream {
public:
    explicit OwnedStream(Device device);
    ~OwnedStream();
    OwnedStream(const OwnedStream&) = delete;
    OwnedStream& operator=(const OwnedStream&) = delete;
    Stream get() const { return stream_; }

private:
    Stream stream_;
};

} // namespace strata
