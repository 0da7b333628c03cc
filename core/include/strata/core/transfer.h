#pragma once
// Process-wide counters of the bytes moved between host and devices. Every crossing goes
// through Buffer::copyTo / copyBytes, which add to them; tests and the status bar read them.
#include <cstdint>

namespace strata {

struct TransferCounters {
    std::uint64_t hostToDevice = 0;
    std::uint64_t deviceToHost = 0;
};

TransferCounters transferCounters();
// Counters since `before` (counters are never reset, so concurrent readers stay consistent).
TransferCounters transferredSince(const TransferCounters& before);

// Bytes of device memory Strata's buffers hold now (all devices; 0 without CUDA), for the
// status bar: what this process asked for, not what the driver or other processes use.
std::uint64_t deviceBytesInUse();

namespace detail {
void countDeviceAllocation(std::int64_t bytes); // + on allocation, - on release
void countHostToDevice(std::uint64_t bytes);
void countDeviceToHost(std::uint64_t bytes);
} // namespace detail

} // namespace strata
