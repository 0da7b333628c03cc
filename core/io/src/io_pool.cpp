#include "io_pool.h"

#if defined(__linux__)
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "strata/core/cancel.h"
#include "strata/core/settings.h"

namespace strata::io::detail {
namespace {

// One call's tasks, shared by the threads that help with it.
struct Job {
    std::size_t tasks = 0;
    const std::function<void(std::size_t)>* fn = nullptr;
    std::optional<CancelToken> cancel; // the caller's CancelScope, the helpers' too
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex mutex;
    std::condition_variable finished;
    std::size_t done = 0;
    std::exception_ptr error;

    // Runs tasks until none is left; true when this thread ran the job's last one.
    void work() {
        std::optional<CancelScope> scope;
        if (cancel) scope.emplace(*cancel);
        std::size_t ran = 0;
        for (std::size_t i; (i = next.fetch_add(1)) < tasks; ++ran) {
            if (failed.load(std::memory_order_relaxed)) continue;
            try {
                (*fn)(i);
            } catch (...) {
                std::lock_guard<std::mutex> lock(mutex);
                if (!error) error = std::current_exception();
                failed = true;
            }
        }
        if (ran == 0) return;
        std::lock_guard<std::mutex> lock(mutex);
        done += ran;
        if (done == tasks) finished.notify_all();
    }
};

class Pool {
public:
    explicit Pool(int threads) {
        for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { loop(); });
    }
    // Threads are detached at exit: the pool lives as long as the process.
    void post(const std::shared_ptr<Job>& job, int helpers) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            for (int i = 0; i < helpers; ++i) queue_.push_back(job);
        }
        wake_.notify_all();
    }

private:
    void loop() {
#if defined(__linux__)
        // Like the residency's loader: reads help the thread that asked (which runs at its own
        // priority) and give way to the threads a user waits on.
        (void)setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 5);
#endif
        for (;;) {
            std::shared_ptr<Job> job;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return !queue_.empty(); });
                job = std::move(queue_.front());
                queue_.pop_front();
            }
            job->work();
        }
    }
    std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::shared_ptr<Job>> queue_;
    std::vector<std::thread> threads_;
};

Pool& pool() {
    // Never destroyed: its threads may still be parked when the process exits.
    static Pool* p = new Pool(ioThreads() - 1);
    return *p;
}

} // namespace

int ioThreads() {
    static const int n = [] {
        if (const auto n = settings::ioThreads()) return *n;
        const unsigned hw = std::thread::hardware_concurrency();
        return hw == 0 ? 4 : int(std::min(hw, 64u));
    }();
    return n;
}

void ioParallel(std::size_t tasks, const std::function<void(std::size_t)>& fn) {
    if (tasks == 0) return;
    if (tasks == 1 || ioThreads() == 1) {
        for (std::size_t i = 0; i < tasks; ++i) fn(i);
        return;
    }
    auto job = std::make_shared<Job>();
    job->tasks = tasks;
    job->fn = &fn;
    if (const CancelToken* current = CancelScope::current()) job->cancel = *current;
    pool().post(job, int(std::min<std::size_t>(tasks - 1, std::size_t(ioThreads() - 1))));
    job->work();
    std::unique_lock<std::mutex> lock(job->mutex);
    job->finished.wait(lock, [&] { return job->done == job->tasks; });
    if (job->error) std::rethrow_exception(job->error);
}

} // namespace strata::io::detail
