// Area-weighted means through the frame pipeline, on files written here: cos(latitude) weights
// for a variable with a CF latitude, the cell areas its cell_measures names when it has them;
// against a plain loop over the values (Σw·x / Σw over the cells that are not NaN), loaded
// whole and streamed, on the CPU and the GPU; and the errors when neither applies.
#include "test_seed.h"
#include <QtTest>

#include <cmath>
#include <random>

#include "core/test_util.h"
#include "nc_write.h"
#include "strata/core/area.h"
#include "strata/core/runtime.h"
#include "strata/core/view.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

constexpr int kT = 5, kLat = 9, kLon = 12;

struct Written {
    std::string path;
    std::vector<double> values, lat, area; // values: C order (time, lat, lon), NaN where missing
};

// tas(time, lat, lon) with a CF latitude and no cell areas; tas2 the same values with
// cell_measures "area: cell_area".
Written writeFile(const QString& dir) {
    Written w;
    w.path = (dir + "/area.nc").toStdString();
    std::mt19937 rng(static_cast<std::uint32_t>(test::testSeed()));
    std::normal_distribution<double> n(280, 15);
    std::uniform_real_distribution<double> u(0, 1);
    for (int i = 0; i < kT * kLat * kLon; ++i) w.values.push_back(u(rng) < 0.1 ? NAN : double(float(n(rng))));
    for (int j = 0; j < kLat; ++j) w.lat.push_back(-80 + 20 * j);
    for (int j = 0; j < kLat; ++j)
        for (int i = 0; i < kLon; ++i) w.area.push_back(double(float(1e10 * (1 + u(rng)))));
    nctest::Writer f(w.path, NC_NETCDF4);
    const int t = f.dim("time", kT), y = f.dim("lat", kLat), x = f.dim("lon", kLon);
    const int latv = f.var("lat", NC_DOUBLE, {y});
    f.text(latv, "units", "degrees_north");
    const int lonv = f.var("lon", NC_DOUBLE, {x});
    f.text(lonv, "units", "degrees_east");
    const int tas = f.var("tas", NC_FLOAT, {t, y, x});
    const int tas2 = f.var("tas2", NC_FLOAT, {t, y, x});
    f.text(tas2, "cell_measures", "area: cell_area");
    const int cells = f.var("cell_area", NC_FLOAT, {y, x});
    f.text(cells, "units", "m2");
    f.enddef();
    f.put(latv, w.lat);
    std::vector<double> lon;
    for (int i = 0; i < kLon; ++i) lon.push_back(30 * i);
    f.put(lonv, lon);
    std::vector<float> v(w.values.begin(), w.values.end()), a(w.area.begin(), w.area.end());
    f.put(tas, v);
    f.put(tas2, v);
    f.put(cells, a);
    return w;
}

// Σw·x / Σw over lat and lon for each time, w(lat, lon) given.
std::vector<double> byHand(const Written& w, const std::function<double(int, int)>& weight) {
    std::vector<double> out;
    for (int t = 0; t < kT; ++t) {
        double s = 0, sw = 0;
        for (int j = 0; j < kLat; ++j)
            for (int i = 0; i < kLon; ++i) {
                const double x = w.values[(t * kLat + j) * kLon + i];
                if (std::isnan(x)) continue;
                s += weight(j, i) * x;
                sw += weight(j, i);
            }
        out.push_back(s / sw);
    }
    return out;
}

FrameSpec globalMean(const std::string& var) {
    FrameSpec s;
    s.variable = var;
    s.xDim = "time";
    s.reductions = {{"lat", ReduceOp::Mean}, {"lon", ReduceOp::Mean}};
    s.areaWeighted = true;
    return s;
}

} // namespace

class TestArea : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Written w_;

private slots:
    void cleanup() { test::reportSeedOnFailure(); }
    void initTestCase() { w_ = writeFile(dir_.path()); }

    void weightsAsAClimateUserExpects_data() { STRATA_BACKEND_ROWS(); }
    void weightsAsAClimateUserExpects() {
        STRATA_BACKEND(backend);
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        const Dataset ds = openDataset(w_.path);
        const auto cosLat = byHand(w_, [&](int j, int) { return std::cos(w_.lat[j] * M_PI / 180); });
        const auto cellAreas = byHand(w_, [&](int j, int i) { return w_.area[j * kLon + i]; });
        const double tol = 2e-6; // float32 results
        ViewLimits streamed;
        streamed.loadAtOnce = 64; // slab by slab along time, each slab's area mean concatenated
        streamed.slabBytes = 2 * kLat * kLon * 4;
        for (const ViewLimits& limits : {ViewLimits{}, streamed}) {
            FallbackNote note;
            const DataArray a = computeFrame(ds["tas"], globalMean("tas"), device, note, limits).asHost();
            QCOMPARE(a.dims(), std::vector<std::string>{"time"});
            QCOMPARE(a.name(), std::string("tas (area-weighted mean)"));
            QVERIFY(test::allClose(a.values<double>(), cosLat, tol, 0, "cos(lat) weights"));
            const DataArray b = computeFrame(ds["tas2"], globalMean("tas2"), device, note, limits).asHost();
            QVERIFY(test::allClose(b.values<double>(), cellAreas, tol, 0, "cell_area weights"));
        }
        // Not the plain mean: the test can tell weighted from unweighted.
        FallbackNote note;
        FrameSpec plain = globalMean("tas");
        plain.areaWeighted = false;
        const auto unweighted = computeFrame(ds["tas"], plain, device, note).asHost().values<double>();
        QVERIFY(std::abs(unweighted[0] - cosLat[0]) > 1e-3);
    }

    void latitudeAloneIsTheZonalAreaMean() {
        // Reducing only latitude, area-weighted: cos(lat)-weighted means for each (time, lon).
        const Dataset ds = openDataset(w_.path);
        FrameSpec s;
        s.variable = "tas";
        s.xDim = "lon";
        s.yDim = "time";
        s.reductions = {{"lat", ReduceOp::Mean}};
        s.areaWeighted = true;
        FallbackNote note;
        const auto got = computeFrame(ds["tas"], s, Device::host(), note).values<double>();
        for (int t = 0; t < kT; ++t)
            for (int i = 0; i < kLon; i += 5) {
                double sum = 0, sw = 0;
                for (int j = 0; j < kLat; ++j) {
                    const double x = w_.values[(t * kLat + j) * kLon + i],
                                 c = std::cos(w_.lat[j] * M_PI / 180);
                    if (!std::isnan(x)) sum += c * x, sw += c;
                }
                QVERIFY(test::close(got[t * kLon + i], sum / sw, 2e-6));
            }
    }

    void withoutLatitudeItSaysWhy() {
        const Dataset ds = openDataset(w_.path);
        FrameSpec s = globalMean("tas");
        s.reductions = {{"lon", ReduceOp::Mean}};
        s.yDim = "lat";
        try {
            validate(s, ds["tas"]);
            QFAIL("no error");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("needs its latitude among the dims reduced ('lat' is not)") !=
                         std::string::npos,
                     e.what());
        }
        QCOMPARE(latitudeDim(ds["tas"]), std::string("lat"));
        QVERIFY(ds["tas2"].coords().contains("cell_area")); // cell_measures attached as a coordinate
    }
};

QTEST_GUILESS_MAIN(TestArea)
#include "tst_area.moc"
