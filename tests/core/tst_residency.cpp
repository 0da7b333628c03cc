// Residency: a variable loaded whole gives the same frames as the file for every op and view
// shape, and after it is resident nothing is read or uploaded; the budget holds (reservations
// included), least-recently-used variables not in use leave first, cancel leaves nothing
// behind, out of memory during a load leaves the variable streamed with the reason.
#include "test_seed.h"
#include <QtTest>

#include <atomic>
#include <mutex>
#include <optional>
#include <random>
#include <thread>

#include "fault_injection.h"
#include "memory_source.h"
#include "strata/core/cancel.h"
#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/core/view.h"

using namespace strata;
using namespace test;

namespace {

const ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Mean,  ReduceOp::Min,    ReduceOp::Max,   ReduceOp::Std,
                         ReduceOp::Var, ReduceOp::Count, ReduceOp::ArgMin, ReduceOp::ArgMax};

// Every view shape of a (t, y, x) variable: a map, its transpose, a Hovmöller (t on Y), a line,
// and each op over each dim.
std::vector<FrameSpec> specsFor(std::int64_t nt) {
    std::vector<FrameSpec> out;
    auto spec = [](std::string x, std::string y) {
        FrameSpec s;
        s.variable = "v";
        s.xDim = std::move(x);
        s.yDim = std::move(y);
        return s;
    };
    for (std::int64_t t : {std::int64_t(0), nt - 1}) {
        FrameSpec map = spec("x", "y");
        map.indices = {{"t", t}};
        out.push_back(map);
        FrameSpec transposed = spec("y", "x");
        transposed.indices = {{"t", t}};
        out.push_back(transposed);
    }
    FrameSpec hovmoller = spec("x", "t");
    hovmoller.indices = {{"y", 2}};
    out.push_back(hovmoller);
    FrameSpec line = spec("t", "");
    line.indices = {{"y", 1}, {"x", 3}};
    out.push_back(line);
    for (ReduceOp op : kOps) {
        FrameSpec overTime = spec("x", "y");
        overTime.reductions = {{"t", op}};
        out.push_back(overTime);
        FrameSpec zonal = spec("t", "y");
        zonal.reductions = {{"x", op}};
        out.push_back(zonal);
        FrameSpec both = spec("x", "");
        both.reductions = {{"t", op}, {"y", ReduceOp::Mean}};
        out.push_back(both);
    }
    return out;
}

QString describe(const FrameSpec& s) {
    QString r = QString("x=%1 y=%2").arg(str(s.xDim), str(s.yDim));
    for (const auto& [d, i] : s.indices) r += QString(" %1=%2").arg(str(d)).arg(i);
    for (const auto& [d, op] : s.reductions) r += QString(" %1(%2)").arg(str(name(op)), str(d));
    return r;
}

bool waitFor(Residency& r, const std::string& key, Residence state) {
    r.wait();
    return r.status(key).state == state;
}

} // namespace

class TestResidency : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }
    void residentEqualsFileBacked_data() { STRATA_BACKEND_ROWS(); }
    void residentEqualsFileBacked() {
        STRATA_BACKEND(backend);
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        std::mt19937_64 rng(test::testSeed());
        const Shape shape{9, 7, 13};
        for (const bool packed : {false, true}) {
            std::vector<double> values =
                randomValues(rng, packed ? DType::Int16 : DType::Float32, product(shape), 0.1);
            if (packed)
                for (std::size_t i = 0; i < values.size(); i += 11) values[i] = -32767; // fill: NaN
            auto source =
                std::make_shared<MemorySource>(shape, packed ? DType::Int16 : DType::Float32, values);
            const DataArray lazy = lazyArray(source, shape, packed ? packedShort() : plain(DType::Float32));

            Residency residency(std::size_t(1) << 30);
            residency.setSlabBytes(2 * 7 * 13 * 4); // 5 slabs
            residency.request("v", lazy, device);
            QVERIFY(waitFor(residency, "v", Residence::Resident));
            const DataArray resident = *residency.get("v");
            QVERIFY(resident.isLoaded());
            QCOMPARE(resident.device(), device);
            QCOMPARE(residency.status("v").bytes, std::size_t(product(shape)) * 4);

            const int readsBefore = source->reads;
            const TransferCounters before = transferCounters();
            std::vector<DataArray> fromMemory;
            for (const FrameSpec& spec : specsFor(shape[0])) {
                FallbackNote note;
                fromMemory.push_back(computeFrame(resident, spec, device, note));
                QVERIFY(!note.fellBack);
            }
            // Resident: no read, and no byte up to the device, for any of the views.
            QCOMPARE(source->reads, readsBefore);
            QCOMPARE(transferredSince(before).hostToDevice, std::uint64_t(0));

            std::size_t i = 0;
            for (const FrameSpec& spec : specsFor(shape[0])) {
                FallbackNote note;
                const DataArray fromFile = computeFrame(lazy, spec, Device::host(), note).asHost();
                const DataArray got = fromMemory[i++].asHost();
                const QString what = describe(spec) + (packed ? " (packed)" : "");
                QVERIFY2(got.dims() == fromFile.dims() && got.shape() == fromFile.shape(), qPrintable(what));
                QVERIFY(allClose(got.values<double>(), fromFile.values<double>(),
                                 backend.cuda ? gpuTolerance(got.dtype()) : 0, 0, what));
            }
        }
    }

    void progressAndStatus() {
        const Shape shape{10, 3, 4};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(120, 2.0));
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(3 * 4 * 4 * 3); // 3 rows: 4 slabs
        std::mutex m;
        std::vector<double> seen;
        residency.setListener([&](const std::string& key) {
            QCOMPARE(key, std::string("v"));
            std::lock_guard lock(m);
            seen.push_back(residency.status(key).progress);
        });
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        QVERIFY(waitFor(residency, "v", Residence::Resident));
        QVERIFY(std::is_sorted(seen.begin(), seen.end()));
        QCOMPARE(std::count_if(seen.begin(), seen.end(), [](double p) { return p > 0 && p < 1; }), 3);
        QCOMPARE(seen.back(), 1.0);
        QCOMPARE(residency.status("v").describe(), std::string("on the host (1 MB)"));
        ResidencyStatus s;
        s.state = Residence::Resident;
        s.device = Device::cuda(0);
        s.bytes = 1'500'000'000;
        QCOMPARE(s.describe(), std::string("on GPU 0 (1.5 GB)"));
        s.state = Residence::Loading;
        s.progress = 0.437;
        QCOMPARE(s.describe(), std::string("loading 43 %"));
    }

    void budgetAndLeastRecentlyUsed() {
        const Shape shape{8, 8, 8}; // 2 KiB as float32
        auto make = [&](double v) {
            return lazyArray(
                std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(512, v)), shape,
                plain(DType::Float32));
        };
        Residency residency(5000); // two variables (and a load's slabs) fit, not three
        residency.setSlabBytes(256);
        residency.request("a", make(1), Device::host());
        QVERIFY(waitFor(residency, "a", Residence::Resident));
        residency.request("b", make(2), Device::host());
        QVERIFY(waitFor(residency, "b", Residence::Resident));
        QVERIFY(residency.get("a")); // a is now the more recently used
        residency.request("c", make(3), Device::host());
        QVERIFY(waitFor(residency, "c", Residence::Resident));
        QCOMPARE(residency.status("b").state, Residence::None); // evicted: least recently used
        QCOMPARE(residency.status("a").state, Residence::Resident);
        QVERIFY(residency.heldBytes() <= residency.budget());
        QCOMPARE(residency.get("c")->values<double>().front(), 3.0);

        // In use (held by a frame being computed): never evicted; the newcomer is streamed.
        const DataArray heldA = *residency.get("a");
        std::optional<DataArray> heldC = residency.get("c");
        residency.request("d", make(4), Device::host());
        QCOMPARE(residency.status("d").state, Residence::Streamed);
        QVERIFY(residency.status("d").reason.find("in use") != std::string::npos);
        QCOMPARE(residency.status("a").state, Residence::Resident);
        QCOMPARE(residency.status("c").state, Residence::Resident);

        // Larger than the budget: streamed at once, and said so.
        const Shape big{64, 8, 8};
        residency.request(
            "big",
            lazyArray(std::make_shared<MemorySource>(big, DType::Float32, std::vector<double>(4096, 0)), big,
                      plain(DType::Float32)),
            Device::host());
        QCOMPARE(residency.status("big").state, Residence::Streamed);
        QVERIFY(residency.status("big").describe().find("larger than the budget") != std::string::npos);

        // A smaller budget evicts what no longer fits and is not in use: c once the frame lets
        // it go; a, still held, stays.
        heldC.reset();
        residency.setBudget(2500);
        QCOMPARE(residency.status("c").state, Residence::None);
        QCOMPARE(residency.status("a").state, Residence::Resident);
        QCOMPARE(residency.heldBytes(), std::size_t(2048)); // a alone
        QCOMPARE(heldA.values<double>().front(), 1.0);
        // Held, a stays even under a budget it does not fit.
        residency.setBudget(1000);
        QCOMPARE(residency.status("a").state, Residence::Resident);
        QCOMPARE(residency.heldBytes(), std::size_t(2048));
    }

    // A variable streamed for want of room is decided again under a new budget, and the
    // listener hears of it (the window's word on it would otherwise keep the old budget).
    void aNewBudgetDecidesStreamedVariablesAgain() {
        const Shape big{64, 8, 8};
        const DataArray var =
            lazyArray(std::make_shared<MemorySource>(big, DType::Float32, std::vector<double>(4096, 1)), big,
                      plain(DType::Float32));
        Residency residency(1024);
        std::vector<std::string> told;
        std::mutex toldMutex;
        residency.setListener([&](const std::string& key) {
            std::lock_guard lock(toldMutex);
            told.push_back(key);
        });
        residency.request("big", var, Device::host());
        QCOMPARE(residency.status("big").state, Residence::Streamed);
        QVERIFY(residency.status("big").reason.find("larger than the budget") != std::string::npos);
        {
            std::lock_guard lock(toldMutex);
            told.clear();
        }
        residency.setBudget(std::size_t(1) << 20);
        QCOMPARE(residency.status("big").state, Residence::None);
        {
            std::lock_guard lock(toldMutex);
            QCOMPARE(told, std::vector<std::string>{"big"});
        }
        residency.request("big", var, Device::host()); // the next frame asks again: it fits now
        residency.wait();
        QCOMPARE(residency.status("big").state, Residence::Resident);
        residency.setListener({});
    }

    void reservationsKeepConcurrentLoadsWithinBudget() {
        // The first load is stopped mid-way; while it holds its reservation, a second that would
        // fit an empty budget but not beside the first is streamed, not started.
        const Shape shape{16, 8, 8};
        auto slow = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(1024, 1));
        std::mutex gate;
        gate.lock();
        std::atomic<bool> inRead{false};
        slow->onRead = [&](int k) {
            if (k == 2) {
                inRead = true;
                std::lock_guard wait(gate); // held until the test lets it go
            }
        };
        Residency residency(7000);
        residency.setSlabBytes(1024);
        residency.request("a", lazyArray(slow, shape, plain(DType::Float32)), Device::host());
        while (!inRead) std::this_thread::yield();
        QCOMPARE(residency.status("a").state, Residence::Loading);
        QVERIFY(residency.heldBytes() >= 4096); // reserved before anything was allocated
        auto other = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(1024, 2));
        residency.request("b", lazyArray(other, shape, plain(DType::Float32)), Device::host());
        QCOMPARE(residency.status("b").state, Residence::Streamed);
        QCOMPARE(other->reads.load(), 0);
        gate.unlock();
        QVERIFY(waitFor(residency, "a", Residence::Resident));
    }

    // While yielding is set a load stops between slabs (no read more), a cancel wakes it, and
    // clearing yielding lets it go on.
    // The window's frame service frees what its listener uses right after replacing it: a call
    // that was in progress must have ended by then, and none may start after. (A call that
    // outlived setListener read a freed residency: the CI crash of 2026-12-05.)
    void aReplacedListenerIsNoLongerRunning() {
        const Shape shape{32, 8, 8};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, 1));
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(256); // a row a slab: 32 progress calls
        std::atomic<int> entered{0};
        std::atomic<bool> replaced{false}, calledAfter{false};
        residency.setListener([&](const std::string&) {
            ++entered;
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (replaced) calledAfter = true;
        });
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        QTRY_VERIFY(entered.load() >= 2); // a loader's call is (most likely) in its sleep now
        residency.setListener({});
        replaced = true;
        residency.wait();
        QVERIFY(!calledAfter);
        QCOMPARE(residency.status("v").state, Residence::Resident);
    }

    void yieldingHoldsLoadsBetweenSlabs() {
        const Shape shape{32, 8, 8};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, 1));
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(256); // a row a slab: 32 reads
        residency.setYielding(true);
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        QTRY_COMPARE(source->reads.load(), 1); // the first slab, then it gives way
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        QCOMPARE(source->reads.load(), 1);
        QCOMPARE(residency.status("v").state, Residence::Loading);
        residency.setYielding(false);
        QVERIFY(waitFor(residency, "v", Residence::Resident));
        QCOMPARE(source->reads.load(), 32);

        auto held = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, 1));
        residency.setYielding(true);
        residency.request("w", lazyArray(held, shape, plain(DType::Float32)), Device::host());
        QTRY_COMPARE(held->reads.load(), 1);
        residency.cancel("w"); // wakes the loader that gives way: wait() returns
        residency.wait();
        QCOMPARE(held->reads.load(), 1);
        QCOMPARE(residency.status("w").state, Residence::None);
    }

    // waitWhileLoading returns when the load ends (woken by it), false at once when nothing
    // loads, and throws CancelledError when its token is cancelled while the load goes on.
    void waitWhileLoadingIsWokenByTheLoad() {
        const Shape shape{32, 8, 8};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, 1));
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(256);
        QVERIFY(!residency.waitWhileLoading("v", CancelToken()));
        residency.setYielding(true); // held after its first slab
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        const CancelToken cancel;
        std::string outcome;
        std::thread waiter([&] {
            try {
                outcome = residency.waitWhileLoading("v", cancel) ? "ended" : "not loading";
            } catch (const CancelledError&) {
                outcome = "cancelled";
            }
        });
        QTRY_COMPARE(source->reads.load(), 1);
        cancel.cancel();
        waiter.join();
        QCOMPARE(outcome, std::string("cancelled"));
        QCOMPARE(residency.status("v").state, Residence::Loading); // the load itself goes on

        std::thread second(
            [&] { outcome = residency.waitWhileLoading("v", CancelToken()) ? "ended" : "none"; });
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        residency.setYielding(false);
        second.join();
        QCOMPARE(outcome, std::string("ended"));
        QCOMPARE(residency.status("v").state, Residence::Resident);
    }

    void cancelMidLoad() {
        const Shape shape{32, 8, 8};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, 1));
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(256); // a row a slab: 32 reads
        const std::uint64_t heldBefore = bytesHeld().host;
        source->onRead = [&](int k) {
            if (k == 5) residency.cancel("v"); // from the loader's own thread, mid-load
        };
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        residency.wait();
        QCOMPARE(residency.status("v").state, Residence::None);
        QVERIFY(!residency.get("v"));
        QVERIFY(source->reads < 32);
        QCOMPARE(residency.heldBytes(), std::size_t(0)); // its reservation went with it
        QCOMPARE(bytesHeld().host, heldBefore);          // and its memory
        // Asked again, it loads.
        source->onRead = nullptr;
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        QVERIFY(waitFor(residency, "v", Residence::Resident));

        // clear() (a file closed) cancels without waiting, and leaves nothing.
        auto second = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, 1));
        second->onRead = [&](int k) {
            if (k == 3) residency.clear();
        };
        residency.request("w", lazyArray(second, shape, plain(DType::Float32)), Device::host());
        residency.wait();
        QCOMPARE(residency.status("w").state, Residence::None);
        QCOMPARE(residency.status("v").state, Residence::None);
        QCOMPARE(residency.heldBytes(), std::size_t(0));
    }

    // release() lets a variable go in any state: resident (its memory freed, the listener told),
    // loading (the load stops, its reservation goes), streamed; the others stay.
    void releaseLetsAVariableGo() {
        const Shape shape{32, 8, 8};
        auto make = [&](double v) {
            return std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(2048, v));
        };
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(256);
        const std::uint64_t heldBefore = bytesHeld().host;
        std::atomic<int> told{0};
        residency.setListener([&](const std::string& key) { told += key == "z7"; });
        residency.request("z6", lazyArray(make(6), shape, plain(DType::Float32)), Device::host());
        residency.request("z7", lazyArray(make(7), shape, plain(DType::Float32)), Device::host());
        QVERIFY(waitFor(residency, "z7", Residence::Resident));
        QVERIFY(waitFor(residency, "z6", Residence::Resident));
        const int before = told;
        residency.release("z7");
        QCOMPARE(residency.status("z7").state, Residence::None);
        QVERIFY(!residency.get("z7"));
        QCOMPARE(told.load(), before + 1);
        QCOMPARE(residency.heldBytes(), std::size_t(8192)); // z6 alone
        QCOMPARE(residency.get("z6")->values<double>().front(), 6.0);
        residency.release("z6");
        QCOMPARE(residency.heldBytes(), std::size_t(0));
        QCOMPARE(bytesHeld().host, heldBefore); // the memory went with them

        // Mid-load: stops it.
        auto slow = make(8);
        slow->onRead = [&](int k) {
            if (k == 4) residency.release("z8");
        };
        residency.request("z8", lazyArray(slow, shape, plain(DType::Float32)), Device::host());
        residency.wait();
        QCOMPARE(residency.status("z8").state, Residence::None);
        QVERIFY(slow->reads < 32);
        QCOMPARE(residency.heldBytes(), std::size_t(0));
        QCOMPARE(bytesHeld().host, heldBefore);

        // Streamed (larger than the budget): forgotten, and decided again when asked.
        residency.setBudget(4096);
        residency.request("z9", lazyArray(make(9), shape, plain(DType::Float32)), Device::host());
        QCOMPARE(residency.status("z9").state, Residence::Streamed);
        residency.release("z9");
        QCOMPARE(residency.status("z9").state, Residence::None);
        residency.release("none"); // nothing of that name: nothing happens
    }

    void outOfMemoryLeavesItStreamed() {
        const Shape shape{8, 8, 8};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(512, 1));
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(512);
        // The load's first allocation (the variable's own buffer) fails, as when memory ran out.
        detail::injectAllocationFault(detail::InjectedFault::OutOfMemory, DeviceKind::Host, 0, 1);
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        residency.wait();
        detail::clearAllocationFault();
        const ResidencyStatus s = residency.status("v");
        QCOMPARE(s.state, Residence::Streamed);
        QVERIFY2(s.reason.find("out of memory") != std::string::npos, s.reason.c_str());
        QVERIFY2(s.describe().find("streamed") == 0, s.describe().c_str());
        QCOMPARE(residency.heldBytes(), std::size_t(0));
    }

    void damagedFileFailsWithItsName() {
        const Shape shape{8, 8, 8};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(512, 1));
        source->failAt = 3;
        Residency residency(std::size_t(1) << 20);
        residency.setSlabBytes(512);
        residency.request("v", lazyArray(source, shape, plain(DType::Float32)), Device::host());
        residency.wait();
        QCOMPARE(residency.status("v").state, Residence::Failed);
        QVERIFY(residency.status("v").reason.find("memory.nc: variable 'v'") != std::string::npos);
        QCOMPARE(residency.heldBytes(), std::size_t(0));
    }

    void inMemoryIsResidentAsItIs_data() { STRATA_BACKEND_ROWS(); }
    void inMemoryIsResidentAsItIs() {
        // An array already in memory on the device asked for (one handed over from Python) is
        // resident at once: the same buffer, nothing copied either way, and none of the budget
        // taken (the memory is its owner's), even with a budget smaller than the array.
        STRATA_BACKEND(backend);
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        const DataArray host =
            makeArray(DType::Float32, {"t", "y", "x"}, {4, 5, 6}, std::vector<double>(120, 2.5));
        const DataArray inMemory = backend.put(host);
        Residency residency(128); // bytes: far less than the 480 of the array
        const TransferCounters before = transferCounters();
        residency.request("v", inMemory, device);
        const ResidencyStatus s = residency.status("v"); // no wait: no load was started
        QCOMPARE(s.state, Residence::Resident);
        QCOMPARE(s.device, device);
        QCOMPARE(s.bytes, std::size_t(480));
        const std::optional<DataArray> got = residency.get("v");
        QVERIFY(got);
        QCOMPARE(got->variable().buffer()->data(), inMemory.variable().buffer()->data());
        QCOMPARE(residency.heldBytes(), std::size_t(0));
        const TransferCounters moved = transferredSince(before);
        QCOMPARE(moved.deviceToHost + moved.hostToDevice, std::uint64_t(0));

        // A lazy variable that fits the budget beside it is still loaded (the budget is free).
        const Shape small{2, 2, 2}; // 32 bytes, and a load's two slabs of them: 96
        residency.request(
            "w",
            lazyArray(std::make_shared<MemorySource>(small, DType::Float32, std::vector<double>(8, 1)), small,
                      plain(DType::Float32)),
            device);
        QVERIFY(waitFor(residency, "w", Residence::Resident));
        QCOMPARE(residency.status("v").state, Residence::Resident); // never evicted

        // In memory elsewhere (the host, for a device): loaded as before, not borrowed.
        if (backend.cuda) {
            residency.setBudget(std::size_t(1) << 20);
            residency.request("h", host, device);
            QVERIFY(waitFor(residency, "h", Residence::Resident));
            QCOMPARE(residency.get("h")->device(), device);
            QCOMPARE(residency.heldBytes(), std::size_t(480 + 32));
        }
    }

    void budgetFromTheEnvironment() {
        QCOMPARE(parseResidentBudget("8G", 100), std::optional<std::size_t>(std::size_t(8) << 30));
        QCOMPARE(parseResidentBudget("50%", 1000), std::optional<std::size_t>(500));
        QCOMPARE(parseResidentBudget("150%", 1000), std::nullopt);
        QCOMPARE(parseResidentBudget("lots", 1000), std::nullopt);
        qputenv("STRATA_RESIDENT_BUDGET", "3M");
        QCOMPARE(defaultResidentBudget(Device::host()), std::size_t(3) << 20);
        qunsetenv("STRATA_RESIDENT_BUDGET");
        const std::size_t b = defaultResidentBudget(Device::host());
        QVERIFY(b > 0 && b <= hostAvailableMemory());
        // Not a budget: a warning (tst_settings hears it), and the default, 60 % of what is free.
        qputenv("STRATA_RESIDENT_BUDGET", "half");
        const std::size_t fallback = defaultResidentBudget(Device::host());
        QVERIFY(fallback > 0 && fallback <= hostAvailableMemory());
        qunsetenv("STRATA_RESIDENT_BUDGET");
    }
};

QTEST_GUILESS_MAIN(TestResidency)
#include "tst_residency.moc"
