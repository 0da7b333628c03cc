// FrameService: steps computed ahead and behind, cached frames answered without the worker (and
// only after the caller has the id), the next step of a new view, busy while an answer is on
// its way. Real netCDF data (tests/data/hgt.nc, HGT(time=21, lat, lon)); values against the core.
#include <QSignalSpy>
#include <QtTest>

#include <cstring>
#include <memory>

#include "frame_service.h"
#include "strata/io/netcdf.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kHgt = QStringLiteral(STRATA_TEST_DATA "/hgt.nc");
using Result = std::shared_ptr<const FrameResult>;

ViewSpec specAt(const Dataset& ds, std::int64_t t) {
    ViewSpec s;
    s.file = ds.path;
    s.variable = "HGT";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", t}};
    return s;
}

// The frame of `spec` computed by the core directly, on the host.
DataArray expected(const Dataset& ds, const ViewSpec& spec) {
    FallbackNote note;
    return computeFrame(variableOf(ds, spec.variable), spec, Device::host(), note).asHost();
}

bool sameValues(const DataArray& a, const DataArray& b) {
    const DataArray x = a.asHost(), y = b.asHost();
    return x.shape() == y.shape() && x.values<double>() == y.values<double>();
}

// Waits for the answer to request `id`.
Result waitFor(QSignalSpy& spy, std::uint64_t id) {
    for (int i = 0; i < 400; ++i) {
        for (const auto& args : spy) {
            Result r = args.at(0).value<Result>();
            if (r && r->id == id) return r;
        }
        spy.wait(25);
    }
    return nullptr;
}

} // namespace

class TestFrameService : public QObject {
    Q_OBJECT
    std::shared_ptr<const Dataset> ds_;

private slots:
    void initTestCase() { ds_ = std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())); }

    void stepsAroundAStepAreComputedAhead() {
        FrameService service;
        service.setPrefetch(3, 1);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const std::uint64_t id = service.requestFrame(specAt(*ds_, 5), "time", +1);
        const Result first = waitFor(ready, id);
        QVERIFY(first && first->error.isEmpty());
        QVERIFY(!first->fromCache);
        QVERIFY(sameValues(first->frame, expected(*ds_, specAt(*ds_, 5))));
        // 5 itself, then 6, 7, 4 (behind) and 8.
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(5), 10000);
        QTest::qWait(100);
        QCOMPARE(service.cachedFrames(), std::size_t(5)); // no more than asked for
        // A step to 8 (computed ahead) is answered from the cache; then 9, 10 and 11 are computed.
        Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 8), "time", +1));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY2(r->fromCache, "time 8 was not computed ahead");
        QVERIFY(sameValues(r->frame, expected(*ds_, specAt(*ds_, 8))));
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(8), 10000);
        // Back to 4 (computed behind 5): from the cache; then backwards 3, 2 and 1.
        r = waitFor(ready, service.requestFrame(specAt(*ds_, 4), "time", -1));
        QVERIFY2(r && r->fromCache, "time 4 was not computed behind");
        QVERIFY(sameValues(r->frame, expected(*ds_, specAt(*ds_, 4))));
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(11), 10000);
        r = waitFor(ready, service.requestFrame(specAt(*ds_, 1), "time", -1));
        QVERIFY(r && r->fromCache);
        QVERIFY(sameValues(r->frame, expected(*ds_, specAt(*ds_, 1))));
    }

    void aCachedAnswerComesAfterTheIdAndIsBusyUntilThen() {
        FrameService service;
        service.setPrefetch(1, 0);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const Result first = waitFor(ready, service.requestFrame(specAt(*ds_, 0), "time", +1));
        QVERIFY(first);
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(2), 10000);
        ready.clear();
        const std::uint64_t id = service.requestFrame(specAt(*ds_, 1), "time", +1);
        QCOMPARE(ready.count(), 0); // never inside requestFrame: the caller must learn the id first
        QVERIFY(service.busy());    // the answer is on its way
        const Result r = waitFor(ready, id);
        QVERIFY(r && r->fromCache);
        QCOMPARE(r->id, id);
        QVERIFY(sameValues(r->frame, expected(*ds_, specAt(*ds_, 1))));
        QTRY_VERIFY_WITH_TIMEOUT(!service.busy(), 10000);
    }

    void aNewViewGetsItsNextStep() {
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 0)))); // the file's first read
        QTest::qWait(300);
        const std::size_t before = service.cachedFrames();
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 10)))); // no step: a new view
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), before + 2, 10000);
        QTest::qWait(100);
        QCOMPARE(service.cachedFrames(), before + 2); // one step only, forwards
        const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 11), "time", +1));
        QVERIFY(r && r->fromCache);
        QVERIFY(sameValues(r->frame, expected(*ds_, specAt(*ds_, 11))));
    }

    void aNewFileDropsWhatWasComputedAhead() {
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 2), "time", +1)));
        QTRY_VERIFY_WITH_TIMEOUT(service.cachedFrames() > 1, 10000);
        service.setDataset(std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())));
        QCOMPARE(service.cachedFrames(), std::size_t(0));
        QTest::qWait(200); // a step ahead still being computed for the old file is not kept
        QCOMPARE(service.cachedFrames(), std::size_t(0));
        const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 3), "time", +1));
        QVERIFY(r && !r->fromCache);
    }
};

QTEST_GUILESS_MAIN(TestFrameService)
#include "tst_frameservice.moc"
