#include "cpu/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "strata/core/runtime.h"

namespace strata::detail::cpu {
namespace {

thread_local bool tInsideChunk = false;

// One call's work, on the caller's stack. Workers join it under the pool's mutex and leave
// it before the caller returns (the caller waits for `active` to drop to zero).
struct Job {
    ChunkFn fn = nullptr;
    void* context = nullptr;
    std::int64_t chunks = 0;
    std::atomic<std::int64_t> next{0}, done{0};
    std::atomic<int> active{0};
    std::mutex errorMutex;
    std::exception_ptr error;

    void work() {
        const bool outer = tInsideChunk;
        tInsideChunk = true;
        std::int64_t finished = 0;
        for (;;) {
            const std::int64_t i = next.fetch_add(1, std::memory_order_relaxed);
            if (i >= chunks) break;
            try {
                fn(context, i);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
            }
            ++finished;
        }
        tInsideChunk = outer;
        if (finished > 0) done.fetch_add(finished, std::memory_order_acq_rel);
    }
};

class Pool {
public:
    explicit Pool(int threads) {
        for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { workerLoop(); });
    }
    ~Pool() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (auto& t : workers_) t.join();
    }
    int threads() const { return static_cast<int>(workers_.size()) + 1; }

    void run(std::int64_t chunks, ChunkFn fn, void* context) {
        std::unique_lock caller(callerMutex_, std::defer_lock);
        if (tInsideChunk || workers_.empty() || !caller.try_lock()) {
            runSerially(chunks, fn, context);
            return;
        }
        Job job;
        job.fn = fn;
        job.context = context;
        job.chunks = chunks;
        {
            std::lock_guard lock(mutex_);
            job_ = &job;
            ++generation_;
        }
        wake_.notify_all();
        job.work();
        {
            // No new worker may join once the job is withdrawn.
            std::lock_guard lock(mutex_);
            job_ = nullptr;
        }
        // Chunks are short: spin (yielding) until the others are done with theirs.
        while (job.done.load(std::memory_order_acquire) < chunks ||
               job.active.load(std::memory_order_acquire) > 0)
            std::this_thread::yield();
        if (job.error) std::rethrow_exception(job.error);
    }

private:
    static void runSerially(std::int64_t chunks, ChunkFn fn, void* context) {
        const bool outer = tInsideChunk;
        tInsideChunk = true;
        try {
            for (std::int64_t i = 0; i < chunks; ++i) fn(context, i);
        } catch (...) {
            tInsideChunk = outer;
            throw;
        }
        tInsideChunk = outer;
    }

    void workerLoop() {
        std::uint64_t seen = 0;
        for (;;) {
            Job* job = nullptr;
            {
                std::unique_lock lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || (generation_ != seen && job_ != nullptr); });
                if (stop_) return;
                seen = generation_;
                job = job_;
                job->active.fetch_add(1, std::memory_order_acq_rel);
            }
            job->work();
            job->active.fetch_sub(1, std::memory_order_acq_rel);
        }
    }

    std::vector<std::thread> workers_;
    std::mutex callerMutex_; // one caller at a time; others run serially
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stop_ = false;
    std::uint64_t generation_ = 0;
    Job* job_ = nullptr;
};

Pool& pool() {
    static Pool p(std::max(1, hostThreads()));
    return p;
}

} // namespace

void runChunks(std::int64_t chunks, ChunkFn fn, void* context) { pool().run(chunks, fn, context); }

int poolThreads() { return pool().threads(); }

std::int64_t chunksFor(std::int64_t work, std::int64_t minPerChunk) {
    const std::int64_t most = static_cast<std::int64_t>(poolThreads()) * 4;
    std::int64_t c = work / std::max<std::int64_t>(1, minPerChunk);
    return std::clamp<std::int64_t>(c, 1, most);
}

} // namespace strata::detail::cpu

namespace strata {

// Inside a chunk, the pool runs a caller's chunks serially: the same flag.
HostSerialScope::HostSerialScope() : outer_(detail::cpu::tInsideChunk) { detail::cpu::tInsideChunk = true; }
HostSerialScope::~HostSerialScope() { detail::cpu::tInsideChunk = outer_; }

} // namespace strata
