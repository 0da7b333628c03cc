#include "strata/core/transfer.h"

#include <atomic>

namespace strata {
namespace {
std::atomic<std::uint64_t> toDevice{0};
std::atomic<std::uint64_t> toHost{0};
std::atomic<std::int64_t> onDevice{0};
std::atomic<std::int64_t> onHost{0};
std::atomic<std::int64_t> peakDevice{0};
std::atomic<std::int64_t> peakHost{0};

void raisePeak(std::atomic<std::int64_t>& peak, std::int64_t now) {
    std::int64_t seen = peak.load(std::memory_order_relaxed);
    while (now > seen && !peak.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
}

std::uint64_t positive(std::int64_t n) { return n > 0 ? static_cast<std::uint64_t>(n) : 0; }
} // namespace

TransferCounters transferCounters() {
    return {toDevice.load(std::memory_order_relaxed), toHost.load(std::memory_order_relaxed)};
}

TransferCounters transferredSince(const TransferCounters& before) {
    TransferCounters now = transferCounters();
    return {now.hostToDevice - before.hostToDevice, now.deviceToHost - before.deviceToHost};
}

std::uint64_t deviceBytesInUse() { return positive(onDevice.load(std::memory_order_relaxed)); }

HeldBytes bytesHeld() {
    return {positive(onHost.load(std::memory_order_relaxed)),
            positive(onDevice.load(std::memory_order_relaxed))};
}

HeldBytes peakBytesHeld() {
    return {positive(peakHost.load(std::memory_order_relaxed)),
            positive(peakDevice.load(std::memory_order_relaxed))};
}

void resetPeakBytes() {
    peakHost.store(onHost.load(std::memory_order_relaxed), std::memory_order_relaxed);
    peakDevice.store(onDevice.load(std::memory_order_relaxed), std::memory_order_relaxed);
}

namespace detail {
void countDeviceAllocation(std::int64_t bytes) {
    raisePeak(peakDevice, onDevice.fetch_add(bytes, std::memory_order_relaxed) + bytes);
}
void countHostAllocation(std::int64_t bytes) {
    raisePeak(peakHost, onHost.fetch_add(bytes, std::memory_order_relaxed) + bytes);
}
void countHostToDevice(std::uint64_t bytes) { toDevice.fetch_add(bytes, std::memory_order_relaxed); }
void countDeviceToHost(std::uint64_t bytes) { toHost.fetch_add(bytes, std::memory_order_relaxed); }
} // namespace detail

} // namespace strata
