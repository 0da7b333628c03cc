// Contours on the host: the levels each spelling gives (nice numbers for auto, worked out here
// by hand), refusals that say what is wrong, and isolines checked against analytic fields — a
// circle's points on the circle, a plane's lines straight where the plane says — with a saddle
// resolved by its cell's mean, lines stopping at NaN, and none on a constant field. On random
// fields with NaN, on each backend, the segments are checked edge by edge against the field, and
// the device's against the host's. (tests/io/tst_contouroracle checks them against contourpy.)
#include <QtTest>

#include <cmath>
#include <functional>

#include "strata/core/contour.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "test_seed.h"
#include "test_util.h"

using namespace strata;

namespace {

DataArray field(std::int64_t ny, std::int64_t nx, const std::function<double(double x, double y)>& f) {
    std::vector<double> v;
    for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t i = 0; i < nx; ++i) v.push_back(f(double(i), double(j)));
    return DataArray::fromHost("f", {"y", "x"}, {ny, nx}, v);
}

QString refusal(const char* text) {
    try {
        parseContourSpec(text);
    } catch (const ValueError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

std::size_t points(const std::vector<Isoline>& lines) {
    std::size_t n = 0;
    for (const Isoline& l : lines) n += l.xy.size() / 2;
    return n;
}

// Checks `s`, the segments of `f` (a host field, dims (y, x)) at `levels`, against the field
// itself: each end is where the level crosses its edge; each end linked to another is linked
// back from it, at the same point; and every edge the level crosses carries one end for each of
// its cells without a NaN corner, the ends of a line (link -1) where the other cell has one or
// is past the border.
void checkSegments(const ContourSegments& s, const std::vector<double>& v, std::int64_t ny, std::int64_t nx,
                   const std::vector<double>& levels) {
    auto at = [&](std::int64_t j, std::int64_t i) { return v[std::size_t(j * nx + i)]; };
    auto cellOk = [&](std::int64_t j, std::int64_t i) {
        return j >= 0 && i >= 0 && j + 1 < ny && i + 1 < nx && !std::isnan(at(j, i)) &&
               !std::isnan(at(j, i + 1)) && !std::isnan(at(j + 1, i)) && !std::isnan(at(j + 1, i + 1));
    };
    QCOMPARE(s.ny, ny);
    QCOMPARE(s.nx, nx);
    QCOMPARE(s.xy.size(), 4 * s.size());
    QCOMPARE(s.link.size(), 2 * s.size());
    std::size_t openEnds = 0;
    for (std::size_t g = 0; g < s.size(); ++g) {
        QVERIFY(s.level[g] >= 0 && std::size_t(s.level[g]) < levels.size());
        const double level = levels[std::size_t(s.level[g])];
        for (int e = 0; e < 2; ++e) {
            const double x = s.xy[4 * g + 2 * std::size_t(e)], y = s.xy[4 * g + 2 * std::size_t(e) + 1];
            // On an edge: one coordinate whole; the field along the edge is at the level there.
            const bool row = y == std::floor(y);
            QVERIFY(row || x == std::floor(x));
            const std::int64_t j0 = std::int64_t(std::floor(y)), i0 = std::int64_t(std::floor(x));
            const double t = row ? x - double(i0) : y - double(j0);
            const double v0 = at(j0, i0), v1 = t == 0 ? v0 : (row ? at(j0, i0 + 1) : at(j0 + 1, i0));
            const double along = v0 + t * (v1 - v0);
            QVERIFY2(std::abs(along - level) <= 1e-9 * (1 + std::abs(level)),
                     qPrintable(QString("segment %1 end %2 at (%3, %4): %5, not %6")
                                    .arg(g)
                                    .arg(e)
                                    .arg(x)
                                    .arg(y)
                                    .arg(along)
                                    .arg(level)));
            const std::int32_t link = s.link[2 * g + std::size_t(e)];
            if (link < 0) {
                ++openEnds;
                continue;
            }
            QCOMPARE(s.link[std::size_t(link)], std::int32_t(2 * g + std::size_t(e)));
            QCOMPARE(s.level[std::size_t(link) / 2], s.level[g]);
            QCOMPARE(s.xy[2 * std::size_t(link)], x);
            QCOMPARE(s.xy[2 * std::size_t(link) + 1], y);
        }
    }
    // Edges crossed, counted from the field alone: horizontal (j, i)-(j, i+1) between cells
    // (j-1, i) and (j, i); vertical (j, i)-(j+1, i) between (j, i-1) and (j, i).
    std::size_t ends = 0, borderEnds = 0;
    for (const double level : levels)
        for (std::int64_t j = 0; j < ny; ++j)
            for (std::int64_t i = 0; i < nx; ++i)
                for (int vertical = 0; vertical < 2; ++vertical) {
                    const std::int64_t j1 = j + vertical, i1 = i + 1 - vertical;
                    if (j1 >= ny || i1 >= nx) continue;
                    const double v0 = at(j, i), v1 = at(j1, i1);
                    if (std::isnan(v0) || std::isnan(v1) || (v0 > level) == (v1 > level)) continue;
                    const bool c0 = vertical ? cellOk(j, i - 1) : cellOk(j - 1, i), c1 = cellOk(j, i);
                    ends += c0 + c1;
                    borderEnds += c0 != c1;
                }
    QCOMPARE(2 * s.size(), ends);
    QCOMPARE(openEnds, borderEnds);
}

} // namespace

class TestContour : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Random fields with NaN (float32, float64 and int16, whose levels meet samples exactly), in
    // C order and as a transposed view: the segments agree with the field on every backend, and
    // the device's are the host's, in the same order.
    void segmentsAgreeWithTheField_data() { STRATA_BACKEND_ROWS(); }
    void segmentsAgreeWithTheField() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        for (DType t : {DType::Float32, DType::Float64, DType::Int16}) {
            const DataArray a = test::randomArray(rng, t, {53, 37}, 0.05);
            const std::vector<double> levels = t == DType::Int16
                                                   ? std::vector<double>{-20, 0, 20}
                                                   : std::vector<double>{265, 275, 280, 285, 295};
            for (const bool transposed : {false, true}) {
                const DataArray f = transposed ? a.transpose({"d1", "d0"}) : a;
                const std::vector<double> v = contiguous(f).values<double>();
                const ContourSegments host = contourSegments(f, levels);
                checkSegments(host, v, f.shape()[0], f.shape()[1], levels);
                QVERIFY(host.size() > 100);
                if (!b.cuda) continue;
                const ContourSegments dev = contourSegments(b.put(f), levels);
                checkSegments(dev, v, f.shape()[0], f.shape()[1], levels);
                QCOMPARE(dev.level, host.level);
                QCOMPARE(dev.link, host.link);
                QCOMPARE(dev.xy.size(), host.xy.size());
                for (std::size_t k = 0; k < host.xy.size(); ++k)
                    QVERIFY2(std::abs(dev.xy[k] - host.xy[k]) <= 1e-12 * (1 + std::abs(host.xy[k])),
                             qPrintable(QString("xy[%1]: %2 on the device, %3 here")
                                            .arg(k)
                                            .arg(dev.xy[k])
                                            .arg(host.xy[k])));
                // Joined alike.
                const auto lh = joinSegments(host, levels), ld = joinSegments(dev, levels);
                QCOMPARE(ld.size(), lh.size());
            }
        }
    }

    // Columns that wrap (a whole turn of longitude): a peak on the seam, f = cos(2π i / 24) ·
    // sin(π j / 9), has one closed isoline around it, through the cells between the last column
    // and the first (x from 23 to 24), where unwrapped it is two lines cut at the frame's sides.
    void wrappedColumnsCloseLinesAcrossTheSeam_data() { STRATA_BACKEND_ROWS(); }
    void wrappedColumnsCloseLinesAcrossTheSeam() {
        STRATA_BACKEND(b);
        const DataArray f = field(
            10, 24, [](double x, double y) { return std::cos(2 * M_PI * x / 24) * std::sin(M_PI * y / 9); });
        const auto open = isolines(b.put(f), {0.5});
        QCOMPARE(open.size(), std::size_t(2));
        QVERIFY(!open[0].closed && !open[1].closed);
        const auto wrapped = isolines(b.put(f), {0.5}, true);
        QCOMPARE(wrapped.size(), std::size_t(1));
        QVERIFY(wrapped[0].closed);
        int acrossSeam = 0;
        for (std::size_t k = 0; k + 1 < wrapped[0].xy.size(); k += 2) {
            const double x = wrapped[0].xy[k], y = wrapped[0].xy[k + 1];
            QVERIFY(x >= 0 && x <= 24);
            // On the cell edges the level's crossing, linear between samples (column 24 is 0).
            const double i0 = std::floor(x), j0 = std::floor(y);
            const bool row = y == j0;
            const double t = row ? x - i0 : y - j0;
            auto v = [&](double i, double j) {
                return std::cos(2 * M_PI * std::fmod(i, 24) / 24) * std::sin(M_PI * j / 9);
            };
            const double v0 = v(i0, j0), v1 = t == 0 ? v0 : (row ? v(i0 + 1, j0) : v(i0, j0 + 1));
            QVERIFY2(std::abs(v0 + t * (v1 - v0) - 0.5) < 1e-12,
                     qPrintable(QString("(%1, %2)").arg(x).arg(y)));
            acrossSeam += x > 23; // in the cells from the last column over to the first
        }
        QVERIFY(acrossSeam >= 1);
        if (b.cuda) { // the device's segments are the host's
            const ContourSegments host = contourSegments(f, {0.5}, true),
                                  dev = contourSegments(b.put(f), {0.5}, true);
            QCOMPARE(dev.level, host.level);
            QCOMPARE(dev.link, host.link);
            QCOMPARE(dev.xy, host.xy);
        }
    }

    // Levels that are not increasing are refused; too many crossings are refused with a message.
    void badLevelsAreRefused() {
        const DataArray f = DataArray::fromHost("f", {"y", "x"}, {2, 2}, std::vector<double>{0, 1, 2, 3});
        QVERIFY_THROWS_EXCEPTION(ValueError, contourSegments(f, {2, 1}));
        const DataArray line = DataArray::fromHost("f", {"x"}, {3}, std::vector<double>{0, 1, 2});
        QVERIFY_THROWS_EXCEPTION(ValueError, contourSegments(line, {1}));
    }
    void levelsAsSpelled() {
        // auto over 271.3..309.8: a tenth is 3.85, so a step of 5: 275, 280, ..., 305.
        const auto a = contourLevels(parseContourSpec("auto"), 271.3, 309.8);
        QCOMPARE(a, (std::vector<double>{275, 280, 285, 290, 295, 300, 305}));
        // -1..1: a tenth is 0.2, a step of 0.2 (not 0.25); the ends themselves left out.
        const auto b = contourLevels(parseContourSpec("auto"), -1, 1);
        QCOMPARE(b.size(), std::size_t(9));
        QVERIFY(std::abs(b.front() + 0.8) < 1e-12 && std::abs(b.back() - 0.8) < 1e-12);
        // 0..0.23: a tenth is 0.023, the step 0.025.
        const auto c = contourLevels(parseContourSpec("auto"), 0, 0.23);
        QCOMPARE(c.size(), std::size_t(9));
        QVERIFY(std::abs(c[1] - 0.05) < 1e-12);
        QCOMPARE(contourLevels(parseContourSpec("3"), 0, 8), (std::vector<double>{2, 4, 6}));
        QCOMPARE(contourLevels(parseContourSpec("3.5"), 0, 8), (std::vector<double>{3.5})); // one level
        QCOMPARE(contourLevels(parseContourSpec("5,"), 0, 8), (std::vector<double>{5}));
        QCOMPARE(contourLevels(parseContourSpec("-5, 0,5,10"), -2, 9), (std::vector<double>{0, 5}));
        QCOMPARE(contourLevels(parseContourSpec("4:1"), -10, 10), (std::vector<double>{-7, -3, 1, 5, 9}));
        QVERIFY(contourLevels(parseContourSpec("auto"), 3, 3).empty()); // a constant field: none
        QVERIFY(contourLevels(parseContourSpec("auto"), NAN, 3).empty());
        for (const char* s : {"auto", "12", "1.5,2,8", "0.5:-1", "3.5", "5,"})
            QCOMPARE(toString(parseContourSpec(s)), std::string(s));
    }

    void refusalsSayWhatIsWrong() {
        QVERIFY2(refusal("5,3").contains("5,3 are not increasing"), qPrintable(refusal("5,3")));
        QVERIFY2(refusal("0:10").contains("step must be above 0"), qPrintable(refusal("0:10")));
        QVERIFY2(refusal("0").contains("whole number from 1"), qPrintable(refusal("0")));
        QVERIFY2(refusal("1,x").contains("'x' is not a number"), qPrintable(refusal("1,x")));
        QVERIFY(refusal("auto").isEmpty());
    }

    // f = (x - 20)² + (y - 15)²: the level r² is the circle of radius r about (20, 15). Linear
    // interpolation along a cell edge puts the points within a small fraction of a cell of it.
    void aCircleIsOneClosedLineOnTheCircle() {
        const DataArray f =
            field(31, 41, [](double x, double y) { return (x - 20) * (x - 20) + (y - 15) * (y - 15); });
        const auto lines = isolines(f, {100, 49});
        QCOMPARE(lines.size(), std::size_t(2));
        for (const Isoline& l : lines) {
            QVERIFY(l.closed);
            QCOMPARE(l.xy[0], l.xy[l.xy.size() - 2]); // ends where it starts
            const double r = std::sqrt(l.level);
            for (std::size_t k = 0; k + 1 < l.xy.size(); k += 2) {
                const double d = std::hypot(l.xy[k] - 20, l.xy[k + 1] - 15);
                QVERIFY2(std::abs(d - r) < 0.06,
                         qPrintable(QString("%1 at %2 from the centre").arg(l.level).arg(d)));
            }
            // Every cell the circle crosses gives a point: about 2π r / cell ... at least 4 r.
            QVERIFY(l.xy.size() / 2 >= std::size_t(4 * r));
        }
    }

    // A plane f = 2x + y: linear interpolation is exact, so each line is straight, on 2x + y = L.
    void aPlaneIsStraightAndExact() {
        const DataArray f = field(10, 12, [](double x, double y) { return 2 * x + y; });
        const auto lines = isolines(f, {7.5, 20});
        QCOMPARE(lines.size(), std::size_t(2));
        for (const Isoline& l : lines) {
            QVERIFY(!l.closed);
            for (std::size_t k = 0; k + 1 < l.xy.size(); k += 2)
                QVERIFY(std::abs(2 * l.xy[k] + l.xy[k + 1] - l.level) < 1e-12);
            // From one side of the grid to another: its ends on the border.
            for (std::size_t e : {std::size_t(0), l.xy.size() - 2}) {
                const double x = l.xy[e], y = l.xy[e + 1];
                QVERIFY(x == 0 || x == 11 || y == 0 || y == 9);
            }
        }
    }

    // One cell, corners 1 (a), 0 (b), 1 (c), 0 (d): at 0.4 the mean (0.5) is above, so a and c
    // join through the middle and the lines cut off b and d; at 0.5 and 0.6 the mean is not
    // above (a value at the level is below), and the lines cut off a and c.
    void aSaddleFollowsItsMean() {
        const DataArray f = DataArray::fromHost("f", {"y", "x"}, {2, 2}, std::vector<double>{1, 0, 0, 1});
        auto cutsOff = [](const Isoline& l, double cx, double cy) { // both points within 0.6 of a corner
            return std::hypot(l.xy[0] - cx, l.xy[1] - cy) < 0.6 &&
                   std::hypot(l.xy[2] - cx, l.xy[3] - cy) < 0.6;
        };
        const auto above = isolines(f, {0.4});
        QCOMPARE(above.size(), std::size_t(2));
        QVERIFY(cutsOff(above[0], 1, 0) || cutsOff(above[1], 1, 0)); // b, at (x 1, y 0)
        QVERIFY(cutsOff(above[0], 0, 1) || cutsOff(above[1], 0, 1)); // d
        for (double level : {0.5, 0.6}) {
            const auto below = isolines(f, {level});
            QCOMPARE(below.size(), std::size_t(2));
            QVERIFY(cutsOff(below[0], 0, 0) || cutsOff(below[1], 0, 0)); // a
            QVERIFY(cutsOff(below[0], 1, 1) || cutsOff(below[1], 1, 1)); // c
        }
    }

    // A NaN sample takes out the four cells around it: the circle is broken there, into one
    // open line, and no point lies in those cells.
    void linesStopAtMissingData() {
        DataArray f = field(31, 41, [](double x, double y) {
            if (x == 30 && y == 15) return double(NAN); // on the circle of radius 10
            return (x - 20) * (x - 20) + (y - 15) * (y - 15);
        });
        const auto lines = isolines(f, {100});
        QCOMPARE(lines.size(), std::size_t(1));
        QVERIFY(!lines[0].closed);
        for (std::size_t k = 0; k + 1 < lines[0].xy.size(); k += 2) {
            const double x = lines[0].xy[k], y = lines[0].xy[k + 1];
            QVERIFY2(!(x > 29 && x < 31 && y > 14 && y < 16), qPrintable(QString("%1, %2").arg(x).arg(y)));
        }
    }

    void aConstantFieldHasNone() {
        const DataArray f = field(5, 6, [](double, double) { return 3.0; });
        QCOMPARE(points(isolines(f, contourLevels(parseContourSpec("auto"), 3, 3))), std::size_t(0));
        QCOMPARE(points(isolines(f, {2.5, 3.5})), std::size_t(0));
        QVERIFY_THROWS_EXCEPTION(
            ValueError, isolines(DataArray::fromHost("f", {"x"}, {3}, std::vector<double>{1, 2, 3}), {1.5}));
    }
};

QTEST_APPLESS_MAIN(TestContour)
#include "tst_contour.moc"
