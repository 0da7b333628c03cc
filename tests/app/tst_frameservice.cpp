// FrameService: steps computed ahead and behind, cached frames answered without the worker (and
// only after the caller has the id), the next step of a new view, busy while an answer is on
// its way. Real netCDF data (tests/data/hgt.nc, HGT(time=21, lat, lon)); values against netCDF-C
// reads sliced and reduced by plain loops (nc_frame.h), and against the core; colours against a
// plain loop over the colour map's table, and against the core's colour map.
#include <QSignalSpy>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <netcdf.h>
#include <optional>

#include "../gpu_skip.h"
#include "frame_service.h"
#include "frame_service_checks.h"
#include "io/nc_write.h"
#include "nc_frame.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/io/netcdf.h"
#include "strata/render/colormaps.h"

using namespace strata;
using namespace strata::app;

namespace {

// The least and greatest of HGT's values, its _FillValue (-999) left out, as netCDF-C reads them
// (nc_get_var_float) and a plain loop finds them.
std::pair<double, double> hgtExtremes() {
    int nc = 0, var = 0;
    std::vector<float> all(21 * 73 * 144);
    if (nc_open(kHgt.toUtf8().constData(), NC_NOWRITE, &nc) != NC_NOERR) return {NAN, NAN};
    const bool read =
        nc_inq_varid(nc, "HGT", &var) == NC_NOERR && nc_get_var_float(nc, var, all.data()) == NC_NOERR;
    nc_close(nc);
    if (!read) return {NAN, NAN};
    double lo = INFINITY, hi = -INFINITY;
    for (float v : all)
        if (v != -999.f) lo = std::min<double>(lo, v), hi = std::max<double>(hi, v);
    return {lo, hi};
}

// The colours of `frame` over `range` by a plain loop over the colour map's table, apart from
// the core's colour map: t = (v - lo) / (hi - lo), entry clamp(floor(t n), 0, n - 1); NaN has
// `nan`; a flat range gives entry 0. RGBA bytes, row by row.
std::vector<double> handColours(const DataArray& frame, const std::vector<Rgba8>& table, MinMax range,
                                Rgba8 nan) {
    std::vector<double> out;
    const double lo = range.first, hi = range.second, n = double(table.size());
    for (double v : frame.asHost().values<double>()) {
        Rgba8 c = nan;
        if (!std::isnan(v)) {
            double k = hi > lo ? std::floor((v - lo) / (hi - lo) * n) : 0;
            k = std::clamp(k, 0.0, n - 1);
            c = table[std::size_t(k)];
        }
        out.insert(out.end(), {double(c.r), double(c.g), double(c.b), double(c.a)});
    }
    return out;
}

// Empty when `c` holds what the core's colour map makes of `frame` with `spec`'s colours over
// `range`; otherwise what differs.
QString colourProblem(const ColouredFrame& c, const DataArray& frame, const ViewSpec& spec, MinMax range) {
    if (c.colouring != spec.colouring) return "made with another colouring";
    if (c.range != range)
        return QString("range %1..%2, expected %3..%4")
            .arg(c.range.first)
            .arg(c.range.second)
            .arg(range.first)
            .arg(range.second);
    // The worker makes them in the window's byte order (B, G, R, A on this machine).
    if (c.order != kWindowPixelOrder) return "not in the window's byte order";
    std::vector<Rgba8> table = colormapTable(spec.colouring.colormap, spec.colouring.reversed);
    Rgba8 nan{255, 0, 255, 255};
    if (c.order == PixelOrder::Bgra) {
        for (Rgba8& t : table) std::swap(t.r, t.b);
        std::swap(nan.r, nan.b);
    }
    const DataArray lut = colormapLut(table, Device::host(), Stream::host());
    const DataArray want = colormap(frame, lut, range.first, range.second, nan, Stream::host());
    if (want.shape() != c.rgba.shape()) return "another shape";
    const std::vector<double> shown = c.rgba.asHost().values<double>();
    if (handColours(frame, table, range, nan) != shown) return "pixels other than the table's by hand";
    if (want.values<double>() != shown) return "pixels other than the core's colour map";
    return {};
}

// Empty when asking `service` for time `t` (stepping `direction`) is answered from its cache
// with the frame's values; otherwise what was wrong.
QString stepFromCache(FrameService& service, QSignalSpy& ready, const Dataset& ds, std::int64_t t,
                      int direction) {
    const Result r = waitFor(ready, service.requestFrame(specAt(ds, t), "time", direction));
    if (!r) return QString("no answer for time %1").arg(t);
    if (!r->fromCache) return QString("time %1 was not computed before").arg(t);
    if (!isFrameOf(r->frame, ds, specAt(ds, t))) return QString("time %1: other values").arg(t);
    return {};
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
        QVERIFY(isFrameOf(first->frame, *ds_, specAt(*ds_, 5)));
        // 5 itself, then 6, 7, 4 (behind) and 8, and no more than asked for: once the frame is
        // on the screen the worker computes them, then waits.
        service.frameShown();
        QVERIFY(settled(service));
        QCOMPARE(service.cachedFrames(), std::size_t(5));
        // A step to 8 (computed ahead) is answered from the cache; then 9, 10 and 11 are computed.
        QString why = stepFromCache(service, ready, *ds_, 8, +1);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(8), 10000);
        // Back to 4 (computed behind 5): from the cache; then backwards 3, 2 and 1.
        why = stepFromCache(service, ready, *ds_, 4, -1);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(11), 10000);
        why = stepFromCache(service, ready, *ds_, 1, -1);
        QVERIFY2(why.isEmpty(), qPrintable(why));
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
        QVERIFY(isFrameOf(r->frame, *ds_, specAt(*ds_, 1)));
        QTRY_VERIFY_WITH_TIMEOUT(!service.busy(), 10000);
    }

    void aNewViewGetsItsNextStep() {
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 0)))); // the file's first read
        service.frameShown();
        QVERIFY(settled(service));
        const std::size_t before = service.cachedFrames();
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 10)))); // no step: a new view
        service.frameShown();
        QVERIFY(settled(service));
        QCOMPARE(service.cachedFrames(), before + 2); // one step only, forwards
        const QString why = stepFromCache(service, ready, *ds_, 11, +1);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void aNewViewsNextStepWaitsForTheScreen() {
        // A new view's frame (a file's first) is on its way through the GUI thread's paint: its
        // next step is computed once it is on the screen, not beside that paint.
        FrameService service;
        service.setAheadWait(std::chrono::minutes(1)); // no time-out in this test
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 4)))); // no step: a new view
        QVERIFY(settled(service));                                      // waiting for the screen
        QCOMPARE(service.cachedFrames(), std::size_t(1));               // 4 alone
        service.frameShown();
        QVERIFY(settled(service));
        QCOMPARE(service.cachedFrames(), std::size_t(2)); // 5 too
        const QString why = stepFromCache(service, ready, *ds_, 5, +1);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void stepsBeyondTheNextWaitForTheScreen() {
        // While the user steps, the next step is computed at once; the ones after it only once
        // the frame is on the screen (frameShown), not during its paint.
        FrameService service;
        service.setPrefetch(4, 0);
        service.setAheadWait(std::chrono::minutes(1)); // no time-out in this test
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 5), "time", +1));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(settled(service));                        // waiting for the screen
        QCOMPARE(service.cachedFrames(), std::size_t(2)); // 5 and 6
        service.frameShown();
        QVERIFY(settled(service));
        QCOMPARE(service.cachedFrames(), std::size_t(5)); // 7, 8, 9 too
        const QString why = stepFromCache(service, ready, *ds_, 8, +1);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void framesStayOnTheGpu() {
        // With a GPU the frames, those computed ahead and those of a reduction, are computed
        // there and stay there: the worker copies nothing to the host, in any range mode but the
        // per-frame one (whose colour bar prints the frame's two extremes: 16 bytes).
        if (!computeDevice().isCuda()) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        FrameService service;
        service.setPrefetch(2, 0);
        service.setDataset(ds_);
        service.waitForLoads();
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec spec = specAt(*ds_, 3);
        spec.colouring.range = ColourRange{RangeMode::Variable, 0, 1}; // its extremes: once, before the steps
        Result r = waitFor(ready, service.requestFrame(spec, "time", +1));
        QVERIFY(r && r->error.isEmpty());
        service.frameShown();
        QVERIFY(settled(service));
        service.waitForLoads();
        const TransferCounters before = transferCounters();
        for (std::int64_t t : {4, 5, 6}) {
            ViewSpec step = specAt(*ds_, t);
            step.colouring = spec.colouring;
            r = waitFor(ready, service.requestFrame(step, "time", +1));
            QVERIFY(r && r->error.isEmpty());
            QVERIFY(r->frame.device().isCuda());
            QVERIFY(!r->coloured);
            service.frameShown();
            QVERIFY(settled(service));
        }
        ViewSpec mean = spec;
        mean.indices.clear();
        mean.reductions = {{"time", ReduceOp::Mean}};
        r = waitFor(ready, service.requestFrame(mean));
        QVERIFY(r && r->error.isEmpty() && r->frame.device().isCuda());
        QVERIFY(settled(service));
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(0));
        // The mean, copied here only now, against the host's.
        const auto got = r->frame.asHost().values<double>();
        const auto want = oracleOf(*ds_, mean).value_or(nctest::NdValues{}).values;
        QCOMPARE(got.size(), want.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(std::abs(got[i] - want[i]) <= 1e-5 * std::abs(want[i]),
                     qPrintable(QString("element %1: %2, expected %3").arg(i).arg(got[i]).arg(want[i])));
    }

    void perFrameRangesAreKnownWithoutReadingTheFrame() {
        // Resident on a GPU, every frame of a view without reductions comes with its extremes,
        // looked up in a table made once: the per-frame range (the default) copies nothing to
        // the host at a step, computed or answered from the cache. Each is checked against a
        // plain loop over the frame's values computed on the host.
        if (!computeDevice().isCuda()) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        FrameService service;
        service.setPrefetch(2, 0);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 2), "time", +1));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(shownAndLoaded(service));
        const TransferCounters before = transferCounters();
        std::vector<Result> steps;
        for (std::int64_t t : {3, 4, 5, 9, 0}) {
            r = waitFor(ready, service.requestFrame(specAt(*ds_, t), "time", +1));
            QVERIFY(r && r->error.isEmpty() && r->frame.device().isCuda());
            QVERIFY2(r->frameRange, qPrintable(QString("step %1 has no frame range").arg(t)));
            steps.push_back(r);
            service.frameShown();
            QVERIFY(settled(service));
        }
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(0));
        for (const Result& step : steps) {
            double lo = NAN, hi = NAN;
            const std::vector<double> file = oracleOf(*ds_, step->spec).value_or(nctest::NdValues{}).values;
            QVERIFY(!file.empty());
            for (double v : file) {
                if (!std::isfinite(v)) continue;
                lo = std::isnan(lo) || v < lo ? v : lo;
                hi = std::isnan(hi) || v > hi ? v : hi;
            }
            QCOMPARE(step->frameRange->first, lo);
            QCOMPARE(step->frameRange->second, hi);
        }
        // A reduction's frames are not slices: no table answers for them.
        ViewSpec mean = specAt(*ds_, 0);
        mean.indices.clear();
        mean.reductions = {{"time", ReduceOp::Mean}};
        r = waitFor(ready, service.requestFrame(mean));
        QVERIFY(r && r->error.isEmpty());
        QVERIFY(!r->frameRange);
    }

    void hostFramesArriveColouredWithTheViewsColours() {
        // On the CPU path the worker colour-maps each frame (and each step it computes ahead)
        // with the spec's map and range, so that the GUI thread only uploads it.
        FrameService service;
        service.setPrefetch(2, 0);
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec spec = specAt(*ds_, 3);
        spec.colouring.colormap = "magma";
        spec.colouring.reversed = true; // the range per frame, the default
        const Result r = waitFor(ready, service.requestFrame(spec, "time", +1));
        QVERIFY(r && r->error.isEmpty());
        if (!r->frame.device().isHost()) { // colour-mapped into GL's buffer when drawn, not here
            QVERIFY(!r->coloured);
            QVERIFY(isFrameOf(r->frame, *ds_, spec));
            return;
        }
        QVERIFY(r->coloured);
        const DataArray frame3 = expected(*ds_, spec);
        QVERIFY(isFrameOf(frame3, *ds_, spec));
        QString why = colourProblem(*r->coloured, frame3, spec, minmaxValues(frame3));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The step computed ahead comes from the cache with its colours.
        QTRY_COMPARE_WITH_TIMEOUT(service.cachedFrames(), std::size_t(3), 10000);
        ViewSpec spec4 = spec;
        spec4.indices = {{"time", 4}};
        const Result next = waitFor(ready, service.requestFrame(spec4, "time", +1));
        QVERIFY(next && next->fromCache && next->coloured);
        const DataArray frame4 = expected(*ds_, spec4);
        QVERIFY(isFrameOf(frame4, *ds_, spec4));
        why = colourProblem(*next->coloured, frame4, spec4, minmaxValues(frame4));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // Other colours for a cached frame: not those of the old map (the view colours it, or the
        // worker has made the new ones); asked again after the worker has run, the new ones.
        ViewSpec fixed = spec4;
        fixed.colouring.colormap = "viridis";
        fixed.colouring.reversed = false;
        fixed.colouring.range = {RangeMode::Fixed, 5000, 6000};
        const Result other = waitFor(ready, service.requestFrame(fixed, "time", 0));
        QVERIFY(other && other->error.isEmpty());
        QVERIFY(!other->coloured || colourProblem(*other->coloured, frame4, fixed, {5000, 6000}).isEmpty());
        Result again;
        QTRY_VERIFY_WITH_TIMEOUT(
            (again = waitFor(ready, service.requestFrame(fixed, "time", 0))) && again->coloured, 10000);
        why = colourProblem(*again->coloured, frame4, fixed, {5000, 6000});
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // The whole variable's range: the colours are made once it is known.
        ViewSpec whole = spec4;
        whole.colouring.range = {RangeMode::Variable, 0, 1};
        const Result w = waitFor(ready, service.requestFrame(whole, "time", 0));
        QVERIFY(w && w->variableRange && w->coloured);
        why = colourProblem(*w->coloured, frame4, whole, *w->variableRange);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // An oracle apart from the core: HGT read here with netCDF-C (nc_get_vara_float). The frame
    // at time 5 is (lat, lon) with the file's values in place; the mean over time is the mean
    // of the 21 values of each cell, summed here in double.
    void framesAgainstNetcdfC() {
        int nc = 0, var = 0;
        QCOMPARE(nc_open(kHgt.toUtf8().constData(), NC_NOWRITE, &nc), NC_NOERR);
        QCOMPARE(nc_inq_varid(nc, "HGT", &var), NC_NOERR);
        constexpr std::size_t kT = 21, kLat = 73, kLon = 144;
        std::vector<float> all(kT * kLat * kLon);
        const std::size_t start[3] = {0, 0, 0}, count[3] = {kT, kLat, kLon};
        QCOMPARE(nc_get_vara_float(nc, var, start, count, all.data()), NC_NOERR);
        nc_close(nc);
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 5)));
        QVERIFY(r && r->error.isEmpty());
        const DataArray f = r->frame.asHost();
        QCOMPARE(f.dims(), (std::vector<std::string>{"lat", "lon"}));
        QCOMPARE(f.shape(), Shape({std::int64_t(kLat), std::int64_t(kLon)}));
        const std::vector<double> got = f.values<double>();
        for (std::size_t i = 0; i < kLat * kLon; ++i)
            QVERIFY2(got[i] == double(all[5 * kLat * kLon + i]),
                     qPrintable(QString("lat %1 lon %2: %3, netCDF-C %4")
                                    .arg(i / kLon)
                                    .arg(i % kLon)
                                    .arg(got[i])
                                    .arg(all[5 * kLat * kLon + i])));
        ViewSpec mean = specAt(*ds_, 0);
        mean.indices.clear();
        mean.reductions = {{"time", ReduceOp::Mean}};
        const Result m = waitFor(ready, service.requestFrame(mean));
        QVERIFY(m && m->error.isEmpty());
        const std::vector<double> means = m->frame.asHost().values<double>();
        QCOMPARE(means.size(), kLat * kLon);
        for (std::size_t i = 0; i < kLat * kLon; ++i) {
            double sum = 0;
            int n = 0;
            for (std::size_t t = 0; t < kT; ++t) {
                const float v = all[t * kLat * kLon + i];
                if (v == -999.f || std::isnan(v)) continue; // the _FillValue
                sum += v;
                ++n;
            }
            const double want = sum / n;
            QVERIFY2(std::abs(means[i] - want) <= 1e-6 * std::abs(want),
                     qPrintable(QString("cell %1: mean %2, netCDF-C %3").arg(i).arg(means[i]).arg(want)));
        }
    }

    // The whole variable's range belongs to its file: another file with a variable of the same
    // name (written here, values 0..23) gets its own range, not the last file's.
    void aVariableRangeIsTheFilesOwn() {
        QTemporaryDir dir;
        const std::string other = dir.filePath("other.nc").toStdString();
        {
            nctest::Writer w(other, NC_NETCDF4);
            const int t = w.dim("time", 2), y = w.dim("lat", 3), x = w.dim("lon", 4);
            const int v = w.var("HGT", NC_FLOAT, {t, y, x});
            w.enddef();
            std::vector<float> values(24);
            for (int i = 0; i < 24; ++i) values[std::size_t(i)] = float(i);
            w.put(v, values);
        }
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        ViewSpec whole = specAt(*ds_, 0);
        whole.colouring.range = {RangeMode::Variable, 0, 1};
        const Result first = waitFor(ready, service.requestFrame(whole));
        QVERIFY(first && first->variableRange);
        const auto [lo, hi] = hgtExtremes(); // hgt.nc's own, netCDF-C's reading
        QCOMPARE(first->variableRange->first, lo);
        QCOMPARE(first->variableRange->second, hi);
        auto ds = std::make_shared<Dataset>(io::openDataset(other));
        service.setDataset(ds);
        ViewSpec next = specAt(*ds, 1);
        next.colouring.range = {RangeMode::Variable, 0, 1};
        const Result second = waitFor(ready, service.requestFrame(next));
        QVERIFY(second && second->error.isEmpty() && second->variableRange);
        QCOMPARE(second->variableRange->first, 0.0);
        QCOMPARE(second->variableRange->second, 23.0);
    }

    void aNewFileDropsWhatWasComputedAhead() {
        FrameService service;
        service.setDataset(ds_);
        QSignalSpy ready(&service, &FrameService::frameReady);
        QVERIFY(waitFor(ready, service.requestFrame(specAt(*ds_, 2), "time", +1)));
        QTRY_VERIFY_WITH_TIMEOUT(service.cachedFrames() > 1, 10000);
        service.setDataset(std::make_shared<Dataset>(io::openDataset(kHgt.toStdString())));
        QCOMPARE(service.cachedFrames(), std::size_t(0));
        QVERIFY(settled(service)); // a step ahead still being computed for the old file is not kept
        QCOMPARE(service.cachedFrames(), std::size_t(0));
        const Result r = waitFor(ready, service.requestFrame(specAt(*ds_, 3), "time", +1));
        QVERIFY(r && !r->fromCache);
    }

    // A newer request aborts the HTTP reads of the frame it overtakes (a Zarr store served by
    // tests/io/zarr_http_server.py, its chunk answers held): the worker moves on to the new
    // request while the old one's chunk is still held, and only the new one is answered, with
    // the values zarr wrote (tests/io/zarr_load_store.py). Without the abort the worker waits
    // on the held chunk and never asks for the new one.
    void aNewerRequestAbortsHttpReads() {
        QTemporaryDir dir;
        // The store as tst_zarr_load has it: written here by zarr_load_store.py (zarr-python and
        // numcodecs, which scripts/setup.sh installs), or, where they are not installed (the GPU
        // machine), written beforehand by the same script and named by STRATA_ZARR_LOAD_DIR.
        const QString written = qEnvironmentVariable("STRATA_ZARR_LOAD_DIR");
        if (!written.isEmpty()) { // the store and its oracle (a.bin), copied: the test writes beside them
            QVERIFY2(QFile::exists(written + "/load.zarr/.zmetadata"),
                     qPrintable("STRATA_ZARR_LOAD_DIR=" + written + " holds no load.zarr"));
            std::error_code e;
            std::filesystem::copy(written.toStdString(), dir.path().toStdString(),
                                  std::filesystem::copy_options::recursive, e);
            QVERIFY2(!e, e.message().c_str());
        } else {
            QProcess py;
            py.start("/usr/bin/python3",
                     {QString(STRATA_SOURCE_DIR) + "/tests/io/zarr_load_store.py", dir.path()});
            QVERIFY(py.waitForFinished(120000));
            // zarr_load_store.py imports numcodecs, then zarr: the error names the one missing.
            QVERIFY2(
                py.exitCode() == 0,
                qPrintable("tests/io/zarr_load_store.py failed (zarr-python and numcodecs: scripts/setup.sh "
                           "installs them; or name a store written elsewhere in STRATA_ZARR_LOAD_DIR): " +
                           QString::fromUtf8(py.readAllStandardError()).trimmed().section('\n', -1)));
        }
        QFile hold(dir.path() + "/HOLD");
        QVERIFY(hold.open(QIODevice::WriteOnly));
        hold.close();
        const QString log = dir.path() + "/log.txt";
        QProcess server;
        server.start("/usr/bin/python3", {QString(STRATA_SOURCE_DIR) + "/tests/io/zarr_http_server.py",
                                          dir.path(), log, "--hold"});
        QVERIFY(server.waitForStarted(30000));
        while (!server.canReadLine()) QVERIFY(server.waitForReadyRead(30000));
        const QString url =
            "http://127.0.0.1:" + QString::fromUtf8(server.readLine()).trimmed() + "/load.zarr";
        auto requested = [&](const QString& key) {
            QFile f(log);
            return f.open(QIODevice::ReadOnly) &&
                   QString::fromUtf8(f.readAll()).contains(" /load.zarr/a/" + key + " ");
        };
        {
            const auto ds = std::make_shared<Dataset>(io::openDataset(url.toStdString()));
            FrameService service;
            service.setDataset(ds);
            QSignalSpy ready(&service, &FrameService::frameReady);
            ViewSpec spec;
            spec.file = ds->path;
            spec.variable = "a";
            spec.xDim = "lon";
            spec.yDim = "lat";
            spec.indices = {{"time", 0}};
            const std::uint64_t first = service.requestFrame(spec);
            QTRY_VERIFY_WITH_TIMEOUT(requested("0.0.0"), 60000); // its chunk is held
            spec.indices = {{"time", 20}};
            const std::uint64_t second = service.requestFrame(spec);
            QTRY_VERIFY_WITH_TIMEOUT(requested("2.0.0"), 60000); // the worker left the first
            QVERIFY(hold.remove());
            const Result r = waitFor(ready, second);
            QVERIFY(r && r->error.isEmpty());
            QFile values(dir.path() + "/a.bin");
            QVERIFY(values.open(QIODevice::ReadOnly));
            const QByteArray all = values.readAll();
            std::vector<float> want(12 * 20);
            std::memcpy(want.data(), all.constData() + 20 * 12 * 20 * 4, want.size() * 4);
            const std::vector<double> got = r->frame.asHost().values<double>();
            QCOMPARE(got, std::vector<double>(want.begin(), want.end()));
            for (const auto& args : ready) QVERIFY(args.at(0).value<Result>()->id != first);
        } // the service stops its loads before the server goes
        server.kill();
        server.waitForFinished(10000);
    }
};

QTEST_GUILESS_MAIN(TestFrameService)
#include "tst_frameservice.moc"
