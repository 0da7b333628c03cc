#include "scheduler.h"

namespace strata::app {

void Scheduler::setOnIdle(std::function<void()> onIdle) {
    std::lock_guard lock(mutex_);
    onIdle_ = std::move(onIdle);
}

void Scheduler::setOnLoadsYield(std::function<void(bool)> onYield) {
    std::lock_guard lock(mutex_);
    onYield_ = std::move(onYield);
    if (onYield_) onYield_(yielding_);
}

void Scheduler::setDataset(std::shared_ptr<const Dataset> ds) {
    {
        std::lock_guard lock(mutex_);
        dataset_ = std::move(ds);
        frameJob_.reset();
        seriesJob_.reset();
        aheadJob_.reset();
        lastFrameSpec_.reset();
        rangesDue_ = false;
        interrupt_.cancel();
        closing_.cancel(); // a whole variable's range being computed for the last file stops
        updateYieldLocked();
    }
    wake_.notify_all();
}

std::shared_ptr<const Dataset> Scheduler::dataset() const {
    std::lock_guard lock(mutex_);
    return dataset_;
}

bool Scheduler::isCurrent(const std::shared_ptr<const Dataset>& ds) const {
    std::lock_guard lock(mutex_);
    return dataset_ == ds;
}

void Scheduler::setAheadWait(std::chrono::milliseconds wait) {
    std::lock_guard lock(mutex_);
    aheadWait_ = wait;
}

std::uint64_t Scheduler::nextId() {
    std::lock_guard lock(mutex_);
    return nextId_++;
}

void Scheduler::requestFrame(const FrameJob& job, bool answered, bool around) {
    {
        std::lock_guard lock(mutex_);
        showing_ = true;
        interrupt_.cancel(); // newest wins: a streamed reduction of an older request stops
        aheadFrom_ = std::chrono::steady_clock::now() + aheadWait_;
        lastFrameSpec_ = job.spec;
        if (answered) {
            frameJob_.reset(); // newest wins
            if (around) aheadJob_ = job;
            ++posted_;
        } else {
            frameJob_ = job;
        }
        updateYieldLocked();
    }
    wake_.notify_all();
}

void Scheduler::requestSeries(const FrameJob& job) {
    {
        std::lock_guard lock(mutex_);
        seriesJob_ = job;
        updateYieldLocked();
    }
    wake_.notify_all();
}

bool Scheduler::delivered() {
    std::lock_guard lock(mutex_);
    --posted_;
    return idleLocked();
}

void Scheduler::frameShown() {
    {
        std::lock_guard lock(mutex_);
        showing_ = false;
    }
    wake_.notify_all();
}

void Scheduler::setRangesDue() {
    {
        std::lock_guard lock(mutex_);
        rangesDue_ = true;
    }
    wake_.notify_all();
}

void Scheduler::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        interrupt_.cancel();
        closing_.cancel();
    }
    wake_.notify_all();
}

Scheduler::Next Scheduler::next() {
    std::unique_lock lock(mutex_);
    for (;;) {
        waitIdle(lock, [&] { return stopping_ || hasAnyWork() || rangesDue_; });
        Next n;
        if (stopping_) return n;
        n.dataset = dataset_;
        interrupt_ = CancelToken(); // requests from here on interrupt this job
        closing_ = CancelToken();
        n.interrupt = interrupt_;
        n.closing = closing_;
        if (!hasAnyWork()) { // only the table of frame ranges to make
            rangesDue_ = false;
            if (!lastFrameSpec_) continue;
            n.task = Task::Ranges;
            n.job.spec = *lastFrameSpec_;
        } else if (!hasWork()) { // only steps to compute around a frame answered from the cache
            n.task = Task::Ahead;
            n.job = *aheadJob_;
            aheadJob_.reset();
        } else {
            const bool frame = frameJob_.has_value();
            n.task = frame ? Task::Frame : Task::Series;
            n.job = frame ? *frameJob_ : *seriesJob_;
            (frame ? frameJob_ : seriesJob_).reset();
            working_ = true;
            updateYieldLocked();
        }
        return n;
    }
}

bool Scheduler::finished() {
    std::lock_guard lock(mutex_);
    const bool idle = !hasWork();
    working_ = !idle;
    updateYieldLocked();
    return idle;
}

bool Scheduler::mayComputeAhead(const std::shared_ptr<const Dataset>& ds, bool waitForScreen) {
    std::unique_lock lock(mutex_);
    if (waitForScreen)
        waitIdle(
            lock, [&] { return stopping_ || hasAnyWork() || !showing_; }, aheadFrom_);
    return !hasAnyWork() && !stopping_ && dataset_ == ds; // else the user moved on
}

bool Scheduler::waitForScreen(const std::shared_ptr<const Dataset>& ds, std::chrono::milliseconds atMost) {
    std::unique_lock lock(mutex_);
    waitIdle(
        lock, [&] { return stopping_ || hasAnyWork() || !showing_; },
        std::chrono::steady_clock::now() + atMost);
    return !hasAnyWork() && !stopping_ && dataset_ == ds;
}

void Scheduler::setWaitingForLoad(bool waiting) {
    std::lock_guard lock(mutex_);
    waitingForLoad_ = waiting;
    updateYieldLocked();
}

bool Scheduler::busy() const {
    std::lock_guard lock(mutex_);
    return working_ || hasWork() || posted_ > 0;
}

bool Scheduler::isIdle() const {
    std::lock_guard lock(mutex_);
    return idleLocked();
}

bool Scheduler::idleLocked() const {
    if (!waiting_ || working_ || hasAnyWork() || rangesDue_ || posted_ > 0) return false;
    // Woken, or about to be, but not running yet: the worker has something to do.
    if (waitReady_ && waitReady_()) return false;
    return !waitUntil_ || std::chrono::steady_clock::now() < *waitUntil_;
}

void Scheduler::updateYieldLocked() {
    const bool yield = (working_ && !waitingForLoad_) || hasWork();
    if (yield == yielding_) return;
    yielding_ = yield;
    if (onYield_) onYield_(yield);
}

template <class Ready>
void Scheduler::waitIdle(std::unique_lock<std::mutex>& lock, Ready ready,
                         std::optional<std::chrono::steady_clock::time_point> until) {
    if (ready()) return;
    waiting_ = true;
    waitReady_ = ready;
    waitUntil_ = until;
    if (idleLocked() && onIdle_) { // told outside the lock
        const auto onIdle = onIdle_;
        lock.unlock();
        onIdle();
        lock.lock();
    }
    if (until)
        wake_.wait_until(lock, *until, ready);
    else
        wake_.wait(lock, ready);
    waiting_ = false;
    waitReady_ = nullptr;
    waitUntil_.reset();
}

} // namespace strata::app
