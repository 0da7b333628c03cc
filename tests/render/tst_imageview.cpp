// The on-screen image view: the Qt 6 ↔ VTK bridge draws what PNG export draws, reports its
// frame path, picks cells under the mouse, zooms about the cursor and pans with a drag.
#include <QtTest/QtTest>

#include <QApplication>

#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/core/transfer.h"
#include "strata/render/image_export.h"
#include "strata/render/image_view.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 720, kH = 420;

} // namespace

class TestImageView : public QObject {
    Q_OBJECT
    std::unique_ptr<ImageView> view_;
    DataArray frame_;
    ImageViewSettings settings_;

    ViewTransform transform() const {
        AxisGrid y = axisGrid(frame_, 0), x = axisGrid(frame_, 1);
        ViewWindow w = view_->settings().window.value_or(fullWindow(x, y));
        ViewLayout l = computeLayout(kW, kH, 1, w, keepsAspect(view_->settings().aspect, x, y));
        return ViewTransform(l.plot, w);
    }
    // The same picture: the plot's cells pixel for pixel; elsewhere a few line-end pixels may
    // be rasterised differently by the widget's and the offscreen window's GL contexts.
    bool sameContent(const QImage& a, const QImage& b) const {
        const PixelRect p = transform().plot();
        const QRect inner(int(p.x0) + 1, kH - int(p.y1) + 1, int(p.width()) - 2, int(p.height()) - 2);
        const long cells = differingPixels(a.copy(inner), b.copy(inner), 0);
        const long all = differingPixels(a, b, 2);
        if (cells != 0 || all > 60) qWarning("%ld plot pixels and %ld pixels in all differ", cells, all);
        return cells == 0 && all <= 60;
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
        settings_.range = {RangeMode::Fixed, -1, 1};
        view_ = std::make_unique<ImageView>();
        view_->setFixedSize(kW, kH);
        view_->setSettings(settings_);
        view_->setFrame({frame_});
        view_->show();
        QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
        // The frame is drawn in a native GL window of the view's own.
        QVERIFY(QTest::qWaitForWindowExposed(view_->glWindow()));
        QTRY_VERIFY(!view_->grabFramebuffer().isNull());
    }

    void drawsWhatExportDraws() {
        const auto before = transferCounters();
        QImage onScreen = view_->grabFramebuffer().convertToFormat(QImage::Format_RGB888);
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
        QVERIFY(got ==
                expectedColour(table, static_cast<float>(analytic(45, 45)), -1, 1, settings_.nanColour));
        // Unzoomed, the regular grid is copied onto whole pixels, the right way up (latitude is
        // stored north to south): the NaN block lies north of the equator, not south.
        QVERIFY(view_->frameCopied());
        QVERIFY(colourAt(onScreen, t.pixelX(120), t.pixelY(15)) == settings_.nanColour);
        QVERIFY(colourAt(onScreen, t.pixelX(120), t.pixelY(-15)) ==
                expectedColour(table, static_cast<float>(analytic(120, -15)), -1, 1, settings_.nanColour));
        QVERIFY(colourAt(onScreen, t.pixelX(200), t.pixelY(60)) ==
                expectedColour(table, static_cast<float>(analytic(200, 60)), -1, 1, settings_.nanColour));
    }

    void reportsThePath() {
        FramePathInfo p = view_->framePath();
        QCOMPARE(p.path, FramePath::HostUpload); // a host frame (no GPU here)
        QVERIFY(!p.reason.empty());
    }

    void redrawsOnlyWhatAStepChanges() {
        // A step through time: the same grid, other values, another title. The axes' props (and
        // their text textures) are kept; the title is made anew; the picture is still exactly
        // what export draws for the new frame.
        QVERIFY(!view_->grabFramebuffer().isNull());
        const DataArray next = lonLatFrame(false, false); // the NaN block filled in
        const ImageFrame step{next, "analytic field  time = 2"};
        view_->setFrame(step);
        QImage shown = view_->grabFramebuffer();
        QCOMPARE(view_->annotationGroupsRebuilt(), 1); // the title (the range is fixed)
        QVERIFY2(sameContent(shown, renderImage(step, settings_, QSize(kW, kH))),
                 qPrintable(saveDifference(shown, renderImage(step, settings_, QSize(kW, kH)), "step", 2)));
        // Nothing changed: nothing rebuilt.
        (void)view_->grabFramebuffer();
        QCOMPARE(view_->annotationGroupsRebuilt(), 0);
        // Another range: the colour bar's ticks follow it, the axes stay.
        ImageViewSettings perFrame = settings_;
        perFrame.range = ColourRange{RangeMode::Fixed, -2, 2};
        view_->setSettings(perFrame);
        shown = view_->grabFramebuffer();
        QCOMPARE(view_->annotationGroupsRebuilt(), 1); // the colour bar
        QVERIFY(sameContent(shown, renderImage(step, perFrame, QSize(kW, kH))));
        // Back to the test's frame and settings for the cases after: title and bar redrawn.
        view_->setSettings(settings_);
        view_->setFrame({frame_});
        shown = view_->grabFramebuffer();
        QCOMPARE(view_->annotationGroupsRebuilt(), 2);
        QVERIFY(sameContent(shown, renderImage({frame_}, settings_, QSize(kW, kH))));
    }

    void wholePixelsPerCellWhenNearlyThere() {
        // A plot area of 290 x 147 for 144 x 73 cells: within 1 % of two pixels per cell, so
        // the plot is 288 x 146 and every cell is a 2 x 2 block of exactly its colour.
        ImageView view;
        view.setFixedSize(290 + 84 + 118, 147 + 58 + 40);
        view.setSettings(settings_);
        view.setFrame({frame_});
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(view.glWindow()));
        QImage shot;
        QTRY_VERIFY(!(shot = view.grabFramebuffer()).isNull());
        QVERIFY(view.frameCopied());
        const AxisGrid y = axisGrid(frame_, 0), x = axisGrid(frame_, 1);
        const ViewLayout l = computeLayout(view.width(), view.height(), 1, fullWindow(x, y), true, {144, 73});
        QCOMPARE(l.plot.width(), 288.0);
        QCOMPARE(l.plot.height(), 146.0);
        const auto table = colormapTable("viridis");
        const std::vector<float> values = frame_.asHost().values<float>();
        long wrong = 0;
        for (int r = 0; r < 73; ++r)
            for (int c = 0; c < 144; ++c) {
                const Rgba8 want = expectedColour(table, values[r * 144 + c], -1, 1, settings_.nanColour);
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) // row 0 (90°N) at the top
                        wrong += !(colourAt(shot, l.plot.x0 + 2 * c + dx + 0.5,
                                            l.plot.y1 - 2 * r - dy - 0.5) == want);
            }
        QCOMPARE(wrong, 0L);
        // The pick agrees with the pixels: the top-left cell's bottom-right pixel is cell (0, 0).
        const Pick p = view.pickAt(QPointF(l.plot.x0 + 1.5, view.height() - l.plot.y1 + 1.5));
        QCOMPARE(p.row, 0);
        QCOMPARE(p.column, 0);

        // Panned so that the cells still fall on whole pixels (0.8 pixel per degree, 2 per cell)
        // with the frame reaching 20 pixels past the plot's left side: still copied, and clipped
        // to the plot (the margin stays white, the plot right of the frame its grey).
        ImageViewSettings panned = settings_;
        const ViewWindow full = fullWindow(x, y);
        panned.window =
            ViewWindow{full.x0 + 25, full.x0 + 25 + 362.5, full.y0 - 1.25, full.y0 - 1.25 + 183.75};
        view.setSettings(panned);
        shot = view.grabFramebuffer();
        QVERIFY(view.frameCopied());
        const ViewLayout pl = computeLayout(view.width(), view.height(), 1, *panned.window, true);
        QCOMPARE(pl.plot.width(), 290.0);
        // Cell (r, c) is drawn at x = plot.x0 - 20 + 2c, rows from the top as before: cells 10
        // and on inside the plot exactly, cells 0-9 (left of it) nowhere.
        long inside = 0, outside = 0;
        for (int r = 0; r < 73; ++r)
            for (int c = 0; c < 144; ++c) {
                const Rgba8 want = expectedColour(table, values[r * 144 + c], -1, 1, settings_.nanColour);
                const bool same =
                    colourAt(shot, pl.plot.x0 - 20 + 2 * c + 0.5, pl.plot.y1 - 2 * r - 1) == want;
                (c < 10 ? outside : inside) += same;
            }
        QCOMPARE(inside, 73L * 134);
        QVERIFY2(outside < 73 * 10 / 10, qPrintable(QString("%1 cells drawn past the plot").arg(outside)));
        QVERIFY(colourAt(shot, pl.plot.x1 - 3, (pl.plot.y0 + pl.plot.y1) / 2) == (Rgba8{209, 209, 209, 255}));
        const QImage exported = renderImage({frame_}, panned, view.size());
        QVERIFY2(differingPixels(shot, exported, 2) <= 60,
                 qPrintable(saveDifference(shot, exported, "panned", 2)));
    }

    void usesTheColoursMadeAheadOnlyWhenTheyAreItsOwn() {
        // A frame colour-mapped ahead (off the GUI thread) with the view's settings is uploaded
        // as it is; one made with other settings is not: the view colours the frame itself.
        // Either way the picture is what export draws with the view's settings.
        const QImage want = renderImage({frame_}, settings_, QSize(kW, kH));
        auto own = std::make_shared<const ColouredFrame>(colourFrame(frame_, settings_, std::nullopt));
        view_->setFrame({frame_, {}, {}, own});
        QImage shown = view_->grabFramebuffer();
        QVERIFY(view_->colouredAhead());
        QVERIFY(sameContent(shown, want));
        ImageViewSettings magma = settings_;
        magma.colormap = "magma";
        auto other = std::make_shared<const ColouredFrame>(colourFrame(frame_, magma, std::nullopt));
        view_->setFrame({frame_, {}, {}, other});
        shown = view_->grabFramebuffer();
        QVERIFY(!view_->colouredAhead());
        QVERIFY(sameContent(shown, want));
        // The colour map changed after the frame came: the view's own colours again.
        view_->setFrame({frame_, {}, {}, own});
        view_->setSettings(magma);
        shown = view_->grabFramebuffer();
        QVERIFY(!view_->colouredAhead());
        QVERIFY(sameContent(shown, renderImage({frame_}, magma, QSize(kW, kH))));
        view_->setSettings(settings_);
        view_->setFrame({frame_});
    }

    void picksTheCellUnderTheMouse() {
        // Latitude is stored north to south: 45°N is row (90 − 45) / 2.5 = 18; 120°E is column 48.
        Pick p = view_->pickAt(toWidget(120.4, 45.3));
        QVERIFY(p.inside);
        QCOMPARE(p.row, 18);
        QCOMPARE(p.column, 48);
        QCOMPARE(p.yCentre, 45.0);
        QCOMPARE(p.xCentre, 120.0);
        QCOMPARE(QString::fromStdString(p.xLabel), QString("120"));
        QVERIFY(!view_->pickAt(QPointF(5, 5)).inside); // the margin
        QSignalSpy hovered(view_.get(), &ImageView::cellHovered);
        QTest::mouseMove(view_.get(), toWidget(200, -30).toPoint());
        QTRY_VERIFY(hovered.count() >= 1);
        Pick h = hovered.last().at(0).value<Pick>();
        QCOMPARE(h.column, 80);
        QCOMPARE(h.row, 48);
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
        QImage zoomed = view_->grabFramebuffer();
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

    void survivesContextLoss() {
        // Re-parenting to a new top-level window moves the view's native GL window with it.
        QWidget holder;
        holder.resize(kW, kH);
        view_->setParent(&holder);
        view_->move(0, 0);
        holder.show();
        QVERIFY(QTest::qWaitForWindowExposed(&holder));
        QVERIFY(QTest::qWaitForWindowExposed(view_->glWindow()));
        QImage again;
        QTRY_VERIFY(!(again = view_->grabFramebuffer()).isNull());
        QVERIFY(sameContent(again, renderImage({frame_}, view_->settings(), QSize(kW, kH))));
        view_->setParent(nullptr);
        view_.reset(); // GL objects released while the context is current (no GL errors, no crash)
    }
};

QTEST_MAIN(TestImageView)
#include "tst_imageview.moc"
