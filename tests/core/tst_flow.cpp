// Vector fields: pairs found by their CF standard names, refusals that name both grids, samples
// against bilinear values worked out here, streamlines and particles in a solid-body rotation
// (where the exact path is a circle), particles born again in their box without a change in
// their number, evenly spaced streamlines no nearer than their spacing, and, on each backend,
// the device's samples, traces and particles against the host's on random fields with NaN.
#include <QtTest>

#include <cmath>
#include <random>

#include "strata/core/dataset.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"
#include "test_seed.h"
#include "test_util.h"

using namespace strata;

namespace {

Variable named(const std::string& standardName, const std::vector<std::string>& dims = {"y", "x"}) {
    Variable v({dims}, {2, 3}, DType::Float32, Buffer(24, Device::host(), Stream::host()));
    if (!standardName.empty()) v.attrs().set({"standard_name", DType::Char, standardName});
    return v;
}

// u = -ω (y - cy), v = ω (x - cx) over ny × nx: a solid-body rotation about (cx, cy).
std::pair<DataArray, DataArray> rotation(std::int64_t ny, std::int64_t nx, double cx, double cy,
                                         double omega) {
    std::vector<double> u, v;
    for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t i = 0; i < nx; ++i) {
            u.push_back(-omega * (double(j) - cy));
            v.push_back(omega * (double(i) - cx));
        }
    return {DataArray::fromHost("u", {"y", "x"}, {ny, nx}, u),
            DataArray::fromHost("v", {"y", "x"}, {ny, nx}, v)};
}

double bilinear(const std::vector<double>& f, std::int64_t nx, double x, double y) {
    const auto i = std::int64_t(std::floor(x)), j = std::int64_t(std::floor(y));
    const double fx = x - double(i), fy = y - double(j);
    double sum = 0; // samples of weight 0 left out
    for (const auto& [w, jj, ii] :
         {std::tuple{(1 - fx) * (1 - fy), j, i}, std::tuple{fx * (1 - fy), j, i + 1},
          std::tuple{(1 - fx) * fy, j + 1, i}, std::tuple{fx * fy, j + 1, i + 1}})
        if (w != 0) sum += w * f[std::size_t(jj * nx + ii)];
    return sum;
}

} // namespace

class TestFlow : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // eastward_* with northward_*, x_* with y_* (grid relative), u10 with v10 by name alone;
    // a component without its partner, or with other dims, makes no pair.
    void pairsAreFoundByStandardName() {
        Dataset ds;
        ds.variables.emplace_back("ua", named("eastward_wind"));
        ds.variables.emplace_back("uo", named("eastward_sea_water_velocity"));
        ds.variables.emplace_back("xw", named("x_wind"));
        ds.variables.emplace_back("va", named("northward_wind"));
        ds.variables.emplace_back("yw", named("y_wind"));
        ds.variables.emplace_back("vo", named("northward_sea_water_velocity", {"y", "z"}));
        ds.variables.emplace_back("u10", named(""));
        ds.variables.emplace_back("v10", named(""));
        ds.variables.emplace_back("tas", named("air_temperature"));
        ds.variables.emplace_back("ustar", named("")); // no vstar
        const std::vector<VectorPair> pairs = findVectorPairs(ds);
        QCOMPARE(pairs.size(), std::size_t(3));
        QCOMPARE(pairs[0], (VectorPair{"ua", "va", false}));
        QCOMPARE(pairs[1], (VectorPair{"xw", "yw", true}));
        QCOMPARE(pairs[2], (VectorPair{"u10", "v10", false}));
    }

    // Components of other shapes or coordinates are refused, both grids named; one grid passes.
    void pairsOnDifferentGridsAreRefused() {
        const auto [u, v] = rotation(4, 5, 2, 2, 1);
        QVERIFY(vectorPairProblem(u, v).empty());
        const DataArray w = DataArray::fromHost("v", {"y", "x"}, {4, 6}, std::vector<double>(24, 1.0));
        const QString why = QString::fromStdString(vectorPairProblem(u, w));
        QVERIFY2(why.contains("'u' (y 4, x 5)") && why.contains("'v' (y 4, x 6)"), qPrintable(why));
        const DataArray line = DataArray::fromHost("v", {"x"}, {5}, std::vector<double>(5, 1.0));
        QVERIFY(QString::fromStdString(vectorPairProblem(u, line)).contains("not a 2-D frame"));
        QVERIFY_THROWS_EXCEPTION(ValueError, sampleFlow(u, w, {1, 1}));
        FlowMetric wrongSize;
        wrongSize.xScale = {1, 2};
        QVERIFY_THROWS_EXCEPTION(ValueError, traceStreamlines(u, v, wrongSize, {1, 1}, 0.1, 10));
    }

    // The metric of a global 2.5° grid: a column is R·Δλ metres at the equator, 1/cos φ more
    // columns a metre at φ; it wraps. Latitude falling down the rows turns northward into -y.
    void lonLatMetricFollowsTheSphere() {
        std::vector<double> lon, lat;
        for (int i = 0; i < 144; ++i) lon.push_back(2.5 * i);
        for (int j = 0; j < 73; ++j) lat.push_back(90 - 2.5 * j);
        const FlowMetric m = lonLatMetric(lon, lat);
        QVERIFY(m.wrapX);
        const double column = 6371008.8 * 2.5 * M_PI / 180;
        QVERIFY(std::abs(m.xScale[10] * column - 1) < 1e-12);
        QVERIFY(std::abs(m.yScale[10] * column + 1) < 1e-12);
        QVERIFY(std::abs(m.rowScale[12] - 1 / std::cos(60 * M_PI / 180)) < 1e-12);
        lon.push_back(360); // 0 and 360 both: not a whole turn of distinct columns
        QVERIFY(!lonLatMetric(lon, lat).wrapX);
    }

    // Samples at random points of random fields with NaN are the bilinear values worked out
    // here (NaN where one of the four is missing or off the grid); the device's are the host's.
    void samplesAreBilinear_data() { STRATA_BACKEND_ROWS(); }
    void samplesAreBilinear() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        const DataArray u = test::randomArray(rng, DType::Float32, {31, 47}, 0.03);
        const DataArray v0 = test::randomArray(rng, DType::Float64, {31, 47}, 0.03);
        const DataArray v = DataArray::fromHost("v", u.dims(), u.shape(), v0.values<double>());
        const std::vector<double> uh = u.values<double>(), vh = v.values<double>();
        std::uniform_real_distribution<double> x(-1, 47.5), y(-1, 31.5);
        std::vector<double> xy;
        for (int k = 0; k < 4000; ++k) xy.insert(xy.end(), {x(rng), y(rng)});
        xy.insert(xy.end(), {46, 30, 0, 0, 12, 7}); // the far corner, the first, a sample
        const FlowSamples s = sampleFlow(b.put(u), b.put(v), xy);
        int values = 0;
        for (std::size_t k = 0; k < xy.size() / 2; ++k) {
            const double px = xy[2 * k], py = xy[2 * k + 1];
            const bool inside = px >= 0 && py >= 0 && px <= 46 && py <= 30;
            const double eu = inside ? bilinear(uh, 47, px, py) : NAN,
                         ev = inside ? bilinear(vh, 47, px, py) : NAN;
            const bool expectValue = !std::isnan(eu) && !std::isnan(ev);
            QVERIFY2(expectValue == !std::isnan(s.u[k]) && expectValue == !std::isnan(s.v[k]),
                     qPrintable(QString("(%1, %2)").arg(px).arg(py)));
            if (!expectValue) continue;
            ++values;
            QVERIFY(std::abs(s.u[k] - eu) <= 1e-9 * (1 + std::abs(eu)));
            QVERIFY(std::abs(s.v[k] - ev) <= 1e-9 * (1 + std::abs(ev)));
        }
        QVERIFY(values > 2000);
        // A sample is itself; where either component is missing there, the pair has no value.
        const double u7 = uh[7 * 47 + 12], v7 = vh[7 * 47 + 12];
        if (std::isnan(u7) || std::isnan(v7))
            QVERIFY(std::isnan(s.u[4002]) && std::isnan(s.v[4002]));
        else
            QVERIFY(s.u[4002] == u7 && s.v[4002] == v7);
    }

    // A solid-body rotation's streamlines are circles about its centre: traced forward they turn
    // anticlockwise, backward clockwise, and stay on the seed's radius; they stop at a hole of
    // NaN. On the device, the traces are the host's.
    void streamlinesFollowARotation_data() { STRATA_BACKEND_ROWS(); }
    void streamlinesFollowARotation() {
        STRATA_BACKEND(b);
        auto [u, v] = rotation(41, 41, 20, 20, 0.3);
        const std::vector<double> seeds{30, 20, 20, 8, 26, 26};
        const StreamlineTraces t = traceStreamlines(b.put(u), b.put(v), {}, seeds, 0.25, 400);
        QCOMPARE(t.seeds, std::int64_t(3));
        for (std::int64_t s = 0; s < 3; ++s) {
            const double r = std::hypot(seeds[2 * s] - 20, seeds[2 * s + 1] - 20);
            for (int way = 0; way < 2; ++way) {
                QCOMPARE(t.points(s, way), 401); // a circle inside the grid never ends
                const float* p = t.trace(s, way);
                QCOMPARE(double(p[0]), seeds[2 * s]);
                for (int k = 1; k < t.points(s, way); ++k) {
                    QVERIFY(std::abs(std::hypot(p[2 * k] - 20.0, p[2 * k + 1] - 20.0) - r) < 2e-3 * r);
                    const double cross = (p[2 * k - 2] - 20.0) * (p[2 * k + 1] - 20.0) -
                                         (p[2 * k - 1] - 20.0) * (p[2 * k] - 20.0);
                    QVERIFY(way == 0 ? cross > 0 : cross < 0);
                }
            }
        }
        // A hole on the first circle's way: the trace ends before it.
        std::vector<double> uv = u.values<double>();
        uv[std::size_t(25 * 41 + 29)] = NAN; // (x 29, y 25): on the circle of radius 10
        const DataArray holed = DataArray::fromHost("u", {"y", "x"}, {41, 41}, uv);
        const StreamlineTraces h = traceStreamlines(b.put(holed), b.put(v), {}, {30, 20}, 0.25, 400);
        QVERIFY(h.points(0, 0) > 5 && h.points(0, 0) < 40);
        const float* end = h.trace(0, 0) + 2 * (h.points(0, 0) - 1);
        QVERIFY(end[1] < 25 && end[1] > 22);
        if (b.cuda) { // the device's traces are the host's
            std::mt19937_64 rng(test::testSeed());
            const DataArray ru = test::randomArray(rng, DType::Float32, {60, 90}, 0.02);
            const DataArray rv = DataArray::fromHost("v", ru.dims(), ru.shape(),
                                                     test::randomValues(rng, DType::Float64, 5400, 0.02));
            std::vector<double> many;
            std::uniform_real_distribution<double> px(0, 89), py(0, 59);
            for (int k = 0; k < 500; ++k) many.insert(many.end(), {px(rng), py(rng)});
            const FlowMetric m;
            const StreamlineTraces host = traceStreamlines(ru, rv, m, many, 0.5, 60);
            const StreamlineTraces dev = traceStreamlines(b.put(ru), b.put(rv), m, many, 0.5, 60);
            QCOMPARE(dev.count, host.count);
            for (std::size_t s = 0; s < 1000; ++s)
                for (int k = 0; k < 2 * std::min(host.count[s], 8); ++k) // before rounding parts them
                    QVERIFY(std::abs(dev.xy[s * 122 + std::size_t(k)] - host.xy[s * 122 + std::size_t(k)]) <
                            1e-3);
        }
    }

    // A point kept every n steps is the full trace's point n·k, and a trace that stops between
    // two of them ends at the last point it reached, as the full one does.
    void streamlinesKeepEveryNthPoint_data() { STRATA_BACKEND_ROWS(); }
    void streamlinesKeepEveryNthPoint() {
        STRATA_BACKEND(b);
        auto [u, v] = rotation(41, 41, 20, 20, 0.3);
        std::vector<double> uv = u.values<double>();
        uv[std::size_t(25 * 41 + 29)] = NAN; // on the first seed's circle, forward
        const DataArray du = b.put(DataArray::fromHost("u", {"y", "x"}, {41, 41}, uv)), dv = b.put(v);
        const std::vector<double> seeds{30, 20, 20, 8};
        const StreamlineTraces all = traceStreamlines(du, dv, {}, seeds, 0.25, 100);
        const StreamlineTraces some = traceStreamlines(du, dv, {}, seeds, 0.25, 100, 7);
        QCOMPARE(some.capacity, std::int64_t(16)); // the seed and ceil(100 / 7)
        QCOMPARE(some.every, std::int64_t(7));
        bool cut = false;
        for (std::int64_t s = 0; s < 2; ++s)
            for (int way = 0; way < 2; ++way) {
                const std::int32_t n = all.points(s, way), m = some.points(s, way);
                QVERIFY(n > 1);
                QCOMPARE(m, (n - 1 + 6) / 7 + 1);
                cut = cut || (n - 1) % 7 != 0;
                const float *full = all.trace(s, way), *thin = some.trace(s, way);
                for (std::int32_t k = 0; k < m; ++k) {
                    const std::int32_t at = std::min(7 * k, n - 1);
                    QCOMPARE(thin[2 * k], full[2 * at]);
                    QCOMPARE(thin[2 * k + 1], full[2 * at + 1]);
                }
            }
        QVERIFY(cut); // some trace ends between two kept points
        QVERIFY_THROWS_EXCEPTION(ValueError, traceStreamlines(du, dv, {}, seeds, 0.25, 100, 0));
        QVERIFY_THROWS_EXCEPTION(ValueError, traceStreamlines(du, dv, {}, seeds, 0.25, 100, 101));
    }

    // Kept streamlines are no nearer than the spacing to one another, and cover the plane: no
    // point of it is further than twice the spacing from one.
    void evenlySpacedLinesKeepTheirDistance() {
        // Candidates: the circles of a rotation about (50, 50), one through every point of a
        // lattice one unit apart, as polylines.
        std::vector<std::vector<double>> candidates;
        for (int j = 0; j <= 100; j += 1)
            for (int i = 0; i <= 100; i += 1) {
                const double r = std::hypot(i - 50.0, j - 50.0), a0 = std::atan2(j - 50.0, i - 50.0);
                if (r < 0.5 || r > 50) continue;
                std::vector<double> l;
                for (int k = 0; k <= 200; ++k) {
                    const double a = a0 + 2 * M_PI * k / 200;
                    l.insert(l.end(), {50 + r * std::cos(a), 50 + r * std::sin(a)});
                }
                candidates.push_back(std::move(l));
            }
        const double d = 6;
        const auto kept = evenlySpaced(candidates, d, 2 * d);
        QVERIFY2(kept.size() >= 5 && kept.size() <= 12, qPrintable(QString::number(kept.size())));
        // Its cells cover a rectangle; lines beyond it are spaced alike (in its edge cells).
        EvenSpacing small(d, 2 * d, 40, 40, 45, 45);
        small.add(candidates);
        QCOMPARE(small.lines(), kept);
        QVERIFY_THROWS_EXCEPTION(ValueError, EvenSpacing(0, 1, 0, 0, 1, 1));
        for (std::size_t a = 0; a < kept.size(); ++a)
            for (std::size_t b = a + 1; b < kept.size(); ++b)
                for (std::size_t p = 0; p + 1 < kept[a].size(); p += 2)
                    for (std::size_t q = 0; q + 1 < kept[b].size(); q += 2)
                        QVERIFY(std::hypot(kept[a][p] - kept[b][q], kept[a][p + 1] - kept[b][q + 1]) >=
                                d - 1e-9);
        for (int j = 10; j <= 90; j += 5)
            for (int i = 10; i <= 90; i += 5) {
                if (std::hypot(i - 50.0, j - 50.0) > 40) continue;
                double best = 1e9;
                for (const auto& l : kept)
                    for (std::size_t p = 0; p + 1 < l.size(); p += 2)
                        best = std::min(best, std::hypot(l[p] - i, l[p + 1] - j));
                QVERIFY2(best <= 2 * d,
                         qPrintable(QString("(%1, %2): %3 from a line").arg(i).arg(j).arg(best)));
            }
    }

    // A candidate given point by point is read only as far as it grows: up to the first point
    // too near a kept line, a step longer than the jump (a seam), or a point that is not there.
    void growReadsOnlyAsFarAsItKeeps() {
        EvenSpacing sp(2, 1, 0, 0, 100, 100);
        sp.add({{0, 50, 100, 50}}); // a line along y = 50
        QCOMPARE(sp.lines().size(), std::size_t(1));
        std::vector<std::size_t> asked;
        auto line = [&](double x, auto y) {
            return [&asked, x, y](std::size_t k, double& px, double& py) {
                asked.push_back(k);
                px = x;
                return y(k, py);
            };
        };
        // Up x = 30 from y = 10, seeded at y = 20: y = 48 is 2 from the line (kept), 49 is not.
        QVERIFY(
            sp.grow(81, 10, line(30, [](std::size_t k, double& y) { return y = 10.0 + double(k), true; })));
        QCOMPARE(*std::max_element(asked.begin(), asked.end()), std::size_t(39));
        QCOMPARE(sp.lines().back().front(), 30.0);
        QCOMPARE(sp.lines().back()[1], 10.0);
        QCOMPARE(sp.lines().back().back(), 48.0);
        // A jump from y = 40 to 81 ends it there; so does a point that is not there.
        asked.clear();
        QVERIFY(sp.grow(
            50, 5,
            line(70, [](std::size_t k,
                        double& y) { return y = k <= 30 ? 10.0 + double(k) : 50.0 + double(k), true; }),
            10));
        QCOMPARE(*std::max_element(asked.begin(), asked.end()), std::size_t(31));
        QCOMPARE(sp.lines().back().back(), 40.0);
        QVERIFY(
            sp.grow(50, 5, line(90, [](std::size_t k, double& y) { return y = 10.0 + double(k), k < 20; })));
        QCOMPARE(sp.lines().back().back(), 29.0);
        // A seed too near a kept line keeps nothing, and reads nothing beyond the seed.
        asked.clear();
        QVERIFY(!sp.grow(50, 40, line(30, [](std::size_t k, double& y) { return y = double(k), true; })));
        QCOMPARE(asked, std::vector<std::size_t>{40});
    }

    // A spiral, whose turns lie 2 apart, is cut where it first comes back within the spacing of
    // itself: what is kept never does.
    void aSpiralIsCutBeforeItsNextTurn() {
        std::vector<double> spiral;
        for (int k = 0; k <= 4000; ++k) {
            const double a = k * 0.01, r = 40 - 2 * a / (2 * M_PI);
            spiral.insert(spiral.end(), {50 + r * std::cos(a), 50 + r * std::sin(a)});
        }
        const double d = 5;
        const auto kept = evenlySpaced({spiral}, d, 3);
        QCOMPARE(kept.size(), std::size_t(1));
        const std::vector<double>& l = kept[0];
        double arc = 0;
        std::vector<double> along{0};
        for (std::size_t p = 2; p + 1 < l.size(); p += 2)
            along.push_back(arc += std::hypot(l[p] - l[p - 2], l[p + 1] - l[p - 1]));
        QVERIFY(arc > 2 * M_PI * 35);     // more than a turn is kept
        QVERIFY(arc < 2 * M_PI * 40 * 2); // not the 6 turns of the spiral
        for (std::size_t p = 0; p < along.size(); ++p)
            for (std::size_t q = p + 1; q < along.size(); ++q)
                if (along[q] - along[p] > 3 * d)
                    QVERIFY(std::hypot(l[2 * p] - l[2 * q], l[2 * p + 1] - l[2 * q + 1]) >= d - 1e-9);
    }

    // Particles in a solid-body rotation move on circles by the angle ω·t (the integral of the
    // field), none born again while the box holds them. On the device, they are the host's.
    void particlesMoveByTheFlowsIntegral_data() { STRATA_BACKEND_ROWS(); }
    void particlesMoveByTheFlowsIntegral() {
        STRATA_BACKEND(b);
        const double omega = 0.05;
        auto [u, v] = rotation(81, 81, 40, 40, omega);
        const Device device = b.cuda ? Device::cuda(0) : Device::host();
        ParticleSet set(5000, test::testSeed(), device);
        const ParticleBox box{0, 0, 80, 80};
        set.seed({25, 25, 55, 55}, 100); // aged below 100: none reaches 10^6
        const ParticleSet::Host start = set.toHost();
        std::vector<float> trails;
        const int steps = 100;
        const double dt = 0.2;
        set.advect(b.put(u), b.put(v), {}, dt, steps, box, 1000000, &trails);
        const ParticleSet::Host end = set.toHost();
        QCOMPARE(std::int64_t(end.x.size()), set.size());
        const double turn = omega * dt * steps;
        for (std::size_t k = 0; k < end.x.size(); ++k) {
            QCOMPARE(end.births[k], 0u);
            QCOMPARE(end.age[k], start.age[k] + steps);
            const double x0 = start.x[k] - 40, y0 = start.y[k] - 40;
            const double ex = 40 + x0 * std::cos(turn) - y0 * std::sin(turn);
            const double ey = 40 + x0 * std::sin(turn) + y0 * std::cos(turn);
            // The midpoint rule's error, r·h³/6 a step (h = ω·dt), twice over; Euler's (r·h²/2 a
            // step) is a hundred times more.
            const double h = omega * dt, tolerance = std::hypot(x0, y0) * steps * h * h * h / 3 + 1e-9;
            QVERIFY2(std::hypot(end.x[k] - ex, end.y[k] - ey) < tolerance,
                     qPrintable(QString("particle %1 at (%2, %3), not (%4, %5)")
                                    .arg(k)
                                    .arg(end.x[k])
                                    .arg(end.y[k])
                                    .arg(ex)
                                    .arg(ey)));
            // Its trail's last step is where it ends.
            const std::size_t last = 2 * (std::size_t(steps - 1) * end.x.size() + k);
            QVERIFY(std::abs(trails[last] - end.x[k]) < 1e-5 && std::abs(trails[last + 1] - end.y[k]) < 1e-5);
        }
    }

    // Particles that leave their box, meet NaN or grow old are born again inside it: the count
    // stays, each is in the box and on a value, and a trail breaks (NaN) where one was born.
    // On the device the particles are the host's (a few may part where a step lands on an edge).
    void particlesAreBornAgainInTheirBox_data() { STRATA_BACKEND_ROWS(); }
    void particlesAreBornAgainInTheirBox() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        const DataArray u = test::randomArray(rng, DType::Float32, {50, 70}, 0.02);
        const DataArray v = DataArray::fromHost("v", u.dims(), u.shape(),
                                                test::randomValues(rng, DType::Float32, 3500, 0.02));
        std::vector<double> uh = u.values<double>(), vh = v.values<double>();
        for (auto* f : {&uh, &vh})
            for (double& x : *f) x = std::isnan(x) ? x : (x - 280) * 0.05; // a few cells a step
        const DataArray fu = DataArray::fromHost("u", u.dims(), u.shape(), uh);
        const DataArray fv = DataArray::fromHost("v", u.dims(), u.shape(), vh);
        const ParticleBox box{10, 5, 60, 40};
        ParticleSet host(20000, 99, Device::host());
        host.seed(box, 30);
        std::vector<float> trails;
        host.advect(fu, fv, {}, 1.0, 40, box, 30, &trails);
        const ParticleSet::Host h = host.toHost();
        QCOMPARE(h.x.size(), std::size_t(20000));
        std::uint64_t births = 0, breaks = 0;
        for (std::size_t k = 0; k < h.x.size(); ++k) {
            QVERIFY(h.x[k] >= box.x0 && h.x[k] <= box.x1 && h.y[k] >= box.y0 && h.y[k] <= box.y1);
            QVERIFY(h.age[k] <= 30);
            births += h.births[k];
        }
        for (float t : trails) breaks += std::isnan(t);
        QVERIFY(births > 20000); // each lives at most 30 of the 40 steps
        QCOMPARE(breaks, 2 * births);
        if (!b.cuda) return;
        ParticleSet dev(20000, 99, Device::cuda(0));
        dev.seed(box, 30);
        std::vector<float> devTrails;
        dev.advect(b.put(fu), b.put(fv), {}, 1.0, 40, box, 30, &devTrails);
        const ParticleSet::Host d = dev.toHost();
        int same = 0;
        for (std::size_t k = 0; k < d.x.size(); ++k) {
            QVERIFY(d.x[k] >= box.x0 && d.x[k] <= box.x1 && d.y[k] >= box.y0 && d.y[k] <= box.y1);
            if (d.births[k] == h.births[k] && std::abs(d.x[k] - h.x[k]) < 1e-6 &&
                std::abs(d.y[k] - h.y[k]) < 1e-6)
                ++same;
        }
        QVERIFY2(same >= 19800, qPrintable(QString("%1 of 20000 alike").arg(same)));
        QCOMPARE(devTrails.size(), trails.size());
    }

    // With weights, particles are born in each block in proportion to its weight (none in a block
    // of weight 0), when seeded and when born again; the device's births are the host's. Weights
    // of another count, beyond 0..1 or all 0 are refused.
    void particlesAreBornByTheBlocksWeights_data() { STRATA_BACKEND_ROWS(); }
    void particlesAreBornByTheBlocksWeights() {
        STRATA_BACKEND(b);
        // A still field: particles stay where they are born, until their age.
        const DataArray u = DataArray::fromHost("u", {"y", "x"}, {41, 41}, std::vector<double>(41 * 41, 0.0));
        const DataArray& v = u;
        // Blocks of 20 × 20 over (0, 0)-(40, 40): bottom row 0 and 1, top row 0.25 and 1.
        const ParticleBox box{0, 0, 40, 40, {0, 1, 0.25, 1}, 2, 2};
        const auto shares = [&](const ParticleSet::Host& h) {
            std::vector<double> n(4, 0);
            for (std::size_t k = 0; k < h.x.size(); ++k)
                n[std::size_t((h.y[k] < 20 ? 0 : 2) + (h.x[k] < 20 ? 0 : 1))] += 1.0 / double(h.x.size());
            return n;
        };
        const std::vector<double> want{0, 1 / 2.25, 0.25 / 2.25, 1 / 2.25};
        const Device device = b.cuda ? Device::cuda(0) : Device::host();
        ParticleSet set(40000, 5, device), host(40000, 5, Device::host());
        set.seed(box, 1);
        host.seed(box, 1);
        for (int pass = 0; pass < 2; ++pass) {
            const ParticleSet::Host h = set.toHost();
            const std::vector<double> got = shares(h);
            for (std::size_t q = 0; q < 4; ++q)
                QVERIFY2(std::abs(got[q] - want[q]) < 0.01,
                         qPrintable(QString("pass %1, block %2: %3 of them, %4 wanted")
                                        .arg(pass)
                                        .arg(q)
                                        .arg(got[q])
                                        .arg(want[q])));
            const ParticleSet::Host o = host.toHost();
            for (std::size_t k = 0; k < h.x.size(); k += 97) {
                QCOMPARE(h.x[k], o.x[k]);
                QCOMPARE(h.y[k], o.y[k]);
            }
            // Aged 1 at most: in two steps every one is born again.
            set.advect(b.put(u), b.put(v), {}, 0.1, 2, box, 1);
            host.advect(u, v, {}, 0.1, 2, box, 1);
        }
        for (const ParticleBox& bad :
             {ParticleBox{0, 0, 40, 40, {1, 1, 1}, 2, 2}, ParticleBox{0, 0, 40, 40, {0, 1.5}, 2, 1},
              ParticleBox{0, 0, 40, 40, {0, 0}, 1, 2}}) {
            QVERIFY_THROWS_EXCEPTION(ValueError, set.seed(bad, 1));
            QVERIFY_THROWS_EXCEPTION(ValueError, set.advect(b.put(u), b.put(v), {}, 0.1, 1, bad, 1));
        }
    }

    // Bad particles: none, an empty box, a box off the grid, fields on another device.
    void badParticlesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(ValueError, ParticleSet(0, 1));
        ParticleSet set(10, 1);
        QVERIFY_THROWS_EXCEPTION(ValueError, set.seed({5, 5, 5, 9}, 10));
        auto [u, v] = rotation(10, 10, 5, 5, 1);
        QVERIFY_THROWS_EXCEPTION(ValueError, set.advect(u, v, {}, 0.1, 3, {0, 0, 12, 9}, 10));
        if (cudaDeviceCount() == 0) return;
        const test::Backend gpu{true};
        QVERIFY_THROWS_EXCEPTION(ValueError,
                                 set.advect(gpu.put(u), gpu.put(v), {}, 0.1, 3, {0, 0, 9, 9}, 10));
    }
};

QTEST_GUILESS_MAIN(TestFlow)
#include "tst_flow.moc"
