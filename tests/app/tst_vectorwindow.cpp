// The window's vector pair (View ▸ Vectors) as a user meets it: choosing a style draws the
// dataset's wind (found by its CF standard names) over the heights, on each step of time, and
// None takes it away; a saved view keeps the style and the pair, and a style it cannot read
// makes the view unreadable; a file without a pair says so in the status bar, and the frame is
// still shown.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QHash>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QStatusBar>
#include <QTemporaryDir>

#include "main_window.h"
#include "strata/render/image_view.h"
#include "view_json.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kWinds = kData + "/geostrophic_500.nc";

// Pixels of the vectors' ink (24, 24, 24) in the view's picture.
long inked(ImageView* view) {
    const QImage img = view->grabImage();
    long n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) {
            const QColor c = img.pixelColor(x, y);
            n += c.red() == 24 && c.green() == 24 && c.blue() == 24;
        }
    return n;
}

} // namespace

class TestVectorWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    // geostrophic_500.nc open with its heights, zg, shown.
    bool showHeights() {
        if (!test::openAndShow(*w_, kWinds)) return false;
        w_->applyView([&] {
            ViewSpec v = w_->view();
            v.variable = "zg";
            return v;
        }());
        return QTest::qWaitFor([&] { return w_->shownFrame().name() == "zg"; });
    }

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_vectorwindow");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    // Arrows, then barbs, are drawn over zg; a step through time keeps them; None takes them away.
    void vectorsMenuDrawsTheWind() {
        QVERIFY(test::openAndShow(*w_, kWinds));
        w_->applyView([&] {
            ViewSpec v = w_->view();
            v.variable = "zg";
            return v;
        }());
        ImageView* view = w_->imageView();
        QTRY_COMPARE(w_->shownFrame().name(), std::string("zg"));
        QTRY_VERIFY(!view->grabImage().isNull());
        const long before = inked(view);
        w_->findChild<QAction*>("vectors_arrows")->trigger();
        QVERIFY(w_->view().vectors == VectorStyle::Arrows);
        QTRY_VERIFY(view->settings().vectors == VectorStyle::Arrows);
        QTRY_VERIFY2(inked(view) > before + 300,
                     qPrintable(QString("%1 inked, %2 before").arg(inked(view)).arg(before)));
        w_->findChild<QAction*>("vectors_barbs")->trigger();
        QTRY_VERIFY(view->settings().vectors == VectorStyle::Barbs);
        QTRY_VERIFY(inked(view) > before + 300);
        ViewSpec next = w_->view(); // the next month: still drawn
        next.indices = {{"time", 1}};
        w_->applyView(next);
        QTRY_VERIFY(w_->view().indices == next.indices);
        QTRY_VERIFY(inked(view) > before + 300);
        w_->findChild<QAction*>("vectors_none")->trigger();
        QTRY_VERIFY(view->settings().vectors == VectorStyle::None);
        QTRY_VERIFY(inked(view) < before + 50);
    }

    // Particles move while shown: the view's clock runs and the picture changes from one moment
    // to the next. Pause (the menu or Ctrl+Shift+P) holds them, picture and clock; density and
    // speed reach the view; another style stops the clock.
    void particlesMoveUntilPaused() {
        QVERIFY(showHeights());
        ImageView* view = w_->imageView();
        w_->findChild<QAction*>("vectors_particles")->trigger();
        QTRY_VERIFY(view->settings().vectors == VectorStyle::Particles);
        QTRY_VERIFY(view->particlesMoving());
        const std::uint64_t t0 = view->settings().particleTime;
        QTRY_VERIFY(view->settings().particleTime > t0 + 5);
        const QImage a = view->grabImage();
        QTRY_VERIFY(view->grabImage() != a); // they moved
        auto* pause = w_->findChild<QAction*>("pauseParticlesAction");
        QVERIFY(pause);
        QCOMPARE(pause->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
        pause->trigger();
        QVERIFY(view->particlesPaused() && !view->particlesMoving());
        QTest::qWait(50);
        const std::uint64_t held = view->settings().particleTime;
        const QImage still = view->grabImage();
        QTest::qWait(200);
        QCOMPARE(view->settings().particleTime, held);
        QCOMPARE(view->grabImage(), still);
        pause->trigger();
        QVERIFY(view->particlesMoving());
        QTRY_VERIFY(view->settings().particleTime > held);
        w_->findChild<QAction*>("particleDensity_4")->trigger();
        QCOMPARE(view->settings().particleDensity, 4.0);
        w_->findChild<QAction*>("particleSpeed_2")->trigger();
        QCOMPARE(view->settings().particleSpeed, 2.0);
        QVERIFY(view->particlesMoving()); // the controls do not stop them
        // An export draws the still at the density chosen: four times the trails change more
        // than twice the pixels that the normal density does.
        QTemporaryDir dir;
        const auto exported = [&](const QString& name) {
            const QString path = dir.filePath(name);
            return QTest::qWaitFor([&] { return w_->exportPng(path, QSize(640, 400)); }) ? QImage(path)
                                                                                         : QImage();
        };
        const QImage dense = exported("dense.png");
        w_->findChild<QAction*>("particleDensity_1")->trigger();
        const QImage normal = exported("normal.png");
        w_->findChild<QAction*>("vectors_none")->trigger();
        const QImage bare = exported("bare.png");
        QVERIFY(!dense.isNull() && !normal.isNull() && !bare.isNull());
        const auto changed = [&](const QImage& img) {
            long n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) n += img.pixel(x, y) != bare.pixel(x, y);
            return n;
        };
        QVERIFY2(changed(dense) > 2 * changed(normal) && changed(normal) > 1000,
                 qPrintable(
                     QString("%1 pixels changed dense, %2 normal").arg(changed(dense)).arg(changed(normal))));
        w_->findChild<QAction*>("vectors_particles")->trigger();
        QTRY_VERIFY(view->particlesMoving());
        w_->findChild<QAction*>("vectors_arrows")->trigger();
        QTRY_VERIFY(view->settings().vectors == VectorStyle::Arrows);
        QVERIFY(!view->particlesMoving());
        w_->findChild<QAction*>("particleDensity_1")->trigger();
        w_->findChild<QAction*>("particleSpeed_1")->trigger();
        w_->findChild<QAction*>("vectors_none")->trigger();
    }

    // A saved view keeps the style and the pair; one naming a style that does not exist is refused.
    void savedViewsKeepTheVectors() {
        ViewSpec v;
        v.variable = "zg";
        v.xDim = "lon";
        v.yDim = "lat";
        v.vectors = VectorStyle::Streamlines;
        v.vectorU = "ua";
        v.vectorV = "va";
        const QJsonObject o = toJson(v);
        QCOMPARE(o.value("vectors").toString(), QString("streamlines"));
        QCOMPARE(o.value("uv").toString(), QString("ua,va"));
        const ViewSpec back = viewFromJson(o);
        QVERIFY(back.vectors == VectorStyle::Streamlines);
        QCOMPARE(back.vectorU, std::string("ua"));
        QCOMPARE(back.vectorV, std::string("va"));
        QJsonObject bad = o;
        bad["vectors"] = "feathers";
        QVERIFY_THROWS_EXCEPTION(ValueError, viewFromJson(bad));
        bad = o;
        bad["uv"] = "ua";
        QVERIFY_THROWS_EXCEPTION(ValueError, viewFromJson(bad));
        QVERIFY(!toJson(ViewSpec{}).contains("vectors"));
    }

    // View ▸ Filled Contours bands the colours at the chosen levels, and a saved view keeps it.
    void filledContoursFromTheMenu() {
        QVERIFY(test::openAndShow(*w_, kWinds));
        ImageView* view = w_->imageView();
        auto* action = w_->findChild<QAction*>("filledContoursAction");
        QVERIFY(action && !action->isChecked());
        action->trigger();
        QVERIFY(view->settings().filledContours);
        QVERIFY(!view->settings().contours); // the lines stay off
        QTRY_VERIFY(!view->grabImage().isNull());
        ViewSpec v;
        v.variable = "zg";
        v.xDim = "lon";
        v.filledContours = true;
        QVERIFY(viewFromJson(toJson(v)).filledContours);
        action->trigger();
        QVERIFY(!view->settings().filledContours);

        // Levels chosen with the lines off: the export from the window and a saved view band at
        // them (three levels: four bands), not at the automatic ones.
        // (An export waits for the frame: the file opened again above may still be on its way.)
        QTemporaryDir dir;
        auto colours = [](const QString& path) { // those covering 30 pixels or more, in the plot
            const QImage img(path);
            QHash<QRgb, int> seen;
            for (int y = 80; y < 200; ++y) // inside the plot, from 83 to 362 and 70 to 211
                for (int x = 95; x < 350; ++x) ++seen[img.pixel(x, y)];
            int n = 0;
            for (int count : seen) n += count >= 30;
            return n;
        };
        w_->setCoastlines(false); // their ink is another colour
        action->trigger();
        QTRY_VERIFY2(w_->exportPng(dir.filePath("auto.png"), QSize(480, 300)), qPrintable(w_->lastError()));
        action->trigger();
        ContourChoice three;
        three.levels = parseContourSpec("5200,5500,5800");
        w_->setContourChoice(three);
        w_->setContours(false);
        action->trigger();
        QVERIFY(view->settings().fillLevels == three.levels);
        QVERIFY(!view->settings().contours);
        QTRY_VERIFY2(w_->exportPng(dir.filePath("three.png"), QSize(480, 300)), qPrintable(w_->lastError()));
        QVERIFY2(colours(dir.filePath("three.png")) <= 4 && colours(dir.filePath("auto.png")) >= 6,
                 qPrintable(QString("%1 colours at three levels, %2 at auto")
                                .arg(colours(dir.filePath("three.png")))
                                .arg(colours(dir.filePath("auto.png")))));
        const QString saved = dir.filePath("three.json");
        QVERIFY(w_->saveView(saved));
        QFile f(saved);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o.value("fillLevels").toString(), QString("5200,5500,5800"));
        QVERIFY(!o.contains("contours"));
        action->trigger(); // off, and automatic levels again
        w_->setContourChoice(ContourChoice{});
        w_->setContours(false);
        QVERIFY(w_->loadView(saved));
        QTRY_VERIFY(view->settings().filledContours);
        QVERIFY(view->settings().fillLevels == three.levels);
        QVERIFY(!view->settings().contours);
        QJsonObject bad = o;
        bad["fillLevels"] = "5,3";
        QVERIFY_THROWS_EXCEPTION(ValueError, viewFromJson(bad));
        action->trigger();
        w_->setCoastlines(true);
    }

    // View ▸ Contour Variable lists the variables on the frame's grid; choosing ua draws its
    // isolines over zg (another picture than zg's own), and a saved view keeps it.
    void anotherVariablesIsolines() {
        QVERIFY(showHeights());
        ImageView* view = w_->imageView();
        w_->setContours(true);
        QTRY_VERIFY(!view->grabImage().isNull());
        QTest::qWait(100);
        const QImage own = view->grabImage();
        auto* menu = w_->findChild<QMenu*>("contourVariableMenu");
        QVERIFY(menu);
        emit menu->aboutToShow();
        QVERIFY(w_->findChild<QAction*>("contourVariable_zg")->isChecked());
        QVERIFY(w_->findChild<QAction*>("contourVariable_ua"));
        w_->findChild<QAction*>("contourVariable_ua")->trigger();
        QCOMPARE(w_->view().contourVariable, std::string("ua"));
        QTRY_VERIFY2(view->grabImage() != own, qPrintable(w_->statusBar()->currentMessage()));
        ViewSpec v = w_->view();
        QCOMPARE(viewFromJson(toJson(v)).contourVariable, std::string("ua"));
        w_->setContourVariable("zg"); // its own again
        QVERIFY(w_->view().contourVariable.empty());
        w_->setContours(false);
    }

    // A file with no pair: the frame is shown, and the status bar says why the wind is not.
    void aFileWithoutAPairSaysSo() {
        QVERIFY(test::openAndShow(*w_, kData + "/hgt.nc"));
        QTRY_COMPARE(w_->view().variable, std::string("HGT")); // the file shown, not the last one
        w_->findChild<QAction*>("vectors_arrows")->trigger();
        QTRY_VERIFY2(w_->statusBar()->currentMessage().contains("Vectors not drawn"),
                     qPrintable(w_->statusBar()->currentMessage()));
        QVERIFY(w_->statusBar()->currentMessage().contains("no vector pair"));
        QCOMPARE(w_->shownFrame().ndim(), 2);
        w_->findChild<QAction*>("vectors_none")->trigger();
    }
};

QTEST_MAIN(TestVectorWindow)
#include "tst_vectorwindow.moc"
