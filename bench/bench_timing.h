#pragma once
// Wall-clock timing for the benchmarks: the best and the median of several runs.
#include <algorithm>
#include <chrono>
#include <functional>
#include <vector>

namespace bench {

inline double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

struct Timing {
    double best = 1e30, median = 0;
};

inline Timing timeIt(int reps, const std::function<void()>& f) {
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const double t0 = now();
        f();
        t.push_back(now() - t0);
    }
    std::sort(t.begin(), t.end());
    return {t.front(), t[t.size() / 2]};
}

} // namespace bench
