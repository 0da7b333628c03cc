// PNG export through the real executable: images compared with tests/baselines (cli_*.png),
// cells read back against the colours the core's own frame must get, the colour bar, the title,
// the requested size, and runs with no X display at all (the binary starts its own Xvfb).
#include <QtTest>

#include "app/strata_process.h"
#include "nc_read.h"

#include "../../render/src/colour_bar_plan.h"
#include "render/image_compare.h"
#include "render/render_fixtures.h"
#include "strata/io/grid_mapping.h"
#include "strata/io/netcdf.h"
#include "view_spec.h"

using namespace strata;
using strata::app::ViewSpec;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";

using stratatest::Run;
using stratatest::runStrata;

// The text after `prefix` on the stderr line that starts with it.
QString lineAfter(const QString& err, const QString& prefix) {
    for (const QString& line : err.split('\n'))
        if (line.startsWith(prefix)) return line.mid(prefix.size());
    return {};
}

// The view the options in the table describe, built here by hand (not by the app's parser).
struct Expected {
    ViewSpec spec;
    std::string map = "viridis";
    bool reversed = false;
    enum { Frame, Global, Fixed } range = Frame;
    double lo = 0, hi = 0; // Fixed
};

// Whether `pid` is a live Xvfb: a zombie (not yet reaped by init) or another program that took
// the pid since counts as gone.
bool xvfbRunning(pid_t pid) {
    QFile stat(QString("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) return false;
    const QByteArray s = stat.readAll(); // "pid (comm) state ..."
    const int close = s.lastIndexOf(')');
    if (close < 0 || close + 2 >= s.size()) return false;
    const char state = s[close + 2];
    return s.contains("(Xvfb)") && state != 'Z' && state != 'X';
}

bool isWhite(QRgb c) { return qRed(c) > 250 && qGreen(c) > 250 && qBlue(c) > 250; }

// Where the checked pixels are, placed by hand from the layout's stated geometry (not by
// computeLayout, asked only afterwards for a second opinion). view_layout.cpp, .h: margins of 84
// left, 58 below, 40 above, 118 right (scale 1 here); with the aspect kept, the plot shrinks,
// centred, to the data's width / height; corners rounded to whole pixels; a regular frame shown
// whole within 1 % of whole pixels per cell shrinks to them. The colour bar stands 18 to 36
// pixels right of the plot, as high as it; colour_bar_plan.h, .cpp: its triangles are as tall
// as it is wide (at most a sixth of its height).
//
// The sample's 192 × 96 cells (edges halfway between centres, the outer ones half a step
// beyond) span lon −0.9375…359.0625 (1.875° steps) and lat ±(88.57217 + 1.84963 / 2) =
// ±89.49698 (Gaussian latitudes), 360 / 178.99397 = 2.01124 wide for 1 high.
const ViewWindow kSampleWindow{-0.9375, 359.0625, -89.49698257446289, 89.49698257446289};
// At 1200 × 800 the area is x 84…1082 (998), y 58…760 (702), 1.42165 wide for 1 high: the plot
// keeps the width and is 998 / 2.01124 = 496.211 high, from 58 + 102.894 = 160.894 (161) to
// 657.106 (657); 998 / 192 = 5.2 pixels a cell is not within 1 % of whole.
constexpr PixelRect kSample1200{84, 161, 1082, 657};
// Time on y: the aspect is not kept and the plot is the whole area (998 / 96 = 10.4 pixels a
// cell is not within 1 % of whole).
constexpr PixelRect kFilled1200{84, 58, 1082, 760};
// At 640 × 400 the area is x 84…522 (438), y 58…360 (302): the plot keeps the width and is
// 438 / 2.01124 = 217.776 high, from 58 + 42.112 = 100.112 (100) to 317.888 (318); 438 / 192
// = 2.28 pixels a cell is not within 1 % of whole.
constexpr PixelRect kSample640{84, 100, 522, 318};

// Whether `got` is near `want`: within 1e-6 on each side.
bool sameWindow(const ViewWindow& got, const ViewWindow& want) {
    return std::abs(got.x0 - want.x0) < 1e-6 && std::abs(got.x1 - want.x1) < 1e-6 &&
           std::abs(got.y0 - want.y0) < 1e-6 && std::abs(got.y1 - want.y1) < 1e-6;
}

} // namespace

Q_DECLARE_METATYPE(Expected)

class TestExport : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d) QFAIL("the PNG tests compare with a run on the display: use scripts/run-tests.sh");
        QVERIFY(dir_.isValid());
    }

    // The sample (its first month) and a Hovmöller of the zonal mean (time up, latitude across),
    // and a line through time at a point, at two sizes each, against committed baselines. The
    // title names the variable, its units and the slice, with dates decoded and angles short.
    void matchesItsBaseline_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QStringList>("title"); // fragments the title must hold
        const QString variable = "Near-Surface Air Temperature [K]";
        for (QSize size : {QSize(640, 400), QSize(1200, 800)}) {
            const QString wxh = QString("%1x%2").arg(size.width()).arg(size.height());
            QTest::newRow(qPrintable("sample_" + wxh))
                << QStringList{kSample} << size << QStringList{variable, "time = 2005-01-16"};
            QTest::newRow(qPrintable("zonal_mean_" + wxh))
                << QStringList{kSample, "--x", "lat", "--y", "time", "--reduce", "lon=mean"} << size
                << QStringList{variable, "mean over lon"};
            QTest::newRow(qPrintable("point_series_" + wxh))
                << QStringList{kSample, "--x", "time", "--sel", "lat=45", "--sel", "lon=10"} << size
                << QStringList{variable, "lat = 45.70°N", "lon = 9.38°E"};
        }
    }
    void matchesItsBaseline() {
        QFETCH(QStringList, args);
        QFETCH(QSize, size);
        QFETCH(QStringList, title);
        const QString png = dir_.filePath(QString(QTest::currentDataTag()) + ".png");
        const Run r =
            runStrata(args + QStringList{"--size", QString("%1x%2").arg(size.width()).arg(size.height()),
                                         "--export-png", png, "-v"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QString t = lineAfter(r.err, "strata: title: ");
        for (const QString& fragment : title) QVERIFY2(t.contains(fragment), qPrintable(t));
        const QImage img(png);
        QCOMPARE(img.size(), size);
        const QString why = test::compareWithBaseline(img, "cli_" + QString(QTest::currentDataTag()));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Cell by cell: the colour each sampled cell has in the PNG is the map's colour for the value
    // the core computes for that cell, over the range asked for; the colour bar shows the map.
    void cellsHaveTheMapsColours_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<Expected>("expected");
        Expected sample;
        sample.spec.variable = "tas";
        sample.spec.xDim = "lon";
        sample.spec.yDim = "lat";
        QTest::newRow("viridis, frame range") << QStringList{} << sample;
        Expected july = sample;
        july.spec.indices = {{"time", 6}};
        july.map = "magma";
        july.reversed = true;
        july.range = Expected::Fixed;
        july.lo = 250;
        july.hi = 300;
        QTest::newRow("magma_r, fixed range, --isel")
            << QStringList{"--isel", "time=6", "--cmap", "magma_r", "--range", "250,300"} << july;
        Expected crameri = july;
        crameri.map = "vik";
        crameri.reversed = false;
        QTest::newRow("Crameri's vik by name, fixed range")
            << QStringList{"--isel", "time=6", "--colormap", "vik", "--range", "250,300"} << crameri;
        Expected cmocean = sample;
        cmocean.map = "cmo.thermal";
        QTest::newRow("cmocean's thermal by name") << QStringList{"--cmap", "cmo.thermal"} << cmocean;
        Expected global = sample;
        global.spec.indices = {{"time", 3}};
        global.map = "RdBu";
        global.range = Expected::Global;
        QTest::newRow("RdBu, global range, --sel date")
            << QStringList{"--sel", "time=2005-04-10", "--cmap", "RdBu", "--range", "global"} << global;
        Expected hovmoller;
        hovmoller.spec.variable = "tas";
        hovmoller.spec.xDim = "lat";
        hovmoller.spec.yDim = "time";
        hovmoller.spec.reductions = {{"lon", ReduceOp::Max}};
        hovmoller.map = "turbo";
        QTest::newRow("turbo, time on y, max over lon")
            << QStringList{"--x", "lat", "--y", "time", "--reduce", "lon=max", "--cmap", "turbo"}
            << hovmoller;
    }
    void cellsHaveTheMapsColours() {
        QFETCH(QStringList, args);
        QFETCH(Expected, expected);
        const QSize size(1200, 800);
        const QString png = dir_.filePath("cells.png");
        QFile::remove(png);
        // The cells alone: no coastlines over them.
        const Run r = runStrata(
            QStringList{kSample, "--size", "1200x800", "--export-png", png, "--coastlines", "off"} + args);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage img(png);
        QCOMPARE(img.size(), size);

        const Dataset ds = openDataset(kSample.toStdString());
        const DataArray frame = computeView(ds["tas"], expected.spec, Device::host(), Stream::host());
        const auto table = colormapTable(expected.map, expected.reversed);

        const AxisGrid y = axisGrid(frame, 0), x = axisGrid(frame, 1);
        const bool hovmoller = expected.spec.yDim == "time";
        // The data window from the frame's edges (the sample's by hand above; time's, for the
        // Hovmöller, does not move the plot); the plot placed by hand.
        const ViewWindow window = hovmoller ? fullWindow(x, y) : kSampleWindow;
        const PixelRect plot = hovmoller ? kFilled1200 : kSample1200;
        const ViewTransform t(plot, window);
        const auto values = frame.values<double>();
        // The cells' values from netCDF-C itself: tas(time, lat, lon) at the time asked for, or
        // (time, lat) as the maximum over lon, taken here by hand.
        const nctest::NcValues raw = nctest::readNcFloats(kSample.toStdString(), "tas");
        QCOMPARE(raw.shape.size(), std::size_t(3));
        const std::size_t t0 =
            expected.spec.indices.empty() ? 0 : std::size_t(expected.spec.indices[0].second);
        auto oracle = [&](std::int64_t i, std::int64_t j) {
            if (!hovmoller) return double(raw.at(t0, std::size_t(i), std::size_t(j)));
            float m = -INFINITY;
            for (std::size_t k = 0; k < raw.shape[2]; ++k)
                m = std::max(m, raw.at(std::size_t(i), std::size_t(j), k));
            return double(m);
        };
        int checked = 0;
        const std::int64_t rows = frame.shape()[0], cols = frame.shape()[1];
        QCOMPARE(std::size_t(rows), raw.shape[hovmoller ? 0 : 1]);
        QCOMPARE(std::size_t(cols), raw.shape[hovmoller ? 1 : 2]);
        // The range asked for, also by hand: the frame's or the whole variable's extremes.
        auto extremesOf = [](auto&& each) {
            MinMax m{INFINITY, -INFINITY};
            each([&](double v) {
                if (!std::isnan(v)) m = {std::min(m.first, v), std::max(m.second, v)};
            });
            return m;
        };
        MinMax range{expected.lo, expected.hi};
        if (expected.range == Expected::Frame)
            range = extremesOf([&](auto&& f) {
                for (std::int64_t i = 0; i < rows; ++i)
                    for (std::int64_t j = 0; j < cols; ++j) f(oracle(i, j));
            });
        if (expected.range == Expected::Global)
            range = extremesOf([&](auto&& f) {
                for (float v : raw.values) f(double(v));
            });
        for (std::int64_t i = 0; i < rows; i += std::max<std::int64_t>(1, rows / 12))
            for (std::int64_t j = 0; j < cols; j += 7) {
                const double v = values[std::size_t(i * cols + j)];
                QCOMPARE(float(v), float(oracle(i, j))); // the core's cell is netCDF-C's
                const Rgba8 want =
                    test::expectedColour(table, v, range.first, range.second, Colouring().nanColour);
                const Rgba8 got = test::colourAt(img, t.pixelX(x.centres[j]), t.pixelY(y.centres[i]));
                QVERIFY2(got == want, qPrintable(QString("cell (%1, %2) = %3: %4, want %5")
                                                     .arg(i)
                                                     .arg(j)
                                                     .arg(v)
                                                     .arg(test::str(got), test::str(want))));
                ++checked;
            }
        QVERIFY(checked > 100);
        // The frame reaches the plot's edges: the outermost pixel columns and rows inside the
        // hand-placed plot hold the edge cells (both axes ascending: column 0 on the left, row 0
        // at the foot). A plot a pixel off on any side fails here (the centres above are a few
        // pixels clear of their cells' edges and would not).
        QVERIFY(!x.descending() && !y.descending());
        auto colourOf = [&](std::int64_t i, std::int64_t j) {
            return test::expectedColour(table, values[std::size_t(i * cols + j)], range.first, range.second,
                                        Colouring().nanColour);
        };
        auto edgeCell = [&](double px, double py, std::int64_t i, std::int64_t j) {
            const Rgba8 got = test::colourAt(img, px, py), want = colourOf(i, j);
            return got == want ? QString()
                               : QString("pixel (%1, %2): %3, want cell (%4, %5)'s %6")
                                     .arg(px)
                                     .arg(py)
                                     .arg(test::str(got))
                                     .arg(i)
                                     .arg(j)
                                     .arg(test::str(want));
        };
        for (std::int64_t i = 0; i < rows; i += std::max<std::int64_t>(1, rows / 12)) {
            const double py = t.pixelY(y.centres[std::size_t(i)]);
            for (const QString& why :
                 {edgeCell(plot.x0 + 0.5, py, i, 0), edgeCell(plot.x1 - 0.5, py, i, cols - 1)})
                QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        for (std::int64_t j = 0; j < cols; j += 7) {
            const double px = t.pixelX(x.centres[std::size_t(j)]);
            for (const QString& why :
                 {edgeCell(px, plot.y0 + 0.5, 0, j), edgeCell(px, plot.y1 - 0.5, rows - 1, j)})
                QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        // The colour bar, bottom (low) to top (high): the map's entries; beyond a fixed range
        // that the frame passes, triangles in the map's end colours.
        strata::detail::ColourBarContent content;
        const MinMax extremes = extremesOf([&](auto&& f) {
            for (std::int64_t i = 0; i < rows; ++i)
                for (std::int64_t j = 0; j < cols; ++j) f(oracle(i, j));
        });
        content.extendLow = expected.range == Expected::Fixed && extremes.first < range.first;
        content.extendHigh = expected.range == Expected::Fixed && extremes.second > range.second;
        // The bar: x 1082 + 18 = 1100 … 1082 + 36 = 1118, as high as the plot; triangles
        // min(18, 496 / 6) = 18 high (702 / 6 for the Hovmöller), apexes at x 1109 on the bar's
        // foot and top; the bands between them.
        const PixelRect bar{1100, plot.y0, 1118, plot.y1};
        if (content.extendLow)
            QCOMPARE(test::str(test::colourAt(img, 1109, bar.y0 + 4)), test::str(table.front()));
        if (content.extendHigh)
            QCOMPARE(test::str(test::colourAt(img, 1109, bar.y1 - 4)), test::str(table.back()));
        const PixelRect cb{bar.x0, bar.y0 + (content.extendLow ? 18 : 0), bar.x1,
                           bar.y1 - (content.extendHigh ? 18 : 0)};
        for (int k : {0, 64, 128, 192, 255}) {
            const Rgba8 got = test::colourAt(img, (cb.x0 + cb.x1) / 2, cb.y0 + cb.height() * (k + 0.5) / 256);
            bool near = false;
            for (int m = std::max(0, k - 1); m <= std::min(255, k + 1); ++m) near = near || got == table[m];
            QVERIFY2(
                near,
                qPrintable(
                    QString("bar entry %1: %2, want %3").arg(k).arg(test::str(got), test::str(table[k]))));
        }
        // The layout and the bar's plan say the same as the hand.
        QVERIFY(sameWindow(fullWindow(x, y), window));
        const ViewLayout layout = computeLayout(size.width(), size.height(), 1, fullWindow(x, y),
                                                keepsAspect(AspectMode::Auto, x, y));
        QCOMPARE(layout.plot, plot);
        QCOMPARE(layout.colourBar, bar);
        const strata::detail::ColourBarPlan plan = strata::detail::planColourBar(layout, content);
        QCOMPARE(bool(plan.under), content.extendLow);
        QCOMPARE(bool(plan.over), content.extendHigh);
        QCOMPARE(plan.bands, cb);
    }

    // A title wider than the picture is cut with "…" inside it: nothing drawn at its edges.
    void longTitleIsElided() {
        const QString png = dir_.filePath("long_title.png");
        const Run r = runStrata({kData + "/test_stageiv_xyt.nc", "--size", "360x240", "--export-png", png,
                                 "-v", "--grid", "index"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QString title = lineAfter(r.err, "strata: title: ");
        QVERIFY2(
            title.startsWith("Total precipitation (1_Hour Accumulation) @ Ground or water surface [kg m^-2]"),
            qPrintable(title));
        const QImage img(png);
        QCOMPARE(img.size(), QSize(360, 240));
        // The title's band: the top 30 rows. Ink in its middle, none in the outer 4 columns.
        int inkInMiddle = 0;
        for (int yy = 0; yy < 30; ++yy) {
            for (int xx = 0; xx < 4; ++xx) {
                QVERIFY2(isWhite(img.pixel(xx, yy)), qPrintable(QString("ink at (%1, %2)").arg(xx).arg(yy)));
                QVERIFY2(isWhite(img.pixel(359 - xx, yy)),
                         qPrintable(QString("ink at (%1, %2)").arg(359 - xx).arg(yy)));
            }
            for (int xx = 100; xx < 260; ++xx) inkInMiddle += !isWhite(img.pixel(xx, yy));
        }
        QVERIFY(inkInMiddle > 50);
        const QString why = test::compareWithBaseline(img, "cli_long_title_360x240");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // A frame on 2-D lat/lon (Stage IV's polar stereographic grid) is drawn in longitude/latitude
    // by default: its cells a rotated block with the plot's grey around it; with --grid index, rows
    // and columns that fill the plot, no grey but a few text edges. A bad --grid value is a usage
    // error.
    void curvilinearFrameInLonLat() {
        const QString lonLat = dir_.filePath("stageiv_lonlat.png"),
                      index = dir_.filePath("stageiv_index.png");
        const QString file = kData + "/test_stageiv_xyt.nc";
        Run r = runStrata({file, "--size", "640x400", "--export-png", lonLat});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        r = runStrata({file, "--size", "640x400", "--export-png", index, "--grid", "index"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        auto grey = [](const QImage& img) {
            long n = 0;
            for (int yy = 0; yy < img.height(); ++yy)
                for (int xx = 0; xx < img.width(); ++xx) n += img.pixel(xx, yy) == qRgb(209, 209, 209);
            return n;
        };
        const QImage a(lonLat), b(index);
        QVERIFY2(grey(a) > 5000, qPrintable(QString::number(grey(a))));
        QVERIFY2(grey(b) < 100, qPrintable(QString::number(grey(b)))); // (text edges may hit that grey)
        const Run bad = runStrata({file, "--export-png", lonLat, "--grid", "sideways"});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("--grid takes lonlat or index, not 'sideways'"), qPrintable(bad.err));
        const QString why = test::compareWithBaseline(a, "cli_stageiv_lonlat_640x400");
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // --projection draws the sample on the map, in any case of the name: the plot's corners off
    // the ellipse white, its centre (0°, 0°) in a colour of the map; a frame without lon/lat
    // axes is written unprojected, with a note.
    void projectedPng() {
        const QString png = dir_.filePath("moll.png");
        Run r = runStrata({kSample, "--size", "640x400", "--export-png", png, "--projection", "mollweide",
                           "--coastlines", "off"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage a(png);
        QCOMPARE(a.size(), QSize(640, 400));
        // The plot's box, from the border's ink: its first and last dark pixels on the middle row.
        const int mid = 200;
        int left = -1, right = -1;
        for (int x = 0; x < 560; ++x)
            if (qGray(a.pixel(x, mid)) < 60) {
                if (left < 0) left = x;
                right = x;
            }
        QVERIFY2(left > 0 && right > left + 200, qPrintable(QString("%1 %2").arg(left).arg(right)));
        int top = -1;
        for (int y = 30; y < mid; ++y)
            if (qGray(a.pixel((left + right) / 2 + 40, y)) < 60) {
                top = y;
                break;
            }
        QVERIFY(top > 0);
        QCOMPARE(a.pixel(left + 4, top + 4), qRgb(255, 255, 255));                // off the ellipse
        QVERIFY(a.pixel((left + right) / 2 + 7, mid + 7) != qRgb(255, 255, 255)); // on the map
        // A curvilinear grid goes on the map as its cells (--grid lonlat, the default); shown as
        // rows and columns it does not, and the message says why.
        r = runStrata({kData + "/test_stageiv_xyt.nc", "--size", "320x200", "--export-png",
                       dir_.filePath("xy.png"), "--projection", "Robinson"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("not applied"), qPrintable(r.err));
        r = runStrata({kData + "/test_stageiv_xyt.nc", "--grid", "index", "--size", "320x200", "--export-png",
                       dir_.filePath("xy_index.png"), "--projection", "Robinson"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(
            r.err.contains("--projection Robinson not applied: its grid is curvilinear and --grid index"),
            qPrintable(r.err));
        // A grid mapping's frame is reprojected through its CRS: applied, and a picture unlike
        // the unprojected one.
        r = runStrata({kData + "/lcc_km.nc", "--size", "320x200", "--export-png", dir_.filePath("lcc.png"),
                       "--projection", "Robinson"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(!r.err.contains("not applied"), qPrintable(r.err));
        r = runStrata(
            {kData + "/lcc_km.nc", "--size", "320x200", "--export-png", dir_.filePath("lcc_own.png")});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY(QImage(dir_.filePath("lcc.png")) != QImage(dir_.filePath("lcc_own.png")));
    }

    // The sample (longitude 0–360 across, latitude up) with and without coastlines: the same
    // picture outside the plot; inside it, ink where the coasts are and only there. Where a
    // coast is, from the view's layout and the axis mapping (as cellsHaveTheMapsColours places
    // cells).
    void coastlinesOnAndOff() {
        const QString on = dir_.filePath("coast_on.png"), off = dir_.filePath("coast_off.png");
        Run r = runStrata({kSample, "--size", "640x400", "--export-png", on});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        r = runStrata({kSample, "--size", "640x400", "--export-png", off, "--coastlines", "off"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage a(on), b(off);
        QCOMPARE(a.size(), QSize(640, 400));
        QCOMPARE(b.size(), a.size());

        const Dataset ds = openDataset(kSample.toStdString());
        ViewSpec spec;
        spec.variable = "tas";
        spec.xDim = "lon";
        spec.yDim = "lat";
        const DataArray frame = computeView(ds["tas"], spec, Device::host(), Stream::host());
        const AxisGrid y = axisGrid(frame, 0), x = axisGrid(frame, 1);
        QVERIFY(sameWindow(fullWindow(x, y), kSampleWindow)); // 0–360
        const ViewTransform t(kSample640, kSampleWindow);
        const PixelRect& p = kSample640;
        const QRect plot(int(p.x0), 400 - int(p.y1), int(p.width()), int(p.height())); // from the top
        long inPlot = 0, outside = 0;
        for (int yy = 0; yy < a.height(); ++yy)
            for (int xx = 0; xx < a.width(); ++xx) {
                if (a.pixel(xx, yy) == b.pixel(xx, yy)) continue;
                (plot.contains(xx, yy) ? inPlot : outside) += 1;
                QVERIFY2(qGray(a.pixel(xx, yy)) < 60,
                         qPrintable(QString("not ink at %1, %2").arg(xx).arg(yy)));
            }
        QCOMPARE(outside, 0L);
        QVERIFY2(inPlot > 1500, qPrintable(QString::number(inPlot))); // the world's coasts, a pixel wide
        // Ink within 2 pixels of two coasts, Cape Agulhas (20.0°E, 34.8°S) and Chile's at
        // Antofagasta (70.4°W: 289.6° on 0–360, 23.6°S); none within 4 (about 3°) of the
        // Sahara at 20°E, 22°N (the nearest coast, the Gulf of Sidra, is 8° north).
        auto inkNear = [&](double lon, double lat, int r) {
            const int px = int(std::floor(t.pixelX(lon))), py = 399 - int(std::floor(t.pixelY(lat)));
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx)
                    if (a.pixel(px + dx, py + dy) != b.pixel(px + dx, py + dy)) return true;
            return false;
        };
        QVERIFY(inkNear(20.0, -34.8, 2));
        QVERIFY(inkNear(289.6, -23.6, 2));
        QVERIFY(!inkNear(20.0, 22.0, 4));
        QCOMPARE(computeLayout(640, 400, 1, fullWindow(x, y), keepsAspect(AspectMode::Auto, x, y)).plot, p);
    }

    // A EURO-CORDEX rotated-pole grid is a map in its own CRS: coastlines forward-projected into
    // its grid degrees, and a graticule of true meridians and parallels, drawn inside the plot
    // only. Ink within 2 pixels of Land's End and of Gibraltar, placed by PROJ (the
    // grid-mapping tests check PROJ's ob_tran against a rotation worked out apart); none within
    // 4 pixels of the Sahara at 25°N 10°E, 600 km from a coast and 5° from the nearest line
    // of the graticule.
    void rotatedPoleGridGetsItsCoasts() {
        const QString path = kData + "/rotated_pole.nc";
        const QString on = dir_.filePath("rot_on.png"), off = dir_.filePath("rot_off.png");
        // In its own grid (--grid index): the file's 2-D lat/lon would draw it in lon/lat instead.
        Run r = runStrata({path, "--grid", "index", "--size", "640x400", "--export-png", on});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        r = runStrata(
            {path, "--grid", "index", "--size", "640x400", "--export-png", off, "--coastlines", "off"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage a(on), b(off);
        QCOMPARE(a.size(), QSize(640, 400));

        const Dataset ds = openDataset(path.toStdString());
        ViewSpec spec;
        spec.variable = "tas";
        spec.xDim = "rlon";
        spec.yDim = "rlat";
        const DataArray frame = computeView(ds["tas"], spec, Device::host(), Stream::host());
        const AxisGrid y = axisGrid(frame, 0), x = axisGrid(frame, 1);
        // By hand: 27 × 26 cells of 1.76° (rlon −28.375…17.385, rlat −23.375…20.625, in degrees
        // both: the aspect kept) span rlon −29.255…18.265 and rlat −24.255…21.505, 27 / 26 =
        // 1.0385 wide for 1 high, narrower than the 438 × 302 area (1.4503): the plot keeps the
        // height, y 58…360, and is 302 · 27 / 26 = 313.615 wide, from 84 + 62.192 = 146.192
        // (146) to 459.808 (460); 314 / 27 = 11.6 pixels a cell is not within 1 % of whole.
        const ViewWindow window{-29.255, 18.265, -24.255, 21.505};
        constexpr PixelRect p{146, 58, 460, 360};
        const ViewTransform t(p, window);
        const QRect plot(int(p.x0), 400 - int(p.y1), int(p.width()), int(p.height()));
        long inPlot = 0, outside = 0;
        for (int yy = 0; yy < a.height(); ++yy)
            for (int xx = 0; xx < a.width(); ++xx)
                if (a.pixel(xx, yy) != b.pixel(xx, yy)) (plot.contains(xx, yy) ? inPlot : outside) += 1;
        QCOMPARE(outside, 0L);
        QVERIFY2(inPlot > 1000, qPrintable(QString::number(inPlot)));
        io::Unprojection proj(io::projDefinition(ds.findVariable("rotated_pole")->attrs()));
        auto inkNear = [&](double lon, double lat, int radius) {
            const auto g = proj.forward(lon, lat); // grid degrees (rlon, rlat)
            const int px = int(std::floor(t.pixelX(g.lon))), py = 399 - int(std::floor(t.pixelY(g.lat)));
            for (int dy = -radius; dy <= radius; ++dy)
                for (int dx = -radius; dx <= radius; ++dx)
                    if (a.pixel(px + dx, py + dy) != b.pixel(px + dx, py + dy)) return true;
            return false;
        };
        QVERIFY(inkNear(-5.71, 50.07, 2)); // Land's End
        QVERIFY(inkNear(-5.35, 36.14, 2)); // Gibraltar
        QVERIFY(!inkNear(10.0, 25.0, 4));  // the Sahara
        QVERIFY(sameWindow(fullWindow(x, y), window));
        QCOMPARE(computeLayout(640, 400, 1, fullWindow(x, y), keepsAspect(AspectMode::Auto, x, y)).plot, p);
    }

    // Shorelines that cannot be read do not stop the export: the picture is written without
    // them and a warning names the file.
    void unreadableCoastlinesAreNamed() {
        QTemporaryDir coast;
        QVERIFY(QDir(coast.path()).mkpath("c"));
        const QString bad = coast.filePath("c/GSHHS_c_L1.shp");
        for (const QString& path : {bad, coast.filePath("c/GSHHS_c_L1.shx")}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(200, 'x'));
        }
        QTemporaryDir noGshhg; // the shapefiles are read only without GSHHG files
        qputenv("STRATA_COASTLINES_DIR", coast.path().toUtf8());
        qputenv("STRATA_GSHHG_DIR", noGshhg.path().toUtf8());
        const QString png = dir_.filePath("bad_coast.png"), plain = dir_.filePath("plain.png");
        const Run r = runStrata({kSample, "--size", "640x400", "--export-png", png});
        qunsetenv("STRATA_COASTLINES_DIR");
        qunsetenv("STRATA_GSHHG_DIR");
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("coastlines not drawn") && r.err.contains(bad), qPrintable(r.err));
        const Run off =
            runStrata({kSample, "--size", "640x400", "--export-png", plain, "--coastlines", "off"});
        QVERIFY2(off.status == 0, qPrintable(off.err));
        QVERIFY(!off.err.contains("coastlines"));
        QCOMPARE(QImage(png), QImage(plain)); // the cells alone
    }

    // A GSHHG file that cannot be read is named like a shapefile, and the picture drawn without
    // it; -v names the level drawn and where it comes from (Debian's GSHHG, else the shapefiles
    // of python-cartopy-data when the GSHHG folder is empty).
    void coastlineSourceIsTold() {
        if (!QFileInfo::exists("/usr/share/gmt-gshhg/binned_GSHHS_c.nc"))
            QSKIP("no GSHHG files (gmt-gshhg-low)");
        const QString png = dir_.filePath("told.png");
        Run r = runStrata({kSample, "--size", "640x400", "--export-png", png, "-v"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(
            r.err.contains("coastlines: GSHHG 2.3.7 crude (25 km), /usr/share/gmt-gshhg (gmt-gshhg-low)"),
            qPrintable(r.err));
        QTemporaryDir empty, broken;
        const QString bad = broken.filePath("binned_GSHHS_c.nc");
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray(4096, 'x'));
        }
        qputenv("STRATA_GSHHG_DIR", empty.path().toUtf8());
        r = runStrata({kSample, "--size", "640x400", "--export-png", png, "-v"});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        if (QFileInfo::exists("/usr/share/cartopy/data/shapefiles/gshhs/c/GSHHS_c_L1.shp"))
            QVERIFY2(r.err.contains("coastlines: GSHHS shapefile crude (25 km), "
                                    "/usr/share/cartopy/data/shapefiles/gshhs (python-cartopy-data)"),
                     qPrintable(r.err));
        qputenv("STRATA_GSHHG_DIR", broken.path().toUtf8());
        r = runStrata({kSample, "--size", "640x400", "--export-png", png});
        qunsetenv("STRATA_GSHHG_DIR");
        QVERIFY2(r.status == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains("coastlines not drawn") && r.err.contains(bad), qPrintable(r.err));
    }

    // No DISPLAY (a batch job, ssh): the binary starts a private Xvfb, draws the same picture,
    // and stops the server before it exits.
    void worksWithoutADisplay() {
        const QString png = dir_.filePath("no_display.png");
        const Run r =
            runStrata({kSample, "--size", "640x400", "--export-png", png, "-v"}, /*withoutDisplay=*/true);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QImage img(png);
        QCOMPARE(img.size(), QSize(640, 400));
        const QString why = test::compareWithBaseline(img, "cli_sample_640x400");
        QVERIFY2(why.isEmpty(), qPrintable(why));

        const QRegularExpression started("started Xvfb on :(\\d+) \\(pid (\\d+)\\)");
        const auto m = started.match(r.err);
        QVERIFY2(m.hasMatch(), qPrintable(r.err));
        const QString display = m.captured(1);
        const pid_t pid = m.captured(2).toInt();
        QVERIFY(r.err.contains("stopped Xvfb on :" + display));
        // Gone: no process, no socket, no lock file.
        QVERIFY(!xvfbRunning(pid));
        QVERIFY(!QFileInfo::exists("/tmp/.X11-unix/X" + display));
        QVERIFY(!QFileInfo::exists("/tmp/.X" + display + "-lock"));
    }

    // Killed while drawing, the binary still takes its Xvfb with it (parent-death signal).
    void noXvfbLeftWhenKilled() {
        QProcess p;
        p.setProcessEnvironment(stratatest::strataEnvironment({}, {"DISPLAY"}));
        p.setReadChannel(QProcess::StandardError);
        p.start(STRATA_APP_BINARY,
                {kSample, "--size", "6000x4000", "--export-png", dir_.filePath("killed.png"), "-v"});
        QByteArray err;
        const QRegularExpression started("started Xvfb on :(\\d+) \\(pid (\\d+)\\)");
        QRegularExpressionMatch m;
        while (!m.hasMatch() && p.waitForReadyRead(30000)) {
            err += p.readAllStandardError();
            m = started.match(QString::fromUtf8(err));
        }
        QVERIFY2(m.hasMatch(), err.constData());
        const pid_t pid = m.captured(2).toInt();
        QVERIFY(xvfbRunning(pid)); // drawing has only begun
        p.kill();
        QVERIFY(p.waitForFinished(30000));
        bool gone = false;
        for (int i = 0; i < 100 && !gone; ++i) {
            gone = !xvfbRunning(pid);
            if (!gone) QTest::qWait(50);
        }
        QVERIFY2(gone, qPrintable(QString("Xvfb (pid %1) is still running").arg(pid)));
        QVERIFY(!QFileInfo::exists(dir_.filePath("killed.png"))); // nor a partial PNG
    }

    // A PNG that cannot be written: exit 1, the reason, nothing left behind.
    void unwritablePngLeavesNothing() {
        const Run r = runStrata({kSample, "--export-png", "/proc/strata-cannot-write.png"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("cannot write"), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
    }
};

QTEST_GUILESS_MAIN(TestExport)
#include "tst_export.moc"
