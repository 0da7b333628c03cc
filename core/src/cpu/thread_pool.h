#pragma once
// The CPU backend's persistent thread pool: hostThreads() threads (the caller is one of
// them), woken per call. Chunks are handed out dynamically, but each chunk's work is fixed,
// so a result combined per chunk in chunk order does not depend on thread timing.
#include <cstdint>

namespace strata::detail::cpu {

// Calls fn(chunk) for every chunk in [0, chunks), spread over the pool; returns when all
// are done. Runs serially when called from inside a chunk or while another caller holds the
// pool. An exception thrown by fn is rethrown here (the first one).
using ChunkFn = void (*)(void* context, std::int64_t chunk);
void runChunks(std::int64_t chunks, ChunkFn fn, void* context);

int poolThreads();

// Calls fn(chunk) for chunk in [0, chunks).
template <class F> void forEachChunk(std::int64_t chunks, F&& fn) {
    if (chunks <= 0) return;
    if (chunks == 1) {
        fn(std::int64_t{0});
        return;
    }
    runChunks(
        chunks, [](void* c, std::int64_t i) { (*static_cast<F*>(c))(i); }, static_cast<void*>(&fn));
}

// Splits [0, n) into ranges of at least `grain` (at most a few per thread) and calls
// fn(begin, end) for each.
template <class F> void parallelFor(std::int64_t n, std::int64_t grain, F&& fn) {
    if (n <= 0) return;
    if (grain < 1) grain = 1;
    std::int64_t chunks = (n + grain - 1) / grain;
    const std::int64_t most = static_cast<std::int64_t>(poolThreads()) * 4;
    if (chunks > most) chunks = most;
    const std::int64_t step = (n + chunks - 1) / chunks;
    chunks = (n + step - 1) / step;
    forEachChunk(chunks, [&](std::int64_t c) {
        const std::int64_t b = c * step;
        const std::int64_t e = b + step < n ? b + step : n;
        fn(b, e);
    });
}

// How many chunks a job of `work` element visits should use: about 64 K elements each at
// least, and at most 4 per thread.
std::int64_t chunksFor(std::int64_t work, std::int64_t minPerChunk = 1 << 16);

} // namespace strata::detail::cpu
