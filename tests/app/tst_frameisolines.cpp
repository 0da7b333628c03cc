// FrameService: the isolines a view asks for are traced on the worker beside its colours, for the
// frame asked for and for each step computed ahead, so that a step with contours on draws them
// without tracing on the GUI thread. Real netCDF data (tests/data/hgt.nc, HGT(time=21, lat, lon),
// and tests/data/geostrophic_500.nc's zg and ua); frames against netCDF-C read by plain loops
// (nc_frame.h); each isoline's points checked against the frame's values on its cell edges.
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <memory>
#include <optional>

#include "../gpu_skip.h"
#include "frame_service.h"
#include "frame_service_checks.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kWinds = QStringLiteral(STRATA_TEST_DATA "/geostrophic_500.nc");

// Empty when every point of `t`'s lines lies on a cell edge of `frame` (dims (y, x), on the
// host) where the values at the edge's two ends, linearly between, give the line's level (the
// columns' last edge reaching over to the first when t.wrapX), and each level is one of t's.
QString offLevel(const TracedIsolines& t, const DataArray& frame) {
    const std::vector<double> v = frame.asHost().values<double>();
    const std::int64_t ny = frame.shape()[0], nx = frame.shape()[1];
    auto at = [&](std::int64_t j, std::int64_t i) { return v[std::size_t(j * nx + (t.wrapX ? i % nx : i))]; };
    std::size_t points = 0;
    for (const Isoline& l : t.lines) {
        if (std::find(t.levels.begin(), t.levels.end(), l.level) == t.levels.end())
            return QString("a line at %1, not one of the levels").arg(l.level);
        for (std::size_t k = 0; k + 1 < l.xy.size(); k += 2, ++points) {
            const double x = l.xy[k], y = l.xy[k + 1];
            const double fx = std::floor(x), fy = std::floor(y);
            const double lastX = double(t.wrapX ? nx : nx - 1); // over the seam: column 0 again
            const bool onColumn = x == fx, onRow = y == fy;
            if (fx < 0 || fy < 0 || fx > lastX || fy > double(ny - 1) || (!onColumn && fx + 1 > lastX) ||
                (!onRow && fy + 1 > double(ny - 1)))
                return QString("a point outside the frame (%1, %2)").arg(x).arg(y);
            const auto i = std::int64_t(fx), j = std::int64_t(fy);
            double a, b, w;
            if (onColumn && onRow) { // on a sample at the level
                a = b = at(j, i), w = 0;
            } else if (onColumn) { // between rows j and j + 1
                a = at(j, i), b = at(j + 1, i), w = y - fy;
            } else if (onRow) { // between columns i and i + 1
                a = at(j, i), b = at(j, i + 1), w = x - fx;
            } else {
                return QString("a point off the cell edges (%1, %2)").arg(x).arg(y);
            }
            const double value = a + w * (b - a);
            if (std::fabs(value - l.level) > 1e-5 * std::max(1.0, std::fabs(l.level)))
                return QString("(%1, %2) is at %3, its line at %4").arg(x).arg(y).arg(value).arg(l.level);
        }
    }
    return points > 0 ? QString() : QString("no points");
}

// The lines the core traces on the host in `frame` at t's levels and seam: the same count and
// points (to `tolerance`, relative: a device's interpolation rounds otherwise).
bool sameAsTheCores(const TracedIsolines& t, const DataArray& frame, double tolerance = 0) {
    const std::vector<Isoline> want = isolines(frame.asHost(), t.levels, t.wrapX);
    if (want.size() != t.lines.size()) return false;
    for (std::size_t k = 0; k < want.size(); ++k) {
        if (want[k].level != t.lines[k].level || want[k].xy.size() != t.lines[k].xy.size()) return false;
        for (std::size_t i = 0; i < want[k].xy.size(); ++i)
            if (!(std::fabs(want[k].xy[i] - t.lines[k].xy[i]) <= tolerance * (1 + std::fabs(want[k].xy[i]))))
                return false;
    }
    return true;
}

} // namespace

class TestFrameIsolines : public QObject {
    Q_OBJECT
    std::shared_ptr<const Dataset> ds_;

private slots:
    void initTestCase() { ds_ = std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())); }

    // Automatic levels in the frame's own range (the colour range's default), HGT's global
    // longitudes contoured over the seam; the step computed ahead comes from the cache with its
    // own frame's isolines, not the previous one's. On a GPU ("cuda", skipped without one) the
    // frame and the step ahead stay on the device, and their isolines, traced there by the
    // worker, are the host's core's to 1e-12 (the host's are them exactly).
    void stepsAheadComeWithTheirIsolines_data() {
        QTest::addColumn<bool>("cuda");
        QTest::newRow("cpu") << false;
        QTest::newRow("cuda") << true;
    }
    void stepsAheadComeWithTheirIsolines() {
        QFETCH(bool, cuda);
        if (cuda && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const double tolerance = cuda ? 1e-12 : 0;
        FrameService service;
        if (cuda) service.setDeviceProbe([] { return std::optional<Device>(Device::cuda(0)); });
        service.setPrefetch(2, 0);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec spec = specAt(*ds_, 3);
        spec.contours = parseContourSpec("auto");
        const Result r = waitFor(ready, service.requestFrame(spec, "time", +1));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(isFrameOf(r->frame, *ds_, spec));
        QCOMPARE(r->frame.device().isHost(), !cuda);
        QVERIFY(r->isolines);
        const DataArray frame3 = expected(*ds_, spec);
        const auto [lo, hi] = minmaxValues(frame3);
        QCOMPARE(r->isolines->levels, contourLevels(*spec.contours, lo, hi));
        QVERIFY(r->isolines->levels.size() >= 5);
        QCOMPARE(r->isolines->extremes, (MinMax{lo, hi}));
        QVERIFY(r->isolines->wrapX); // 144 columns of 2.5°
        QString why = offLevel(*r->isolines, frame3);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(sameAsTheCores(*r->isolines, frame3, tolerance));

        service.frameShown();
        QVERIFY(settled(service));
        ViewSpec spec4 = spec;
        spec4.indices = {{"time", 4}};
        const Result next = waitFor(ready, service.requestFrame(spec4, "time", +1));
        QVERIFY(next && next->fromCache && next->isolines);
        const DataArray frame4 = expected(*ds_, spec4);
        QVERIFY(isFrameOf(frame4, *ds_, spec4));
        why = offLevel(*next->isolines, frame4);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(sameAsTheCores(*next->isolines, frame4, tolerance));
        QCOMPARE(next->frame.device().isHost(), !cuda);
        QVERIFY(!offLevel(*next->isolines, frame3).isEmpty()); // another frame's lines would fail
    }

    // A fixed colour range sets the automatic levels; a list of levels is kept as given (a
    // cached frame's lines at other levels are not handed on, and the worker traces the new
    // ones); a view without contours gets none.
    void levelsFollowTheSpec() {
        FrameService service;
        service.setPrefetch(1, 0);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec spec = specAt(*ds_, 7);
        spec.contours = parseContourSpec("auto");
        spec.colouring.range = {RangeMode::Fixed, 5000, 5600};
        Result r = waitFor(ready, service.requestFrame(spec, "time", 0));
        QVERIFY(r && r->error.isEmpty() && r->isolines);
        QCOMPARE(r->isolines->levels, contourLevels(*spec.contours, 5000, 5600));
        const DataArray frame7 = expected(*ds_, spec);
        QString why = offLevel(*r->isolines, frame7);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        spec.contours = parseContourSpec("5200,5500.5");
        r = waitFor(ready, service.requestFrame(spec, "time", 0));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(!r->isolines || r->isolines->levels == (std::vector<double>{5200, 5500.5}));
        QTRY_VERIFY_WITH_TIMEOUT((r = waitFor(ready, service.requestFrame(spec, "time", 0))) && r->isolines,
                                 10000);
        QCOMPARE(r->isolines->levels, (std::vector<double>{5200, 5500.5}));
        why = offLevel(*r->isolines, frame7);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        spec.contours.reset();
        r = waitFor(ready, service.requestFrame(spec, "time", 0));
        QVERIFY(r && r->error.isEmpty() && !r->isolines);
    }

    // Another variable's isolines (zg over ua): traced from its frame, in its own range.
    void aContourVariablesIsolinesInItsOwnRange() {
        auto winds = std::make_shared<Dataset>(io::openDataset(kWinds.toStdString()));
        FrameService service;
        service.setPrefetch(0, 0);
        service.setDataset(winds);
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec spec = specAt(*winds, 1);
        spec.variable = "ua";
        spec.contourVariable = "zg";
        spec.contours = parseContourSpec("auto");
        const Result r = waitFor(ready, service.requestFrame(spec, "time", 0));
        QVERIFY(r && r->error.isEmpty() && r->contourFrame && r->isolines);
        ViewSpec zg = spec;
        zg.variable = "zg";
        zg.contourVariable.clear();
        const DataArray frame = expected(*winds, zg);
        QVERIFY(isFrameOf(frame, *winds, zg));
        const auto [lo, hi] = minmaxValues(frame);
        QCOMPARE(r->isolines->levels, contourLevels(*spec.contours, lo, hi));
        QVERIFY(lo > 4000); // heights, not winds
        const QString why = offLevel(*r->isolines, frame);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_MAIN(TestFrameIsolines)
#include "tst_frameisolines.moc"
