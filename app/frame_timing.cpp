#include "frame_timing.h"

#include "strata/core/monotonic_clock.h"

namespace strata::app {

void FrameTiming::requested(std::uint64_t id) {
    requestedAt_[id] = monotonicNs();
    while (requestedAt_.size() > 64) requestedAt_.erase(requestedAt_.begin());
}

void FrameTiming::arrived() { arrivedNs_ = monotonicNs(); }

void FrameTiming::handedOver(std::uint64_t id) {
    const auto at = requestedAt_.find(id);
    pendingSince_ = at != requestedAt_.end() ? at->second : monotonicNs();
    handedOverNs_ = monotonicNs();
}

std::optional<double> FrameTiming::presented() {
    if (!pendingSince_) return std::nullopt;
    presentedNs_ = monotonicNs();
    requestNs_ = *pendingSince_;
    lastMs_ = double(presentedNs_ - requestNs_) / 1e6;
    pendingSince_.reset();
    return lastMs_;
}

} // namespace strata::app
