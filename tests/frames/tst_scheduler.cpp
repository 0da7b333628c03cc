// Scheduler: newest wins (a request overtaken while it waited is never handed out, and a frame
// request cancels the frame in progress), a frame answered from the cache leaves only its steps
// around, the worker is idle only while it waits with nothing to do, steps ahead wait for the
// screen, and another dataset drops what waited. Without a QApplication.
#include <QtTest>

#include <atomic>
#include <future>
#include <thread>

#include "scheduler.h"

using namespace strata;
using namespace strata::app;
using namespace std::chrono_literals;
using Task = Scheduler::Task;

namespace {

FrameJob jobAt(std::uint64_t id, std::int64_t t, int direction = 0) {
    FrameJob j;
    j.id = id;
    j.spec.variable = "HGT";
    j.spec.xDim = "lon";
    j.spec.yDim = "lat";
    j.spec.indices = {{"time", t}};
    j.direction = direction;
    return j;
}

// `s.next()` on another thread, so that a test can see it wait.
std::future<Scheduler::Next> nextLater(Scheduler& s) {
    return std::async(std::launch::async, [&s] { return s.next(); });
}

// Polls `ready` for up to 5 s (no event loop here: QTRY_ needs one).
template <class Ready> bool eventually(Ready ready) {
    for (int i = 0; i < 500; ++i) {
        if (ready()) return true;
        std::this_thread::sleep_for(10ms);
    }
    return ready();
}

} // namespace

class TestScheduler : public QObject {
    Q_OBJECT
private slots:
    void newestWins() {
        Scheduler s;
        const auto ds = std::make_shared<const Dataset>();
        s.setDataset(ds);
        for (std::int64_t t = 0; t < 3; ++t) s.requestFrame(jobAt(s.nextId(), t), false, false);
        s.requestSeries(jobAt(s.nextId(), 0));
        QVERIFY(s.busy());
        const Scheduler::Next frame = s.next();
        QCOMPARE(frame.task, Task::Frame);
        QCOMPARE(frame.job.id, std::uint64_t(3)); // 1 and 2 were overtaken: dropped
        QCOMPARE(frame.job.spec.indexOf("time"), std::int64_t(2));
        QVERIFY(frame.dataset == ds);
        QVERIFY(!s.finished()); // the series still waits: busy
        const Scheduler::Next series = s.next();
        QCOMPARE(series.task, Task::Series);
        QCOMPARE(series.job.id, std::uint64_t(4));
        QVERIFY(s.finished());
        QVERIFY(!s.busy());
        s.stop();
        QCOMPARE(s.next().task, Task::Stop);
    }

    // A frame asked for while another is computed cancels that one's token (a streamed
    // reduction stops); a series does not.
    void aNewerFrameCancelsTheOneInProgress() {
        Scheduler s;
        s.setDataset(std::make_shared<const Dataset>());
        s.requestFrame(jobAt(s.nextId(), 0), false, false);
        const Scheduler::Next first = s.next();
        QVERIFY(!first.interrupt.cancelled());
        s.requestSeries(jobAt(s.nextId(), 0));
        QVERIFY(!first.interrupt.cancelled());
        s.requestFrame(jobAt(s.nextId(), 1), false, false);
        QVERIFY(first.interrupt.cancelled());
        QVERIFY(!first.closing.cancelled()); // the file stays open
        QVERIFY(!s.finished());
        const Scheduler::Next second = s.next();
        QCOMPARE(second.task, Task::Frame);
        QVERIFY(!second.interrupt.cancelled()); // a fresh token per job
        s.setDataset(nullptr);
        QVERIFY(second.interrupt.cancelled());
        QVERIFY(second.closing.cancelled());
    }

    // Answered from the cache: no frame for the worker; the steps around it when asked for, and
    // busy until the answer is delivered.
    void anAnswerFromTheCacheLeavesTheStepsAround() {
        Scheduler s;
        const auto ds = std::make_shared<const Dataset>();
        s.setDataset(ds);
        s.requestFrame(jobAt(s.nextId(), 0), false, false); // overtaken by the cached answer
        s.requestFrame(jobAt(s.nextId(), 5, +1), true, true);
        QVERIFY(s.busy());
        const Scheduler::Next ahead = s.next();
        QCOMPARE(ahead.task, Task::Ahead);
        QCOMPARE(ahead.job.id, std::uint64_t(2));
        QCOMPARE(ahead.job.direction, 1);
        QVERIFY(s.busy());               // the answer is still on its way
        QVERIFY(s.delivered() == false); // the worker is not waiting: not idle yet
        QVERIFY(!s.busy());
        s.requestFrame(jobAt(s.nextId(), 6), true, false); // nothing around it
        auto later = nextLater(s);
        QVERIFY(later.wait_for(100ms) == std::future_status::timeout); // nothing for the worker
        s.stop();
        QCOMPARE(later.get().task, Task::Stop);
    }

    // Idle: only while the worker waits with nothing to do and no answer on its way; told once
    // the wait starts.
    void idleOnlyWhileTheWorkerWaits() {
        Scheduler s;
        std::atomic<int> told{0};
        s.setOnIdle([&] { ++told; });
        s.setDataset(std::make_shared<const Dataset>());
        QVERIFY(!s.isIdle()); // the worker has not come to wait
        auto later = nextLater(s);
        QVERIFY(eventually([&] { return s.isIdle() && told.load() == 1; }));
        s.requestFrame(jobAt(s.nextId(), 0), false, false);
        QVERIFY(!s.isIdle());
        QCOMPARE(later.get().task, Task::Frame);
        QVERIFY(!s.isIdle()); // computing
        QVERIFY(s.finished());
        s.stop();
    }

    // Steps beyond the next wait until the frame is on the screen, or aheadWait passes; a new
    // request or another dataset ends them.
    void stepsAheadWaitForTheScreen() {
        Scheduler s;
        const auto ds = std::make_shared<const Dataset>();
        s.setDataset(ds);
        s.setAheadWait(10s);
        s.requestFrame(jobAt(s.nextId(), 0, +1), false, false);
        QCOMPARE(s.next().task, Task::Frame);
        QVERIFY(s.finished());
        QVERIFY(s.mayComputeAhead(ds, false)); // the next step: at once
        auto waiting = std::async(std::launch::async, [&] { return s.mayComputeAhead(ds, true); });
        QVERIFY(waiting.wait_for(100ms) == std::future_status::timeout);
        QVERIFY(eventually([&] { return s.isIdle(); })); // waiting for the screen is idle
        s.frameShown();
        QVERIFY(waiting.get());
        QVERIFY(!s.mayComputeAhead(std::make_shared<const Dataset>(), false)); // another file's
        s.setAheadWait(20ms); // the screen never says: the wait ends by itself
        s.requestFrame(jobAt(s.nextId(), 1, +1), false, false);
        QCOMPARE(s.next().task, Task::Frame);
        QVERIFY(s.finished());
        const auto start = std::chrono::steady_clock::now();
        QVERIFY(s.mayComputeAhead(ds, true));
        QVERIFY(std::chrono::steady_clock::now() - start < 5s);
        s.requestFrame(jobAt(s.nextId(), 2), false, false); // the user moved on
        QVERIFY(!s.mayComputeAhead(ds, true));
        s.stop();
    }

    // Another dataset drops what waited; a load's end makes the table of the view asked for last.
    void anotherDatasetDropsTheRequests() {
        Scheduler s;
        s.setDataset(std::make_shared<const Dataset>());
        s.requestFrame(jobAt(s.nextId(), 0), false, false);
        s.requestSeries(jobAt(s.nextId(), 0));
        const auto other = std::make_shared<const Dataset>();
        s.setDataset(other);
        QVERIFY(s.isCurrent(other));
        QVERIFY(!s.busy());
        s.setRangesDue(); // no view asked for since: nothing to make
        auto later = nextLater(s);
        QVERIFY(later.wait_for(100ms) == std::future_status::timeout);
        s.requestFrame(jobAt(s.nextId(), 3), false, false);
        QCOMPARE(later.get().task, Task::Frame);
        QVERIFY(s.finished());
        s.setRangesDue();
        const Scheduler::Next ranges = s.next();
        QCOMPARE(ranges.task, Task::Ranges);
        QCOMPARE(ranges.job.spec.indexOf("time"), std::int64_t(3));
        QVERIFY(ranges.dataset == other);
        s.stop();
    }

    // Loads give way while a frame or series waits or is computed, not while the worker itself
    // waits for a load.
    void loadsYieldToRequests() {
        Scheduler s;
        std::vector<bool> told;
        s.setOnLoadsYield([&](bool y) { told.push_back(y); });
        s.setDataset(std::make_shared<const Dataset>());
        QCOMPARE(told, std::vector<bool>{false});
        s.requestFrame(jobAt(s.nextId(), 0), false, false);
        QCOMPARE(told.back(), true);
        QCOMPARE(s.next().task, Task::Frame);
        s.setWaitingForLoad(true);
        QCOMPARE(told.back(), false);
        s.setWaitingForLoad(false);
        QCOMPARE(told.back(), true);
        QVERIFY(s.finished());
        QCOMPARE(told, (std::vector<bool>{false, true, false, true, false}));
        s.stop();
    }
};

QTEST_APPLESS_MAIN(TestScheduler)
#include "tst_scheduler.moc"
