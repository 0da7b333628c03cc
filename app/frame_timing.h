#pragma once
// FrameTiming: the time from a frame's request to its presentation on the screen (the status
// bar's "Frame: 4.2 ms", and STRATA_TRACE_FRAMES's lines for the benchmarks), kept apart from
// the window. Times are monotonic nanoseconds; no Qt here.
#include <cstdint>
#include <map>
#include <optional>

namespace strata::app {

class FrameTiming {
public:
    bool trace = false; // STRATA_TRACE_FRAMES: a line on stderr per frame presented

    void requested(std::uint64_t id); // a frame was asked for
    void arrived();                   // the wanted frame reached the GUI thread
    // The wanted frame `id` was handed to its view (its setFrame returned).
    void handedOver(std::uint64_t id);
    // The frame handed over last is on the screen: the ms since its request, or none when no
    // frame waited for this.
    std::optional<double> presented();

    double lastMs() const { return lastMs_; }
    // For the trace: when the frame arrived, when it was handed over, when it was asked for.
    std::int64_t arrivedNs() const { return arrivedNs_; }
    std::int64_t handedOverNs() const { return handedOverNs_; }
    std::int64_t requestNs() const { return requestNs_; }
    std::int64_t presentedNs() const { return presentedNs_; }

private:
    std::map<std::uint64_t, std::int64_t> requestedAt_; // frame id → request time, the last 64
    std::optional<std::int64_t> pendingSince_;          // a frame handed over, not on screen yet
    std::int64_t arrivedNs_ = 0, handedOverNs_ = 0, requestNs_ = 0, presentedNs_ = 0;
    double lastMs_ = 0;
};

} // namespace strata::app
