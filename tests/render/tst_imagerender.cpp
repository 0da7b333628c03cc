// The image view's pictures, drawn offscreen as PNG export does: compared with baselines in
// tests/baselines, and cell by cell with the colours the colour map must give, at pixels
// placed by the layout's stated geometry worked out by hand here (not by computeLayout).
#include <QtTest/QtTest>

#include "image_compare.h"
#include "nc_read.h"
#include "render_fixtures.h"
#include "strata/core/transfer.h"
#include "strata/render/image_export.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 720, kH = 420;

// Where data coordinates land: the plot rectangle (window pixels, origin bottom left) and the
// data window it shows, both given by hand. The layout states (view_layout.cpp, .h): margins
// of 84 left, 58 below, 40 above, 118 right (logical pixels, times the scale); with the aspect
// kept, the plot shrinks, centred, to the data's width / height; corners rounded to whole
// pixels; a plot within 1 % of whole pixels per cell (whole frame shown) shrinks to them.
struct Placed {
    PixelRect plot;
    ViewWindow window;
    double pixelX(double x) const {
        return plot.x0 + (x - window.x0) / (window.x1 - window.x0) * plot.width();
    }
    double pixelY(double y) const {
        return plot.y0 + (y - window.y0) / (window.y1 - window.y0) * plot.height();
    }
};

// lonLatFrame's cells span lon −1.25…358.75 and lat −91.25…91.25 (2.5° cells about the
// centres); 360 / 182.5 = 1.9726 is wider than a 720 × 420 plot area (518 × 322 = 1.6087):
// the plot keeps the width and is 518 / 1.9726 = 262.597 high, from 58 + 29.701 = 87.701
// (rounded 88) to 350.299 (350); 518 / 144 = 3.6 pixels a cell is not within 1 % of whole.
const ViewWindow kLonLatWindow{-1.25, 358.75, -91.25, 91.25};
const Placed kLonLat{{84, 88, 602, 350}, kLonLatWindow};

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
        const Placed& g = kLonLat;
        int checked = 0;
        for (int j = 3; j < 73; j += 7)
            for (int i = 2; i < 144; i += 13) {
                const double lon = 2.5 * i, lat = -90 + 2.5 * j;
                Rgba8 want = expectedColour(table, static_cast<float>(analytic(lon, lat)), -1, 1,
                                            s.colouring.nanColour);
                Rgba8 got = colourAt(img, g.pixelX(lon), g.pixelY(lat));
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

    // 5 × 4 cells of values 0…19 over a fixed [0, 20) (LUT entries 12.8·v, all different),
    // stretched: the 518 × 322 plot area holds 103 × 80 whole pixels a cell within 1 % (3 and
    // 2 pixels spare), so the plot is x 85…600, y 59…379, and cell (row r, column c) covers
    // exactly x 85 + 103c … +102, y 59 + 80r … +79. Every pixel of the plot is checked, and
    // the pixel just outside each side shows no cell.
    void everyPixelWhereTheGeometrySays() {
        std::vector<double> v;
        for (int i = 0; i < 20; ++i) v.push_back(i);
        Coordinates cs;
        cs.set(axis("y", {0, 1, 2, 3}, "m", "y"));
        cs.set(axis("x", {0, 1, 2, 3, 4}, "m", "x"));
        const DataArray f = DataArray::fromHost("ramp", {"y", "x"}, {4, 5}, v, cs);
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, 0, 20};
        s.aspect = AspectMode::Fill;
        const QImage img = renderImage({f}, s, QSize(kW, kH));
        const auto table = colormapTable("viridis");
        auto cellColour = [&](int r, int c) { return table[static_cast<std::size_t>(12.8 * (5 * r + c))]; };
        long wrong = 0;
        QString first;
        for (int py = 59; py < 379; ++py)
            for (int px = 85; px < 600; ++px) {
                const Rgba8 want = cellColour((py - 59) / 80, (px - 85) / 103);
                const Rgba8 got = colourAt(img, px + 0.5, py + 0.5);
                if (got == want) continue;
                if (!wrong++)
                    first = QString("pixel (%1, %2): %3, want %4").arg(px).arg(py).arg(str(got), str(want));
            }
        QVERIFY2(wrong == 0, qPrintable(QString("%1 pixels wrong; %2").arg(wrong).arg(first)));
        auto anyCell = [&](double px, double py) {
            for (int i = 0; i < 20; ++i)
                if (colourAt(img, px, py) == cellColour(i / 5, i % 5)) return true;
            return false;
        };
        for (int py : {59, 219, 378}) {
            QVERIFY2(!anyCell(84.5, py + 0.5), qPrintable(QString("left of the plot, row %1").arg(py)));
            QVERIFY2(!anyCell(600.5, py + 0.5), qPrintable(QString("right of the plot, row %1").arg(py)));
        }
        for (int px : {85, 342, 599}) {
            QVERIFY2(!anyCell(px + 0.5, 58.5), qPrintable(QString("below the plot, column %1").arg(px)));
            QVERIFY2(!anyCell(px + 0.5, 379.5), qPrintable(QString("above the plot, column %1").arg(px)));
        }
    }

    // hgt.nc's HGT at time 0 as netCDF-C reads it (same 2.5° grid as lonLatFrame), coloured
    // over its own extremes found by a plain loop: each sampled cell has its value's colour.
    void netcdfValuesInTheirCells() {
        const nctest::NcValues hgt = nctest::readNcFloats(STRATA_TEST_DATA "/hgt.nc", "HGT");
        const nctest::NcValues lat = nctest::readNcFloats(STRATA_TEST_DATA "/hgt.nc", "lat");
        const nctest::NcValues lon = nctest::readNcFloats(STRATA_TEST_DATA "/hgt.nc", "lon");
        QCOMPARE(hgt.shape, (std::vector<std::size_t>{21, 73, 144}));
        const std::vector<float> plane(hgt.values.begin(), hgt.values.begin() + 73 * 144);
        float lo = INFINITY, hi = -INFINITY;
        for (float x : plane)
            if (!std::isnan(x)) lo = std::min(lo, x), hi = std::max(hi, x);
        QVERIFY(hi > lo);
        Coordinates cs;
        cs.set(axis("lat", {lat.values.begin(), lat.values.end()}, "degrees_north", "latitude"));
        cs.set(axis("lon", {lon.values.begin(), lon.values.end()}, "degrees_east", "longitude"));
        const DataArray f = DataArray::fromHost("HGT", {"lat", "lon"}, {73, 144}, plane, cs);
        ImageViewSettings s; // the range is the frame's own
        const QImage img = renderImage({f}, s, QSize(kW, kH));
        const auto table = colormapTable("viridis");
        int checked = 0;
        for (std::size_t j = 1; j < 73; j += 6)
            for (std::size_t i = 0; i < 144; i += 11) {
                const float v = plane[j * 144 + i];
                const Rgba8 want = expectedColour(table, v, lo, hi, s.colouring.nanColour);
                const Rgba8 got = colourAt(img, kLonLat.pixelX(lon.values[i]), kLonLat.pixelY(lat.values[j]));
                QVERIFY2(got == want, qPrintable(QString("lat %1 lon %2 (%3): %4, want %5")
                                                     .arg(lat.values[j])
                                                     .arg(lon.values[i])
                                                     .arg(v)
                                                     .arg(str(got), str(want))));
                ++checked;
            }
        QCOMPARE(checked, 12 * 14);
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
        const Placed& g = kLonLat;
        const auto table = colormapTable("viridis");
        Rgba8 got = colourAt(down, g.pixelX(45), g.pixelY(45));
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
        const Placed& g = kLonLat;
        for (double lon : {92.5, 120.0, 145.0})
            for (double lat : {2.5, 15.0, 27.5}) {
                Rgba8 got = colourAt(img, g.pixelX(lon), g.pixelY(lat));
                QVERIFY2(got == s.colouring.nanColour,
                         qPrintable(QString("lon %1 lat %2: %3").arg(lon).arg(lat).arg(str(got))));
            }
        // Outside the block the finite values keep their colours, ranged over the finite extremes.
        float lo = INFINITY, hi = -INFINITY;
        for (float v : f.values<float>())
            if (!std::isnan(v)) lo = std::min(lo, v), hi = std::max(hi, v);
        const auto table = colormapTable("viridis");
        Rgba8 got = colourAt(img, g.pixelX(45), g.pixelY(45));
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
            // Stretched over the plot area, x 84…242, y 58…160; cells x −0.5…1.5, y −0.5…0.5.
            const Placed g{{84, 58, 242, 160}, {-0.5, 1.5, -0.5, 0.5}};
            const auto table = colormapTable(s.colouring.colormap, reversed);
            QVERIFY(colourAt(img, g.pixelX(0), g.pixelY(0)) == table.front());
            QVERIFY(colourAt(img, g.pixelX(1), g.pixelY(0)) == table.back());
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
        // The plot fills the area (x 84…602; 12.95 pixels a cell is not within 1 % of whole);
        // the bar stands 18 to 36 pixels right of it, as high as the plot.
        const PixelRect cb{602 + 18, 58, 602 + 36, 380};
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
        // Margins doubled: area x 168…1204 (1036), y 116…760 (644); 1036 / 1.9726 = 525.194
        // high from 116 + 59.403 = 175.403 (175) to 700.597 (701).
        const Placed g{{168, 175, 1204, 701}, kLonLatWindow};
        const auto table = colormapTable("viridis");
        for (double lon : {10.0, 100.0, 200.0, 300.0})
            for (double lat : {-60.0, 0.0, 45.0})
                QVERIFY(colourAt(img, g.pixelX(lon), g.pixelY(lat)) ==
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
