#include "strata/core/transfer.h"

#include <atomic>

namespace strata {
namespace {
std::atomic<std::uint64_t> toDevice{0};
std::atomic<std::uint64_t> toHost{0};
std::atomic<std::int64_t> onDevice{0};
} // namespace

TransferCounters transferCounters() {
    return {toDevice.load(std::memory_order_relaxed), toHost.load(std::memory_order_relaxed)};
}

TransferCounters transferredSince(const TransferCounters& before) {
    TransferCounters now = transferCounters();
    return {now.hostToDevice - before.hostToDevice, now.deviceToHost - before.deviceToHost};
}

std::uint64_t deviceBytesInUse() {
    const std::int64_t n = onDevice.load(std::memory_order_relaxed);
    return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

namespace detail {
void countDeviceAllocation(std::int64_t bytes) { onDevice.fetch_add(bytes, std::memory_order_relaxed); }
void countHostToDevice(std::uint64_t bytes) { toDevice.fetch_add(bytes, std::memory_order_relaxed); }
void countDeviceToHost(std::uint64_t bytes) { toHost.fetch_add(bytes, std::memory_order_relaxed); }
} // namespace detail

} // namespace strata
