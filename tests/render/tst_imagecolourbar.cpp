// The colour bar's legend for what the map does not cover, on every painter (the raster view,
// the GL view, PNG export): triangles for values beyond a fixed range, in the under and over
// colours the frame's cells take too; the "missing" swatch in the NaN colour (grey by
// default), shown when the frame has missing values; a baseline picture of the legend.
#include <QtTest/QtTest>

#include <QApplication>

#include "../../render/src/colour_bar_plan.h"
#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/render/image_export.h"
#include "strata/render/image_view.h"

using namespace strata;
using namespace test;
using namespace strata::detail;

namespace {

constexpr int kW = 720, kH = 420;

// 40 cells from -2 to 3 in one row, in K.
DataArray ramp() {
    std::vector<double> v;
    for (int i = 0; i < 40; ++i) v.push_back(-2 + 5.0 * i / 39);
    Variable var = DataArray::fromHost("ramp", {"y", "x"}, {1, 40}, v).variable();
    var.attrs().set({"units", DType::Char, std::string("K")});
    return DataArray("ramp", var);
}

// Where the checked pixels are, placed by hand from the stated geometry, not by the layout:
// view_layout.cpp, .h give margins of 84 left, 58 below, 40 above, 118 right, and the colour
// bar 18 to 36 pixels right of the plot, as high as it; colour_bar_plan.h, .cpp give triangles
// as tall as the bar is wide (at most a sixth of its height) and the "missing" swatch, a
// square as wide as the bar whose top is 24 pixels below the bar's foot.
//
// The ramp, stretched over the whole area: the plot is x 84…720 − 118 = 602 (518), y 58…420 −
// 40 = 380 (322); 518 / 40 = 12.95 pixels a cell is not within 1 % of whole, so it stays. The
// bar is x 602 + 18 = 620 … 602 + 36 = 638, y 58…380; its triangles min(18, 322 / 6) = 18 high.
constexpr PixelRect kRampPlot{84, 58, 602, 380}, kRampBar{620, 58, 638, 380};
constexpr double kTriangle = 18;
// lonLatFrame, its aspect kept (worked out in tst_imagerender.cpp): the plot is x 84…602, y
// 88…350 over lon −1.25…358.75, lat −91.25…91.25; the bar x 620…638, y 88…350; the swatch's
// top 88 − 24 = 64, its side 18: x 620…638, y 46…64.
constexpr PixelRect kLonLatPlot{84, 88, 602, 350}, kLonLatBar{620, 88, 638, 350}, kSwatch{620, 46, 638, 64};
const ViewWindow kLonLatWindow{-1.25, 358.75, -91.25, 91.25};

// The ramp's column `column` at its centre: 84 + 12.95 · (column + 0.5).
double cellX(int column) { return kRampPlot.x0 + (column + 0.5) * 12.95; }

// The layout's own plot and bar, a second opinion checked after the pixels (which never use it).
ViewLayout layoutOf(const DataArray& f, const ImageViewSettings& s) {
    AxisGrid y = axisGrid(f, 0), x = axisGrid(f, 1);
    return computeLayout(kW, kH, 1, s.window.value_or(fullWindow(x, y)), keepsAspect(s.aspect, x, y));
}

// True when `c` is one of the map's first (or last) three entries: a bar's end, a pixel off.
bool nearEnd(const Rgba8& c, const std::vector<Rgba8>& table, bool top) {
    for (std::size_t k = 0; k < 3; ++k)
        if (c == table[top ? table.size() - 1 - k : k]) return true;
    return false;
}

} // namespace

class TestImageColourBar : public QObject {
    Q_OBJECT

    // The picture `painter` makes of `frame` with `s`: "export" (renderImage), "raster" or "gl"
    // (the on-screen view, grabbed).
    QImage picture(const QString& painter, const DataArray& frame, const ImageViewSettings& s) {
        if (painter == "export") return renderImage({frame}, s, QSize(kW, kH));
        view_ = std::make_unique<ImageView>();
        view_->setPresentation(painter == "gl" ? ImagePresentation::Gl : ImagePresentation::Auto);
        view_->setFixedSize(kW, kH);
        view_->setSettings(s);
        view_->setFrame({frame});
        view_->show();
        if (!QTest::qWaitForWindowExposed(painter == "gl" ? view_->glWindow() : view_->windowHandle()))
            return {};
        QImage shot;
        if (!QTest::qWaitFor([&] { return !(shot = view_->grabImage()).isNull(); })) return {};
        if (painter == "gl" && !view_->drawsWithGl()) return {};
        return shot.convertToFormat(QImage::Format_RGB32);
    }
    std::unique_ptr<ImageView> view_;

private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d)
            QFAIL("the image tests draw through X: run them under xvfb-run (scripts/run-tests.sh)");
    }
    void cleanup() { view_.reset(); }

    void beyondAFixedRange_data() {
        QTest::addColumn<QString>("painter");
        for (const char* p : {"raster", "gl", "export"}) QTest::newRow(p) << QString(p);
    }
    // [-2, 3] shown over a fixed [-1, 2]: the cells below and above take the under and over
    // colours, and the bar ends in two triangles of those colours; the map's bands keep their
    // entries between them.
    void beyondAFixedRange() {
        QFETCH(QString, painter);
        const DataArray f = ramp();
        ImageViewSettings s;
        s.aspect = AspectMode::Fill;
        s.colouring.range = {RangeMode::Fixed, -1, 2};
        const Rgba8 under{10, 120, 10, 255}, over{220, 30, 200, 255};
        s.colouring.underColour = under;
        s.colouring.overColour = over;
        const QImage img = picture(painter, f, s);
        QVERIFY(!img.isNull());
        const double y = (kRampPlot.y0 + kRampPlot.y1) / 2;
        QCOMPARE(str(colourAt(img, cellX(0), y)), str(under)); // -2
        QCOMPARE(str(colourAt(img, cellX(39), y)), str(over)); // 3
        const auto table = colormapTable("viridis");
        QCOMPARE(str(colourAt(img, cellX(20), y)), str(expectedColour(table, -2 + 5.0 * 20 / 39, -1, 2, {})));
        // The cells reach the plot's edges, pixel for pixel: its outermost columns hold the first
        // and last cells, its outermost rows the cells above and below them.
        QCOMPARE(str(colourAt(img, kRampPlot.x0 + 0.5, y)), str(under));
        QCOMPARE(str(colourAt(img, kRampPlot.x1 - 0.5, y)), str(over));
        QCOMPARE(str(colourAt(img, cellX(20), kRampPlot.y0 + 0.5)), str(colourAt(img, cellX(20), y)));
        QCOMPARE(str(colourAt(img, cellX(20), kRampPlot.y1 - 0.5)), str(colourAt(img, cellX(20), y)));
        // Triangles x 620…638, y 58…76 and 362…380 (apexes at x 629, y 58 and 380); bands 76…362.
        const PixelRect& cb = kRampBar;
        const double mid = (cb.x0 + cb.x1) / 2, t = kTriangle;
        QCOMPARE(str(colourAt(img, mid, cb.y0 + t / 3)), str(under));
        QCOMPARE(str(colourAt(img, mid, cb.y1 - t / 3)), str(over));
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y0 + t + 1.5), table, false),
                 qPrintable(str(colourAt(img, mid, cb.y0 + t + 1.5))));
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y1 - t - 1.5), table, true),
                 qPrintable(str(colourAt(img, mid, cb.y1 - t - 1.5))));
        // The bands fill the bar's width: its outermost columns have its middle's colour.
        const double half = (cb.y0 + cb.y1) / 2;
        QCOMPARE(str(colourAt(img, cb.x0 + 0.5, half)), str(colourAt(img, mid, half)));
        QCOMPARE(str(colourAt(img, cb.x1 - 0.5, half)), str(colourAt(img, mid, half)));
        // Unset, the under and over colours are the map's ends: the triangles say values lie
        // beyond even where the cells cannot.
        s.colouring.underColour.reset();
        s.colouring.overColour.reset();
        const QImage plain = picture(painter, f, s);
        QCOMPARE(str(colourAt(plain, mid, cb.y0 + t / 3)), str(table.front()));
        QCOMPARE(str(colourAt(plain, mid, cb.y1 - t / 3)), str(table.back()));
        QCOMPARE(str(colourAt(plain, cellX(0), y)), str(table.front()));
        const ViewLayout l = layoutOf(f, s);
        QCOMPARE(l.plot, kRampPlot);
        QCOMPARE(l.colourBar, kRampBar);
    }

    void noTrianglesWithinRange_data() { beyondAFixedRange_data(); }
    // A fixed range that holds every value: no triangle, the bands fill the bar.
    void noTrianglesWithinRange() {
        QFETCH(QString, painter);
        const DataArray f = ramp();
        ImageViewSettings s;
        s.aspect = AspectMode::Fill;
        s.colouring.range = {RangeMode::Fixed, -2, 3};
        s.colouring.underColour = Rgba8{10, 120, 10, 255};
        s.colouring.overColour = Rgba8{220, 30, 200, 255};
        const QImage img = picture(painter, f, s);
        QVERIFY(!img.isNull());
        const PixelRect& cb = kRampBar;
        const auto table = colormapTable("viridis");
        const double mid = (cb.x0 + cb.x1) / 2;
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y0 + 1.5), table, false),
                 qPrintable(str(colourAt(img, mid, cb.y0 + 1.5))));
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y1 - 1.5), table, true),
                 qPrintable(str(colourAt(img, mid, cb.y1 - 1.5))));
        QCOMPARE(layoutOf(f, s).colourBar, kRampBar);
    }

    void missingSwatch_data() { beyondAFixedRange_data(); }
    // Missing values are grey by default, and a swatch of their colour below the bar says so;
    // a frame with none has no swatch.
    void missingSwatch() {
        QFETCH(QString, painter);
        const DataArray f = lonLatFrame(true, true);
        ImageViewSettings s;
        const QImage img = picture(painter, f, s);
        QVERIFY(!img.isNull());
        const ViewTransform t(kLonLatPlot, kLonLatWindow);
        const Rgba8 grey = Colouring().nanColour;
        QVERIFY(grey.r == grey.g && grey.g == grey.b);                        // neutral
        QCOMPARE(str(colourAt(img, t.pixelX(120), t.pixelY(15))), str(grey)); // a NaN cell
        const PixelRect& m = kSwatch; // its centre x 629, y 55; its corner pixels too
        QCOMPARE(str(colourAt(img, (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2)), str(grey));
        QCOMPARE(str(colourAt(img, m.x0 + 0.5, m.y0 + 0.5)), str(grey));
        QCOMPARE(str(colourAt(img, m.x1 - 0.5, m.y1 - 0.5)), str(grey));
        // A colour set for missing values is the swatch's too.
        s.colouring.nanColour = {250, 120, 0, 255};
        const QImage orange = picture(painter, f, s);
        QCOMPARE(str(colourAt(orange, (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2)), str(s.colouring.nanColour));
        QCOMPARE(str(colourAt(orange, t.pixelX(120), t.pixelY(15))), str(s.colouring.nanColour));
        // No missing value, no swatch: white there.
        const QImage full = picture(painter, lonLatFrame(true, false), s);
        QCOMPARE(str(colourAt(full, (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2)), str(Rgba8{255, 255, 255, 255}));
        if (painter == "export") {
            // The strict default: no pixel may differ (the swatch and its label are about 500
            // of the 302,400 pixels).
            const QString why = compareWithBaseline(img, "nan_legend");
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        // The layout and the bar's plan say the same.
        AxisGrid yg = axisGrid(f, 0), xg = axisGrid(f, 1);
        QCOMPARE(fullWindow(xg, yg), kLonLatWindow);
        const ViewLayout l = layoutOf(f, s);
        QCOMPARE(l.plot, kLonLatPlot);
        QCOMPARE(l.colourBar, kLonLatBar);
        ColourBarContent content;
        content.missing = grey;
        const ColourBarPlan plan = planColourBar(l, content);
        QVERIFY(plan.missing);
        QCOMPARE(*plan.missing, kSwatch);
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestImageColourBar t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_imagecolourbar.moc"
