// The resampling of frames into a map (Reprojection): lon/lat frames on the host against an
// independent nearest-centre lookup, either longitude convention, bad frames refused, a source
// CRS's and a curvilinear grid's frames, and the device against the host on frames with NaNs.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <proj.h>
#include <random>

#include "../../render/src/projection_math.h"
#include "../../render/src/reproject_backend.h"
#include "gpu_skip.h"
#include "projection_checks.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/projection.h"
#include "test_seed.h"

using namespace strata;
using namespace strata::detail;
using namespace projtest;

class TestReprojection : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Grids: global 0–360 with latitude descending, global -180–180 ascending, and a regional box.
    void hostResamplingMatchesNearestCentres_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("lon0");
        QTest::addColumn<double>("dlon");
        QTest::addColumn<int>("nlon");
        QTest::addColumn<double>("lat0");
        QTest::addColumn<double>("dlat");
        QTest::addColumn<int>("nlat");
        for (const std::string& n : Projection::knownNames()) {
            QTest::addRow("%s 0-360 lat down", n.c_str())
                << QString::fromStdString(n) << 0.0 << 10.0 << 36 << 90.0 << -7.5 << 25;
            QTest::addRow("%s -180-180", n.c_str())
                << QString::fromStdString(n) << -178.5 << 3.0 << 120 << -88.0 << 4.0 << 45;
            const double boxLat = n == "SouthPolarStereo" ? -50.0 : 20.0;
            QTest::addRow("%s box", n.c_str())
                << QString::fromStdString(n) << -120.0 << 2.5 << 30 << boxLat << 2.0 << 15;
        }
    }
    void hostResamplingMatchesNearestCentres() {
        QFETCH(QString, name);
        QFETCH(double, lon0);
        QFETCH(double, dlon);
        QFETCH(int, nlon);
        QFETCH(double, lat0);
        QFETCH(double, dlat);
        QFETCH(int, nlat);
        const Projection p = Projection::byName(name.toStdString());
        const std::vector<double> lon = axis(lon0, dlon, nlon), lat = axis(lat0, dlat, nlat);
        const int W = 97, H = 61;
        // Shifted by a fraction of a pixel so that no pixel's centre lies on a symmetry line of
        // the map (a meridian that is a cell edge), where either cell would do.
        MapExtent e = fitExtent(p.extent(), W, H);
        const double sx = 0.37 * e.width() / W, sy = 0.21 * e.height() / H;
        e = {e.x0 + sx, e.x1 + sx, e.y0 + sy, e.y1 + sy};
        Reprojection r(p, lon, lat, e, W, H);
        std::mt19937_64 rng(test::testSeed());
        const DataArray frame = randomFrame(rng, nlat, nlon, 0.1);
        const std::vector<std::uint32_t> out = bits(r.apply(frame, 0xdeadbeefu, Stream::host()));
        const std::vector<std::uint32_t> in = bits(frame);
        // Each pixel's centre, worked out here: not by MapPixels, which the resampling itself uses.
        const auto centreX = [&](int i) { return e.x0 + (i + 0.5) * (e.x1 - e.x0) / W; };
        const auto centreY = [&](int j) { return e.y0 + (j + 0.5) * (e.y1 - e.y0) / H; };
        int checked = 0, data = 0, skipped = 0;
        for (int j = 0; j < H; ++j)
            for (int i = 0; i < W; ++i) {
                std::vector<double> pl{centreX(i)}, pb{centreY(j)};
                p.inverse(pl, pb);
                double ol = 0, ob = 0;
                const bool ok = projInverse(p.params(), centreX(i), centreY(j), ol, ob);
                if (ambiguous(pl[0], pb[0], ok, ol / kDeg, ob / kDeg, lon, lat)) {
                    ++skipped;
                    continue;
                }
                std::uint32_t want = 0xdeadbeefu;
                if (ok) {
                    const std::int64_t c = nearestCentre(lon, ol / kDeg, true);
                    const std::int64_t rr = nearestCentre(lat, ob / kDeg, false);
                    if (c >= 0 && rr >= 0) want = in[static_cast<std::size_t>(rr * nlon + c)];
                }
                const std::uint32_t got = out[static_cast<std::size_t>(j * W + i)];
                QVERIFY2(got == want, qPrintable(QString("pixel (%1, %2) at lon %3 lat %4: %5, want %6")
                                                     .arg(i)
                                                     .arg(j)
                                                     .arg(ol / kDeg)
                                                     .arg(ob / kDeg)
                                                     .arg(got, 0, 16)
                                                     .arg(want, 0, 16)));
                ++checked;
                data += want != 0xdeadbeefu;
            }
        QVERIFY2(skipped < W * H / 50, qPrintable(QString("%1 ambiguous pixels").arg(skipped)));
        QVERIFY2(data > 50, qPrintable(QString("only %1 pixels hold data").arg(data)));
        QVERIFY(checked + skipped == W * H);
    }

    void eitherLongitudeConventionGivesTheSameMap() {
        // The same field on 0..357.5 and on -180..177.5 (rolled by half) resamples alike.
        const Projection p = Projection::byName("Mollweide");
        const int nlon = 144, nlat = 73;
        std::mt19937_64 rng(test::testSeed());
        const DataArray a = randomFrame(rng, nlat, nlon, 0.05);
        const std::vector<std::uint32_t> va = bits(a);
        std::vector<float> rolled(va.size());
        for (int r = 0; r < nlat; ++r)
            for (int c = 0; c < nlon; ++c)
                std::memcpy(&rolled[static_cast<std::size_t>(r * nlon + c)],
                            &va[static_cast<std::size_t>(r * nlon + (c + nlon / 2) % nlon)], 4);
        const DataArray b = DataArray::fromHost("t", {"lat", "lon"}, {nlat, nlon}, rolled);
        const MapExtent e = p.extent();
        Reprojection ra(p, axis(0, 2.5, nlon), axis(-90, 2.5, nlat), e, 200, 100);
        Reprojection rb(p, axis(-180, 2.5, nlon), axis(-90, 2.5, nlat), e, 200, 100);
        const auto oa = bits(ra.apply(a, kNoPixel, Stream::host()));
        QVERIFY(oa == bits(rb.apply(b, kNoPixel, Stream::host())));
        QVERIFY(std::count(oa.begin(), oa.end(), 0u) > 1000); // the corners are off the ellipse
    }

    void badFramesAreRefused() {
        const Projection p = Projection::byName("Robinson");
        Reprojection r(p, axis(0, 10, 36), axis(-90, 10, 19), p.extent(), 10, 5);
        const DataArray wrong =
            DataArray::fromHost("w", {"lat", "lon"}, {18, 36}, std::vector<float>(18 * 36));
        QVERIFY_THROWS_EXCEPTION(ValueError, r.apply(wrong, 0, Stream::host()));
        const DataArray bytes =
            DataArray::fromHost("b", {"lat", "lon"}, {19, 36}, std::vector<std::uint8_t>(19 * 36));
        QVERIFY_THROWS_EXCEPTION(ValueError, r.apply(bytes, 0, Stream::host()));
        QVERIFY_THROWS_EXCEPTION(ValueError, Reprojection(p, {0, 1, 0.5}, {0, 1}, p.extent(), 10, 5));
    }

    // A grid in its own CRS (Lambert conformal in km, Daymet's) on each map: every pixel takes
    // the cell that PROJ's forward into the grid, called here directly, places it in (the cell
    // by the grid's uniform 4 km spacing), or the fill; on the GPU, the same bytes. A pixel
    // exactly on a cell's edge is skipped (either side is right).
    void sourceCrsResampling_data() { projectionRows(); }
    void sourceCrsResampling() {
        QFETCH(QString, name);
        const Projection p = Projection::byName(name.toStdString());
        const MapCrs crs{"+proj=lcc +lat_1=25 +lat_2=60 +lat_0=42.5 +lon_0=-100 +x_0=0 +y_0=0 +ellps=WGS84 "
                         "+units=m +no_defs",
                         1000, 1000};
        const int nx = 150, ny = 100, W = 320, H = 200;
        std::vector<double> x(nx), y(ny);
        for (int i = 0; i < nx; ++i) x[std::size_t(i)] = -1200 + 4 * (i + 0.5); // km
        for (int j = 0; j < ny; ++j) y[std::size_t(j)] = 400 - 4 * (j + 0.5);   // north first
        // The map's window over the grid: its centre and corners through PROJ.
        PJ_CONTEXT* ctx = proj_context_create();
        PJ* grid = proj_create(ctx, crs.definition.c_str());
        PJ* map = proj_create(ctx, p.projString().c_str());
        QVERIFY(grid && map);
        auto toLonLat = [&](double gx, double gy) {
            return proj_trans(grid, PJ_INV, proj_coord(gx * 1000, gy * 1000, 0, 0));
        };
        auto onMap = [&](PJ_COORD ll) { return proj_trans(map, PJ_FWD, ll); };
        double mx0 = 1e300, mx1 = -1e300, my0 = 1e300, my1 = -1e300;
        for (double gx : {x.front(), x.back()})
            for (double gy : {y.front(), y.back()}) {
                const PJ_COORD m = onMap(toLonLat(gx, gy));
                mx0 = std::min(mx0, m.xy.x);
                mx1 = std::max(mx1, m.xy.x);
                my0 = std::min(my0, m.xy.y);
                my1 = std::max(my1, m.xy.y);
            }
        const MapExtent e = fitExtent({mx0, mx1, my0, my1}, W, H);
        Reprojection r(p, crs, x, y, e, W, H);
        std::vector<float> v(std::size_t(nx * ny));
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = float(k);
        const DataArray frame = DataArray::fromHost("cell", {"y", "x"}, {ny, nx}, v);
        const DataArray out = r.apply(frame, kNanFloat32, Stream::host());
        const std::vector<float> got = out.values<float>();
        const MapPixels px{e.x0, e.x1, e.y0, e.y1, W, H};
        int placed = 0;
        for (int j = 0; j < H; ++j)
            for (int i = 0; i < W; ++i) {
                // The map's own inverse (its latitudes drawn: tst_projection's rows above check
                // it against PROJ), then PROJ's forward into the grid.
                std::vector<double> pl{px.x(i)}, pb{px.y(j)};
                p.inverse(pl, pb);
                const PJ_COORD g = proj_trans(grid, PJ_FWD, proj_coord(pl[0] * kDeg, pb[0] * kDeg, 0, 0));
                const double fx = (g.xy.x / 1000 + 1200) / 4, fy = (400 - g.xy.y / 1000) / 4;
                const float have = got[std::size_t(j * W + i)];
                if (!std::isfinite(fx) || !std::isfinite(fy) || fx < 0 || fy < 0 || fx >= nx || fy >= ny) {
                    if (std::isfinite(fx) && std::isfinite(fy) &&
                        (std::fabs(fx) < 1e-6 || std::fabs(fy) < 1e-6 || std::fabs(fx - nx) < 1e-6 ||
                         std::fabs(fy - ny) < 1e-6))
                        continue;
                    QVERIFY2(std::isnan(have),
                             qPrintable(QString("pixel %1,%2: %3, off the grid").arg(i).arg(j).arg(have)));
                    continue;
                }
                if (std::fabs(fx - std::round(fx)) < 1e-6 || std::fabs(fy - std::round(fy)) < 1e-6) continue;
                const float want = float(std::floor(fy) * nx + std::floor(fx));
                QVERIFY2(
                    have == want,
                    qPrintable(
                        QString("pixel %1,%2: cell %3, PROJ says %4").arg(i).arg(j).arg(have).arg(want)));
                ++placed;
            }
        proj_destroy(grid);
        proj_destroy(map);
        proj_context_destroy(ctx);
        // Daymet's grid is in the north: off the southern polar map (its latitudes drawn), and
        // much of its window on the others.
        if (p.name() == "SouthPolarStereo")
            QCOMPARE(placed, 0);
        else
            QVERIFY2(placed > W * H / 5, qPrintable(QString::number(placed)));
        if (cudaDeviceCount() == 0) return; // the device's gather: below, where there is one
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const DataArray onDevice = r.apply(frame.asDevice(gpu, s), kNanFloat32, s);
        QCOMPARE(onDevice.device(), gpu);
        QCOMPARE(bits(onDevice), bits(out));
    }

    // A curvilinear grid (2-D centres over the Arctic, crossing the 0/360 seam) on each map:
    // every pixel's cell holds the pixel's longitude/latitude, by the grid's own quadrilaterals;
    // a pixel given no cell lies in none (all cells tried). On the GPU, the same bytes.
    void curvilinearResampling_data() { projectionRows(); }
    void curvilinearResampling() {
        QFETCH(QString, name);
        const Projection p = Projection::byName(name.toStdString());
        const std::int64_t rows = 12, cols = 36;
        std::vector<double> lon, lat;
        for (std::int64_t j = 0; j < rows; ++j)
            for (std::int64_t i = 0; i < cols; ++i) {
                lon.push_back(double(i) * 10 + 3 * std::sin(double(j))); // bent, not a regular grid
                lat.push_back(62 + 2 * double(j));
            }
        auto grid = std::make_shared<const CurvilinearGrid>(gridFromCentres(rows, cols, lon, lat));
        const int W = 160, H = 100;
        const MapExtent e = fitExtent(p.extent(), W, H);
        Reprojection r(p, grid, e, W, H);
        std::vector<float> v(std::size_t(rows * cols));
        for (std::size_t k = 0; k < v.size(); ++k) v[k] = float(k);
        const DataArray frame = DataArray::fromHost("cell", {"y", "x"}, {rows, cols}, v);
        const DataArray out = r.apply(frame, kNanFloat32, Stream::host());
        const std::vector<float> got = out.values<float>();
        const MapPixels px{e.x0, e.x1, e.y0, e.y1, W, H};
        auto holds = [&](std::int64_t k, double l, double b) {
            for (double shift : {0.0, 360.0, -360.0})
                if (grid->contains(k, l + shift, b)) return true;
            return false;
        };
        int placed = 0;
        for (int j = 0; j < H; ++j)
            for (int i = 0; i < W; ++i) {
                std::vector<double> pl{px.x(i)}, pb{px.y(j)};
                p.inverse(pl, pb);
                const float have = got[std::size_t(j * W + i)];
                if (std::isnan(pl[0])) { // off the map
                    QVERIFY(std::isnan(have));
                    continue;
                }
                if (!std::isnan(have)) {
                    QVERIFY2(holds(std::int64_t(have), pl[0], pb[0]),
                             qPrintable(QString("pixel %1,%2: cell %3").arg(i).arg(j).arg(have)));
                    ++placed;
                    continue;
                }
                for (std::int64_t k = 0; k < rows * cols; ++k)
                    QVERIFY2(
                        !holds(k, pl[0], pb[0]),
                        qPrintable(QString("pixel %1,%2: no cell, but %3 holds it").arg(i).arg(j).arg(k)));
            }
        // The cap is on every map but the southern polar one (its latitudes drawn stop short).
        if (p.name() == "SouthPolarStereo")
            QCOMPARE(placed, 0);
        else
            QVERIFY2(placed > 20, qPrintable(QString::number(placed)));
        if (cudaDeviceCount() == 0) return; // the device's gather: below, where there is one
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        QCOMPARE(bits(r.apply(frame.asDevice(gpu, s), kNanFloat32, s)), bits(out));
    }

    void deviceResamplingMatchesHost_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("rgba");
        for (const std::string& n : Projection::knownNames()) {
            QTest::addRow("%s values", n.c_str()) << QString::fromStdString(n) << false;
            QTest::addRow("%s rgba", n.c_str()) << QString::fromStdString(n) << true;
        }
    }
    void deviceResamplingMatchesHost() {
        QFETCH(QString, name);
        QFETCH(bool, rgba);
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Projection p = Projection::byName(name.toStdString());
        const int nlon = 360, nlat = 181, W = 640, H = 360;
        const std::vector<double> lon = axis(0, 1, nlon), lat = axis(90, -1, nlat);
        std::mt19937_64 rng(test::testSeed());
        DataArray frame = randomFrame(rng, nlat, nlon, 0.2);
        if (rgba) {
            std::vector<std::uint8_t> px(static_cast<std::size_t>(nlat * nlon * 4));
            std::memcpy(px.data(), frame.variable().view().data, px.size());
            frame = DataArray::fromHost("rgba", {"lat", "lon", "channel"}, {nlat, nlon, 4}, px);
        }
        const MapExtent e = fitExtent(p.extent(), W, H);
        Reprojection r(p, lon, lat, e, W, H);
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const auto host = bits(r.apply(frame, kNanFloat32, Stream::host()));
        const DataArray onDevice = r.apply(frame.asDevice(gpu, s), kNanFloat32, s);
        QCOMPARE(onDevice.device(), gpu);
        const auto device = bits(onDevice);
        const MapPixels px{e.x0, e.x1, e.y0, e.y1, W, H};
        int differ = 0;
        for (int j = 0; j < H; ++j)
            for (int i = 0; i < W; ++i) {
                const std::size_t k = static_cast<std::size_t>(j * W + i);
                if (host[k] == device[k]) continue;
                std::vector<double> pl{px.x(i)}, pb{px.y(j)};
                p.inverse(pl, pb);
                double ol = 0, ob = 0;
                const bool ok = projInverse(p.params(), px.x(i), px.y(j), ol, ob);
                QVERIFY2(ambiguous(pl[0], pb[0], ok, ol / kDeg, ob / kDeg, lon, lat),
                         qPrintable(QString("pixel (%1, %2): host %3, device %4")
                                        .arg(i)
                                        .arg(j)
                                        .arg(host[k], 0, 16)
                                        .arg(device[k], 0, 16)));
                ++differ;
            }
        QVERIFY2(differ < W * H / 1000, qPrintable(QString("%1 pixels differ").arg(differ)));
    }
};

QTEST_GUILESS_MAIN(TestReprojection)
#include "tst_reprojection.moc"
