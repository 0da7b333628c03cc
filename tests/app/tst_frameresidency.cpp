// FrameService's residency: a variable shown is loaded whole onto the compute device after its
// first frame is on the screen (or a moment after, unshown), not again once cancelled, streamed
// when over the budget (decided at its first need), and resident at once when it is in memory.
// Real netCDF data (tests/data/hgt.nc, HGT(time=21, lat, lon)); values against netCDF-C reads
// sliced and reduced by plain loops (nc_frame.h).
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <memory>

#include "frame_service.h"
#include "frame_service_checks.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/io/netcdf.h"

using namespace strata;
using namespace strata::app;

class TestFrameResidency : public QObject {
    Q_OBJECT
    std::shared_ptr<const Dataset> ds_;

    static std::size_t availableOnComputeDevice() {
        const Device d = computeDevice();
        return d.isHost() ? hostAvailableMemory() : deviceFreeMemory(d);
    }
    // The default budget, decided again now: free memory moves, so `had` when within 10%.
    static std::size_t defaultResidentBudgetNear(std::size_t had) {
        const std::size_t now = defaultResidentBudget(computeDevice());
        return std::fabs(double(now) - double(had)) <= 0.1 * double(had) ? had : now;
    }

private slots:
    void initTestCase() { ds_ = std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())); }

    void aShownVariableBecomesResident() {
        // The variable of a frame asked for is loaded whole in the background; from then on a
        // reduction and a Hovmöller frame read nothing from the file.
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QSignalSpy changed(&service, &FrameService::residencyChanged);
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 0))));
        QCOMPARE(service.residency("HGT").state, Residence::None); // not while the frame is painted
        QVERIFY(shownAndLoaded(service));
        QCOMPARE(service.residency("HGT").state, Residence::Resident);
        QCOMPARE(service.residency("HGT").bytes, std::size_t(21 * 73 * 144 * 4));
        QTRY_VERIFY(!changed.isEmpty() && changed.last().at(0).toString() == "HGT");
        service.frameShown();
        QVERIFY(settled(service)); // the steps ahead are computed: they read no more
        ViewSpec reduced = specAt(*ds_, 0);
        reduced.indices.clear();
        reduced.reductions = {{"time", ReduceOp::Max}};
        ViewSpec hovmoller = specAt(*ds_, 0);
        hovmoller.yDim = "time";
        hovmoller.indices = {{"lat", 30}};
        const io::ReadCounters before = io::readCounters();
        const Result r1 = waitFor(ready, service.requestFrame(reduced));
        const Result r2 = waitFor(ready, service.requestFrame(hovmoller));
        QVERIFY(r1 && r2 && r1->error.isEmpty() && r2->error.isEmpty());
        QCOMPARE(io::readCounters().reads, before.reads);
        QVERIFY(isFrameOf(r1->frame, *ds_, reduced));
        QVERIFY(isFrameOf(r2->frame, *ds_, hovmoller));
        // Another file: the resident copy goes with the old one.
        service.setDataset(std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())));
        QCOMPARE(service.residency("HGT").state, Residence::None);
    }

    void aLoadStartsUnshownAfterAWhile() {
        // A window that never shows the frame (hidden, minimised) still gets its variable loaded:
        // the load waits for the screen at most a moment.
        FrameService service;
        service.setPrefetch(0, 0);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 0))));
        QTRY_VERIFY_WITH_TIMEOUT(service.residency("HGT").state != Residence::None, 5000);
        QVERIFY2(clock.elapsed() >= 250, qPrintable(QString::number(clock.elapsed()))); // it did wait
        service.waitForLoads();
        QCOMPARE(service.residency("HGT").state, Residence::Resident);
    }

    void aCancelledLoadIsNotStartedAgain() {
        // Cancel load: the variable's frames come from the file, and the next frames do not
        // start the load again; shown anew (allowLoad), it loads.
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        service.cancelLoad("HGT");
        for (std::int64_t t : {0, 1, 2}) {
            const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, t)));
            QVERIFY(r && r->error.isEmpty());
            QVERIFY(isFrameOf(r->frame, *ds_, specAt(*ds_, t)));
            QVERIFY(shownAndLoaded(service));
        }
        QCOMPARE(service.residency("HGT").state, Residence::None);
        service.allowLoad("HGT");
        QVERIFY(waitFor(ready,
                        service.requestFrame(specAt(*ds_, 15)))); // not computed ahead: the worker serves it
        QVERIFY(shownAndLoaded(service));
        QCOMPARE(service.residency("HGT").state, Residence::Resident);
    }

    // The budget is decided at its first need, not when the service is made (that would ask the
    // device for its memory, starting the CUDA driver on the GUI thread): the saved text then
    // applies; a budget set by hand comes after it and stays.
    void theSavedBudgetAppliesWhenTheBudgetIsFirstNeeded() {
        {
            FrameService service;
            service.setSavedBudget("200K");
            QCOMPARE(service.residentBudget(), std::size_t(200 * 1024));
            service.setSavedBudget("300K"); // once decided, the saved text is not read again
            QCOMPARE(service.residentBudget(), std::size_t(200 * 1024));
        }
        {
            FrameService service;
            service.setSavedBudget("25%");
            const double share = double(service.residentBudget()) / double(availableOnComputeDevice());
            QVERIFY2(share > 0.2 && share < 0.3, qPrintable(QString::number(share)));
        }
        {
            FrameService service;
            service.setSavedBudget("lots"); // not a budget: the default's
            QCOMPARE(service.residentBudget(), defaultResidentBudgetNear(service.residentBudget()));
            service.setResidentBudget(123456);
            QCOMPARE(service.residentBudget(), std::size_t(123456));
        }
    }

    void aBudgetSmallerThanTheVariableStreams() {
        // A quarter of the variable: it is streamed (and says why), and a reduction over time is
        // read slab by slab and merged, giving what the whole variable gives.
        FrameService service;
        service.setResidentBudget(21 * 73 * 144 * 4 / 4);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec reduced = specAt(*ds_, 0);
        reduced.indices.clear();
        reduced.reductions = {{"time", ReduceOp::Std}};
        const io::ReadCounters before = io::readCounters();
        const Result r = waitFor(ready, service.requestFrame(reduced));
        QVERIFY(r && r->error.isEmpty());
        // In slabs, not at once: the service's slabs are a sixteenth of the budget (13797 bytes),
        // less than one time step (73 × 144 floats, 42048 bytes), so each is one of the 21 times,
        // one read apiece, and the variable is read once over.
        const io::ReadCounters after = io::readCounters();
        QCOMPARE(after.reads - before.reads, std::uint64_t(21));
        QCOMPARE(after.bytes - before.bytes, std::uint64_t(21 * 73 * 144 * 4));
        QVERIFY(shownAndLoaded(service));
        const ResidencyStatus s = service.residency("HGT");
        QCOMPARE(s.state, Residence::Streamed);
        QVERIFY2(s.describe().find("streamed (larger than the budget") == 0, s.describe().c_str());
        const std::vector<double> got = r->frame.asHost().values<double>();
        const std::vector<double> want = oracleOf(*ds_, reduced).value_or(nctest::NdValues{}).values;
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(std::abs(got[i] - want[i]) <= 1e-5 * std::abs(want[i]) + 1e-3,
                     qPrintable(QString("element %1: %2, expected %3").arg(i).arg(got[i]).arg(want[i])));
    }

    void inMemoryDataIsResidentWithoutALoad() {
        // A dataset held in memory on the compute device (what strata.show makes of a Python
        // array) is resident from its first frame as it is: with a budget smaller than the
        // variable it is not streamed, and nothing is loaded. On a GPU each frame then comes
        // with its range from one table (its one copy: two values per time), and the steps
        // after it copy nothing to the host.
        const Device device = computeDevice();
        auto mem = std::make_shared<Dataset>(*ds_);
        mem->path.clear();
        for (auto& [name, v] : mem->variables)
            if (name == "HGT") v = v.load(device, defaultStream(device));
        const Variable& hgt = *mem->findVariable("HGT");
        FrameService service;
        service.setPrefetch(0, 0);
        service.setResidentBudget(hgt.nbytes() / 4);
        service.setDataset(mem);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const TransferCounters before = transferCounters();
        Result r = waitFor(ready, service.requestFrame(specAt(*mem, 0)));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(shownAndLoaded(service));
        const ResidencyStatus s = service.residency("HGT");
        QCOMPARE(s.state, Residence::Resident);
        QCOMPARE(s.device, device);
        QCOMPARE(r->frame.device(), device);
        // The test's own reads of the frames it checks are counted apart (`own`): on the H200
        // they were the 4 × 42,048 bytes above the table that the count first included.
        std::uint64_t own = 0;
        auto sameAsFile = [&](const DataArray& frame, std::int64_t t) {
            const TransferCounters read = transferCounters();
            const bool same = isFrameOf(frame, *ds_, specAt(*ds_, t));
            own += transferredSince(read).deviceToHost;
            return same;
        };
        const std::uint64_t first = transferredSince(before).deviceToHost;
        QVERIFY(sameAsFile(r->frame, 0));
        if (!device.isCuda()) return; // the table of frame ranges is made on a device only
        QVERIFY(r->frameRange);
        const std::uint64_t table = 2 * std::uint64_t(hgt.shape()[0]) * sizeOf(hgt.dtype());
        QCOMPARE(first, table);
        for (std::int64_t t : {1, 2, 20}) {
            const TransferCounters step = transferCounters();
            r = waitFor(ready, service.requestFrame(specAt(*mem, t), "time", +1));
            QVERIFY(r && r->error.isEmpty() && r->frameRange);
            QCOMPARE(transferredSince(step).deviceToHost, std::uint64_t(0));
            QVERIFY(sameAsFile(r->frame, t));
        }
        QVERIFY(settled(service));
        QCOMPARE(transferredSince(before).deviceToHost - own, table);
    }
};

QTEST_MAIN(TestFrameResidency)
#include "tst_frameresidency.moc"
