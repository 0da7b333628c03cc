#include "strata/core/transfer.h"

#include <atomic>
#include <cstdio>
#if defined(__linux__)
#include <execinfo.h>
#endif

#include "strata/core/settings.h"

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

// STRATA_TRACE_TRANSFERS=N: every device-to-host copy of N bytes or more is written to stderr
// with the stack that made it (frames as binary(+offset): addr2line names them), to find where
// bytes cross that a counter says should not.
std::uint64_t traceThreshold() {
    static const std::uint64_t n = [] {
        const auto bytes = settings::traceTransfers();
        return bytes ? std::uint64_t(*bytes) : ~std::uint64_t(0);
    }();
    return n;
}

void traceDeviceToHost(std::uint64_t bytes) {
    std::fprintf(stderr, "strata-transfer device-to-host %llu bytes\n",
                 static_cast<unsigned long long>(bytes));
#if defined(__linux__)
    void* frames[32];
    backtrace_symbols_fd(frames, backtrace(frames, 32), 2);
#endif
    std::fflush(stderr);
}
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
void countDeviceToHost(std::uint64_t bytes) {
    toHost.fetch_add(bytes, std::memory_order_relaxed);
    if (bytes >= traceThreshold()) traceDeviceToHost(bytes);
}
} // namespace detail

} // namespace strata
