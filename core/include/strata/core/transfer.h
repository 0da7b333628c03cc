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

// Bytes Strata's Buffers hold on the host (pageable and pinned, pooled blocks not counted) and on
// CUDA devices, now and at most since resetPeakBytes(): the high-water mark a budget is held to.
struct HeldBytes {
    std::uint64_t host = 0;
    std::uint64_t device = 0;
};
HeldBytes bytesHeld();
HeldBytes peakBytesHeld();
void resetPeakBytes(); // the peaks start again from what is held now

namespace detail {
void countHostAllocation(std::int64_t bytes);   // + on allocation, - on release
void countDeviceAllocation(std::int64_t bytes); // + on allocation, - on release
void countHostToDevice(std::uint64_t bytes);
void countDeviceToHost(std::uint64_t bytes);
} // namespace detail

} // namespace strata
