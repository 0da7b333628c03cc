#pragma once
// Work over the rows of an image on the host, shared among the CPU backend's threads.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

#include "strata/core/runtime.h"

namespace strata::detail {

// `row(j)` for every j below `rows`, the rows dealt out among hostThreads() threads in turn.
inline void inRows(std::int64_t rows, const std::function<void(std::int64_t)>& row) {
    const int threads = int(std::max<std::int64_t>(1, std::min<std::int64_t>(hostThreads(), rows)));
    auto part = [&](int first) {
        for (std::int64_t j = first; j < rows; j += threads) row(j);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(part, t);
    part(0);
    for (std::thread& t : pool) t.join();
}

} // namespace strata::detail
