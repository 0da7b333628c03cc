// Derived variables along time: centred rolling means and sums and differences as xarray's,
// climatologies, anomalies and standardised anomalies by month, season and day of the year in
// three calendars, against loops written here over the host values, on fresh random inputs with
// NaNs; the cuda rows run the same on the GPU (inputs resident there, and lazy).
#include "test_seed.h"
#include <QtTest>

#include <cmath>
#include <functional>
#include <set>

#include "derived_fixture.h"
#include "derived_impl.h"
#include "strata/core/derived.h"
#include "strata/core/runtime.h"
#include "strata/core/view.h"
#include "test_util.h"

using namespace strata;
using namespace test;
using namespace derivedtest;

namespace {

// Day of the year of a noleap date, written out here (not the library's).
int noleapDay(const DateTime& d) {
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int n = d.day;
    for (int m = 1; m < d.month; ++m) n += days[m - 1];
    return n;
}

// The climatology of `x` (time, lat, lon) by `key` over years [y0, y1]: per group, per point,
// mean and std (ddof 0) of the non-NaN values; groups in ascending key order.
struct Climate {
    std::vector<int> keys;
    std::vector<double> mean, sd; // [group][point]
};
Climate climatology(const Fixture& f, const std::vector<double>& x,
                    const std::function<int(const DateTime&)>& key, int y0, int y1) {
    Climate r;
    std::set<int> present;
    for (const auto& d : f.dates) present.insert(key(d));
    r.keys.assign(present.begin(), present.end());
    const std::int64_t points = f.ny * f.nx;
    for (int k : r.keys)
        for (std::int64_t p = 0; p < points; ++p) {
            double s = 0, n = 0;
            for (std::int64_t t = 0; t < f.nt; ++t)
                if (key(f.dates[t]) == k && f.dates[t].year >= y0 && f.dates[t].year <= y1 &&
                    !std::isnan(x[t * points + p])) {
                    s += x[t * points + p];
                    n += 1;
                }
            const double mean = n > 0 ? s / n : kNan;
            double q = 0;
            for (std::int64_t t = 0; t < f.nt; ++t)
                if (key(f.dates[t]) == k && f.dates[t].year >= y0 && f.dates[t].year <= y1 &&
                    !std::isnan(x[t * points + p]))
                    q += (x[t * points + p] - mean) * (x[t * points + p] - mean);
            r.mean.push_back(mean);
            r.sd.push_back(n > 0 ? std::sqrt(q / n) : kNan);
        }
    return r;
}

} // namespace

class TestDerivedTime : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Centred rolling windows as xarray's rolling(center=True) (NaN where the window is
    // incomplete or holds a NaN), and differences as xarray's diff placed on the dataset's dim
    // (NaN first).
    void windows_data() { STRATA_BACKEND_ROWS(); }
    void windows() {
        STRATA_BACKEND(backend);
        for (int window : {1, 4, 5})
            if (windowsOf(backend.cuda, window), QTest::currentTestFailed()) return;
    }
    void windowsOf(bool cuda, int window) {
        Fixture f = makeFixture(testSeed() + window, true, 30);
        derive(f.ds, "m = rolling_mean(u, \"time\", " + std::to_string(window) + ")");
        derive(f.ds, "s = rolling_sum(u * 2, \"lon\", " + std::to_string(window) + ")");
        derive(f.ds, "d = diff(u, \"time\")");
        derive(f.ds, "dd = diff(rolling_mean(u, \"time\", " + std::to_string(window) + "), \"lon\")");
        const std::int64_t n = f.nt * f.ny * f.nx;
        auto at = [&](std::int64_t t, std::int64_t y, std::int64_t x) {
            return f.u[(t * f.ny + y) * f.nx + x];
        };
        const int lo = -(window / 2), hi = window - 1 - window / 2;
        auto rollTime = [&](std::int64_t t, std::int64_t y, std::int64_t x) {
            if (t + lo < 0 || t + hi >= f.nt) return kNan;
            double s = 0;
            for (int k = lo; k <= hi; ++k) s += at(t + k, y, x);
            return s / window;
        };
        std::vector<double> m(n), s(n), d(n), dd(n);
        for (std::int64_t t = 0; t < f.nt; ++t)
            for (std::int64_t y = 0; y < f.ny; ++y)
                for (std::int64_t x = 0; x < f.nx; ++x) {
                    const std::int64_t i = (t * f.ny + y) * f.nx + x;
                    m[i] = double(float(rollTime(t, y, x)));
                    double sum = 0;
                    if (x + lo < 0 || x + hi >= f.nx)
                        sum = kNan;
                    else
                        for (int k = lo; k <= hi; ++k) sum += at(t, y, x + k) * 2;
                    s[i] = double(float(sum));
                    d[i] = t == 0 ? kNan : double(float(at(t, y, x) - at(t - 1, y, x)));
                    dd[i] = x == 0 ? kNan : double(float(rollTime(t, y, x) - rollTime(t, y, x - 1)));
                }
        QVERIFY(sameValues(evaluate(f.ds, "m", cuda), m));
        QVERIFY(sameValues(evaluate(f.ds, "s", cuda), s));
        QVERIFY(sameValues(evaluate(f.ds, "d", cuda), d));
        QVERIFY(sameValues(evaluate(f.ds, "dd", cuda), dd, 1e-5, 1e-4));
        // A box of the middle of the record reads only the steps its windows reach.
        const DataArray slab = f.ds["m"].isel({{"time", Slice{10, 12, 1}}});
        const Device device = cuda ? Device::cuda(0) : Device::host();
        const std::vector<double> part =
            slab.load(device, cuda ? defaultStream(device) : Stream::host()).asHost().values<double>();
        QVERIFY(sameValues(part,
                           std::vector<double>(m.begin() + 10 * f.ny * f.nx, m.begin() + 12 * f.ny * f.nx)));
    }

    // Climatologies by month, season and day of year over a base period; anomalies and
    // standardised anomalies against them; a frame of the anomaly and its mean over time.
    void climatologies_data() { STRATA_BACKEND_ROWS(); }
    void climatologies() {
        STRATA_BACKEND(backend);
        for (bool lazy : {false, true})
            for (const char* g : {"month", "season", "dayofyear"})
                if (climatologiesOf(backend.cuda, lazy, g), QTest::currentTestFailed()) return;
    }
    void climatologiesOf(bool cuda, bool lazy, const std::string& g) {
        // Lazy inputs are read a few steps at a time, each chunk's moments merged into the table.
        detail::setTableChunkBytes(lazy ? 4 * 12 * 4 * 37 : 0);
        struct Reset {
            ~Reset() { detail::setTableChunkBytes(0); }
        } reset;
        Fixture f = makeFixture(testSeed() + lazy, lazy);
        derive(f.ds, "c = climatology(tas - 273.15, \"" + g + "\", 1990, 1991)");
        derive(f.ds, "a = anomaly(tas, \"" + g + "\", 1991, 1992)");
        derive(f.ds, "z = std_anomaly(tas, \"" + g + "\")");
        std::function<int(const DateTime&)> key = [](const DateTime& d) { return d.month; };
        if (g == "season") key = [](const DateTime& d) { return d.month % 12 / 3 + 1; };
        if (g == "dayofyear") key = noleapDay;
        std::vector<double> celsius(f.tas.size());
        for (std::size_t i = 0; i < celsius.size(); ++i) celsius[i] = double(float(f.tas[i] - 273.15));
        const Climate c = climatology(f, celsius, key, 1990, 1991);
        const Climate a = climatology(f, f.tas, key, 1991, 1992);
        const Climate z = climatology(f, f.tas, key, 1990, 1993);
        const DataArray cv = f.ds["c"];
        QCOMPARE(cv.dims(), (std::vector<std::string>{g, "lat", "lon"}));
        QCOMPARE(cv.shape()[0], std::int64_t(c.keys.size()));
        const Coordinate* groups = cv.coords().find(g);
        QVERIFY(groups);
        for (std::size_t i = 0; i < c.keys.size(); ++i) QCOMPARE(groups->values[i], double(c.keys[i]));
        QVERIFY(sameValues(evaluate(f.ds, "c", cuda), c.mean, 1e-5, 1e-4));

        const std::int64_t points = f.ny * f.nx;
        std::vector<double> an, zn;
        for (std::int64_t t = 0; t < f.nt; ++t) {
            const auto row = [&](const Climate& r) {
                return std::int64_t(std::find(r.keys.begin(), r.keys.end(), key(f.dates[t])) -
                                    r.keys.begin());
            };
            for (std::int64_t p = 0; p < points; ++p) {
                const double x = f.tas[t * points + p];
                an.push_back(double(float(x - float(a.mean[row(a) * points + p]))));
                // The tables hold the variable's type (float32), as xarray's groupby gives.
                zn.push_back(double(float((x - double(float(z.mean[row(z) * points + p]))) /
                                          double(float(z.sd[row(z) * points + p])))));
            }
        }
        QVERIFY(sameValues(evaluate(f.ds, "a", cuda), an, 1e-5, 1e-4));
        QVERIFY(sameValues(evaluate(f.ds, "z", cuda), zn, 1e-4, 1e-3));

        // The frame pipeline: a map of one step, and the mean over time, of the anomaly.
        const Device device = cuda ? Device::cuda(0) : Device::host();
        FallbackNote note;
        FrameSpec map;
        map.variable = "a";
        map.xDim = "lon";
        map.yDim = "lat";
        map.indices = {{"time", 400}};
        const std::vector<double> frame =
            computeFrame(f.ds["a"], map, device, note).asHost().values<double>();
        QVERIFY(sameValues(frame, std::vector<double>(an.begin() + 400 * points, an.begin() + 401 * points),
                           1e-5, 1e-4));
        FrameSpec mean = map;
        mean.indices.clear();
        mean.reductions = {{"time", ReduceOp::Mean}};
        const std::vector<double> meaned =
            computeFrame(f.ds["a"], mean, device, note).asHost().values<double>();
        for (std::int64_t p = 0; p < points; ++p) {
            double s = 0, n = 0;
            for (std::int64_t t = 0; t < f.nt; ++t)
                if (!std::isnan(an[t * points + p])) {
                    s += an[t * points + p];
                    n += 1;
                }
            QVERIFY2(close(meaned[p], s / n, 1e-4, 1e-4), qPrintable(QString::number(p)));
        }
        QVERIFY(note.reason.empty());
    }
};

QTEST_GUILESS_MAIN(TestDerivedTime)
#include "tst_derived_time.moc"
