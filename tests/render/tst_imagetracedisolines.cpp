// Isolines traced before the frame reaches the view (traceIsolines, ImageFrame::isolines): the
// same lines, levels and seam the view would trace itself; drawn by the view when they are at
// its levels and seam, and traced again by it when they are not. Frames whose value is a known
// function of their column or longitude, so that each line's place is known.
#include <QtTest/QtTest>

#include <cmath>
#include <functional>

#include "../../render/src/image_content.h"
#include "render_fixtures.h"
#include "strata/render/colormaps.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 640, kH = 400;

// f(j, i) = value(i, j) on 30 columns (x = 100 + 2 i) and 20 rows (y = 10 + j).
DataArray kmFrame(const std::function<float(int i, int j)>& value) {
    std::vector<double> x, y;
    for (int i = 0; i < 30; ++i) x.push_back(100 + 2.0 * i);
    for (int j = 0; j < 20; ++j) y.push_back(10 + j);
    std::vector<float> v;
    for (int j = 0; j < 20; ++j)
        for (int i = 0; i < 30; ++i) v.push_back(value(i, j));
    Coordinates cs;
    cs.set(axis("x", x, "km", "distance east"));
    cs.set(axis("y", y, "km", "distance north"));
    return DataArray::fromHost("f", {"y", "x"}, {20, 30}, v, cs);
}

// cos(lon) cos(lat) on the global 2.5° grid of lonLatFrame (lon 0..357.5: a whole turn).
DataArray globalPeak() {
    const DataArray g = lonLatFrame(true, false);
    std::vector<float> v;
    for (int j = 0; j < 73; ++j)
        for (int i = 0; i < 144; ++i)
            v.push_back(float(std::cos(2.5 * i * M_PI / 180) * std::cos((-90 + 2.5 * j) * M_PI / 180)));
    return DataArray::fromHost("f", {"lat", "lon"}, {73, 144}, v, g.coords());
}

bool sameLines(const std::vector<Isoline>& a, const std::vector<Isoline>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k)
        if (a[k].level != b[k].level || a[k].xy != b[k].xy || a[k].closed != b[k].closed) return false;
    return true;
}

} // namespace

class TestImageTracedIsolines : public QObject {
    Q_OBJECT
private slots:
    // The levels of the spec in the range given (or the frame's own extremes), the seam of a
    // whole turn of longitude and none for other axes, and the core's lines at those.
    void tracedAsTheViewWould() {
        const DataArray peak = globalPeak();
        const ContourSpec spec = parseContourSpec("auto");
        auto t = traceIsolines(peak, spec, MinMax{-1, 1});
        QVERIFY(t);
        QCOMPARE(t->levels, contourLevels(spec, -1, 1));
        QVERIFY(t->wrapX);
        QCOMPARE(t->extremes, minmaxValues(peak));
        QVERIFY(sameLines(t->lines, isolines(peak, t->levels, true)));
        QVERIFY(!sameLines(t->lines, isolines(peak, t->levels, false))); // the seam matters here
        QVERIFY(bytesOf(*t) > t->lines.size() * sizeof(Isoline));

        const DataArray columns = kmFrame([](int i, int) { return float(i); });
        t = traceIsolines(columns, spec, std::nullopt); // its own extremes, 0..29
        QVERIFY(t);
        QVERIFY(!t->wrapX);
        QCOMPARE(t->levels, contourLevels(spec, 0, 29));
        QVERIFY(sameLines(t->lines, isolines(columns, t->levels, false)));
    }

    // Nothing to trace: a constant frame, one with no finite value, levels outside the range.
    void noneWhereThereAreNone() {
        const ContourSpec spec = parseContourSpec("auto");
        QVERIFY(!traceIsolines(kmFrame([](int, int) { return 4.f; }), spec, std::nullopt));
        QVERIFY(!traceIsolines(kmFrame([](int, int) { return NAN; }), spec, std::nullopt));
        QVERIFY(!traceIsolines(kmFrame([](int i, int) { return float(i); }), parseContourSpec("100,200"),
                               std::nullopt));
        const DataArray line = DataArray::fromHost("g", {"x"}, {3}, std::vector<float>{1, 2, 3});
        QVERIFY(!traceIsolines(line, spec, std::nullopt)); // not 2-D
    }

    // The view draws the lines it is given at its levels and seam, as they are: given the rows'
    // lines for a frame of columns, it draws horizontal ones. At other levels (another colour
    // range) it traces its own, vertical ones.
    void theViewDrawsThemAtItsLevels() {
        const DataArray columns = kmFrame([](int i, int) { return float(i); });
        const DataArray rows = kmFrame([](int, int j) { return float(j); });
        ImageViewSettings s;
        s.contours = parseContourSpec("3.5,10.25");
        s.contourLabels = false;
        detail::ImageContent content;
        content.setSettings(s);
        auto given = std::make_shared<TracedIsolines>();
        given->levels = {3.5, 10.25};
        given->extremes = {0, 29};
        given->lines = isolines(rows, given->levels, false);
        ImageFrame frame{columns};
        frame.isolines = given;
        content.setFrame(frame);
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto vertical = [](const detail::PixelPolyline& p) {
            for (std::size_t k = 0; k + 1 < p.xy.size(); k += 2)
                if (std::abs(p.xy[k] - p.xy[0]) > 1e-6) return false;
            return true;
        };
        const auto a = content.annotations(l, colormapTable("viridis"), {0, 29});
        QVERIFY(a.contours && a.contours->size() == 2);
        for (const auto& p : *a.contours) QVERIFY(!vertical(p)); // the rows' lines, as given

        // Given for another seam: traced again, the columns' lines.
        given->wrapX = true;
        content.setFrame(frame);
        auto b = content.annotations(l, colormapTable("viridis"), {0, 29});
        QVERIFY(b.contours && b.contours->size() == 2);
        for (const auto& p : *b.contours) QVERIFY(vertical(p));

        // Given at other levels than the view's: traced again too.
        given->wrapX = false;
        given->levels = {3.5};
        content.setFrame(frame);
        b = content.annotations(l, colormapTable("viridis"), {0, 29});
        QVERIFY(b.contours && b.contours->size() == 2);
        for (const auto& p : *b.contours) QVERIFY(vertical(p));
    }
};

QTEST_MAIN(TestImageTracedIsolines)
#include "tst_imagetracedisolines.moc"
