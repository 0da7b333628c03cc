#pragma once
// The clock of every trace line (strata-frame, strata-startup, the paint's times): CLOCK_MONOTONIC
// in nanoseconds, the clock of Python's time.monotonic, so that the benchmarks' drivers and the
// process's own lines compare directly.
#include <cstdint>
#include <ctime>

namespace strata {

inline std::int64_t monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace strata
