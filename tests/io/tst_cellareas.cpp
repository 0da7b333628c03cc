// Area means on grids of cells that are not latitude–longitude rows (issue 37): a mesh's faces
// measured as spherical polygons (an octahedron's eighths, a global mesh that tiles the sphere
// with faces of both windings, and Girard's theorem as an independent answer), against the
// areas the files carry (MPAS, SCRIP, ICON); an area mean over a mesh's faces weighs by them,
// as a sum done here says, on random data with NaNs; a HEALPix grid's equal cells make it the
// plain mean; and validate() names the cells when nothing else weighs a mean.
#include <QtTest/QtTest>

#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <numeric>
#include <random>

#include "mesh_write.h"
#include "nc_write.h"
#include "strata/core/cell_areas.h"
#include "strata/core/error.h"
#include "strata/core/mesh.h"
#include "strata/io/netcdf.h"
#include "test_seed.h"

using namespace strata;

namespace {

const std::string kData = STRATA_TEST_DATA "/mesh/";
constexpr double kPi = std::numbers::pi;

struct Vec {
    double x, y, z;
};
Vec unit(double lon, double lat) {
    lon *= kPi / 180, lat *= kPi / 180;
    return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}
Vec cross(const Vec& a, const Vec& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec& a, const Vec& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Girard's theorem, an answer that shares nothing with the code's: a convex spherical polygon's
// area is its interior angles' sum less (n - 2)π; the angle at a corner is the one between the
// planes of its two edges.
double girardArea(const mesh::Mesh& m, std::int64_t f) {
    const int n = m.nodesOf(f);
    std::vector<Vec> p;
    for (int k = 0; k < n; ++k) {
        const auto i = std::size_t(m.faceNodes[std::size_t(f * m.maxNodes + k)]);
        p.push_back(unit(m.nodeLon[i], m.nodeLat[i]));
    }
    double sum = 0;
    for (int k = 0; k < n; ++k) {
        const Vec& a = p[std::size_t((k + n - 1) % n)];
        const Vec& b = p[std::size_t(k)];
        const Vec& c = p[std::size_t((k + 1) % n)];
        const Vec u = cross(b, a), v = cross(b, c);
        sum += std::acos(std::clamp(dot(u, v) / std::sqrt(dot(u, u) * dot(v, v)), -1.0, 1.0));
    }
    return sum - (n - 2) * kPi;
}

std::vector<double> netcdfC(const std::string& path, const char* var) {
    int nc = 0, id = 0;
    nctest::ok(nc_open(path.c_str(), NC_NOWRITE, &nc), path.c_str());
    nctest::ok(nc_inq_varid(nc, var, &id), var);
    int dim = 0;
    size_t n = 0;
    nctest::ok(nc_inq_vardimid(nc, id, &dim), "nc_inq_vardimid");
    nctest::ok(nc_inq_dimlen(nc, dim, &n), "nc_inq_dimlen");
    std::vector<double> out(n);
    nctest::ok(nc_get_var_double(nc, id, out.data()), "nc_get_var_double");
    nc_close(nc);
    return out;
}

double total(const std::vector<double>& v) { return std::accumulate(v.begin(), v.end(), 0.0); }

// value(time, <dim>) in a file of its own: random values, about one in ten NaN, and a trend
// with the weights so that a mean that ignores them is far from one that does not.
std::string writeData(const QTemporaryDir& dir, const char* name, const char* dimName,
                      const std::vector<double>& w, std::mt19937_64& rng, std::vector<float>& values) {
    const std::string path = dir.filePath(name).toStdString();
    nctest::Writer f(path, NC_NETCDF4);
    const int time = f.dim("time", 3), dim = f.dim(dimName, w.size());
    const int v = f.var("value", NC_FLOAT, {time, dim});
    f.enddef();
    const double mean = total(w) / double(w.size());
    std::normal_distribution<double> noise(0, 0.5);
    std::bernoulli_distribution nan(0.1);
    values.clear();
    for (int t = 0; t < 3; ++t)
        for (double a : w) values.push_back(nan(rng) ? NAN : float(20 * a / mean + noise(rng) + t));
    f.put(v, values);
    return path;
}

// Σ wᵢ vᵢ / Σ wᵢ over the values that are not NaN, for each time: the oracle.
std::vector<double> weighted(const std::vector<float>& values, const std::vector<double>& w) {
    std::vector<double> out;
    const std::size_t n = w.size();
    for (std::size_t t = 0; t < values.size() / n; ++t) {
        double s = 0, sw = 0;
        for (std::size_t i = 0; i < n; ++i)
            if (!std::isnan(values[t * n + i])) s += w[i] * values[t * n + i], sw += w[i];
        out.push_back(s / sw);
    }
    return out;
}

FrameSpec areaMeanOver(const std::string& dim) {
    FrameSpec s;
    s.xDim = "time";
    s.reductions = {{dim, ReduceOp::Mean}};
    s.areaWeighted = true;
    return s;
}

std::vector<double> frameOf(const Dataset& ds, const FrameSpec& spec, const Dataset* grid) {
    const AreaMeanInput in = areaMeanInput(ds, ds["value"], spec, grid);
    FallbackNote note;
    return computeFrame(in.var, in.spec, Device::host(), note).asHost().values<double>();
}

} // namespace

class TestCellAreas : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Eight triangles between the axes, wound both ways: each an eighth of the sphere, π/2.
    void octahedronFacesAreEighths() {
        meshtest::Ugrid u;
        u.lon = {0, 90, 180, -90, 0, 0};
        u.lat = {0, 0, 0, 0, 90, -90};
        for (int i = 0; i < 4; ++i) {
            const long long a = i, b = (i + 1) % 4;
            u.faces.push_back(i % 2 ? std::vector<long long>{a, b, 4} : std::vector<long long>{b, a, 4});
            u.faces.push_back({a, b, 5});
        }
        const Dataset ds = io::openDataset(meshtest::write(dir_, "octahedron.nc", u));
        const auto p = mesh::meshOf(ds, ds["value"]);
        QVERIFY(p);
        const std::vector<double> a = sphericalFaceAreas(p->mesh);
        QCOMPARE(a.size(), std::size_t(8));
        for (double x : a) QVERIFY2(std::fabs(x - kPi / 2) < 1e-12, qPrintable(QString::number(x, 'g', 17)));
    }

    // 10° quads of both windings and two 36-gon caps: every face as Girard says, 4π together.
    void globeTilesTheSphere() {
        const Dataset ds = io::openDataset(meshtest::write(dir_, "globe.nc", meshtest::globe()));
        const auto p = mesh::meshOf(ds, ds["value"]);
        QVERIFY(p);
        const std::vector<double> a = sphericalFaceAreas(p->mesh);
        for (std::int64_t f = 0; f < p->mesh.faces(); ++f)
            QVERIFY2(std::fabs(a[std::size_t(f)] - girardArea(p->mesh, f)) < 1e-11,
                     qPrintable(QString("face %1: %2 against %3")
                                    .arg(f)
                                    .arg(a[std::size_t(f)], 0, 'g', 17)
                                    .arg(girardArea(p->mesh, f), 0, 'g', 17)));
        QVERIFY(std::fabs(total(a) - 4 * kPi) < 1e-10);
    }

    // MPAS's areaCell (a unit sphere), SCRIP's grid_area (steradians) and the ICON fixture's
    // cell_area (MPAS's areaTriangle, a unit sphere) against the faces' spherical polygons.
    void fileAreasAreTheSphericalPolygons() {
        struct Case {
            const char* file;
            const char* area;
            const char* var;
            double scale, tolerance;
        };
        for (const Case& c : {Case{"mpas_QU1920km.nc", "areaCell", "areaCell", 1.0, 1e-7},
                              Case{"scrip_outCSne8.nc", "grid_area", "grid_area", 1.0, 1e-9},
                              Case{"icon_grid.nc", "cell_area", "cell_area", 1.0, 2e-7}}) {
            const Dataset ds = io::openDataset(kData + c.file);
            const auto p = mesh::meshOf(ds, ds[c.var]);
            QVERIFY2(p, c.file);
            const std::vector<double> file = netcdfC(kData + c.file, c.area);
            QCOMPARE(p->mesh.faceArea.size(), file.size());
            const std::vector<double> a = sphericalFaceAreas(p->mesh);
            double worst = 0;
            for (std::size_t i = 0; i < a.size(); ++i)
                worst = std::max(worst, std::fabs(a[i] * c.scale - file[i]) / file[i]);
            QVERIFY2(worst < c.tolerance, qPrintable(QString("%1: %2").arg(c.file).arg(worst)));
            QVERIFY2(std::fabs(total(a) - 4 * kPi) < 1e-9, c.file);
        }
    }

    // An area mean over an MPAS mesh's cells (the grid in a file beside the data) weighs by
    // the file's areaCell; one over a UGRID mesh with no areas, by the spherical polygons.
    void areaMeanOnAMeshWeighsByItsCells() {
        std::mt19937_64 rng(test::testSeed());
        std::vector<float> values;
        {
            const std::string gridPath = kData + "mpas_QU1920km.nc";
            const Dataset grid = io::openDataset(gridPath);
            const std::vector<double> w = netcdfC(gridPath, "areaCell");
            const Dataset ds = io::openDataset(writeData(dir_, "mpas_data.nc", "nCells", w, rng, values));
            const std::vector<double> got = frameOf(ds, areaMeanOver("nCells"), &grid);
            const std::vector<double> want = weighted(values, w);
            const std::vector<double> plain = weighted(values, std::vector<double>(w.size(), 1.0));
            QCOMPARE(got.size(), want.size());
            for (std::size_t t = 0; t < got.size(); ++t) {
                QVERIFY2(
                    std::fabs(got[t] - want[t]) < 1e-5 * std::fabs(want[t]),
                    qPrintable(QString("%1 against %2").arg(got[t], 0, 'g', 17).arg(want[t], 0, 'g', 17)));
                QVERIFY(std::fabs(plain[t] - want[t]) > 1e-3 * std::fabs(want[t])); // the weights matter
            }
        }
        {
            const Dataset grid = io::openDataset(meshtest::write(dir_, "globe_grid.nc", meshtest::globe()));
            const auto p = mesh::meshOf(grid, grid["value"]);
            std::vector<double> w;
            for (std::int64_t f = 0; f < p->mesh.faces(); ++f) w.push_back(girardArea(p->mesh, f));
            const Dataset ds = io::openDataset(writeData(dir_, "globe_data.nc", "n_face", w, rng, values));
            const std::vector<double> got = frameOf(ds, areaMeanOver("n_face"), &grid);
            const std::vector<double> want = weighted(values, w);
            for (std::size_t t = 0; t < got.size(); ++t)
                QVERIFY2(std::fabs(got[t] - want[t]) < 1e-5 * std::fabs(want[t]),
                         qPrintable(QString("%1 against %2").arg(got[t]).arg(want[t])));
        }
    }

    // HEALPix cells have one area: the area mean is the plain mean, with no weights made; over
    // time and cells together, the mean of every value that is not NaN.
    void healpixAreaMeanIsThePlainMean() {
        std::mt19937_64 rng(test::testSeed());
        const std::string path = dir_.filePath("healpix.nc").toStdString();
        std::vector<float> values;
        {
            nctest::Writer f(path, NC_NETCDF4);
            const int time = f.dim("time", 3), cell = f.dim("cell", 48);
            const int v = f.var("value", NC_FLOAT, {time, cell});
            const int crs = f.var("crs", NC_INT, {});
            f.text(v, "grid_mapping", "crs");
            f.att(crs, "healpix_nside", NC_INT, std::vector<int>{2});
            f.text(crs, "healpix_order", "nest");
            f.enddef();
            std::uniform_real_distribution<float> u(-5, 5);
            std::bernoulli_distribution nan(0.1);
            for (int k = 0; k < 3 * 48; ++k) values.push_back(nan(rng) ? NAN : u(rng));
            f.put(v, values);
        }
        const Dataset ds = io::openDataset(path);
        const FrameSpec spec = areaMeanOver("cell");
        const AreaMeanInput in = areaMeanInput(ds, ds["value"], spec);
        QVERIFY(!in.spec.areaWeighted);
        QVERIFY(!in.var.coords().contains("cell_area"));
        const std::vector<double> got = frameOf(ds, spec, nullptr);
        const std::vector<double> want = weighted(values, std::vector<double>(48, 1.0));
        for (std::size_t t = 0; t < 3; ++t) QVERIFY(std::fabs(got[t] - want[t]) < 1e-5 * std::fabs(want[t]));
        FrameSpec both;
        both.reductions = {{"time", ReduceOp::Mean}, {"cell", ReduceOp::Mean}};
        both.areaWeighted = true;
        const AreaMeanInput in2 = areaMeanInput(ds, ds["value"], both);
        QVERIFY(in2.spec.areaWeighted);
        QVERIFY(in2.var.coords().contains("cell_area"));
    }

    // validate() takes a mean over a grid's cells as an area mean, and names the cells when
    // the mean leaves them out.
    void validateNamesTheCells() {
        const Dataset grid = io::openDataset(kData + "mpas_QU1920km.nc");
        std::mt19937_64 rng(1);
        std::vector<float> values;
        const Dataset ds = io::openDataset(
            writeData(dir_, "mpas_v.nc", "nCells", std::vector<double>(162, 1.0), rng, values));
        validate(areaMeanOver("nCells"), ds["value"], ds, &grid); // no throw
        FrameSpec overTime;
        overTime.xDim = "nCells";
        overTime.reductions = {{"time", ReduceOp::Mean}};
        overTime.areaWeighted = true;
        try {
            validate(overTime, ds["value"], ds, &grid);
            QFAIL("an area mean over time alone was taken");
        } catch (const ValueError& e) {
            QVERIFY2(QString(e.what()).contains("cells 'nCells'"), e.what());
        }
        try { // without its grid file nothing says what the cells are
            validate(areaMeanOver("nCells"), ds["value"], ds, nullptr);
            QFAIL("an area mean with no grid was taken");
        } catch (const ValueError& e) {
            QVERIFY2(QString(e.what()).contains("latitude"), e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCellAreas)
#include "tst_cellareas.moc"
