// Data on a mesh's nodes drawn as a map (issue 37): each pixel's value interpolated across the
// face holding it, barycentric on triangles (in the plane of the corners, seen from the
// sphere's centre), the nodes' mean on other polygons. On triangles, values that are a linear
// function of the nodes' positions come back as that function at the point where the pixel's
// ray meets the face's plane, worked out here apart from the code; on MPAS's hexagons each
// pixel is its face's nodes' mean; a NaN node blanks the faces around it and no others. On a
// GPU the map is the host's, bit for bit, on random values with NaNs.
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <random>

#include "../../bench/mesh_fixture.h"
#include "gpu_skip.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"
#include "strata/render/sphere_cells.h"
#include "test_seed.h"

using namespace strata;

namespace {

constexpr std::uint64_t kNan64 = 0x7ff8000000000000ull;
constexpr double kA[3] = {0.3, -1.2, 2.0}; // the linear function's gradient

struct Vec {
    double x, y, z;
};
Vec unit(double lon, double lat) {
    lon *= M_PI / 180, lat *= M_PI / 180;
    return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}
Vec minus(const Vec& a, const Vec& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
Vec cross(const Vec& a, const Vec& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec& a, const Vec& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
double linear(const Vec& v) { return kA[0] * v.x + kA[1] * v.y + kA[2] * v.z; }

Vec nodeOf(const mesh::Mesh& m, std::int64_t node) {
    return unit(m.nodeLon[std::size_t(node)], m.nodeLat[std::size_t(node)]);
}
std::int64_t nodeOfFace(const mesh::Mesh& m, std::int64_t face, int k) {
    return m.faceNodes[std::size_t(face * m.maxNodes + k)];
}

// The mesh's node values as a row along its node dim.
DataArray nodeRow(const SphereCells& nodes, const std::vector<double>& v) {
    return cellsAsRow(DataArray::fromHost("v", {nodes.dim()}, {std::int64_t(v.size())}, v), nodes);
}

std::shared_ptr<mesh::Mesh> triangles() {
    std::shared_ptr<mesh::Mesh> m = benchmesh::icosahedral(8); // 1,280 triangles
    m->faceDim = "ncells";
    m->nodeDim = "nvertex";
    return m;
}

} // namespace

class TestMeshNodes : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Plate carrée, 360 × 180 (pixel (i, j) at -180 + i + ½, -90 + j + ½): each pixel is the
    // linear function at its ray's meeting with its face's plane; the map puts the resampled
    // row's pixels in their places, none left as the fill on a mesh of the whole sphere.
    void linearValuesComeBackOnTriangles() {
        const std::shared_ptr<const mesh::Mesh> m = triangles();
        const std::shared_ptr<const SphereCells> nodes = meshNodes(m);
        QCOMPARE(nodes->dim(), std::string("nvertex"));
        QCOMPARE(nodes->interpolationNodes(), 3);
        std::vector<double> v;
        for (std::int64_t k = 0; k < m->nodes(); ++k) v.push_back(linear(nodeOf(*m, k)));
        const Projection p = Projection::byName("PlateCarree");
        const Reprojection map(p, nodes, p.extent(), 360, 180);
        QVERIFY(map.interpolates());
        const DataArray row = map.resample(nodeRow(*nodes, v), Stream::host());
        QCOMPARE(row.shape(), (Shape{1, 360 * 180}));
        const std::vector<double> got = row.values<double>();
        const std::shared_ptr<const SphereCells> faces = meshFaces(m);
        for (int j = 0; j < 180; ++j)
            for (int i = 0; i < 360; ++i) {
                const double lon = -180 + i + 0.5, lat = -90 + j + 0.5;
                const std::int64_t f = faces->find(lon, lat);
                QVERIFY(f >= 0);
                const Vec a = nodeOf(*m, nodeOfFace(*m, f, 0)), b = nodeOf(*m, nodeOfFace(*m, f, 1)),
                          c = nodeOf(*m, nodeOfFace(*m, f, 2)), pt = unit(lon, lat);
                const Vec n = cross(minus(b, a), minus(c, a));
                const double t = dot(n, a) / dot(n, pt);
                const double want = linear({pt.x * t, pt.y * t, pt.z * t});
                const double have = got[std::size_t(j * 360 + i)];
                QVERIFY2(
                    std::fabs(have - want) < 1e-6,
                    qPrintable(QString("(%1, %2): %3 against %4").arg(lon).arg(lat).arg(have).arg(want)));
            }
        const std::vector<double> image = map.apply(row, kNan64, Stream::host()).values<double>();
        QCOMPARE(image, got);
    }

    // One node NaN: the pixels of the faces around it are NaN, every other pixel is not.
    void aNanNodeBlanksTheFacesAroundIt() {
        const std::shared_ptr<const mesh::Mesh> m = triangles();
        const std::shared_ptr<const SphereCells> nodes = meshNodes(m), faces = meshFaces(m);
        std::vector<double> v(std::size_t(m->nodes()), 1.0);
        const std::int64_t blank = 17;
        v[std::size_t(blank)] = NAN;
        const Projection p = Projection::byName("PlateCarree");
        const Reprojection map(p, nodes, p.extent(), 360, 180);
        const std::vector<double> got = map.resample(nodeRow(*nodes, v), Stream::host()).values<double>();
        int blanked = 0;
        for (int j = 0; j < 180; ++j)
            for (int i = 0; i < 360; ++i) {
                const std::int64_t f = faces->find(-180 + i + 0.5, -90 + j + 0.5);
                bool around = false;
                for (int k = 0; k < 3; ++k) around = around || nodeOfFace(*m, f, k) == blank;
                QCOMPARE(std::isnan(got[std::size_t(j * 360 + i)]), around);
                blanked += around;
            }
        QVERIFY(blanked > 0);
    }

    // MPAS's faces are hexagons and pentagons around its cells, its nodes their corners: a
    // pixel is the mean of its face's corners (areaTriangle, data on the nodes, as read by
    // Strata from the file).
    void polygonsTakeTheirNodesMean() {
        const Dataset ds = io::openDataset(STRATA_TEST_DATA "/mesh/mpas_QU1920km.nc");
        const std::shared_ptr<const SphereCells> nodes = sphereCellsOf(ds, ds["areaTriangle"]);
        QVERIFY(nodes);
        QCOMPARE(nodes->dim(), std::string("nVertices"));
        QVERIFY(nodes->interpolationNodes() >= 6);
        const std::vector<double> v = ds["areaTriangle"].asHost().values<double>();
        const auto placed = mesh::meshOf(ds, ds["areaTriangle"]);
        QVERIFY(placed && placed->location == mesh::Location::Node);
        const mesh::Mesh& m = placed->mesh;
        const std::shared_ptr<const SphereCells> faces = meshFaces(std::make_shared<const mesh::Mesh>(m));
        const Projection p = Projection::byName("PlateCarree");
        const Reprojection map(p, nodes, p.extent(), 180, 90);
        const std::vector<double> got = map.resample(nodeRow(*nodes, v), Stream::host()).values<double>();
        for (int j = 0; j < 90; ++j)
            for (int i = 0; i < 180; ++i) {
                const std::int64_t f = faces->find(-180 + 2 * i + 1, -90 + 2 * j + 1);
                QVERIFY(f >= 0);
                double sum = 0;
                const int n = m.nodesOf(f);
                for (int k = 0; k < n; ++k) sum += v[std::size_t(nodeOfFace(m, f, k))];
                const double have = got[std::size_t(j * 180 + i)];
                QVERIFY2(std::fabs(have - sum / n) < 1e-6 * std::fabs(sum / n),
                         qPrintable(
                             QString("pixel (%1, %2): %3 against %4").arg(i).arg(j).arg(have).arg(sum / n)));
            }
        // The probe's node: the corner that weighs most, which for a mean is one of the face's.
        const std::int64_t f = faces->find(10.5, 20.5), node = nodes->find(10.5, 20.5);
        bool corner = false;
        for (int k = 0; k < m.nodesOf(f); ++k) corner = corner || nodeOfFace(m, f, k) == node;
        QVERIFY(corner);
    }

    // Frames that are not the nodes' row, or not floating point, are refused by name.
    void badFramesAreRefused() {
        const std::shared_ptr<const mesh::Mesh> m = triangles();
        const std::shared_ptr<const SphereCells> nodes = meshNodes(m);
        const Projection p = Projection::byName("PlateCarree");
        const Reprojection map(p, nodes, p.extent(), 36, 18);
        const std::vector<double> shorter(std::size_t(m->nodes() - 1), 1.0);
        QVERIFY_THROWS_EXCEPTION(ValueError, map.resample(DataArray::fromHost("v", {kCellRowDim, "nvertex"},
                                                                              {1, m->nodes() - 1}, shorter),
                                                          Stream::host()));
        const std::vector<std::int32_t> ints(std::size_t(m->nodes()), 1);
        QVERIFY_THROWS_EXCEPTION(ValueError, map.resample(DataArray::fromHost("v", {kCellRowDim, "nvertex"},
                                                                              {1, m->nodes()}, ints),
                                                          Stream::host()));
    }

    // The device's map is the host's, bit for bit: random float32 values with NaNs, Robinson,
    // two steps on the same map.
    void theDeviceInterpolatesAsTheHost() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const std::shared_ptr<const mesh::Mesh> m = triangles();
        const std::shared_ptr<const SphereCells> nodes = meshNodes(m);
        std::mt19937_64 rng(test::testSeed());
        std::uniform_real_distribution<float> u(-50, 50);
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const Projection robinson = Projection::byName("Robinson");
        const MapExtent e = fitExtent(robinson.extent(), 800, 400);
        const Reprojection host(robinson, nodes, e, 800, 400), device(robinson, nodes, e, 800, 400);
        for (int step = 0; step < 2; ++step) {
            std::vector<float> v(std::size_t(m->nodes()));
            for (float& x : v) x = rng() % 10 == 0 ? NAN : u(rng);
            const DataArray frame =
                cellsAsRow(DataArray::fromHost("f", {"nvertex"}, {m->nodes()}, v), *nodes);
            const DataArray a = host.apply(host.resample(frame, Stream::host()), 0x7fc00000u, Stream::host());
            const DataArray onGpu = frame.asDevice(gpu, s);
            const DataArray b = device.apply(device.resample(onGpu, s), 0x7fc00000u, s).asHost();
            QVERIFY(std::memcmp(a.variable().view().data, b.variable().view().data, 800 * 400 * 4) == 0);
        }
    }
};

QTEST_GUILESS_MAIN(TestMeshNodes)
#include "tst_meshnodes.moc"
