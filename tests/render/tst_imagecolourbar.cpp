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

ViewLayout layoutOf(const DataArray& f, const ImageViewSettings& s) {
    AxisGrid y = axisGrid(f, 0), x = axisGrid(f, 1);
    return computeLayout(kW, kH, 1, s.window.value_or(fullWindow(x, y)), keepsAspect(s.aspect, x, y));
}

double cellX(const ViewLayout& l, int column) { return l.plot.x0 + (column + 0.5) * l.plot.width() / 40; }

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
        const ViewLayout l = layoutOf(f, s);
        const double y = (l.plot.y0 + l.plot.y1) / 2;
        QCOMPARE(str(colourAt(img, cellX(l, 0), y)), str(under)); // -2
        QCOMPARE(str(colourAt(img, cellX(l, 39), y)), str(over)); // 3
        const auto table = colormapTable("viridis");
        QCOMPARE(str(colourAt(img, cellX(l, 20), y)),
                 str(expectedColour(table, -2 + 5.0 * 20 / 39, -1, 2, {})));
        const PixelRect& cb = l.colourBar;
        const double mid = (cb.x0 + cb.x1) / 2, t = std::round(std::min(cb.width(), cb.height() / 6));
        QCOMPARE(str(colourAt(img, mid, cb.y0 + t / 3)), str(under));
        QCOMPARE(str(colourAt(img, mid, cb.y1 - t / 3)), str(over));
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y0 + t + 1.5), table, false),
                 qPrintable(str(colourAt(img, mid, cb.y0 + t + 1.5))));
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y1 - t - 1.5), table, true),
                 qPrintable(str(colourAt(img, mid, cb.y1 - t - 1.5))));
        // Unset, the under and over colours are the map's ends: the triangles say values lie
        // beyond even where the cells cannot.
        s.colouring.underColour.reset();
        s.colouring.overColour.reset();
        const QImage plain = picture(painter, f, s);
        QCOMPARE(str(colourAt(plain, mid, cb.y0 + t / 3)), str(table.front()));
        QCOMPARE(str(colourAt(plain, mid, cb.y1 - t / 3)), str(table.back()));
        QCOMPARE(str(colourAt(plain, cellX(l, 0), y)), str(table.front()));
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
        const PixelRect& cb = layoutOf(f, s).colourBar;
        const auto table = colormapTable("viridis");
        const double mid = (cb.x0 + cb.x1) / 2;
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y0 + 1.5), table, false),
                 qPrintable(str(colourAt(img, mid, cb.y0 + 1.5))));
        QVERIFY2(nearEnd(colourAt(img, mid, cb.y1 - 1.5), table, true),
                 qPrintable(str(colourAt(img, mid, cb.y1 - 1.5))));
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
        AxisGrid yg = axisGrid(f, 0), xg = axisGrid(f, 1);
        const ViewLayout l = layoutOf(f, s);
        const ViewTransform t(l.plot, fullWindow(xg, yg));
        const Rgba8 grey = Colouring().nanColour;
        QVERIFY(grey.r == grey.g && grey.g == grey.b);                        // neutral
        QCOMPARE(str(colourAt(img, t.pixelX(120), t.pixelY(15))), str(grey)); // a NaN cell
        ColourBarContent content;
        content.missing = grey;
        const ColourBarPlan plan = planColourBar(l, content);
        QVERIFY(plan.missing);
        const PixelRect& m = *plan.missing;
        QCOMPARE(str(colourAt(img, (m.x0 + m.x1) / 2, (m.y0 + m.y1) / 2)), str(grey));
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
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestImageColourBar t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_imagecolourbar.moc"
