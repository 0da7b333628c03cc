// The on-screen image view, both ways to the screen: through GL (the Qt 6 ↔ VTK bridge) and
// painted with the raster engine (host frames). Each draws the plot's cells exactly as PNG
// export does, its axes where export puts them, reports its frame path, picks cells under the
// mouse, zooms about the cursor and pans with a drag.
#include <QtTest/QtTest>

#include <QApplication>

#include "../crash_trace.h"
#include "../gpu_skip.h"
#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/render/image_export.h"
#include "strata/render/image_view.h"

using namespace strata;
using namespace test;

namespace {

// The view's GL surfaces: widgets of the VTK views module, known here by their class name
// (the test links no VTK; the module is loaded with the first GL frame).
QList<QWidget*> glSurfaces(const ImageView& view) {
    QList<QWidget*> out;
    for (QWidget* w : view.findChildren<QWidget*>())
        if (w->inherits("strata::VtkGlWidget")) out << w;
    return out;
}

constexpr int kW = 720, kH = 420;

// Where the checked pixels are, placed by hand from the layout's stated geometry (not by
// computeLayout, which is only asked afterwards, for a second opinion). view_layout.cpp, .h:
// margins of 84 left, 58 below, 40 above, 118 right; with the aspect kept, the plot shrinks,
// centred, to the data's width / height; corners rounded to whole pixels; a regular frame shown
// whole within 1 % of whole pixels per cell shrinks to them, the spare split (floored) before.
//
// lonLatFrame's 144 × 73 cells of 2.5° span lon −1.25…358.75, lat −91.25…91.25: 360 / 182.5 =
// 1.9726 is wider than the 518 × 322 area of a 720 × 420 view (1.6087), so the plot keeps the
// width, x 84…602, and is 518 / 1.9726 = 262.597 high, from 58 + 29.701 = 87.701 (88) to
// 350.299 (350); 518 / 144 = 3.6 pixels a cell is not within 1 % of whole. Zoom and pan keep
// the window's proportions, so every window the shared view shows is drawn there too.
constexpr PixelRect kPlot{84, 88, 602, 350};
const ViewWindow kFull{-1.25, 358.75, -91.25, 91.25};

// The cell of `edges` (ascending) holding `v`, by a plain search: −1 outside.
int cellOf(const std::vector<double>& edges, double v) {
    for (std::size_t i = 0; i + 1 < edges.size(); ++i)
        if (v >= edges[i] && v < edges[i + 1]) return static_cast<int>(i);
    return v == edges.back() ? static_cast<int>(edges.size()) - 2 : -1;
}

} // namespace

class TestImageView : public QObject {
    Q_OBJECT
public:
    explicit TestImageView(ImagePresentation p) : presentation_(p) {}

private:
    const ImagePresentation presentation_;
    bool gl() const { return presentation_ == ImagePresentation::Gl; }
    std::unique_ptr<ImageView> view_;
    DataArray frame_;
    ImageViewSettings settings_;

    // The shared view's mapping: the hand-placed plot and the window it shows.
    ViewTransform transform() const { return ViewTransform(kPlot, view_->settings().window.value_or(kFull)); }
    // The same picture: the plot's cells pixel for pixel. Around them, through GL a few
    // line-end pixels may be rasterised differently by the widget's and the offscreen window's
    // GL contexts; painted with the raster engine the text is Qt's, not VTK's, so there the
    // border, every tick and the amount of ink must agree instead.
    bool sameContent(const QImage& a, const QImage& b) const {
        const PixelRect p = transform().plot();
        const QRect inner(int(p.x0) + 1, kH - int(p.y1) + 1, int(p.width()) - 2, int(p.height()) - 2);
        if (gl()) {
            const long cells = differingPixels(a.copy(inner), b.copy(inner), 0);
            const long all = differingPixels(a, b, 2);
            if (cells != 0 || all > 60) qWarning("%ld plot pixels and %ld pixels in all differ", cells, all);
            return cells == 0 && all <= 60;
        }
        // A pixel whose centre falls on an edge between two cells may go to either.
        const long cells = differingOffEdges(a, b, inner, transform());
        const long inkA = ink(a, inner), inkB = ink(b, inner);
        const QString ticks = tickDifference(a, b);
        if (cells != 0 || std::abs(inkA - inkB) > inkB / 5 || !ticks.isEmpty())
            qWarning("%ld plot pixels differ; ink %ld against %ld; %s", cells, inkA, inkB, qPrintable(ticks));
        return cells == 0 && std::abs(inkA - inkB) <= inkB / 5 && ticks.isEmpty();
    }
    // Pixels of `inner` that differ, but for those whose centre is on a cell edge of the view
    // `t` describes.
    long differingOffEdges(const QImage& a, const QImage& b, const QRect& inner,
                           const ViewTransform& t) const {
        const AxisGrid y = axisGrid(frame_, 0), x = axisGrid(frame_, 1);
        // GL places the mesh and interpolates its texture coordinates in single precision
        // (zoomed, pixel centres 0.009 pixel past an edge were drawn on its other side): within
        // a fiftieth of a pixel of an edge counts as on it.
        const double xTol = 0.02 * (t.window().x1 - t.window().x0) / t.plot().width();
        const double yTol = 0.02 * (t.window().y1 - t.window().y0) / t.plot().height();
        long n = 0;
        for (int py = inner.top(); py <= inner.bottom(); ++py)
            for (int px = inner.left(); px <= inner.right(); ++px)
                n += a.pixel(px, py) != b.pixel(px, py) && !nearAnEdge(x, t.dataX(px + 0.5), xTol) &&
                     !nearAnEdge(y, t.dataY(kH - py - 0.5), yTol);
        return n;
    }
    // Within `tolerance` of one of the grid's cell edges.
    static bool nearAnEdge(const AxisGrid& g, double v, double tolerance) {
        return std::any_of(g.edges.begin(), g.edges.end(),
                           [&](double e) { return std::abs(e - v) <= tolerance; });
    }
    // Dark pixels outside `plot`: lines and text.
    static long ink(const QImage& img, const QRect& plot) {
        long n = 0;
        for (int y = 0; y < img.height(); ++y)
            for (int x = 0; x < img.width(); ++x)
                n += !plot.adjusted(-2, -2, 2, 2).contains(x, y) && qGray(img.pixel(x, y)) < 100;
        return n;
    }
    // Where the two disagree on the border and the tick marks below and left of the plot.
    QString tickDifference(const QImage& a, const QImage& b) const {
        const PixelRect p = transform().plot();
        const int bottom = kH - int(p.y0) + 3, left = int(p.x0) - 4; // 3 pixels into the ticks
        auto dark = [](const QImage& img, int x, int y) { return qGray(img.pixel(x, y)) < 100; };
        for (int x = int(p.x0) - 1; x <= int(p.x1); ++x)
            if (dark(a, x, bottom) != dark(b, x, bottom)) return QString("x tick at column %1").arg(x);
        for (int y = kH - int(p.y1) - 1; y <= kH - int(p.y0); ++y)
            if (dark(a, left, y) != dark(b, left, y)) return QString("y tick at row %1").arg(y);
        return {};
    }
    // Shows `frame` in `view` at `size` with the test's settings and presentation; what is on
    // the screen then.
    QImage show(ImageView& view, QSize size, const DataArray& frame) const {
        view.setPresentation(presentation_);
        view.setFixedSize(size);
        view.setSettings(settings_);
        view.setFrame({frame});
        view.show();
        if (!QTest::qWaitForWindowExposed(gl() ? view.glWindow() : view.windowHandle())) return {};
        QImage shot;
        if (!QTest::qWaitFor([&] { return !(shot = view.grabImage()).isNull(); })) return {};
        return shot;
    }
    QPointF toWidget(double x, double y) const {
        ViewTransform t = transform();
        return {t.pixelX(x), kH - t.pixelY(y)};
    }

private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d) QFAIL("the view needs an X display: run under xvfb-run (scripts/run-tests.sh)");
        frame_ = lonLatFrame(false, true);
        settings_.colouring.range = {RangeMode::Fixed, -1, 1};
        view_ = std::make_unique<ImageView>();
        view_->setPresentation(presentation_);
        view_->setFixedSize(kW, kH);
        view_->setSettings(settings_);
        view_->setFrame({frame_});
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        // Through GL the frame is drawn in a native GL window of the view's own; painted, the
        // view has no GL window at all.
        QCOMPARE(view_->drawsWithGl(), gl());
        QCOMPARE(view_->glWindow() != nullptr, gl());
        QCOMPARE(glSurfaces(*view_).isEmpty(), !gl());
        if (gl()) QVERIFY(QTest::qWaitForWindowExposed(view_->glWindow()));
        QTRY_VERIFY(!view_->grabImage().isNull());
    }

    void drawsWhatExportDraws() {
        const auto before = transferCounters();
        QImage onScreen = view_->grabImage().convertToFormat(QImage::Format_RGB888);
        QCOMPARE(transferredSince(before).deviceToHost, 0u); // a host frame: nothing crosses
        QVERIFY2(view_->lastError().isEmpty(), qPrintable(view_->lastError()));
        QCOMPARE(onScreen.size(), QSize(kW, kH));
        QImage exported = renderImage({frame_}, settings_, QSize(kW, kH));
        QVERIFY2(sameContent(onScreen, exported),
                 qPrintable(saveDifference(onScreen, exported, "view_vs_export", 2)));
        // And cell colours as the map says.
        const auto table = colormapTable("viridis");
        ViewTransform t = transform();
        Rgba8 got = colourAt(onScreen, t.pixelX(45), t.pixelY(45));
        QVERIFY(got == expectedColour(table, static_cast<float>(analytic(45, 45)), -1, 1,
                                      settings_.colouring.nanColour));
        // Unzoomed, the regular grid is copied onto whole pixels, the right way up (latitude is
        // stored north to south): the NaN block lies north of the equator, not south.
        if (gl()) QVERIFY(view_->frameCopied());
        QVERIFY(colourAt(onScreen, t.pixelX(120), t.pixelY(15)) == settings_.colouring.nanColour);
        QVERIFY(colourAt(onScreen, t.pixelX(120), t.pixelY(-15)) ==
                expectedColour(table, static_cast<float>(analytic(120, -15)), -1, 1,
                               settings_.colouring.nanColour));
        QVERIFY(colourAt(onScreen, t.pixelX(200), t.pixelY(60)) ==
                expectedColour(table, static_cast<float>(analytic(200, 60)), -1, 1,
                               settings_.colouring.nanColour));
        // The layout agrees with the hand-placed plot.
        const AxisGrid y = axisGrid(frame_, 0), x = axisGrid(frame_, 1);
        QCOMPARE(fullWindow(x, y), kFull);
        QCOMPARE(computeLayout(kW, kH, 1, kFull, true, {144, 73}).plot, kPlot);
    }

    // The frame on the GPU, drawn through GL (the painted view takes host frames only): the same
    // picture as the host frame's, cell colours where the hand-placed plot puts the cells, the
    // NaN block north of the equator, copied onto whole pixels.
    void deviceFrameDrawsAsTheHostFrame() {
        if (!gl()) QSKIP("run once, from the GL presentation's cases");
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        ImageView device;
        const DataArray onDevice = frame_.asDevice(Device::cuda(0), defaultStream(Device::cuda(0)));
        const auto before = transferCounters();
        QImage shot = show(device, QSize(kW, kH), onDevice);
        QVERIFY(!shot.isNull());
        if (qEnvironmentVariable("STRATA_EXPECT_INTEROP") == "1")
            QCOMPARE(transferredSince(before).deviceToHost, 24u); // its extremes and count only
        QVERIFY2(device.lastError().isEmpty(), qPrintable(device.lastError()));
        shot = shot.convertToFormat(QImage::Format_RGB888);
        const QImage host = view_->grabImage().convertToFormat(QImage::Format_RGB888);
        QVERIFY2(sameContent(shot, host), qPrintable(saveDifference(shot, host, "device_vs_host", 2)));
        const auto table = colormapTable("viridis");
        const ViewTransform t = transform();
        for (const auto& [lon, lat] : {std::pair{45.0, 45.0}, {120.0, -15.0}, {200.0, 60.0}, {300.0, -70.0}})
            QVERIFY2(colourAt(shot, t.pixelX(lon), t.pixelY(lat)) ==
                         expectedColour(table, static_cast<float>(analytic(lon, lat)), -1, 1,
                                        settings_.colouring.nanColour),
                     qPrintable(QString("lon %1 lat %2").arg(lon).arg(lat)));
        QVERIFY(colourAt(shot, t.pixelX(120), t.pixelY(15)) == settings_.colouring.nanColour);
        QVERIFY(device.frameCopied());
    }

    // Coastlines over a longitude/latitude frame, on the screen (painted or through GL) and in
    // export alike: ink inside the plot only, at Cape Agulhas (20.0°E, 34.8°S) where the view's
    // mapping puts it; none in the Sahara (20°E, 22°N); gone again when switched off.
    void drawsCoastlinesOverTheFrame() {
        const QImage without = view_->grabImage().convertToFormat(QImage::Format_RGB32);
        ImageViewSettings s = settings_;
        s.coastlines = true;
        view_->setSettings(s);
        struct Restore { // the next tests see the view as it was, whatever fails here
            ImageView& view;
            const ImageViewSettings& settings;
            ~Restore() { view.setSettings(settings); }
        } restore{*view_, settings_};
        QImage with;
        QTRY_VERIFY(!(with = view_->grabImage().convertToFormat(QImage::Format_RGB32)).isNull() &&
                    with != without);
        const ViewTransform t = transform();
        const PixelRect& p = t.plot();
        const QRect plot(int(p.x0), kH - int(p.y1), int(p.width()), int(p.height()));
        // Ink inside the plot only; `b` without coasts, `a` with.
        auto coastInk = [&](const QImage& a, const QImage& b) {
            long n = 0;
            for (int y = 0; y < kH; ++y)
                for (int x = 0; x < kW; ++x)
                    if (a.pixel(x, y) != b.pixel(x, y)) {
                        if (!plot.contains(x, y) || qGray(a.pixel(x, y)) >= 60) return -1L;
                        ++n;
                    }
            return n;
        };
        const long inside = coastInk(with, without);
        QVERIFY2(inside > 1000, qPrintable(QString::number(inside)));
        auto inkNear = [&](double lon, double lat, int r) {
            const int px = int(std::floor(t.pixelX(lon))), py = kH - 1 - int(std::floor(t.pixelY(lat)));
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx)
                    if (with.pixel(px + dx, py + dy) != without.pixel(px + dx, py + dy)) return true;
            return false;
        };
        QVERIFY(inkNear(20.0, -34.8, 2));
        QVERIFY(!inkNear(20.0, 22.0, 4));
        // Export draws them too, about as much ink (GL lines and the raster's differ in a few
        // pixels' steps).
        const QImage exportedWith =
            renderImage({frame_}, s, QSize(kW, kH)).convertToFormat(QImage::Format_RGB32);
        const QImage exportedWithout =
            renderImage({frame_}, settings_, QSize(kW, kH)).convertToFormat(QImage::Format_RGB32);
        const long exported = coastInk(exportedWith, exportedWithout);
        QVERIFY2(std::abs(exported - inside) <= inside / 5,
                 qPrintable(QString("%1 against %2").arg(exported).arg(inside)));
        view_->setSettings(settings_);
        QTRY_COMPARE(view_->grabImage().convertToFormat(QImage::Format_RGB32), without);
    }

    void reportsThePath() {
        FramePathInfo p = view_->framePath();
        // A host frame (no GPU here): uploaded into a GL texture, or painted without GL.
        QCOMPARE(p.path, gl() ? FramePath::HostUpload : FramePath::HostRaster);
        QVERIFY(!p.reason.empty());
    }

    void redrawsOnlyWhatAStepChanges() {
        // A step through time: the same grid, other values, another title. The axes' props (and
        // their text textures) are kept; the title is made anew, and the colour bar (its
        // "missing" swatch goes with the NaN block); the picture is still exactly what export
        // draws for the new frame.
        QVERIFY(!view_->grabImage().isNull());
        const DataArray next = lonLatFrame(false, false); // the NaN block filled in
        const ImageFrame step{next, "analytic field  time = 2"};
        view_->setFrame(step);
        QImage shown = view_->grabImage();
        QCOMPARE(view_->annotationGroupsRebuilt(), gl() ? 2 : -1); // title and bar (the range is fixed)
        QCOMPARE(view_->annotationLabelsDrawn(), gl() ? 1 : -1);   // the title's text; the bar's labels kept
        QVERIFY2(sameContent(shown, renderImage(step, settings_, QSize(kW, kH))),
                 qPrintable(saveDifference(shown, renderImage(step, settings_, QSize(kW, kH)), "step", 2)));
        // Nothing changed: nothing rebuilt.
        (void)view_->grabImage();
        QCOMPARE(view_->annotationGroupsRebuilt(), gl() ? 0 : -1);
        // Another range: the colour bar's ticks follow it, the axes stay.
        ImageViewSettings perFrame = settings_;
        perFrame.colouring.range = ColourRange{RangeMode::Fixed, -2, 2};
        view_->setSettings(perFrame);
        shown = view_->grabImage();
        QCOMPARE(view_->annotationGroupsRebuilt(), gl() ? 1 : -1); // the colour bar
        QVERIFY(sameContent(shown, renderImage(step, perFrame, QSize(kW, kH))));
        // A range that moves every tick but keeps their text (-2, -1, 0, 1, 2), as a per-frame
        // range does from step to step: the bar's labels are moved, none is drawn again, and
        // each sits where export puts it.
        perFrame.colouring.range = ColourRange{RangeMode::Fixed, -2.3, 2.2};
        view_->setSettings(perFrame);
        shown = view_->grabImage();
        QCOMPARE(view_->annotationGroupsRebuilt(), gl() ? 1 : -1);
        QCOMPARE(view_->annotationLabelsDrawn(), gl() ? 0 : -1);
        QVERIFY2(sameContent(shown, renderImage(step, perFrame, QSize(kW, kH))),
                 qPrintable(saveDifference(shown, renderImage(step, perFrame, QSize(kW, kH)), "moved", 2)));
        // Back to the test's frame and settings for the cases after: title and bar redrawn.
        view_->setSettings(settings_);
        view_->setFrame({frame_});
        shown = view_->grabImage();
        QCOMPARE(view_->annotationGroupsRebuilt(), gl() ? 2 : -1);
        QVERIFY(sameContent(shown, renderImage({frame_}, settings_, QSize(kW, kH))));
    }

    void wholePixelsPerCellWhenNearlyThere() {
        // A plot area of 290 x 147 for 144 x 73 cells: within 1 % of two pixels per cell, so
        // the plot is 288 x 146 and every cell is a 2 x 2 block of exactly its colour.
        // By hand: the area is x 84…374, y 58…205 (a 492 x 245 view); 290 / 147 = 1.97279 is
        // just wider than 360 / 182.5 = 1.97260, so the height is kept and the width is 147 ·
        // 1.97260 = 289.973, from 84.014 (84) to 373.986 (374). Two pixels a cell leave 290 − 288
        // = 2 ≤ 2.9 and 147 − 146 = 1 ≤ 1.47 spare: x0 84 + 1, y0 58 + floor(0.5) = 58.
        constexpr PixelRect plot{85, 58, 373, 204};
        ImageView view;
        QImage shot = show(view, QSize(290 + 84 + 118, 147 + 58 + 40), frame_);
        QVERIFY(!shot.isNull());
        QCOMPARE(view.frameCopied(), gl()); // painted: two pixels per cell are looked up, not copied
        const AxisGrid y = axisGrid(frame_, 0), x = axisGrid(frame_, 1);
        const auto table = colormapTable("viridis");
        const std::vector<float> values = frame_.asHost().values<float>();
        long wrong = 0;
        for (int r = 0; r < 73; ++r)
            for (int c = 0; c < 144; ++c) {
                const Rgba8 want =
                    expectedColour(table, values[r * 144 + c], -1, 1, settings_.colouring.nanColour);
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) // row 0 (90°N) at the top
                        wrong +=
                            !(colourAt(shot, plot.x0 + 2 * c + dx + 0.5, plot.y1 - 2 * r - dy - 0.5) == want);
            }
        QCOMPARE(wrong, 0L);
        // The pick agrees with the pixels: the top-left cell's bottom-right pixel (x 86, 245 −
        // 204 + 1 = 42 from the top) is cell (0, 0).
        const Pick p = view.pickAt(QPointF(86.5, 42.5));
        QCOMPARE(p.row, 0);
        QCOMPARE(p.column, 0);
        QCOMPARE(computeLayout(view.width(), view.height(), 1, fullWindow(x, y), true, {144, 73}).plot, plot);

        // Panned so that the cells still fall on whole pixels (0.8 pixel per degree, 2 per cell)
        // with the frame reaching 20 pixels past the plot's left side: still copied, and clipped
        // to the plot (the margin stays white, the plot right of the frame its grey).
        ImageViewSettings panned = settings_;
        const ViewWindow full = fullWindow(x, y);
        panned.window =
            ViewWindow{full.x0 + 25, full.x0 + 25 + 362.5, full.y0 - 1.25, full.y0 - 1.25 + 183.75};
        view.setSettings(panned);
        shot = view.grabImage();
        QCOMPARE(view.frameCopied(), gl());
        // By hand: 362.5 / 183.75 = 290 / 147 exactly, the area's own proportions, so the plot
        // is the whole area, x 84…374, y 58…205 (not shrunk to whole cells: the frame is not
        // shown whole), 290 / 362.5 = 0.8 pixel per degree; the frame's west edge, −1.25°, is
        // 25 · 0.8 = 20 pixels left of the plot.
        constexpr PixelRect panPlot{84, 58, 374, 205};
        // Cell (r, c) is drawn at x = plot.x0 - 20 + 2c, rows from the top as before: cells 10
        // and on inside the plot exactly, cells 0-9 (left of it) nowhere.
        long inside = 0, outside = 0;
        for (int r = 0; r < 73; ++r)
            for (int c = 0; c < 144; ++c) {
                const Rgba8 want =
                    expectedColour(table, values[r * 144 + c], -1, 1, settings_.colouring.nanColour);
                const bool same =
                    colourAt(shot, panPlot.x0 - 20 + 2 * c + 0.5, panPlot.y1 - 2 * r - 1) == want;
                (c < 10 ? outside : inside) += same;
            }
        QCOMPARE(inside, 73L * 134);
        // None: the margin there holds only white, the axis' black and the grey of antialiased
        // text; those ten columns (0°–22.5°E) hold no NaN and no viridis entry is a grey (both
        // checked here), so no margin pixel can pass for one of their colours by chance. (The
        // bound was 72, under one column, for no stated reason; it is exact on the raster and
        // the GL path alike.)
        for (const Rgba8& e : table) QVERIFY(!(e.r == e.g && e.g == e.b));
        for (int r = 0; r < 73; ++r)
            for (int c = 0; c < 10; ++c) QVERIFY(!std::isnan(values[r * 144 + c]));
        QVERIFY2(outside == 0, qPrintable(QString("%1 cells drawn past the plot").arg(outside)));
        QVERIFY(colourAt(shot, panPlot.x1 - 3, (panPlot.y0 + panPlot.y1) / 2) == (Rgba8{209, 209, 209, 255}));
        if (gl()) {
            const QImage exported = renderImage({frame_}, panned, view.size());
            QVERIFY2(differingPixels(shot, exported, 2) <= 60,
                     qPrintable(saveDifference(shot, exported, "panned", 2)));
        }
        QCOMPARE(computeLayout(view.width(), view.height(), 1, *panned.window, true).plot, panPlot);
    }

    void onePixelPerCellIsCopied() {
        // 144 x 73 cells on a plot of exactly 144 x 73 pixels: copied (no lookup per pixel when
        // painted, no mesh through GL), every pixel its cell's colour, latitude stored north to
        // south (rows as they lie in memory) and south to north (drawn bottom up).
        // By hand: a 346 x 172 view has the area x 84…228 (144), y 58…132 (74); 144 / 74 =
        // 1.946 is narrower than 1.9726, so the width is kept and the plot is 144 / 1.9726 = 73
        // high, from 58 + 0.5 = 58.5 (rounded away from zero: 59) to 131.5 (132); one pixel a
        // cell, none spare.
        constexpr PixelRect plot{84, 59, 228, 132};
        for (bool ascending : {false, true}) {
            const DataArray frame = lonLatFrame(ascending, true);
            ImageView view;
            const QImage shot = show(view, QSize(144 + 84 + 118, 73 + 58 + 40 + 1), frame);
            QVERIFY(!shot.isNull());
            QVERIFY(view.frameCopied());
            const auto table = colormapTable("viridis");
            const std::vector<float> values = frame.asHost().values<float>();
            long wrong = 0;
            for (int r = 0; r < 73; ++r)
                for (int c = 0; c < 144; ++c) {
                    const double py = ascending ? plot.y0 + r + 0.5 : plot.y1 - r - 0.5;
                    wrong +=
                        !(colourAt(shot, plot.x0 + c + 0.5, py) ==
                          expectedColour(table, values[r * 144 + c], -1, 1, settings_.colouring.nanColour));
                }
            QCOMPARE(wrong, 0L);
            const AxisGrid y = axisGrid(frame, 0), x = axisGrid(frame, 1);
            QCOMPARE(computeLayout(view.width(), view.height(), 1, fullWindow(x, y), true, {144, 73}).plot,
                     plot);
        }
    }

    void irregularCellsCoverTheirOwnExtent() {
        // Latitudes closer together towards the equator, as on a Gaussian grid: each pixel shows
        // the cell whose edges, halfway to its neighbours, hold the pixel's centre, zoomed out
        // and zoomed in. The cell is found here by hand, from the hand-placed plot below and the
        // window shown; the pick must name the same one.
        std::vector<double> lat, lon;
        for (int j = 0; j < 40; ++j) lat.push_back(80 * std::sin(-1.3 + 2.6 * j / 39));
        for (int i = 0; i < 72; ++i) lon.push_back(5.0 * i);
        std::vector<float> v;
        for (double la : lat)
            for (double lo : lon) v.push_back(static_cast<float>(analytic(lo, la)));
        Coordinates cs;
        cs.set(axis("lat", lat, "degrees_north", "latitude"));
        cs.set(axis("lon", lon, "degrees_east", "longitude"));
        const DataArray frame = DataArray::fromHost("f", {"lat", "lon"}, {40, 72}, v, cs);
        // Edges halfway between centres, the outer ones half a step beyond: lon −2.5…357.5 by 5,
        // lat from 80 sin(−1.3) − (80 sin(−1.2333) − 80 sin(−1.3)) / 2 = −77.0847 − 0.7984 =
        // −77.8831 to +77.8831.
        std::vector<double> lonEdges, latEdges{lat[0] - (lat[1] - lat[0]) / 2};
        for (int i = 0; i <= 72; ++i) lonEdges.push_back(5.0 * i - 2.5);
        for (int j = 0; j + 1 < 40; ++j) latEdges.push_back((lat[j] + lat[j + 1]) / 2);
        latEdges.push_back(lat[39] + (lat[39] - lat[38]) / 2);
        const ViewWindow full{-2.5, 357.5, latEdges.front(), latEdges.back()};
        // 360 / 155.766 = 2.3112 is wider than the area's 518 / 322, so the plot keeps the width,
        // x 84…602, and is 518 / 2.3112 = 224.130 high, from 58 + 48.935 = 106.935 (107) to
        // 331.065 (331); the latitudes are not evenly spaced, so no whole pixels per cell. Zoomed
        // about a point, the window keeps its proportions and the plot its place.
        constexpr PixelRect plot{84, 107, 602, 331};
        const AxisGrid yg = axisGrid(frame, 0), xg = axisGrid(frame, 1);
        QVERIFY(!isUniform(yg.edges));
        ImageView view;
        QVERIFY(!show(view, QSize(kW, kH), frame).isNull());
        const auto table = colormapTable("viridis");
        for (double factor : {1.0, 3.0}) {
            ImageViewSettings s = settings_;
            if (factor > 1) s.window = zoomed(full, factor, 100, 10);
            view.setSettings(s);
            QImage shot;
            QTRY_VERIFY(!(shot = view.grabImage()).isNull());
            QVERIFY(!view.frameCopied());
            const ViewTransform t(plot, s.window.value_or(full));
            // Within a fiftieth of a pixel of an edge, either cell will do (see differingOffEdges).
            const double xTol = 0.02 * (t.window().x1 - t.window().x0) / plot.width();
            const double yTol = 0.02 * (t.window().y1 - t.window().y0) / plot.height();
            long checked = 0, wrong = 0, pickedOther = 0;
            for (int py = 0; py < kH; py += 2)
                for (int px = 0; px < kW; px += 2) {
                    const double wx = px + 0.5, wy = kH - py - 0.5; // window pixels, origin bottom left
                    if (wx < plot.x0 || wx > plot.x1 || wy < plot.y0 || wy > plot.y1) continue;
                    const double x = t.dataX(wx), y = t.dataY(wy);
                    const int column = cellOf(lonEdges, x), row = cellOf(latEdges, y);
                    if (column < 0 || row < 0 || nearAnEdge(xg, x, xTol) || nearAnEdge(yg, y, yTol)) continue;
                    ++checked;
                    const QRgb got = shot.pixel(px, py);
                    const Rgba8 want =
                        expectedColour(table, v[row * 72 + column], -1, 1, settings_.colouring.nanColour);
                    wrong += !(qRed(got) == want.r && qGreen(got) == want.g && qBlue(got) == want.b);
                    const Pick p = view.pickAt(QPointF(wx, py + 0.5));
                    pickedOther += !p.inside || p.row != row || p.column != column;
                }
            QVERIFY2(checked > 10000, qPrintable(QString::number(checked)));
            QVERIFY2(wrong == 0,
                     qPrintable(QString("%1 of %2 pixels at zoom %3").arg(wrong).arg(checked).arg(factor)));
            QVERIFY2(pickedOther == 0, qPrintable(QString("%1 picks name another cell").arg(pickedOther)));
        }
        // The layout, the edges and the window agree with those worked out here.
        QCOMPARE(xg.edges.size(), lonEdges.size());
        QCOMPARE(yg.edges.size(), latEdges.size());
        for (std::size_t i = 0; i < lonEdges.size(); ++i) QVERIFY(std::abs(xg.edges[i] - lonEdges[i]) < 1e-9);
        for (std::size_t i = 0; i < latEdges.size(); ++i) QVERIFY(std::abs(yg.edges[i] - latEdges[i]) < 1e-9);
        QCOMPARE(fullWindow(xg, yg), full);
        QCOMPARE(computeLayout(kW, kH, 1, full, true).plot, plot);
    }

    void usesTheColoursMadeAheadOnlyWhenTheyAreItsOwn() {
        // A frame colour-mapped ahead (off the GUI thread) with the view's settings is uploaded
        // as it is; one made with other settings is not: the view colours the frame itself.
        // Either way the picture is what export draws with the view's settings, whichever the
        // byte order the colours were made in (the window's B, G, R, A is the worker's).
        const QImage want = renderImage({frame_}, settings_, QSize(kW, kH));
        auto own =
            std::make_shared<const ColouredFrame>(colourFrame(frame_, settings_.colouring, std::nullopt));
        for (PixelOrder order : {PixelOrder::Bgra, PixelOrder::Rgba}) {
            auto made = std::make_shared<const ColouredFrame>(
                colourFrame(frame_, settings_.colouring, std::nullopt, order));
            QCOMPARE(made->order, order);
            view_->setFrame({frame_, {}, {}, made});
            const QImage shown = view_->grabImage();
            QVERIFY(view_->colouredAhead());
            QVERIFY(sameContent(shown, want));
        }
        // The two orders hold the same colours, red and blue swapped.
        {
            const auto bgra = colourFrame(frame_, settings_.colouring, std::nullopt, PixelOrder::Bgra)
                                  .rgba.values<std::uint8_t>();
            const auto rgba = own->rgba.values<std::uint8_t>();
            QCOMPARE(bgra.size(), rgba.size());
            long wrong = 0;
            for (std::size_t i = 0; i < rgba.size(); i += 4)
                wrong += bgra[i] != rgba[i + 2] || bgra[i + 1] != rgba[i + 1] || bgra[i + 2] != rgba[i] ||
                         bgra[i + 3] != rgba[i + 3];
            QCOMPARE(wrong, 0L);
        }
        QImage shown;
        ImageViewSettings magma = settings_;
        magma.colouring.colormap = "magma";
        auto other =
            std::make_shared<const ColouredFrame>(colourFrame(frame_, magma.colouring, std::nullopt));
        view_->setFrame({frame_, {}, {}, other});
        shown = view_->grabImage();
        QVERIFY(!view_->colouredAhead());
        QVERIFY(sameContent(shown, want));
        // The colour map changed after the frame came: the view's own colours again.
        view_->setFrame({frame_, {}, {}, own});
        view_->setSettings(magma);
        shown = view_->grabImage();
        QVERIFY(!view_->colouredAhead());
        QVERIFY(sameContent(shown, renderImage({frame_}, magma, QSize(kW, kH))));
        view_->setSettings(settings_);
        view_->setFrame({frame_});
    }

    void switchesBetweenPaintAndGl() {
        // One view, the presentation changed between frames (GL, painted, GL, painted): each
        // frame takes the way asked for, keeps the settings (zoom included) and draws the same
        // cells; the GL window is hidden while the view paints.
        if (!gl()) QSKIP("run once, from the GL presentation's cases");
        ImageView view;
        ImageViewSettings zoomedIn = settings_;
        zoomedIn.window = ViewWindow{60, 240, -40, 50};
        QVERIFY(!show(view, QSize(kW, kH), frame_).isNull()); // through GL first
        view.setPresentation(ImagePresentation::Auto);
        view.setFrame({frame_});
        view.setSettings(zoomedIn);
        const QImage painted = view.grabImage();
        QVERIFY(!view.drawsWithGl());
        QCOMPARE(view.framePath().path, FramePath::HostRaster);
        view.setPresentation(ImagePresentation::Gl);
        view.setFrame({frame_});
        QVERIFY(view.drawsWithGl());
        QVERIFY(QTest::qWaitForWindowExposed(view.glWindow()));
        QImage drawn;
        QTRY_VERIFY(!(drawn = view.grabImage()).isNull());
        QCOMPARE(view.framePath().path, FramePath::HostUpload);
        QCOMPARE(*view.settings().window, *zoomedIn.window);
        // By hand: 180 / 90 = 2 is wider than the area's 518 / 322, so the plot keeps the width,
        // x 84…602, and is 518 / 2 = 259 high, from 58 + 31.5 = 89.5 (rounded away from zero: 90)
        // to 348.5 (349).
        const ViewTransform t(PixelRect{84, 90, 602, 349}, *zoomedIn.window);
        const QRect inner(int(t.plot().x0) + 1, kH - int(t.plot().y1) + 1, int(t.plot().width()) - 2,
                          int(t.plot().height()) - 2);
        const long differ = differingOffEdges(painted, drawn, inner, t);
        QVERIFY2(differ == 0, qPrintable(QString("%1 plot pixels differ").arg(differ)));
        view.setPresentation(ImagePresentation::Auto);
        view.setFrame({frame_});
        QVERIFY(!view.drawsWithGl());
        QVERIFY(view.glWindow() == nullptr);
        const auto surfaces = glSurfaces(view);
        QCOMPARE(surfaces.size(), 1);
        QVERIFY(!surfaces.front()->isVisible());
        const QImage again = view.grabImage();
        QCOMPARE(differingPixels(again, painted, 0), 0L);
        const Pick p = view.pickAt(QPointF(kW / 2.0, kH / 2.0));
        QVERIFY(p.inside);
        QVERIFY(p.x > 60 && p.x < 240);
        const AxisGrid yg = axisGrid(frame_, 0), xg = axisGrid(frame_, 1);
        QCOMPARE(computeLayout(kW, kH, 1, *zoomedIn.window, keepsAspect(zoomedIn.aspect, xg, yg)).plot,
                 t.plot());
    }

    // The GL surface made ahead (the window does it while a GPU's first frame is computed):
    // hidden, the view still painting host frames, and the one a GL frame then draws through.
    void aSurfaceMadeAheadIsTheOneUsed() {
        if (!gl()) QSKIP("run once, from the GL presentation's cases");
        ImageView view;
        view.resize(kW, kH);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(glSurfaces(view).size(), 0);
        view.prepareGl();
        view.prepareGl(); // once is enough
        QCOMPARE(glSurfaces(view).size(), 1);
        QWidget* made = glSurfaces(view).front();
        QVERIFY(!made->isVisible());
        view.setFrame({frame_}); // a host frame: painted, the surface left hidden
        QVERIFY(!view.drawsWithGl());
        QVERIFY(!made->isVisible());
        view.setPresentation(ImagePresentation::Gl);
        view.setFrame({frame_});
        QVERIFY(view.drawsWithGl());
        QCOMPARE(glSurfaces(view).size(), 1);
        QCOMPARE(glSurfaces(view).front(), made);
        QVERIFY(made->isVisible());
        QVERIFY(QTest::qWaitForWindowExposed(view.glWindow()));
        QImage drawn;
        QTRY_VERIFY(!(drawn = view.grabImage()).isNull());
        QCOMPARE(view.framePath().path, FramePath::HostUpload);
    }

    void picksTheCellUnderTheMouse() {
        // Latitude is stored north to south: 45°N is row (90 − 45) / 2.5 = 18; 120°E is column 48.
        Pick p = view_->pickAt(toWidget(120.4, 45.3));
        QVERIFY(p.inside);
        QCOMPARE(p.row, 18);
        QCOMPARE(p.column, 48);
        QCOMPARE(p.yCentre, 45.0);
        QCOMPARE(p.xCentre, 120.0);
        QCOMPARE(QString::fromStdString(p.xLabel), QString("120.0°E"));
        QVERIFY(!view_->pickAt(QPointF(5, 5)).inside); // the margin
        // From elsewhere first: a move to where the pointer already is (left there by an
        // earlier run of these cases) is no move.
        // Through GL the moves reach the view as X events, later: the first one's report may come
        // after the second move was sent, so the test waits for the report of the second.
        QSignalSpy hovered(view_.get(), &ImageView::cellHovered);
        QTest::mouseMove(view_.get(), toWidget(20, 20).toPoint());
        QTest::mouseMove(view_.get(), toWidget(200, -30).toPoint());
        QTRY_VERIFY(!hovered.isEmpty() && hovered.last().at(0).value<Pick>().column == 80);
        QCOMPARE(hovered.last().at(0).value<Pick>().row, 48);
    }

    void zoomsAboutTheCursor() {
        const ViewWindow before = view_->settings().window.value_or(ViewWindow{-1.25, 358.75, -91.25, 91.25});
        QCOMPARE(before, (ViewWindow{-1.25, 358.75, -91.25, 91.25}));
        const QPointF at = toWidget(90, 30);
        QWheelEvent wheel(at, view_->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view_.get(), &wheel);
        QVERIFY(view_->settings().window.has_value());
        const ViewWindow w = *view_->settings().window;
        QVERIFY(std::abs((w.x1 - w.x0) - 360 / 1.25) < 1e-6);
        // The point under the cursor stays there (to a pixel's worth of data).
        QVERIFY(std::abs(transform().dataX(at.x()) - 90) < 1);
        QVERIFY(std::abs(transform().dataY(kH - at.y()) - 30) < 1);
        QImage zoomed = view_->grabImage();
        QVERIFY(!view_->frameCopied()); // cells off whole pixels: drawn as a mesh
        QVERIFY(sameContent(zoomed, renderImage({frame_}, view_->settings(), QSize(kW, kH))));
    }

    void pansWithADrag() {
        const ViewWindow before = *view_->settings().window;
        const QPoint from = toWidget(180, 0).toPoint();
        QTest::mousePress(view_.get(), Qt::LeftButton, Qt::NoModifier, from);
        QTest::mouseMove(view_.get(), from + QPoint(50, 0));
        QTest::mouseRelease(view_.get(), Qt::LeftButton, Qt::NoModifier, from + QPoint(50, 0));
        const ViewWindow w = *view_->settings().window;
        const double perPixel = (before.x1 - before.x0) / transform().plot().width();
        QVERIFY(std::abs((before.x0 - w.x0) - 50 * perPixel) < 1e-6); // dragged right: the data moves right
        QCOMPARE(w.y0, before.y0);
        QTest::mouseDClick(view_.get(), Qt::LeftButton, Qt::NoModifier, from);
        QVERIFY(!view_->settings().window.has_value());
    }

    // Made smaller, the view draws again at once, at its new size (a native GL child window
    // that shrinks gets no expose event: it kept the old, larger picture, cropped); and again
    // when it grows back.
    void redrawsWhenResized() {
        QSignalSpy presented(view_.get(), &ImageView::presented);
        view_->setFixedSize(kW - 60, kH - 40);
        QVERIFY(presented.wait(5000) || !presented.isEmpty());
        QTRY_COMPARE(view_->grabImage().size(), QSize(kW - 60, kH - 40));
        presented.clear();
        view_->setFixedSize(kW, kH);
        QVERIFY(presented.wait(5000) || !presented.isEmpty());
        QTRY_COMPARE(view_->grabImage().size(), QSize(kW, kH));
    }

    void survivesContextLoss() {
        // Re-parenting to a new top-level window moves the view's native GL window with it.
        QWidget holder;
        holder.resize(kW, kH);
        view_->setParent(&holder);
        view_->move(0, 0);
        holder.show();
        QVERIFY(QTest::qWaitForWindowExposed(&holder));
        if (gl()) QVERIFY(QTest::qWaitForWindowExposed(view_->glWindow()));
        QImage again;
        QTRY_VERIFY(!(again = view_->grabImage()).isNull());
        QVERIFY(sameContent(again, renderImage({frame_}, view_->settings(), QSize(kW, kH))));
        view_->setParent(nullptr);
        view_.reset(); // GL objects released while the context is current (no GL errors, no crash)
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestImageView raster(ImagePresentation::Auto), gl(ImagePresentation::Gl);
    int failed = QTest::qExec(&raster, argc, argv);
    failed += QTest::qExec(&gl, argc, argv);
    test::traceCrashes(); // past the tests: a crash in teardown names its place
    return failed;
}
#include "tst_imageview.moc"
