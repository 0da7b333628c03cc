#include "strata/core/transfer.h"

#include <atomic>

namespace strata {
namespace {
std::atomic<std::uint64_t> toDevice{0};
std::atomic<std::uint64_t> toHost{0};
} // namespace

TransferCounters transferCounters() {
    return {toDevice.load(std::memory_order_relaxed), toHost.load(std::memory_order_relaxed)};
}

TransferCounters transferredSince(const TransferCounters& before) {
    TransferCounters now = transferCounters();
    return {now.hostToDevice - before.hostToDevice, now.deviceToHost - before.deviceToHost};
}

namespace detail {
void countHostToDevice(std::uint64_t bytes) { toDevice.fetch_add(bytes, std::memory_order_relaxed); }
void countDeviceToHost(std::uint64_t bytes) { toHost.fetch_add(bytes, std::memory_order_relaxed); }
} // namespace detail

} // namespace strata
