// Reduced Gaussian GRIB grids (reduced_gg: a classic N32 and an octahedral O32, written by
// make_grib_fixtures.py from ecCodes' samples): the points on cfgrib's `values` dim at the
// Gaussian latitudes (found here from Legendre's polynomial, not from ecCodes) and pl's
// longitudes, the values the analytic field there, and the cells of the UGRID mesh Strata draws
// them with tiling the sphere, each around its own point, its corners anticlockwise.
#include <QtTest>

#include <cmath>
#include <numeric>

#include "strata/core/mesh.h"
#include "strata/io/grib.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

std::string fixture(const QString& name) {
    return std::string(STRATA_TEST_DATA) + "/grib/" + name.toStdString();
}

// The 2N Gaussian latitudes (degrees, north to south): the roots of the Legendre polynomial of
// degree 2N, by Newton's method from Tricomi's first guess.
std::vector<double> gaussianLatitudes(int n) {
    const int m = 2 * n;
    std::vector<double> out(static_cast<std::size_t>(m));
    for (int k = 1; k <= m; ++k) {
        double x = std::cos(M_PI * (k - 0.25) / (m + 0.5));
        for (int it = 0; it < 100; ++it) {
            double p0 = 1, p1 = x;
            for (int d = 2; d <= m; ++d) {
                const double p2 = ((2 * d - 1) * x * p1 - (d - 1) * p0) / d;
                p0 = p1;
                p1 = p2;
            }
            const double dp = m * (x * p1 - p0) / (x * x - 1);
            const double dx = p1 / dp;
            x -= dx;
            if (std::abs(dx) < 1e-16) break;
        }
        out[std::size_t(k - 1)] = std::asin(x) * 180 / M_PI;
    }
    return out;
}

// make_grib_fixtures.py's reduced(): the field at a point.
double expected(double lat, double lon, double level, double step) {
    const double r = M_PI / 180;
    return 250 + 10 * std::cos(lat * r) * std::sin(3 * lon * r) + 0.05 * lat + level / 100 + step;
}

std::vector<double> coordValues(const Dataset& ds, const char* name) {
    const Coordinate* c = ds.coords.find(name);
    return c ? c->values : std::vector<double>{};
}

} // namespace

class TestGribReduced : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
    }

    void pointsAndValues_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("octahedral");
        QTest::addColumn<int>("points");
        QTest::newRow("N32") << QString("reduced_gg.grib2") << false << 6114;
        QTest::newRow("O32") << QString("octahedral.grib1") << true << 5248;
    }

    void pointsAndValues() {
        QFETCH(QString, file);
        QFETCH(bool, octahedral);
        QFETCH(int, points);
        OpenNotes notes;
        const Dataset ds = openDataset(fixture(file), notes);
        QVERIFY2(notes.lines.empty(), notes.lines.empty() ? "" : notes.lines.front().c_str());
        const Variable* t = ds.findVariable("t");
        QVERIFY(t);
        QCOMPARE(t->dims(), (std::vector<std::string>{"step", "isobaricInhPa", "values"}));
        QCOMPARE(t->shape(), (Shape{2, 2, points}));
        QCOMPARE(t->attrs().text("GRIB_gridType").value_or(""), std::string("reduced_gg"));
        const Attribute* plAttr = t->attrs().find("GRIB_pl");
        QVERIFY(plAttr);
        const std::vector<double> pl = plAttr->numbers();
        QCOMPARE(pl.size(), std::size_t(64));
        QCOMPARE(std::accumulate(pl.begin(), pl.end(), 0.0), double(points));
        if (octahedral)
            for (int i = 0; i < 32; ++i) {
                QCOMPARE(pl[std::size_t(i)], 20.0 + 4 * i);
                QCOMPARE(pl[std::size_t(63 - i)], 20.0 + 4 * i);
            }

        const std::vector<double> lat = coordValues(ds, "latitude"), lon = coordValues(ds, "longitude");
        QCOMPARE(lat.size(), std::size_t(points));
        QCOMPARE(lon.size(), std::size_t(points));
        QCOMPARE(ds.coords.find("latitude")->dims, std::vector<std::string>{"values"});
        const std::vector<double> gauss = gaussianLatitudes(32);
        std::size_t k = 0;
        for (std::size_t j = 0; j < pl.size(); ++j)
            for (int i = 0; i < int(pl[j]); ++i, ++k) {
                QVERIFY2(std::abs(lat[k] - gauss[j]) < 1e-5,
                         qPrintable(QString("point %1: latitude %2, row %3's is %4")
                                        .arg(k)
                                        .arg(lat[k])
                                        .arg(j)
                                        .arg(gauss[j])));
                QVERIFY2(std::abs(lon[k] - i * 360.0 / pl[j]) < 1e-5,
                         qPrintable(QString("point %1: longitude %2").arg(k).arg(lon[k])));
            }

        const std::vector<double> v = ds["t"].asHost().values<double>();
        const std::vector<double> steps = coordValues(ds, "step"), levels = coordValues(ds, "isobaricInhPa");
        QCOMPARE(steps, (std::vector<double>{0, 6}));
        int nan = 0;
        for (std::size_t s = 0; s < 2; ++s)
            for (std::size_t l = 0; l < 2; ++l)
                for (std::size_t p = 0; p < std::size_t(points); ++p) {
                    const double got = v[(s * 2 + l) * std::size_t(points) + p];
                    if (p == 7 + std::size_t(steps[s])) { // the fixture's missing point
                        QVERIFY2(std::isnan(got), qPrintable(QString("point %1 should be missing").arg(p)));
                        ++nan;
                        continue;
                    }
                    const double want = expected(lat[p], lon[p], levels[l], steps[s]);
                    QVERIFY2(std::abs(got - want) < 0.01,
                             qPrintable(QString("step %1, level %2, point %3: %4, expected %5")
                                            .arg(steps[s])
                                            .arg(levels[l])
                                            .arg(p)
                                            .arg(got)
                                            .arg(want)));
                }
        QCOMPARE(nan, 4);

        // A strided piece of the values dim reads as the same points of the whole.
        const DataArray piece = ds["t"].isel({{"step", std::int64_t(1)},
                                              {"isobaricInhPa", std::int64_t(0)},
                                              Indexer{"values", Slice{100, 400, 7}}});
        const std::vector<double> pv = piece.asHost().values<double>();
        QCOMPARE(pv.size(), std::size_t(43));
        for (std::size_t i = 0; i < pv.size(); ++i)
            QCOMPARE(pv[i], v[(2 + 0) * std::size_t(points) + 100 + 7 * i]);
    }

    // The cells Strata draws: a UGRID mesh on `values`, each cell around its own point, and
    // together covering the sphere once (their areas sum to 4 pi, each row's cells edge to edge).
    void cellsTileTheSphere_data() { pointsAndValues_data(); }

    void cellsTileTheSphere() {
        QFETCH(QString, file);
        QFETCH(int, points);
        OpenNotes notes;
        const Dataset ds = openDataset(fixture(file), notes);
        const auto placed = mesh::meshOf(ds, ds["t"]);
        QVERIFY(placed);
        QCOMPARE(placed->location, mesh::Location::Face);
        const mesh::Mesh& m = placed->mesh;
        QCOMPARE(m.form, std::string("UGRID"));
        QCOMPARE(m.faceDim, std::string("values"));
        QCOMPARE(m.faces(), std::int64_t(points));
        const std::vector<double> lat = coordValues(ds, "latitude"), lon = coordValues(ds, "longitude");
        double area = 0;
        for (std::int64_t f = 0; f < m.faces(); ++f) {
            QCOMPARE(m.nodesOf(f), 4);
            double s = 90, n = -90, w = 1e9, e = -1e9;
            for (int c = 0; c < 4; ++c) {
                const auto node = std::size_t(m.faceNodes[std::size_t(f * m.maxNodes + c)]);
                s = std::min(s, m.nodeLat[node]);
                n = std::max(n, m.nodeLat[node]);
                w = std::min(w, m.nodeLon[node]);
                e = std::max(e, m.nodeLon[node]);
            }
            // Anticlockwise seen from above: south-west, south-east, north-east, north-west.
            const auto corner = [&](int c) {
                return std::size_t(m.faceNodes[std::size_t(f * m.maxNodes + c)]);
            };
            QVERIFY2(m.nodeLat[corner(0)] == s && m.nodeLat[corner(1)] == s && m.nodeLat[corner(2)] == n &&
                         m.nodeLat[corner(3)] == n && m.nodeLon[corner(0)] == w &&
                         m.nodeLon[corner(1)] == e && m.nodeLon[corner(2)] == e && m.nodeLon[corner(3)] == w,
                     qPrintable(QString("cell %1's corners are out of order").arg(f)));
            const auto p = std::size_t(f);
            QVERIFY2(
                s < lat[p] && lat[p] < n && w < lon[p] && lon[p] < e,
                qPrintable(QString("point %1 (%2, %3) is outside its cell").arg(f).arg(lat[p]).arg(lon[p])));
            QVERIFY2(std::abs((w + e) / 2 - lon[p]) < 1e-9,
                     qPrintable(QString("cell %1 is not centred").arg(f)));
            area += (e - w) * M_PI / 180 * (std::sin(n * M_PI / 180) - std::sin(s * M_PI / 180));
            if (f > 0 && lat[p] == lat[p - 1]) { // the next cell of a row begins where the last ended
                const auto prev = std::size_t((f - 1) * m.maxNodes);
                QCOMPARE(m.nodeLon[std::size_t(m.faceNodes[prev + 1])], w);
            }
        }
        QVERIFY2(std::abs(area - 4 * M_PI) < 1e-9, qPrintable(QString("the cells cover %1 sr").arg(area)));
    }
};

QTEST_APPLESS_MAIN(TestGribReduced)
#include "tst_grib_reduced.moc"
