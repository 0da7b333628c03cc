// The image view's geometry: plot placement with and without kept aspect, zoom and pan,
// the data ↔ pixel mapping, and picking the cell under a pixel.
#include <QtTest/QtTest>

#include "strata/render/view_layout.h"

using namespace strata;

namespace {

Coordinate coord(const std::string& name, std::vector<double> v, const char* units) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {static_cast<std::int64_t>(v.size())};
    c.values = std::move(v);
    c.attrs.set({"units", DType::Char, std::string(units)});
    return c;
}

// A 4 × 3 frame: latitude 45, 15, -15, -45 (descending), longitude 0, 120, 240.
DataArray frame() {
    Coordinates cs;
    cs.set(coord("lat", {45, 15, -15, -45}, "degrees_north"));
    cs.set(coord("lon", {0, 120, 240}, "degrees_east"));
    std::vector<float> v(12, 0.f);
    return DataArray::fromHost("t", {"lat", "lon"}, {4, 3}, v, cs);
}

} // namespace

class TestViewLayout : public QObject {
    Q_OBJECT
private slots:
    void keepAspectCentresThePlot() {
        ViewWindow w{0, 360, -90, 90}; // 2 : 1
        ViewLayout l = computeLayout(1000, 600, 1, w, true);
        QCOMPARE(l.width, 1000);
        // The margins leave 1000 − 84 − 118 = 798 by 600 − 58 − 40 = 502; 2:1 fits as 798 × 399.
        QCOMPARE(l.plot.width(), 798.0);
        QVERIFY(std::abs(l.plot.height() - 399) <= 1);
        QVERIFY(std::abs((l.plot.y0 - 58) - (600 - 40 - l.plot.y1)) <= 1); // centred vertically
        // The colour bar sits right of the plot, as tall as it.
        QVERIFY(l.colourBar.x0 > l.plot.x1);
        QCOMPARE(l.colourBar.y0, l.plot.y0);
        QCOMPARE(l.colourBar.y1, l.plot.y1);
    }
    void fillUsesTheWholeArea() {
        ViewLayout l = computeLayout(1000, 600, 1, {0, 360, -90, 90}, false);
        QCOMPARE(l.plot.x0, 84.0);
        QCOMPARE(l.plot.x1, 1000.0 - 118);
        QCOMPARE(l.plot.y0, 58.0);
        QCOMPARE(l.plot.y1, 600.0 - 40);
    }
    void scaleGrowsTheMargins() {
        ViewLayout l = computeLayout(2000, 1200, 2, {0, 1, 0, 1}, false);
        QCOMPARE(l.plot.x0, 168.0);
        QCOMPARE(l.plot.y0, 116.0);
    }
    void nearlyWholePixelsPerCellSnap() {
        // 1440 x 721 cells in a window whose plot area would be 1446 x 724: within 1 %, so the
        // plot shrinks to exactly one pixel per cell, centred in the area it had.
        const int w = 1446 + 84 + 118, h = 724 + 58 + 40;
        const ViewWindow all{0, 1440, 0, 721};
        const ViewLayout plain = computeLayout(w, h, 1, all, false);
        QCOMPARE(plain.plot.width(), 1446.0);
        const ViewLayout l = computeLayout(w, h, 1, all, false, {1440, 721});
        QCOMPARE(l.plot.width(), 1440.0);
        QCOMPARE(l.plot.height(), 721.0);
        QCOMPARE(l.plot.x0, 84.0 + 3);
        QCOMPARE(l.plot.y0, 58.0 + 1);
        QCOMPARE(l.colourBar.y0, l.plot.y0); // the colour bar follows the plot
        QCOMPARE(l.colourBar.y1, l.plot.y1);
        // Three pixels per cell: 3 x 480 = 1440 of 1446.
        const ViewLayout three = computeLayout(w, h, 1, {0, 480, 0, 240}, false, {480, 240});
        QCOMPARE(three.plot.width(), 1440.0);
        QCOMPARE(three.plot.height(), 720.0);
        // More than 1 % to lose on an axis: the plot stays as it was.
        const ViewLayout far = computeLayout(w, h, 1, all, false, {1400, 721});
        QVERIFY(far.plot == plain.plot);
        // Fewer pixels than cells: no snapping (the frame is shrunk either way).
        const ViewLayout small = computeLayout(w, h, 1, all, false, {2000, 1000});
        QVERIFY(small.plot == plain.plot);
    }

    void zoomKeepsThePointInPlace() {
        ViewWindow w{0, 360, -90, 90};
        ViewWindow z = zoomed(w, 2, 90, 45);
        QCOMPARE(z, (ViewWindow{45, 225, -22.5, 67.5}));
        QCOMPARE(zoomed(z, 0.5, 90, 45), w);
        QCOMPARE(panned(w, 10, -5), (ViewWindow{10, 370, -95, 85}));
    }
    void transformRoundTrips() {
        ViewTransform t({100, 50, 500, 250}, {0, 360, -90, 90});
        QCOMPARE(t.pixelX(0), 100.0);
        QCOMPARE(t.pixelX(360), 500.0);
        QCOMPARE(t.pixelY(0), 150.0);
        QCOMPARE(t.dataX(300), 180.0);
        QCOMPARE(t.dataY(250), 90.0);
    }
    void aspectAuto() {
        DataArray f = frame();
        AxisGrid y = axisGrid(f, 0), x = axisGrid(f, 1);
        QVERIFY(keepsAspect(AspectMode::Auto, x, y)); // degrees both ways
        QVERIFY(!keepsAspect(AspectMode::Fill, x, y));
        std::vector<float> v(6, 0.f);
        Coordinates cs;
        cs.set(coord("lev", {1000, 500}, "hPa"));
        cs.set(coord("lon", {0, 120, 240}, "degrees_east"));
        DataArray g = DataArray::fromHost("t", {"lev", "lon"}, {2, 3}, v, cs);
        QVERIFY(!keepsAspect(AspectMode::Auto, axisGrid(g, 1), axisGrid(g, 0)));
        QVERIFY(keepsAspect(AspectMode::Keep, axisGrid(g, 1), axisGrid(g, 0)));
    }
    // Picking on a descending latitude: the top row of the picture is row 0 (45°N).
    void pickTheCellUnderAPixel() {
        DataArray f = frame();
        AxisGrid y = axisGrid(f, 0), x = axisGrid(f, 1);
        ViewWindow w = fullWindow(x, y);
        QCOMPARE(w, (ViewWindow{-60, 300, -60, 60}));
        ViewTransform t({0, 0, 360, 120}, w); // one pixel per degree
        Pick p = pickCell(t, x, y, 10, 110);  // lon −50, lat 50
        QVERIFY(p.inside);
        QCOMPARE(p.row, 0);
        QCOMPARE(p.column, 0);
        QCOMPARE(p.yCentre, 45.0);
        QCOMPARE(QString::fromStdString(p.xLabel), QString("0°"));
        p = pickCell(t, x, y, 250, 5); // lon 190, lat −55
        QCOMPARE(p.row, 3);
        QCOMPARE(p.column, 2);
        QCOMPARE(p.xCentre, 240.0);
        QCOMPARE(QString::fromStdString(p.yLabel), QString("45°S"));
        p = pickCell(t, x, y, 170, 60); // lon 110, lat 0: on the 0° edge, the cell above it in order
        QCOMPARE(p.column, 1);
        QCOMPARE(p.row, 2);
        QVERIFY(!pickCell(t, x, y, 400, 60).inside); // right of the plot
        // Zoomed past the frame's edge: inside the plot but outside the data.
        ViewTransform far({0, 0, 360, 120}, panned(w, 1000, 0));
        QVERIFY(!pickCell(far, x, y, 10, 10).inside);
    }
};

QTEST_APPLESS_MAIN(TestViewLayout)
#include "tst_viewlayout.moc"
