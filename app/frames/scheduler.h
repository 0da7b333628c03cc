#pragma once
// Scheduler: what the frame service's worker does next. Newest wins: one slot for a frame, one
// for a series through a point, one for the steps around a frame answered from the cache; a
// request replaces the one waiting in its slot, and a frame request cancels the work in progress
// (its token). The worker waits here, idle, until there is something to do, and between steps
// ahead until the frame asked for is on the screen. Thread-safe; knows nothing of Qt.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "strata/core/cancel.h"
#include "strata/core/dataset.h"
#include "view_spec.h"

namespace strata::app {

struct FrameJob {
    std::uint64_t id = 0;
    ViewSpec spec;
    std::string steppingDim; // the dim the user steps along (empty: none)
    int direction = 0;       // +1, -1; 0: not a step
};

class Scheduler {
public:
    enum class Task {
        Stop,   // the worker ends
        Frame,  // compute job's frame
        Series, // compute job's series
        Ahead,  // compute the steps around job's frame (answered from the cache)
        Ranges, // a load ended: make the frame table of job's view (the view asked for last)
    };
    struct Next {
        Task task = Task::Stop;
        FrameJob job;
        std::shared_ptr<const Dataset> dataset;
        CancelToken interrupt; // cancelled by a newer frame request, another dataset or stop
        CancelToken closing;   // cancelled by another dataset or stop
    };

    // Told, outside the lock, each time the worker starts an idle wait (see isIdle).
    void setOnIdle(std::function<void()> onIdle);
    // Told, under the lock (it must not call back), when whether loads should give way changes:
    // they should while a frame or series the user asked for waits or is computed (and does
    // not itself wait for a load).
    void setOnLoadsYield(std::function<void(bool)> onYield);

    // The dataset requests refer to: requests waiting are dropped, work in progress cancelled.
    void setDataset(std::shared_ptr<const Dataset> ds);
    std::shared_ptr<const Dataset> dataset() const;
    bool isCurrent(const std::shared_ptr<const Dataset>& ds) const;
    void setAheadWait(std::chrono::milliseconds wait); // default 40 ms

    // From the GUI thread.
    std::uint64_t nextId();
    // A frame asked for. `answered`: answered from the cache already, its answer on its way (see
    // delivered); the worker then only computes the steps around it, when `around`.
    void requestFrame(const FrameJob& job, bool answered, bool around);
    void requestSeries(const FrameJob& job);
    bool delivered();    // an answer from the cache arrived; true when that left the service idle
    void frameShown();   // the frame asked for last is on the screen
    void setRangesDue(); // a load ended: the worker makes the frame table of the view shown
    void stop();         // the worker ends: next() says Stop

    // From the worker.
    Next next(); // waits for something to do
    // The frame or series taken is answered: true when no other waits (the service not busy).
    bool finished();
    // Between steps ahead around a frame of `ds`: whether to go on (nothing newer asked for, the
    // dataset unchanged). `waitForScreen`: first wait until the frame is shown or aheadWait has
    // passed since it was asked for.
    bool mayComputeAhead(const std::shared_ptr<const Dataset>& ds, bool waitForScreen);
    // After a frame of `ds`: waits until it is on the screen, something newer is asked for, or
    // `atMost` has passed; then whether the user is still there (as mayComputeAhead).
    bool waitForScreen(const std::shared_ptr<const Dataset>& ds, std::chrono::milliseconds atMost);
    void setWaitingForLoad(bool waiting); // the worker waits for a load: loads must not yield

    bool busy() const; // a request is computed or waits, or its answer is on its way
    // Nothing happens until something from outside does: no request waits or is computed, no
    // answer is on its way, and the worker waits (for a request, or for the screen).
    bool isIdle() const;

private:
    bool hasWork() const { return frameJob_.has_value() || seriesJob_.has_value(); }
    bool hasAnyWork() const { return hasWork() || aheadJob_.has_value(); }
    bool idleLocked() const;
    void updateYieldLocked();
    template <class Ready>
    void waitIdle(std::unique_lock<std::mutex>& lock, Ready ready,
                  std::optional<std::chrono::steady_clock::time_point> until = std::nullopt);

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::shared_ptr<const Dataset> dataset_;
    std::optional<FrameJob> frameJob_, seriesJob_, aheadJob_;
    std::optional<ViewSpec> lastFrameSpec_; // the view asked for last
    std::uint64_t nextId_ = 1;
    int posted_ = 0;                                  // answers from the cache on their way to the GUI thread
    bool showing_ = false;                            // a frame was asked for and is not on the screen yet
    std::chrono::steady_clock::time_point aheadFrom_; // steps ahead wait for the screen until then
    std::chrono::milliseconds aheadWait_{40};
    bool stopping_ = false, working_ = false, rangesDue_ = false;
    bool waitingForLoad_ = false, yielding_ = false;
    // The worker waits until waitReady_() or waitUntil_: idle while neither has come.
    bool waiting_ = false;
    std::function<bool()> waitReady_;
    std::optional<std::chrono::steady_clock::time_point> waitUntil_;
    CancelToken interrupt_, closing_; // the job in progress's
    std::function<void()> onIdle_;
    std::function<void(bool)> onYield_;
};

} // namespace strata::app
