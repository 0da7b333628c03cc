// The image view's pictures, drawn offscreen as PNG export does: compared with baselines in
// tests/baselines, and cell by cell with the colours the colour map must give.
#include <QtTest/QtTest>

#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/core/transfer.h"
#include "strata/render/image_export.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 720, kH = 420;

struct Geometry {
    ViewLayout layout;
    ViewTransform transform{{}, {}};
};

Geometry geometryOf(const DataArray& f, const ImageViewSettings& s, int w, int h, double scale = 1) {
    AxisGrid y = axisGrid(f, 0), x = axisGrid(f, 1);
    ViewWindow win = s.window.value_or(fullWindow(x, y));
    ViewLayout l = computeLayout(w, h, scale, win, keepsAspect(s.aspect, x, y));
    return {l, ViewTransform(l.plot, win)};
}

} // namespace

class TestImageRender : public QObject {
    Q_OBJECT
private slots:
    // A picture with no baseline fails, is kept in the build folder, and never lands in
    // tests/baselines on its own (where the next run would pass without anyone looking).
    void missingBaselineFailsAndStaysOut() {
        QImage image(8, 4, QImage::Format_RGBA8888);
        image.fill(Qt::magenta);
        const QString name = "no_such_baseline_" + QString::number(QCoreApplication::applicationPid());
        const QString why = test::compareWithBaseline(image, name);
        QVERIFY2(!why.isEmpty(), "a missing baseline passed");
        QVERIFY2(why.contains("no baseline"), qPrintable(why));
        QVERIFY(!QFileInfo::exists(QString(STRATA_BASELINES) + "/" + name + ".png"));
        const QString kept = QString(STRATA_TEST_OUTPUT) + "/" + name + ".png";
        QVERIFY2(QFileInfo::exists(kept), qPrintable(kept));
        QCOMPARE(QImage(kept).convertToFormat(QImage::Format_RGBA8888), image);
        QFile::remove(kept);
    }

    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d)
            QFAIL("the image tests draw through X: run them under xvfb-run (scripts/run-tests.sh)");
    }

    // cos(lat)·sin(2 lon) with a fixed range: each sampled cell has the map's colour for its value.
    void analyticField() {
        DataArray f = lonLatFrame(true, false);
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const auto before = transferCounters();
        QImage img = renderImage({f}, s, QSize(kW, kH));
        QCOMPARE(transferredSince(before).deviceToHost, 0u);
        QCOMPARE(img.size(), QSize(kW, kH));
        const auto table = colormapTable("viridis");
        Geometry g = geometryOf(f, s, kW, kH);
        int checked = 0;
        for (int j = 3; j < 73; j += 7)
            for (int i = 2; i < 144; i += 13) {
                const double lon = 2.5 * i, lat = -90 + 2.5 * j;
                Rgba8 want = expectedColour(table, static_cast<float>(analytic(lon, lat)), -1, 1,
                                            s.colouring.nanColour);
                Rgba8 got = colourAt(img, g.transform.pixelX(lon), g.transform.pixelY(lat));
                QVERIFY2(got == want, qPrintable(QString("cell lon %1 lat %2: %3, want %4")
                                                     .arg(lon)
                                                     .arg(lat)
                                                     .arg(str(got), str(want))));
                ++checked;
            }
        QVERIFY(checked > 100);
        QString why = compareWithBaseline(img, "analytic_lonlat");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Latitude stored north to south: the same picture, north up.
    void descendingLatitude() {
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        QImage up = renderImage({lonLatFrame(true, false)}, s, QSize(kW, kH));
        QImage down = renderImage({lonLatFrame(false, false)}, s, QSize(kW, kH));
        const long differ = differingPixels(up, down, 0);
        QVERIFY2(differ == 0, qPrintable(QString("%1 pixels differ: %2")
                                             .arg(differ)
                                             .arg(saveDifference(down, up, "descending_vs_ascending"))));
        // And the northernmost row is at the top: sample 87.5°N, 90°E (value cos(87.5°)·sin(180°) ≈ 0)
        // against 45°N, 45°E (cos 45° · sin 90° ≈ 0.707).
        DataArray f = lonLatFrame(false, false);
        Geometry g = geometryOf(f, s, kW, kH);
        const auto table = colormapTable("viridis");
        Rgba8 got = colourAt(down, g.transform.pixelX(45), g.transform.pixelY(45));
        QVERIFY(got ==
                expectedColour(table, static_cast<float>(analytic(45, 45)), -1, 1, s.colouring.nanColour));
        QString why = compareWithBaseline(down, "descending_lat");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    void nanCells() {
        DataArray f = lonLatFrame(true, true);
        ImageViewSettings s; // range per frame: NaN is skipped by minmax
        s.colouring.nanColour = {255, 0, 255, 255};
        QImage img = renderImage({f}, s, QSize(kW, kH));
        Geometry g = geometryOf(f, s, kW, kH);
        for (double lon : {92.5, 120.0, 145.0})
            for (double lat : {2.5, 15.0, 27.5}) {
                Rgba8 got = colourAt(img, g.transform.pixelX(lon), g.transform.pixelY(lat));
                QVERIFY2(got == s.colouring.nanColour,
                         qPrintable(QString("lon %1 lat %2: %3").arg(lon).arg(lat).arg(str(got))));
            }
        // Outside the block the finite values keep their colours, ranged over the finite extremes.
        float lo = INFINITY, hi = -INFINITY;
        for (float v : f.values<float>())
            if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        const auto table = colormapTable("viridis");
        Rgba8 got = colourAt(img, g.transform.pixelX(45), g.transform.pixelY(45));
        QVERIFY(got ==
                expectedColour(table, static_cast<float>(analytic(45, 45)), lo, hi, s.colouring.nanColour));
        // With its "missing" swatch by the colour bar (the strict default: no pixel may differ).
        QString why = compareWithBaseline(img, "nan_cells");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Two cells, 0 and 1, over a fixed [0, 1]: the map's first and last entries; reversed swaps them.
    void colormapEnds_data() {
        QTest::addColumn<QString>("map");
        for (const auto& n : colormapNames()) QTest::newRow(n.c_str()) << QString::fromStdString(n);
    }
    void colormapEnds() {
        QFETCH(QString, map);
        std::vector<double> v{0, 1};
        DataArray f = DataArray::fromHost("ends", {"y", "x"}, {1, 2}, v);
        for (bool reversed : {false, true}) {
            ImageViewSettings s;
            s.colouring.colormap = map.toStdString();
            s.colouring.reversed = reversed;
            s.colouring.range = {RangeMode::Fixed, 0, 1};
            s.aspect = AspectMode::Fill;
            QImage img = renderImage({f}, s, QSize(360, 200));
            Geometry g = geometryOf(f, s, 360, 200);
            const auto table = colormapTable(s.colouring.colormap, reversed);
            QVERIFY(colourAt(img, g.transform.pixelX(0), g.transform.pixelY(0)) == table.front());
            QVERIFY(colourAt(img, g.transform.pixelX(1), g.transform.pixelY(0)) == table.back());
            // The whole picture against a baseline for the first maps; every other map is the
            // same picture with other end colours, checked above.
            static const QStringList kWithBaseline{"viridis", "magma", "plasma", "inferno",
                                                   "cividis", "turbo", "gray",   "RdBu"};
            if (!reversed && kWithBaseline.contains(map)) {
                QString why = compareWithBaseline(img, "colormap_" + map);
                QVERIFY2(why.isEmpty(), qPrintable(why));
            }
        }
    }

    // The colour bar shows the LUT from the bottom (vmin) to the top (vmax).
    void colourBar() {
        std::vector<double> v;
        for (int i = 0; i < 40; ++i) v.push_back(-2 + 5.0 * i / 39);
        Variable var = DataArray::fromHost("ramp", {"y", "x"}, {1, 40}, v).variable();
        var.attrs().set({"units", DType::Char, std::string("K")});
        var.attrs().set({"long_name", DType::Char, std::string("ramp")});
        DataArray f("ramp", var);
        ImageViewSettings s;
        s.colouring.colormap = "plasma";
        s.colouring.range = {RangeMode::Fixed, -2, 3};
        s.aspect = AspectMode::Fill;
        QImage img = renderImage({f}, s, QSize(kW, kH));
        Geometry g = geometryOf(f, s, kW, kH);
        const PixelRect& cb = g.layout.colourBar;
        const auto table = colormapTable("plasma");
        const double x = (cb.x0 + cb.x1) / 2;
        for (int i : {0, 40, 128, 200, 255}) {
            const double y = cb.y0 + cb.height() * (i + 0.5) / 256;
            Rgba8 got = colourAt(img, x, y);
            bool near = false;
            for (int k = std::max(0, i - 1); k <= std::min(255, i + 1); ++k) near = near || got == table[k];
            QVERIFY2(near,
                     qPrintable(QString("bar entry %1: %2, want %3").arg(i).arg(str(got), str(table[i]))));
        }
        QString why = compareWithBaseline(img, "colour_bar");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // A larger picture at scale 2 holds the same content (export at a requested size).
    void exportAtSize() {
        DataArray f = lonLatFrame(true, false);
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const QString path = QString(STRATA_TEST_OUTPUT) + "/export_2x.png";
        QDir().mkpath(STRATA_TEST_OUTPUT);
        exportPng({f}, s, QSize(2 * kW, 2 * kH), path, 2);
        QImage img(path);
        QCOMPARE(img.size(), QSize(2 * kW, 2 * kH));
        Geometry g = geometryOf(f, s, 2 * kW, 2 * kH, 2);
        const auto table = colormapTable("viridis");
        for (double lon : {10.0, 100.0, 200.0, 300.0})
            for (double lat : {-60.0, 0.0, 45.0})
                QVERIFY(colourAt(img, g.transform.pixelX(lon), g.transform.pixelY(lat)) ==
                        expectedColour(table, static_cast<float>(analytic(lon, lat)), -1, 1,
                                       s.colouring.nanColour));
    }

    void manyExportsBackToBack() {
        // Each export opens and closes an X connection of its own, and the virtual X server here
        // resets about one connection in twenty opened right after another closed: VTK aborted
        // the process on that. Twenty-five exports in a row all draw, and draw the same picture.
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        const DataArray f = lonLatFrame(true, false);
        const QImage first = renderImage({f}, s, QSize(96, 64));
        for (int i = 0; i < 25; ++i) {
            const QImage again = renderImage({f}, s, QSize(96, 64));
            QCOMPARE(again.size(), QSize(96, 64));
            QCOMPARE(differingPixels(again, first, 0), 0L);
        }
    }
};

QTEST_GUILESS_MAIN(TestImageRender)
#include "tst_imagerender.moc"
