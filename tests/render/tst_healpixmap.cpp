// A HEALPix frame drawn as a map (issue 37), as the image view draws it (Reprojection over the
// grid's SphereCells): every pixel shows the value of the cell holding the pixel's longitude and
// latitude. The frames here hold each cell's own number, so a pixel's
// value says which cell was gathered; the cell expected is worked out here from the pixel's
// place (plate carrée: by hand; Robinson: through PROJ) and tst_healpix's healpy-checked cellOf.
// A subset shows its own cells and the fill elsewhere. On a GPU the image is the host's, bit
// for bit, on random values with NaNs.
#include <QtTest/QtTest>

#include <cmath>
#include <cstring>
#include <random>

#include "../../bench/mesh_fixture.h"
#include "gpu_skip.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/render/sphere_cells.h"
#include "test_seed.h"

using namespace strata;

namespace {

constexpr std::uint64_t kNan64 = 0x7ff8000000000000ull;

healpix::Grid fullSky(std::int64_t nside, healpix::Order order) {
    healpix::Grid g;
    g.nside = nside;
    g.order = order;
    g.dim = "cell";
    return g;
}

// A frame whose value at index k is `of(k)`.
DataArray frameOf(std::int64_t n, const std::function<double(std::int64_t)>& of) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::int64_t k = 0; k < n; ++k) v[std::size_t(k)] = of(k);
    return DataArray::fromHost("tas", {"cell"}, {n}, v);
}

std::vector<double> valuesOf(const DataArray& image) { return image.asHost().values<double>(); }

// A map of g's cells: frames along the cells drawn through Reprojection.
class HealpixMap {
public:
    HealpixMap(const Projection& p, healpix::Grid g, MapExtent e, int width, int height)
        : cells_(healpixCells(std::move(g))),
          map_(std::make_unique<Reprojection>(p, cells_, e, width, height)) {}
    DataArray apply(const DataArray& frame, std::uint64_t fill, Stream stream) const {
        return map_->apply(cellsAsRow(frame, *cells_), fill, stream);
    }

private:
    std::shared_ptr<const SphereCells> cells_;
    std::unique_ptr<Reprojection> map_;
};

} // namespace

class TestHealpixMap : public QObject {
    Q_OBJECT
private slots:
    // Plate carrée: pixel (i, j) of a 720 × 360 whole-sky image is at lon -180 + (i + ½)/2,
    // lat -90 + (j + ½)/2: its value must be its cell's number, in both orders.
    void eachPixelShowsItsCell() {
        for (healpix::Order order : {healpix::Order::Nest, healpix::Order::Ring}) {
            const std::int64_t nside = 16;
            const Projection p = Projection::byName("PlateCarree");
            const HealpixMap map(p, fullSky(nside, order), p.extent(), 720, 360);
            const std::vector<double> image = valuesOf(
                map.apply(frameOf(healpix::cellCount(nside), [](std::int64_t k) { return double(k); }),
                          kNan64, Stream::host()));
            QCOMPARE(image.size(), std::size_t(720 * 360));
            // A second frame on the same map (the host's pixel cells kept from the first): each
            // pixel the new value of the same cell.
            const std::vector<double> next = valuesOf(
                map.apply(frameOf(healpix::cellCount(nside), [](std::int64_t k) { return 0.5 - double(k); }),
                          kNan64, Stream::host()));
            for (std::size_t k = 0; k < image.size(); ++k) QCOMPARE(next[k], 0.5 - image[k]);
            for (int j = 0; j < 360; ++j)
                for (int i = 0; i < 720; ++i) {
                    const double lon = -180 + (i + 0.5) / 2, lat = -90 + (j + 0.5) / 2;
                    const double want = double(healpix::cellOf(nside, order, lon, lat));
                    if (image[std::size_t(j * 720 + i)] != want)
                        QFAIL(qPrintable(QString("pixel (%1, %2) at (%3, %4): cell %5, not %6")
                                             .arg(i)
                                             .arg(j)
                                             .arg(lon)
                                             .arg(lat)
                                             .arg(image[std::size_t(j * 720 + i)])
                                             .arg(want)));
                }
        }
    }

    // Robinson at 640 × 320 over the whole map: off the globe the fill (NaN), on it the cell at
    // PROJ's inverse of the pixel, but where the kernel's formulas and PROJ put a pixel on two
    // sides of a cell's edge (a few pixels at most).
    void robinsonAgreesWithProj() {
        const std::int64_t nside = 32;
        const Projection p = Projection::byName("Robinson");
        const MapExtent e = fitExtent(p.extent(), 640, 320);
        const HealpixMap map(p, fullSky(nside, healpix::Order::Nest), e, 640, 320);
        const std::vector<double> image =
            valuesOf(map.apply(frameOf(healpix::cellCount(nside), [](std::int64_t k) { return double(k); }),
                               kNan64, Stream::host()));
        int on = 0, off = 0, differ = 0;
        for (int j = 0; j < 320; ++j)
            for (int i = 0; i < 640; ++i) {
                std::vector<double> x{e.x0 + (i + 0.5) * e.width() / 640},
                    y{e.y0 + (j + 0.5) * e.height() / 320};
                p.inverse(x, y);
                const double got = image[std::size_t(j * 640 + i)];
                if (std::isnan(x[0])) {
                    off += std::isnan(got) ? 1 : 0;
                    continue;
                }
                ++on;
                if (got != double(healpix::cellOf(nside, healpix::Order::Nest, x[0], y[0]))) ++differ;
            }
        QVERIFY2(on > 640 * 320 / 2 && off > 1000, qPrintable(QString("%1 on, %2 off").arg(on).arg(off)));
        QVERIFY2(differ <= on / 1000, qPrintable(QString("%1 of %2 pixels differ").arg(differ).arg(on)));
    }

    // A subset (cells named, in any order): its cells show the value at their index, every
    // other pixel the fill.
    void aSubsetShowsItsCellsAndTheFillElsewhere() {
        const std::int64_t nside = 8;
        healpix::Grid g = fullSky(nside, healpix::Order::Ring);
        for (std::int64_t c = healpix::cellCount(nside) - 1; c >= 0; c -= 3)
            g.cells.push_back(c); // descending
        const Projection p = Projection::byName("PlateCarree");
        const HealpixMap map(p, g, p.extent(), 360, 180);
        const std::vector<double> image = valuesOf(map.apply(
            frameOf(std::int64_t(g.cells.size()), [](std::int64_t k) { return 1000.0 + double(k); }), kNan64,
            Stream::host()));
        int shown = 0, filled = 0;
        for (int j = 0; j < 180; ++j)
            for (int i = 0; i < 360; ++i) {
                const std::int64_t cell =
                    healpix::cellOf(nside, healpix::Order::Ring, -180 + i + 0.5, -90 + j + 0.5);
                const double got = image[std::size_t(j * 360 + i)];
                if ((healpix::cellCount(nside) - 1 - cell) % 3 == 0) {
                    QCOMPARE(got, 1000.0 + double((healpix::cellCount(nside) - 1 - cell) / 3));
                    ++shown;
                } else {
                    QVERIFY(std::isnan(got));
                    ++filled;
                }
            }
        QVERIFY(shown > 10000 && filled > 20000);
    }

    void badFramesAndGridsAreRefused() {
        const Projection p = Projection::byName("PlateCarree");
        const HealpixMap map(p, fullSky(4, healpix::Order::Nest), p.extent(), 36, 18);
        bool refused = false;
        try {
            (void)map.apply(frameOf(100, [](std::int64_t) { return 0.0; }), kNan64, Stream::host());
        } catch (const ValueError& e) {
            refused = QString(e.what()).contains("the frame must be the 192 values along cell");
        }
        QVERIFY(refused);
        healpix::Grid twice = fullSky(4, healpix::Order::Nest);
        twice.cells = {3, 5, 3};
        refused = false;
        try {
            HealpixMap m(p, twice, p.extent(), 36, 18);
        } catch (const ValueError& e) {
            refused = QString(e.what()).contains("names cell 3 twice");
        }
        QVERIFY(refused);
    }

    // The device draws what the host draws, bit for bit (its index of the pixels made by the
    // kernel, the host's by the same formulas on its threads): random float32 values with NaNs,
    // the whole sky and a subset, nest and ring, Robinson; a second frame on the same map too.
    void theDeviceDrawsWhatTheHostDraws() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        std::mt19937_64 rng(test::testSeed());
        std::uniform_real_distribution<float> u(-50, 50);
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const Projection p = Projection::byName("Robinson");
        const MapExtent e = fitExtent(p.extent(), 800, 400);
        for (healpix::Order order : {healpix::Order::Nest, healpix::Order::Ring})
            for (bool subset : {false, true}) {
                healpix::Grid g = fullSky(64, order);
                if (subset)
                    for (std::int64_t c = 0; c < healpix::cellCount(64); c += 2) g.cells.push_back(c);
                const std::int64_t n = subset ? std::int64_t(g.cells.size()) : healpix::cellCount(64);
                std::vector<float> v(static_cast<std::size_t>(n));
                const HealpixMap map(p, g, e, 800, 400), onDevice(p, g, e, 800, 400);
                for (int step = 0; step < 2; ++step) {
                    for (float& x : v) x = rng() % 10 == 0 ? NAN : u(rng);
                    const DataArray frame = DataArray::fromHost("tas", {"cell"}, {n}, v);
                    const DataArray host = map.apply(frame, 0x7fc00000u, Stream::host());
                    const DataArray device = onDevice.apply(frame.asDevice(gpu, s), 0x7fc00000u, s);
                    QCOMPARE(device.device(), gpu);
                    const DataArray back = device.asHost();
                    QVERIFY(std::memcmp(host.variable().view().data, back.variable().view().data,
                                        800 * 400 * 4) == 0);
                }
            }
    }

    // A mesh's faces drawn as the image view draws them: on the host each pixel's face is the
    // locator's for the pixel's longitude/latitude (checked against the locator here, on plate
    // carrée where a pixel's place is known by hand); on a device (its faces found by the
    // locator's kernel) the image is the host's, bit for bit, on random values with NaNs.
    void meshFacesOnAMap() {
        const std::shared_ptr<strata::mesh::Mesh> m = benchmesh::icosahedral(8); // 1,280 triangles
        m->faceDim = "ncells";
        const std::shared_ptr<const SphereCells> faces = meshFaces(m);
        QCOMPARE(faces->size(), std::int64_t(1280));
        const Projection p = Projection::byName("PlateCarree");
        const Reprojection map(p, faces, p.extent(), 360, 180);
        std::vector<double> index(1280);
        for (std::size_t k = 0; k < index.size(); ++k) index[k] = double(k);
        const std::vector<double> image = valuesOf(map.apply(
            cellsAsRow(DataArray::fromHost("f", {"ncells"}, {1280}, index), *faces), kNan64, Stream::host()));
        for (int j = 0; j < 180; ++j)
            for (int i = 0; i < 360; ++i)
                QCOMPARE(image[std::size_t(j * 360 + i)], double(faces->find(-180 + i + 0.5, -90 + j + 0.5)));
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        std::mt19937_64 rng(test::testSeed());
        std::uniform_real_distribution<float> u(-50, 50);
        std::vector<float> v(1280);
        for (float& x : v) x = rng() % 10 == 0 ? NAN : u(rng);
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const Projection robinson = Projection::byName("Robinson");
        const MapExtent e = fitExtent(robinson.extent(), 800, 400);
        const Reprojection host(robinson, faces, e, 800, 400), device(robinson, faces, e, 800, 400);
        const DataArray frame = cellsAsRow(DataArray::fromHost("f", {"ncells"}, {1280}, v), *faces);
        const DataArray a = host.apply(frame, 0x7fc00000u, Stream::host());
        const DataArray b = device.apply(frame.asDevice(gpu, s), 0x7fc00000u, s).asHost();
        QVERIFY(std::memcmp(a.variable().view().data, b.variable().view().data, 800 * 400 * 4) == 0);
    }
};

QTEST_GUILESS_MAIN(TestHealpixMap)
#include "tst_healpixmap.moc"
