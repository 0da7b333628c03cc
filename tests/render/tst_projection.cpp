// Map projections: names, the own formulas (host and CUDA) against PROJ's transforms on random
// points, and the resampling of lon/lat frames (host: against an independent nearest-centre
// lookup; device: against the host, frames with NaNs).
#include <QtTest>
#include <cmath>
#include <cstring>
#include <proj.h>
#include <random>

#include "../../render/src/projection_math.h"
#include "../../render/src/reproject_backend.h"
#include "gpu_skip.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/projection.h"
#include "test_seed.h"

using namespace strata;
using namespace strata::detail;

namespace {

constexpr double kDeg = M_PI / 180;

double lonDiff(double a, double b) { return std::fabs(std::remainder(a - b, 360.0)); }

// n random points over the map's extent (a tenth beyond each side), metres.
void randomPoints(const Projection& p, std::mt19937_64& rng, int n, std::vector<double>& x,
                  std::vector<double>& y) {
    const MapExtent e = p.extent();
    std::uniform_real_distribution<double> ux(e.x0 - 0.1 * e.width(), e.x1 + 0.1 * e.width()),
        uy(e.y0 - 0.1 * e.height(), e.y1 + 0.1 * e.height());
    x.resize(static_cast<std::size_t>(n));
    y.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        x[static_cast<std::size_t>(i)] = ux(rng);
        y[static_cast<std::size_t>(i)] = uy(rng);
    }
}

// The centres of a regular axis: n values from v0 in steps of dv.
std::vector<double> axis(double v0, double dv, int n) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = v0 + dv * i;
    return v;
}

// The index of the centre nearest to v (longitudes compared modulo 360 when `periodic`), or -1
// beyond half a step past the end centres.
std::int64_t nearestCentre(const std::vector<double>& c, double v, bool periodic) {
    std::int64_t best = -1;
    double d = 1e300;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const double di = periodic ? lonDiff(v, c[i]) : std::fabs(v - c[i]);
        if (di < d) {
            d = di;
            best = static_cast<std::int64_t>(i);
        }
    }
    const double half = std::fabs(c[1] - c[0]) / 2;
    return d <= half ? best : -1;
}

// Whether a pixel's cell could be either of two: its own-formula and PROJ lon/lat disagree on
// being on the map, or they lie within 1e-6° of a boundary between cells.
bool ambiguous(double lonP, double latP, bool ownOk, double lonO, double latO, const std::vector<double>& lon,
               const std::vector<double>& lat) {
    if (std::isnan(lonP) != !ownOk) return true;
    if (!ownOk) return false;
    auto nearEdge = [](const std::vector<double>& c, double v, bool periodic) {
        for (std::size_t i = 0; i + 1 < c.size(); ++i) {
            const double mid = (c[i] + c[i + 1]) / 2;
            if ((periodic ? lonDiff(v, mid) : std::fabs(v - mid)) < 1e-6) return true;
        }
        const double half = (c[1] - c[0]) / 2;
        for (double end : {c.front() - half, c.back() + half})
            if ((periodic ? lonDiff(v, end) : std::fabs(v - end)) < 1e-6) return true;
        return false;
    };
    return nearEdge(lon, lonO, true) || nearEdge(lat, latO, false) || nearEdge(lon, lonP, true) ||
           nearEdge(lat, latP, false);
}

DataArray randomFrame(std::mt19937_64& rng, std::int64_t nlat, std::int64_t nlon, double nanShare) {
    std::uniform_real_distribution<float> v(-50, 50);
    std::bernoulli_distribution nan(nanShare);
    std::vector<float> values(static_cast<std::size_t>(nlat * nlon));
    for (float& f : values) f = nan(rng) ? std::nanf("") : v(rng);
    return DataArray::fromHost("t", {"lat", "lon"}, {nlat, nlon}, values);
}

std::vector<std::uint32_t> bits(const DataArray& a) {
    const DataArray h = a.asHost();
    std::vector<std::uint32_t> out(static_cast<std::size_t>(h.size()) * sizeOf(h.dtype()) / 4);
    std::memcpy(out.data(), h.variable().view().data, out.size() * 4);
    return out;
}

void projectionRows() {
    QTest::addColumn<QString>("name");
    for (const std::string& n : Projection::knownNames())
        QTest::newRow(n.c_str()) << QString::fromStdString(n);
}

} // namespace

class TestProjection : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    void namesAreCaseInsensitiveAndUnknownOnesListTheKnown() {
        QCOMPARE(Projection::byName("robinson").name(), std::string("Robinson"));
        QCOMPARE(Projection::byName("NORTHPOLARSTEREO").name(), std::string("NorthPolarStereo"));
        QCOMPARE(Projection::knownNames().size(), std::size_t(6));
        try {
            (void)Projection::byName("Robinsn");
            QFAIL("an unknown name was accepted");
        } catch (const ValueError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("'Robinsn'") != std::string::npos, m.c_str());
            for (const std::string& n : Projection::knownNames())
                QVERIFY2(m.find(n) != std::string::npos, m.c_str());
        }
    }

    void ownInverseMatchesProj_data() { projectionRows(); }
    void ownInverseMatchesProj() {
        QFETCH(QString, name);
        const Projection p = Projection::byName(name.toStdString());
        std::mt19937_64 rng(test::testSeed());
        std::vector<double> x, y;
        randomPoints(p, rng, 20000, x, y);
        std::vector<double> lon = x, lat = y;
        p.inverse(lon, lat);
        int onMap = 0;
        for (std::size_t i = 0; i < x.size(); ++i) {
            double l = 0, b = 0;
            const bool ok = projInverse(p.params(), x[i], y[i], l, b);
            QVERIFY2(ok == !std::isnan(lon[i]),
                     qPrintable(QString("(%1, %2): own %3, PROJ %4")
                                    .arg(x[i], 0, 'g', 17)
                                    .arg(y[i], 0, 'g', 17)
                                    .arg(ok ? "on the map" : "off")
                                    .arg(std::isnan(lon[i]) ? "off" : "on the map")));
            if (!ok) continue;
            ++onMap;
            QVERIFY2(lonDiff(l / kDeg, lon[i]) < 1e-9 && std::fabs(b / kDeg - lat[i]) < 1e-9,
                     qPrintable(QString("(%1, %2): own %3, %4; PROJ %5, %6")
                                    .arg(x[i], 0, 'g', 17)
                                    .arg(y[i], 0, 'g', 17)
                                    .arg(l / kDeg, 0, 'g', 17)
                                    .arg(b / kDeg, 0, 'g', 17)
                                    .arg(lon[i], 0, 'g', 17)
                                    .arg(lat[i], 0, 'g', 17)));
        }
        QVERIFY2(onMap > 5000, qPrintable(QString("only %1 points on the map").arg(onMap)));
    }

    void ownForwardMatchesProj_data() { projectionRows(); }
    void ownForwardMatchesProj() {
        QFETCH(QString, name);
        const Projection p = Projection::byName(name.toStdString());
        std::mt19937_64 rng(test::testSeed());
        // Not within 0.1° of the poles: there PROJ's Mollweide forward, whose iteration stops at
        // 1e-7 rad of θ, is a few millimetres off along x (its own, not ours: a 60-step Newton
        // agrees with ours).
        std::uniform_real_distribution<double> ulon(-180, 180), ulat(-89.9, 89.9);
        std::vector<double> lon(5000), lat(5000);
        for (std::size_t i = 0; i < lon.size(); ++i) {
            lon[i] = ulon(rng);
            lat[i] = ulat(rng);
        }
        std::vector<double> x = lon, y = lat;
        p.forward(x, y);
        for (std::size_t i = 0; i < lon.size(); ++i) {
            double fx = 0, fy = 0;
            const bool ok = projForward(p.params(), lon[i] * kDeg, lat[i] * kDeg, fx, fy);
            QCOMPARE(ok, !std::isnan(x[i]));
            // A millimetre: PROJ's Mollweide forward is some micrometres off near the poles.
            if (ok)
                QVERIFY2(std::fabs(fx - x[i]) < 1e-3 && std::fabs(fy - y[i]) < 1e-3,
                         qPrintable(QString("%1 at %2, %3: %4, %5 off")
                                        .arg(name)
                                        .arg(lon[i], 0, 'g', 17)
                                        .arg(lat[i], 0, 'g', 17)
                                        .arg(fx - x[i])
                                        .arg(fy - y[i])));
        }
    }

    // The Lambert conic's constants have one owner that both paths derive from. Read back from
    // the PROJ string, they must be what the own formula (the GPU's path) is built on, by the
    // projection's definition: the origin (lon_0, lat_0) maps to (0, 0), the central meridian
    // to x = 0, the scale along a parallel is true on lat_1 and lat_2 (a secant cone: below 1
    // between them, above outside); and PROJ agrees with the formula at every point tried.
    // PROJ's Robinson table steps by up to 2 m in y at its 5° nodes, so some points inside the
    // outline have no exact preimage: their way there and back misses by the step. They are on
    // the map, and both inverses agree on them (failed when the round trip allowed 0.6 m).
    void robinsonTableStepsStayOnTheMap() {
        const Projection p = Projection::byName("Robinson");
        int steps = 0;
        for (int node = 5; node < 90; node += 5) {
            std::vector<double> x{10.0, 10.0}, y{node - 1e-9, double(node)};
            p.forward(x, y);
            const double below = y[0], above = y[1];
            if (above - below < 1.0) continue; // a step too small to matter, or an overlap
            ++steps;
            for (const double sign : {1.0, -1.0}) {
                std::vector<double> lon{sign * 2.5e6}, lat{sign * (below + above) / 2};
                const double mx = lon[0], my = lat[0];
                p.inverse(lon, lat);
                double l = 0, b = 0;
                QVERIFY2(projInverse(p.params(), mx, my, l, b), qPrintable(QString::number(node)));
                QVERIFY2(!std::isnan(lon[0]),
                         qPrintable(QString("%1° step: PROJ's path left it off").arg(node)));
                QVERIFY(lonDiff(l / kDeg, lon[0]) < 1e-9 && std::fabs(b / kDeg - lat[0]) < 1e-9);
            }
        }
        QVERIFY(steps >= 4); // 20°, 30°, 40°, 55° step by more than 1.5 m
        // Just beyond the pole line (3 m above 90°N's height): off the map for both, though PROJ
        // puts it on the pole (it clamps up to 1e-6 of the height) and comes back 3 m away.
        std::vector<double> x{10.0}, y{90.0};
        p.forward(x, y);
        std::vector<double> lon{396291.0}, lat{y[0] + 3};
        p.inverse(lon, lat);
        double l = 0, b = 0;
        QVERIFY(!projInverse(p.params(), 396291.0, y[0] + 3, l, b));
        QVERIFY2(std::isnan(lon[0]), qPrintable(QString::number(lat[0])));
        // Between PROJ's pole line (1.3523 R, where its inverse gives the pole) and where its
        // table's last cubic ends (0.46 m higher): off the map for both; just below: on for both.
        const double pole = 1.3523 * 6371000;
        for (const double dy : {-0.05, 0.05, 0.2, 0.4}) {
            for (const double sign : {1.0, -1.0}) {
                std::vector<double> bx{-1.77e6}, by{sign * (pole + dy)};
                const double mx = bx[0], my = by[0];
                p.inverse(bx, by);
                const bool own = projInverse(p.params(), mx, my, l, b);
                QVERIFY2(own == !std::isnan(bx[0]) && own == (dy < 0),
                         qPrintable(QString("%1 m from the pole line: own %2, PROJ %3")
                                        .arg(sign * dy)
                                        .arg(own ? "on" : "off")
                                        .arg(std::isnan(bx[0]) ? "off" : "on")));
            }
        }
    }

    void lambertFormulaIsTheProjString() {
        const Projection p = Projection::byName("LambertConformal");
        const std::string& def = p.projString();
        const auto param = [&](const char* key) {
            const std::size_t at = def.find(std::string(" +") + key + "=");
            if (at == std::string::npos) qFatal("no %s in %s", key, def.c_str());
            return std::stod(def.substr(at + std::strlen(key) + 3));
        };
        const double lat1 = param("lat_1"), lat2 = param("lat_2"), lat0 = param("lat_0"),
                     lon0 = param("lon_0"), R = param("R");
        QVERIFY(def.rfind("+proj=lcc ", 0) == 0);
        QVERIFY(lat1 != lat2); // a secant cone: otherwise the scale test below says nothing
        const ProjParams& f = p.params();
        const auto fwd = [&](double lonDeg, double latDeg, double& x, double& y) {
            QVERIFY(projForward(f, lonDeg * kDeg, latDeg * kDeg, x, y));
        };
        double x = 1, y = 1;
        fwd(lon0, lat0, x, y);
        QVERIFY2(std::fabs(x) < 1e-6 && std::fabs(y) < 1e-6,
                 qPrintable(QString("origin at %1, %2").arg(x).arg(y)));
        for (double lat = -20; lat <= 80; lat += 5) {
            fwd(lon0, lat, x, y);
            QVERIFY2(std::fabs(x) < 1e-6, qPrintable(QString("central meridian at x = %1").arg(x)));
        }
        // The scale along a parallel: a chord of 1e-6 rad of longitude over its length on the sphere.
        const auto scale = [&](double latDeg) {
            const double d = 1e-6 / kDeg; // degrees
            double xa = 0, ya = 0, xb = 0, yb = 0;
            fwd(lon0 - d / 2, latDeg, xa, ya);
            fwd(lon0 + d / 2, latDeg, xb, yb);
            return std::hypot(xb - xa, yb - ya) / (R * std::cos(latDeg * kDeg) * 1e-6);
        };
        QVERIFY2(std::fabs(scale(lat1) - 1) < 1e-7,
                 qPrintable(QString("scale %1 on lat_1").arg(scale(lat1), 0, 'g', 12)));
        QVERIFY2(std::fabs(scale(lat2) - 1) < 1e-7,
                 qPrintable(QString("scale %1 on lat_2").arg(scale(lat2), 0, 'g', 12)));
        QVERIFY(scale((lat1 + lat2) / 2) < 1 - 1e-4);
        QVERIFY(scale(std::max(lat1, lat2) + 15) > 1 + 1e-4 && scale(std::min(lat1, lat2) - 15) > 1 + 1e-4);
        // And PROJ, given the string, projects a grid of points as the formula does.
        std::vector<double> lon, lat;
        for (double b = -25; b <= 85; b += 2.5)
            for (double l = -180; l < 180; l += 7.5) {
                lon.push_back(l);
                lat.push_back(b);
            }
        std::vector<double> px = lon, py = lat;
        p.forward(px, py);
        for (std::size_t i = 0; i < lon.size(); ++i) {
            fwd(lon[i], lat[i], x, y);
            QVERIFY2(std::fabs(x - px[i]) < 1e-3 && std::fabs(y - py[i]) < 1e-3,
                     qPrintable(QString("at %1, %2: formula %3, %4; PROJ %5, %6")
                                    .arg(lon[i])
                                    .arg(lat[i])
                                    .arg(x, 0, 'f', 4)
                                    .arg(y, 0, 'f', 4)
                                    .arg(px[i], 0, 'f', 4)
                                    .arg(py[i], 0, 'f', 4)));
        }
    }

    void extentHoldsTheGlobe() {
        // Robinson: the equator spans 2 · 0.8487 · π R, the poles lie at ±1.3523 R.
        const MapExtent e = Projection::byName("Robinson").extent();
        QVERIFY(std::fabs(e.x1 - 0.8487 * M_PI * 6371000) < 1);
        QVERIFY(std::fabs(e.x0 + e.x1) < 1e-6);
        QVERIFY(std::fabs(e.y1 - 1.3523 * 6371000) < 1);
        const MapExtent m = Projection::byName("Mollweide").extent();
        QVERIFY(std::fabs(m.x1 - 2 * M_SQRT2 * 6371000) < 1 && std::fabs(m.y1 - M_SQRT2 * 6371000) < 1);
        const MapExtent f = fitExtent(m, 400, 100); // 4:1 around a 2:1 ellipse: twice as wide
        QVERIFY(std::fabs(f.width() - 4 * f.height()) < 1e-6 && std::fabs(f.height() - m.height()) < 1e-6);
    }

    void cudaInverseMatchesProj_data() { projectionRows(); }
    void cudaInverseMatchesProj() {
        QFETCH(QString, name);
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Projection p = Projection::byName(name.toStdString());
        std::mt19937_64 rng(test::testSeed());
        std::vector<double> x, y;
        randomPoints(p, rng, 100000, x, y);
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        auto up = [&](const std::vector<double>& v) {
            Buffer h(v.size() * 8, Device::host(), Stream::host());
            std::memcpy(h.data(), v.data(), h.size());
            return h.copyTo(gpu, s);
        };
        const Buffer dx = up(x), dy = up(y);
        Buffer dlon(x.size() * 8, gpu, s), dlat(x.size() * 8, gpu, s);
        inverseCuda(p.params(), static_cast<const double*>(dx.data()), static_cast<const double*>(dy.data()),
                    static_cast<double*>(dlon.data()), static_cast<double*>(dlat.data()),
                    static_cast<std::int64_t>(x.size()), s.handle());
        const Buffer hlon = dlon.copyTo(Device::host(), s), hlat = dlat.copyTo(Device::host(), s);
        s.synchronize();
        std::vector<double> lon = x, lat = y;
        p.inverse(lon, lat);
        const auto* gl = static_cast<const double*>(hlon.data());
        const auto* gb = static_cast<const double*>(hlat.data());
        for (std::size_t i = 0; i < x.size(); ++i) {
            QCOMPARE(std::isnan(gl[i]), std::isnan(lon[i]));
            if (std::isnan(gl[i])) continue;
            QVERIFY2(lonDiff(gl[i] / kDeg, lon[i]) < 1e-9 && std::fabs(gb[i] / kDeg - lat[i]) < 1e-9,
                     qPrintable(QString("(%1, %2): device %3, %4; PROJ %5, %6")
                                    .arg(x[i], 0, 'g', 17)
                                    .arg(y[i], 0, 'g', 17)
                                    .arg(gl[i] / kDeg, 0, 'g', 17)
                                    .arg(gb[i] / kDeg, 0, 'g', 17)
                                    .arg(lon[i], 0, 'g', 17)
                                    .arg(lat[i], 0, 'g', 17)));
        }
    }

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

QTEST_GUILESS_MAIN(TestProjection)
#include "tst_projection.moc"
