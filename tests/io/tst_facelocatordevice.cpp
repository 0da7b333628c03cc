// FaceLocator::findOnDevice (issue 37): on the device each point gets the face find() gives it
// on the host, bit for bit, on a global lon/lat mesh read from a file (faces across the
// antimeridian, caps around the poles), an ICON-like icosahedral mesh (nodes on the poles), and
// regional meshes (one across the antimeridian) with points off them; at random points, NaNs
// and infinities, the nodes, the edges' midpoints (where two faces tie) and the face centres.
// The tables go up once per device and are freed with the locator. Without a GPU: skipped.
#include <QtTest/QtTest>

#include <QTemporaryDir>
#include <cmath>
#include <limits>
#include <numbers>
#include <random>
#include <tuple>

#include "../../bench/mesh_fixture.h"
#include "face_grid.h"
#include "gpu_skip.h"
#include "mesh_write.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/face_locator.h"
#include "strata/core/mesh.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/io/netcdf.h"

using namespace strata;
using mesh::FaceLocator;

namespace {

struct Points {
    std::vector<double> lon, lat;
    void add(double x, double y) { lon.push_back(x), lat.push_back(y); }
};

// A lon/lat mesh of quads, `nx` × `ny` of `step` degrees from (lon0, lat0).
std::shared_ptr<mesh::Mesh> regional(double lon0, double lat0, int nx, int ny, double step) {
    auto m = std::make_shared<mesh::Mesh>();
    m->maxNodes = 4;
    for (int r = 0; r <= ny; ++r)
        for (int i = 0; i <= nx; ++i)
            m->nodeLon.push_back(lon0 + step * i), m->nodeLat.push_back(lat0 + step * r);
    for (int r = 0; r < ny; ++r)
        for (int i = 0; i < nx; ++i) {
            const std::int64_t a = std::int64_t(r) * (nx + 1) + i, b = a + nx + 1;
            m->faceNodes.insert(m->faceNodes.end(), {a, a + 1, b + 1, b});
            m->faceLon.push_back(lon0 + step * (i + 0.5)), m->faceLat.push_back(lat0 + step * (r + 0.5));
        }
    return m;
}

// Triangles of 60° and of 0.01° over one another, as tst_meshgrid's overlappingFacesStayBounded.
std::shared_ptr<mesh::Mesh> overlapping() {
    auto m = std::make_shared<mesh::Mesh>();
    m->maxNodes = 3;
    for (int f = 0; f < 4000; ++f) {
        const double lon = -170 + (f % 340), lat = -60 + (f / 340) % 120, size = f % 2 ? 0.01 : 60;
        const std::int64_t a = m->nodes();
        m->nodeLon.insert(m->nodeLon.end(), {lon, lon + size, lon});
        m->nodeLat.insert(m->nodeLat.end(), {lat, lat, std::min(89.0, lat + size)});
        m->faceNodes.insert(m->faceNodes.end(), {a, a + 1, a + 2});
        m->faceLon.push_back(lon), m->faceLat.push_back(lat);
    }
    return m;
}

// Points at random over the sphere (and its longitudes wrapped), the nodes, each edge's
// midpoint, the face centres, and points that are not on the sphere.
Points pointsOn(const mesh::Mesh& m, int random) {
    Points p;
    std::mt19937_64 rng(37);
    std::uniform_real_distribution<double> u(-1, 1), lon(-540, 540);
    for (int i = 0; i < random; ++i) p.add(lon(rng), std::asin(u(rng)) * 180 / std::numbers::pi);
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    for (const auto& [x, y] : {std::pair{nan, 0.0},
                               {0.0, nan},
                               {nan, nan},
                               {inf, 0.0},
                               {-inf, 10.0},
                               {0.0, inf},
                               {0.0, 90.0},
                               {0.0, -90.0},
                               {180.0, 0.0},
                               {-180.0, 0.0},
                               {0.0, 90.5},
                               {1e300, 0.0}})
        p.add(x, y);
    const double r = std::numbers::pi / 180;
    for (std::int64_t f = 0; f < m.faces(); ++f) {
        p.add(m.faceLon[std::size_t(f)], m.faceLat[std::size_t(f)]);
        const int n = m.nodesOf(f);
        for (int k = 0; k < n; ++k) {
            const auto a = std::size_t(m.faceNodes[std::size_t(f * m.maxNodes + k)]);
            const auto b = std::size_t(m.faceNodes[std::size_t(f * m.maxNodes + (k + 1) % n)]);
            p.add(m.nodeLon[a], m.nodeLat[a]);
            p.add(m.nodeLon[a] + 360, m.nodeLat[a]);
            double v[3] = {};
            for (const std::size_t i : {a, b}) {
                v[0] += std::cos(m.nodeLat[i] * r) * std::cos(m.nodeLon[i] * r);
                v[1] += std::cos(m.nodeLat[i] * r) * std::sin(m.nodeLon[i] * r);
                v[2] += std::sin(m.nodeLat[i] * r);
            }
            p.add(std::atan2(v[1], v[0]) / r, std::atan2(v[2], std::hypot(v[0], v[1])) / r);
        }
    }
    return p;
}

// The faces findOnDevice gives for `p` on `stream`, brought back.
std::vector<std::int64_t> onDevice(const FaceLocator& locator, const Points& p, Stream stream) {
    const Device d = stream.device();
    const std::size_t n = p.lon.size(), bytes = n * sizeof(double);
    Buffer lon(bytes, d, stream), lat(bytes, d, stream), out(n * sizeof(std::int64_t), d, stream);
    copyBytes(lon.data(), d, p.lon.data(), Device::host(), bytes, stream);
    copyBytes(lat.data(), d, p.lat.data(), Device::host(), bytes, stream);
    locator.findOnDevice(static_cast<const double*>(lon.data()), static_cast<const double*>(lat.data()),
                         std::int64_t(n), static_cast<std::int64_t*>(out.data()), stream);
    std::vector<std::int64_t> got(n);
    copyBytes(got.data(), Device::host(), out.data(), d, n * sizeof(std::int64_t), stream);
    stream.synchronize();
    return got;
}

} // namespace

class TestFaceLocatorDevice : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    std::shared_ptr<const mesh::Mesh> meshNamed(const QString& name) {
        if (name == "globe") {
            const Dataset ds = io::openDataset(meshtest::write(dir_, "globe.nc", meshtest::globe()));
            return std::make_shared<const mesh::Mesh>(mesh::meshOf(ds, ds["value"])->mesh);
        }
        if (name == "icosahedral") return benchmesh::icosahedral(24);
        if (name == "regional") return regional(100, -10, 40, 30, 1);
        if (name == "overlapping") return overlapping();
        return regional(170, 50, 30, 20, 0.5); // across the antimeridian
    }

private slots:
    void sameFacesAsTheHost_data() {
        QTest::addColumn<QString>("mesh");
        for (const char* name : {"globe", "icosahedral", "regional", "regionalAcrossAntimeridian"})
            QTest::newRow(name) << QString(name);
    }

    void sameFacesAsTheHost() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        QFETCH(QString, mesh);
        const auto m = meshNamed(mesh);
        const FaceLocator locator(m);
        const Points p = pointsOn(*m, 200000);
        const std::vector<std::int64_t> want = locator.findAll(p.lon.data(), p.lat.data(), p.lon.size());
        const std::vector<std::int64_t> got = onDevice(locator, p, defaultStream(Device::cuda(0)));
        QCOMPARE(got.size(), want.size());
        std::size_t found = 0, missed = 0;
        for (std::size_t k = 0; k < want.size(); ++k) {
            QVERIFY2(got[k] == want[k], qPrintable(QString("(%1, %2): the device found face %3, the host %4")
                                                       .arg(p.lon[k], 0, 'g', 17)
                                                       .arg(p.lat[k], 0, 'g', 17)
                                                       .arg(got[k])
                                                       .arg(want[k])));
            (want[k] >= 0 ? found : missed) += 1;
        }
        // every face at least at its centre; the points off the sphere at least not
        QVERIFY2(found >= std::size_t(m->faces()) && missed >= 6,
                 qPrintable(QString("%1 found, %2 not").arg(found).arg(missed)));
    }

    // The bins go round the whole circle for a global mesh, and start past the widest gap of a
    // mesh that leaves one: 1° between 359° and 360°, and 0.03° (within one 1/16° cell, which
    // the quick check for a global mesh must not take as covered) between 0° and 0.03°.
    void theLongitudesCoveredAreFound() {
        for (const int threads : {1, 2, 8}) {
            const auto globe = benchmesh::icosahedral(8);
            mesh::detail::FaceGrid g = mesh::detail::buildFaceGrid(*globe, threads);
            QVERIFY(g.allLon);
            QCOMPARE(g.lonStart, -180.0);
            QCOMPARE(g.dLon * g.nx, 360.0);

            g = mesh::detail::buildFaceGrid(*regional(0, 0, 359, 2, 1), threads);
            QVERIFY(!g.allLon);
            QVERIFY2(std::abs(g.lonStart - 0) < 1e-6, qPrintable(QString::number(g.lonStart)));
            QVERIFY2(std::abs(g.dLon * g.nx - 359) < 1e-6, qPrintable(QString::number(g.dLon * g.nx)));

            g = mesh::detail::buildFaceGrid(*regional(0.03, 0, 359, 2, 359.97 / 359), threads);
            QVERIFY(!g.allLon);
            QVERIFY2(std::abs(g.lonStart - 0.03) < 1e-6, qPrintable(QString::number(g.lonStart)));
            QVERIFY2(std::abs(g.dLon * g.nx - 359.97) < 1e-6, qPrintable(QString::number(g.dLon * g.nx)));
        }
    }

    // The tables built on any number of threads are those built on one, bit for bit, and so are
    // the faces found by them (ties on shared edges included: each bin's faces in one order).
    void sameTablesOnAnyThreadCount_data() {
        sameFacesAsTheHost_data();
        QTest::newRow("overlapping") << QString("overlapping"); // its bins coarsened
    }

    void sameTablesOnAnyThreadCount() {
        QFETCH(QString, mesh);
        const auto m = meshNamed(mesh);
        const mesh::detail::FaceGrid one = mesh::detail::buildFaceGrid(*m, 1);
        const Points p = pointsOn(*m, 20000);
        std::vector<std::int64_t> want(p.lon.size());
        for (std::size_t k = 0; k < want.size(); ++k)
            want[k] = mesh::detail::findFace(one.tables(*m), p.lon[k], p.lat[k]);
        for (const int threads : {2, 3, 8}) {
            const mesh::detail::FaceGrid g = mesh::detail::buildFaceGrid(*m, threads);
            QCOMPARE(g.xyz, one.xyz);
            QCOMPARE(g.sign, one.sign);
            QCOMPARE(g.binStart, one.binStart);
            QCOMPARE(g.binFaces, one.binFaces);
            QCOMPARE(std::tie(g.nx, g.ny, g.allLon), std::tie(one.nx, one.ny, one.allLon));
            QCOMPARE(std::tie(g.latMin, g.dLat, g.lonStart, g.dLon),
                     std::tie(one.latMin, one.dLat, one.lonStart, one.dLon));
            for (std::size_t k = 0; k < want.size(); ++k)
                QCOMPARE(mesh::detail::findFace(g.tables(*m), p.lon[k], p.lat[k]), want[k]);
        }
        const FaceLocator locator(m);
        QCOMPARE(locator.findAll(p.lon.data(), p.lat.data(), p.lon.size()), want);
    }

    // A second search, on another stream, uploads nothing; the tables go with the locator.
    void tablesGoUpOnceAndAreFreed() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device d = Device::cuda(0);
        const Stream stream = defaultStream(d);
        const Points p = pointsOn(*regional(0, 0, 4, 4, 1), 1000);
        const std::uint64_t held = deviceBytesInUse();
        std::vector<std::int64_t> first;
        {
            const FaceLocator locator(benchmesh::icosahedral(16));
            first = onDevice(locator, p, stream);
            const OwnedStream other(d);
            const TransferCounters before = transferCounters();
            QCOMPARE(onDevice(locator, p, other.get()), first);
            const std::uint64_t points = 2 * p.lon.size() * sizeof(double);
            QCOMPARE(transferredSince(before).hostToDevice, points);
            QCOMPARE(first, locator.findAll(p.lon.data(), p.lat.data(), p.lon.size()));
        }
        QCOMPARE(deviceBytesInUse(), held);
    }

    void refusesWhatItCannotSearch() {
        const FaceLocator locator(regional(0, 0, 4, 4, 1));
        double lon = 0.5, lat = 0.5;
        std::int64_t out = 7;
        QVERIFY_THROWS_EXCEPTION(ValueError, locator.findOnDevice(&lon, &lat, -1, &out, Stream::host()));
        QVERIFY_THROWS_EXCEPTION(ValueError, locator.findOnDevice(&lon, &lat, 1, &out, Stream::host()));
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Stream stream = defaultStream(Device::cuda(0));
        QVERIFY_THROWS_EXCEPTION(ValueError,
                                 locator.findOnDevice(&lon, &lat, 1, &out, stream)); // host memory
        QCOMPARE(out, std::int64_t(7));
        locator.findOnDevice(nullptr, nullptr, 0, nullptr, stream); // nothing to do
    }
};

QTEST_GUILESS_MAIN(TestFaceLocatorDevice)
#include "tst_facelocatordevice.moc"
