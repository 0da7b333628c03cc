#pragma once
// Work cut into fixed ranges, one a thread, for the host's loops whose results must not depend
// on how many threads ran them.
#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace strata::detail {

// Calls fn(t, begin, end) for each t < threads, [begin, end) the t-th of `threads` equal ranges
// of [0, n), each on a thread of its own (t = 0 on the caller's). Rethrows a range's exception.
template <class F> void forRanges(int threads, std::int64_t n, F&& fn) {
    std::vector<std::exception_ptr> failed(static_cast<std::size_t>(threads));
    const auto run = [&](int t) {
        try {
            fn(t, n * t / threads, n * (t + 1) / threads);
        } catch (...) {
            failed[std::size_t(t)] = std::current_exception();
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(std::size_t(threads));
    for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
    run(0);
    for (std::thread& th : pool) th.join();
    for (const std::exception_ptr& e : failed)
        if (e) std::rethrow_exception(e);
}

} // namespace strata::detail
