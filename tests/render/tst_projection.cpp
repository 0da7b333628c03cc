// Map projections: names, and the own formulas (host and CUDA) against PROJ's transforms on
// random points. The resampling of frames into a map is tst_reprojection's.
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
};

QTEST_GUILESS_MAIN(TestProjection)
#include "tst_projection.moc"
