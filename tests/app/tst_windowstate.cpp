// The window's state as a user meets it, under Xvfb: the series dock follows the file, the
// view's keys work wherever the focus is but in a text field, Undo and Redo of view changes,
// a double-click that only resets the zoom, a scalar variable's value (the colour panel off),
// play controls and the play rate only where there is something to play, the layout kept
// between sessions and a complete shortcut list.
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <cmath>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "main_window.h"
#include "nc_read.h"
#include "slice_panel.h"
#include "strata/render/vtk_views.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";
const QString kHgt = kData + "/hgt.nc";

// Equal values (NaN equal to NaN); an empty array (nothing shown) equals only another.
bool sameValues(const DataArray& a, const DataArray& b) {
    if (!a.ndim() || !b.ndim()) return a.ndim() == b.ndim();
    return test::difference(a, b).isEmpty();
}

} // namespace

class TestWindowState : public QObject {
    Q_OBJECT
    QTemporaryDir settingsDir_;
    std::unique_ptr<MainWindow> w_;

    // Opens `path` and waits for its first view's frame.
    bool open(const QString& path) {
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        w_->openFile(path);
        if (!opened.wait(20000)) return false;
        shown.clear(); // frames of the last file's views
        return (shown.count() > 0 || shown.wait(20000)) && settle();
    }
    // Until the frame shown is the current view's (the frame service idle).
    bool settle() {
        for (int i = 0; i < 400; ++i) {
            if (!w_->frameService()->busy() && w_->shownFrame().ndim() > 0 &&
                sameValues(w_->shownFrame(), test::coreFrame(*w_, w_->view())))
                return true;
            QTest::qWait(25);
        }
        return false;
    }
    // Keys as the user types them: to the widget with the focus.
    void press(QWidget* target, int key, Qt::KeyboardModifiers mods = Qt::NoModifier) {
        target->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), target);
        QTest::keyClick(target, Qt::Key(key), mods);
    }
    // Where a key goes: the focused widget of the active window. A window of another test on
    // the same display may have taken the activation: the window is made active again first.
    QWidget* focus() const {
        if (!QApplication::focusWidget()) {
            w_->activateWindow();
            if (!QTest::qWaitForWindowActive(w_.get())) return w_.get();
        }
        return QApplication::focusWidget() ? QApplication::focusWidget() : w_.get();
    }

private slots:
    void initTestCase() {
        QVERIFY(settingsDir_.isValid());
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
        QCoreApplication::setOrganizationName("StrataTest");
        QCoreApplication::setApplicationName("tst_windowstate");
        w_ = std::make_unique<MainWindow>();
        w_->resize(1300, 850);
        w_->show();
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    }
    void cleanupTestCase() { w_.reset(); }

    void aNewFileClearsTheSeriesDock() {
        QVERIFY(open(kSample));
        QVERIFY(settle());
        QSignalSpy series(w_.get(), &MainWindow::seriesShown);
        w_->plotSeriesAt(48, 96);
        QVERIFY(series.wait(10000));
        QCOMPARE(w_->shownSeries().ndim(), 1);
        // The sample's tas at (lat 48, lon 96) over its 12 months, as netCDF-C reads it.
        const nctest::NcValues tas = nctest::readNcFloats(kSample.toStdString(), "tas");
        QCOMPARE(tas.shape, (std::vector<std::size_t>{12, 96, 192}));
        const std::vector<double>& y = w_->seriesView()->series().y;
        QCOMPARE(y.size(), std::size_t(12));
        for (std::size_t t = 0; t < 12; ++t) QCOMPARE(y[t], double(tas.at(t, 48, 96)));
        QVERIFY(QString::fromStdString(w_->seriesView()->series().yTitle).startsWith("tas"));

        QVERIFY(open(kHgt));
        QCOMPARE(w_->shownSeries().ndim(), 0);
        QVERIFY(w_->seriesView()->series().y.empty()); // the sample's tas is plotted no more
        QVERIFY(!w_->seriesDock()->windowTitle().contains("time"));
    }

    void viewKeysWorkAfterAComboChoice() {
        QVERIFY(open(kHgt));
        QVERIFY(settle());
        QSlider* time = w_->slicePanel()->slider("time");
        QVERIFY(time && time->maximum() == 20);
        // A choice in the Range combo with the keyboard: the focus goes back to the image.
        QComboBox* mode = w_->colourPanel()->modeBox();
        press(mode, Qt::Key_Down);
        QCOMPARE(mode->currentIndex(), 1);
        QCOMPARE(focus(), static_cast<QWidget*>(w_->imageView()));
        // Space plays (the combo's popup does not open), and pauses.
        QTest::keyClick(focus(), Qt::Key_Space);
        QVERIFY(w_->slicePanel()->playing());
        QVERIFY(!mode->view()->isVisible());
        QTest::keyClick(focus(), Qt::Key_Space);
        QVERIFY(!w_->slicePanel()->playing());
        QVERIFY(settle());

        // With the focus in the combo itself: End, Page Down, Home and the arrows step the
        // slider, and the combo keeps its choice.
        press(mode, Qt::Key_End);
        QCOMPARE(w_->view().indexOf("time"), 20);
        press(mode, Qt::Key_PageDown);
        QCOMPARE(w_->view().indexOf("time"), 20 - time->pageStep());
        press(mode, Qt::Key_Left);
        QCOMPARE(w_->view().indexOf("time"), 19 - time->pageStep());
        press(mode, Qt::Key_Home);
        QCOMPARE(w_->view().indexOf("time"), 0);
        QCOMPARE(mode->currentIndex(), 1);
        // A spin box keeps its keys: Page Up raises the play rate, the time stays.
        QSpinBox* rate = w_->slicePanel()->rateBox();
        const int fps = rate->value();
        press(rate, Qt::Key_PageUp);
        QCOMPARE(rate->value(), fps + 10);
        QCOMPARE(w_->view().indexOf("time"), 0);
        mode->setCurrentIndex(0);
        QVERIFY(settle());
    }

    void spacePressesAButtonReachedWithTab() {
        QVERIFY(open(kHgt));
        auto* reverse = w_->colourPanel()->findChild<QCheckBox*>();
        QVERIFY(reverse);
        const bool before = reverse->isChecked();
        // Reached with Tab: Space is the button's, as everywhere on the desktop.
        reverse->setFocus(Qt::TabFocusReason);
        QTest::keyClick(reverse, Qt::Key_Space);
        QCOMPARE(reverse->isChecked(), !before);
        QVERIFY(!w_->slicePanel()->playing());
        QVERIFY(settle());
        // Focused by a click: Space plays, and the button stays as it is.
        w_->imageView()->setFocus(Qt::OtherFocusReason);
        reverse->setFocus(Qt::MouseFocusReason);
        QTest::keyClick(reverse, Qt::Key_Space);
        QVERIFY(w_->slicePanel()->playing());
        QCOMPARE(reverse->isChecked(), !before);
        QTest::keyClick(reverse, Qt::Key_Space);
        QVERIFY(!w_->slicePanel()->playing());
        reverse->setChecked(before);
        QVERIFY(settle());
    }

    // The window does not shrink below a size at which its docks and view overlap, and a view
    // saved under a name without an extension is saved as NAME.json.
    void aMinimumSizeAndViewsSavedAsJson() {
        QVERIFY(open(kSample));
        const QSize before = w_->size();
        w_->resize(300, 200);
        QTRY_VERIFY(w_->width() >= 720 && w_->height() >= 480);
        QVERIFY(w_->minimumSize().width() >= 720 && w_->minimumSize().height() >= 480);
        w_->resize(before);
        QTemporaryDir dir;
        QVERIFY(w_->saveView(QDir(dir.path()).filePath("my-view")));
        QVERIFY(QFile::exists(QDir(dir.path()).filePath("my-view.json")));
        QVERIFY(!QFile::exists(QDir(dir.path()).filePath("my-view")));
        QVERIFY(w_->saveView(QDir(dir.path()).filePath("kept.view"))); // an extension given stays
        QVERIFY(QFile::exists(QDir(dir.path()).filePath("kept.view")));
    }

    // A Hovmöller (time on Y over longitude) slices latitude at the row nearest the equator,
    // not at the first row (the South Pole); a chip dropped where it already is says so.
    void aHovmollerStartsAtTheEquator() {
        QVERIFY(open(kSample));
        QVERIFY(settle());
        press(w_->dimensionBar()->chip("time"), Qt::Key_Y);
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("time"));
        QCOMPARE(roleOf(w_->view(), "lat"), Role::Slice);
        const Coordinate* lat = w_->dataset()->coords.find("lat");
        QVERIFY(lat);
        const std::int64_t at = w_->view().indexOf("lat");
        for (double v : lat->values) QVERIFY(std::fabs(lat->values[std::size_t(at)]) <= std::fabs(v));
        QVERIFY(std::fabs(lat->values[std::size_t(at)]) < 2);
        QVERIFY(settle());
        const ViewSpec before = w_->view();
        emit w_->dimensionBar()->roleRequested("lon", Role::X, ReduceOp::Mean);
        QCOMPARE(w_->view(), before);
        QCOMPARE(w_->statusBar()->currentMessage(), QString("lon is on X already"));
        w_->applyView(defaultView(*w_->dataset(), "tas")); // the next test starts from the map
        QVERIFY(settle());
    }

    void undoAndRedoRestoreEachView() {
        QVERIFY(open(kSample));
        QVERIFY(settle());
        w_->slicePanel()->slider("time")->setValue(5);
        QVERIFY(settle());
        const ViewSpec start = w_->view();
        QCOMPARE(start.indexOf("time"), 5);
        const DataArray startFrame = w_->shownFrame();
        auto undo = [&] { QTest::keyClick(focus(), Qt::Key_Z, Qt::ControlModifier); };
        auto redo = [&] { QTest::keyClick(focus(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier); };
        auto atStart = [&] {
            QCOMPARE(w_->view(), start);
            QVERIFY(settle());
            QVERIFY(sameValues(w_->shownFrame(), startFrame));
            QCOMPARE(w_->slicePanel()->slider("time")->value(), 5); // the time index is back too
            QCOMPARE(w_->colourPanel()->colouring(), start.colouring);
        };
        // Each check stops the test at its first failure.
#define BACK_AT_START()                                                                                      \
    do {                                                                                                     \
        atStart();                                                                                           \
        if (QTest::currentTestFailed()) return;                                                              \
    } while (false)

        // Edit ▸ Undo and Redo say what they would change back.
        auto actionText = [&](const QKeySequence& key) {
            for (const QAction* a : w_->findChildren<QAction*>())
                if (a->shortcuts().contains(key)) return a->text();
            return QString();
        };
        const QKeySequence undoKey(Qt::CTRL | Qt::Key_Z), redoKey(Qt::CTRL | Qt::SHIFT | Qt::Key_Z);

        // A reduction over time, and back: the time index it had.
        press(w_->dimensionBar()->chip("time"), Qt::Key_R);
        QCOMPARE(roleOf(w_->view(), "time"), Role::Reduce);
        QVERIFY(settle());
        QCOMPARE(actionText(undoKey), QString("&Undo Reduction and Slice"));
        const ViewSpec reduced = w_->view();
        undo();
        BACK_AT_START();
        QCOMPARE(actionText(redoKey), QString("&Redo Reduction and Slice"));
        redo();
        QCOMPARE(w_->view(), reduced);
        QVERIFY(settle());
        undo();
        BACK_AT_START();

        // A role drag (time onto Y, by its key).
        press(w_->dimensionBar()->chip("time"), Qt::Key_Y);
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("time"));
        const ViewSpec hovmoller = w_->view();
        QVERIFY(settle());
        undo();
        BACK_AT_START();
        redo();
        QCOMPARE(w_->view(), hovmoller);
        QVERIFY(settle());
        undo();
        BACK_AT_START();

        // A colour map chosen in its combo.
        press(w_->colourPanel()->mapBox(), Qt::Key_Down);
        QVERIFY(w_->view().colouring.colormap != start.colouring.colormap);
        QCOMPARE(actionText(undoKey), QString("&Undo Colour Map"));
        const ViewSpec recoloured = w_->view();
        undo();
        BACK_AT_START();
        QCOMPARE(w_->colourPanel()->mapBox()->currentText(),
                 QString::fromStdString(start.colouring.colormap));
        redo();
        QCOMPARE(w_->view(), recoloured);
        QCOMPARE(w_->colourPanel()->mapBox()->currentText(),
                 QString::fromStdString(recoloured.colouring.colormap));
        undo();
        BACK_AT_START();

        // A fixed range typed in: each change is a step back.
        w_->colourPanel()->modeBox()->setCurrentIndex(2);
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
        QLineEdit* lo = w_->colourPanel()->minEdit();
        QLineEdit* hi = w_->colourPanel()->maxEdit();
        lo->setFocus();
        lo->selectAll();
        QTest::keyClicks(lo, "250");
        QTest::keyClick(lo, Qt::Key_Tab); // editing finished, and the focus on to max
        hi->setFocus();
        hi->selectAll();
        QTest::keyClicks(hi, "300");
        QTest::keyClick(hi, Qt::Key_Return);
        QCOMPARE(w_->view().colouring.range.fixedMin, 250.0);
        QCOMPARE(w_->view().colouring.range.fixedMax, 300.0);
        const ViewSpec fixed = w_->view();
        w_->imageView()->setFocus(); // Ctrl+Z in a line edit undoes its typing
        QTRY_COMPARE(focus(), static_cast<QWidget*>(w_->imageView()));
        for (int i = 0; i < 10 && w_->view().colouring.range.mode == RangeMode::Fixed; ++i) undo();
        BACK_AT_START();
        for (int i = 0; i < 10 && !(w_->view() == fixed); ++i) redo();
        QCOMPARE(w_->view(), fixed);
        QCOMPARE(w_->colourPanel()->minEdit()->text(), QString("250"));
        for (int i = 0; i < 10 && w_->view().colouring.range.mode == RangeMode::Fixed; ++i) undo();
        BACK_AT_START();

        // A zoom with the wheel.
        ImageView* view = w_->imageView();
        const QPointF at(view->width() / 2.0, view->height() / 2.0);
        QWheelEvent wheel(at, view->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
        QVERIFY(w_->view().window.has_value());
        const ViewSpec zoomed = w_->view();
        undo();
        BACK_AT_START();
        QVERIFY(!view->settings().window.has_value());
        redo();
        QCOMPARE(w_->view(), zoomed);
        QVERIFY(settle());
        QCOMPARE(view->settings().window, zoomed.window);
    }

    void aLongComputationNamesItselfWithCancel() {
        QVERIFY(open(kSample));
        const ViewSpec start = w_->view();
        const DataArray startFrame = w_->shownFrame();
        auto* task = w_->findChild<QLabel*>("task");
        auto* cancel = w_->findChild<QPushButton*>("cancelTask");
        QVERIFY(task && cancel);
        QVERIFY(!task->isVisibleTo(w_.get()));
        // The reduction is computed off the GUI thread: until its frame comes, the status bar
        // names it, and the frame on the screen stays the one before.
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        press(w_->dimensionBar()->chip("time"), Qt::Key_R);
        QVERIFY2(task->isVisibleTo(w_.get()) && task->text().startsWith("mean over time"),
                 qPrintable(task->text()));
        QVERIFY(cancel->isVisibleTo(w_.get()));
        QVERIFY(sameValues(w_->shownFrame(), startFrame));
        QVERIFY(shown.wait(10000));
        QVERIFY(!task->isVisibleTo(w_.get()));
        QVERIFY(!cancel->isVisibleTo(w_.get()));
        QVERIFY(settle());
        // Cancel goes back to the view on the screen; Redo asks for the reduction again.
        QTest::keyClick(focus(), Qt::Key_Z, Qt::ControlModifier);
        QCOMPARE(w_->view(), start);
        QVERIFY(settle());
        press(w_->dimensionBar()->chip("time"), Qt::Key_R);
        const ViewSpec reduced = w_->view();
        QVERIFY(cancel->isVisibleTo(w_.get()));
        QTest::mouseClick(cancel, Qt::LeftButton);
        QCOMPARE(w_->view(), start);
        QVERIFY(!task->isVisibleTo(w_.get()));
        QVERIFY(settle());
        QVERIFY(sameValues(w_->shownFrame(), startFrame));
        QTest::keyClick(focus(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(w_->view(), reduced);
        QVERIFY(settle());
    }

    void aStreamedReductionSaysHowFarItIs() {
        // A variable larger than the memory budget: its mean over time is read from the file slab
        // by slab, and the status bar counts it ("mean over time: 43 %") until the frame comes.
        const std::size_t budget = w_->frameService()->residentBudget();
        w_->frameService()->setResidentBudget(21 * 73 * 144 * 4 / 4);
        struct Restore {
            FrameService* service;
            std::size_t bytes;
            ~Restore() { service->setResidentBudget(bytes); }
        } restore{w_->frameService(), budget};
        QVERIFY(open(kHgt));
        auto* task = w_->findChild<QLabel*>("task");
        QVERIFY(task);
        QStringList told; // the label as each step of the pass leaves it
        connect(w_->frameService(), &FrameService::computeProgress, this,
                [&](quint64, double) { told << task->text(); });
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        press(w_->dimensionBar()->chip("time"), Qt::Key_R);
        QVERIFY(shown.wait(20000));
        QVERIFY(settle());
        disconnect(w_->frameService(), &FrameService::computeProgress, this, nullptr);
        // One step a slab, each counted: the service streams in slabs of a sixteenth of the
        // budget (13797 bytes), less than one time step (73 × 144 floats, 42048 bytes), so each
        // slab is one of HGT's 21 times.
        QCOMPARE(told.size(), 21);
        const QRegularExpression counted("^mean over time: (\\d+) %$");
        int last = -1;
        for (const QString& text : told) {
            const auto m = counted.match(text);
            QVERIFY2(m.hasMatch(), qPrintable(text));
            QVERIFY2(m.captured(1).toInt() >= last, qPrintable(told.join(" | "))); // never goes back
            last = m.captured(1).toInt();
        }
        QCOMPARE(last, 100);
        QVERIFY(!task->isVisibleTo(w_.get()));
        QTest::keyClick(focus(), Qt::Key_Z,
                        Qt::ControlModifier); // the file's view as it was, for later tests
        QVERIFY(settle());
    }

    // Settings > Memory Budget...: a size typed in the dialog becomes the frame service's budget
    // and the saved setting; a share is of the memory free now; text that is neither is refused,
    // naming it, and the budget stays.
    void theMemoryBudgetDialogSetsTheBudget() {
        QVERIFY(open(kHgt));
        QVERIFY(settle());
        const std::size_t budget = w_->frameService()->residentBudget();
        const QString saved = QSettings().value("residency/budget").toString();
        struct Restore {
            FrameService* service;
            std::size_t bytes;
            QString setting;
            ~Restore() {
                service->setResidentBudget(bytes);
                QSettings().setValue("residency/budget", setting);
            }
        } restore{w_->frameService(), budget, saved};
        QAction* action = nullptr;
        for (QAction* a : w_->findChildren<QAction*>())
            if (a->text() == "&Memory Budget…") action = a;
        QVERIFY(action);
        auto type = [&](const QString& text) {
            QString asked;
            QTimer::singleShot(0, [&] {
                if (auto* box = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                    asked = box->labelText();
                    box->setTextValue(text);
                    box->accept();
                }
            });
            action->trigger();
            return asked;
        };
        const QString asked = type("200K");
        QVERIFY2(asked.contains("the host") && asked.contains("free now"), qPrintable(asked));
        QCOMPARE(w_->frameService()->residentBudget(), std::size_t(200 * 1024));
        QCOMPARE(QSettings().value("residency/budget").toString(), QString("200K"));
        QVERIFY2(w_->statusBar()->currentMessage().contains(QString::fromStdString(formatBytes(200 * 1024))),
                 qPrintable(w_->statusBar()->currentMessage()));
        QVERIFY(settle());

        type("lots");
        QVERIFY2(w_->lastError().contains("'lots' is neither a size"), qPrintable(w_->lastError()));
        QCOMPARE(w_->frameService()->residentBudget(), std::size_t(200 * 1024));
        QCOMPARE(QSettings().value("residency/budget").toString(), QString("200K"));
        if (auto* box = w_->findChild<QMessageBox*>("errorBox")) box->close();

        const double free = double(hostAvailableMemory());
        type("25%");
        const double share = double(w_->frameService()->residentBudget()) / free;
        QVERIFY2(share > 0.2 && share < 0.3, qPrintable(QString::number(share))); // free memory moves
        QVERIFY(settle());
    }

    void aDoubleClickOnlyResetsTheZoom() {
        QVERIFY(open(kHgt));
        QVERIFY(settle());
        QSignalSpy series(w_.get(), &MainWindow::seriesShown);
        w_->plotSeriesAt(10, 20);
        QVERIFY(series.wait(10000));
        const DataArray before = w_->shownSeries();
        ImageView* view = w_->imageView();
        QTRY_VERIFY(view->pickAt(QPointF(view->width() / 2.0, view->height() / 2.0)).inside);
        const QPointF centre(view->width() / 2.0, view->height() / 2.0);
        QWheelEvent wheel(centre, view->mapToGlobal(centre), QPoint(), QPoint(0, 240), Qt::NoButton,
                          Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(view, &wheel);
        QVERIFY(w_->view().window.has_value());
        // A double-click elsewhere, as the window system delivers it: press, release, double-click,
        // release.
        const QPoint at(view->width() / 3, view->height() / 3);
        QVERIFY(view->pickAt(at).inside);
        QSignalSpy replaced(w_.get(), &MainWindow::seriesShown);
        QTest::mousePress(view, Qt::LeftButton, Qt::NoModifier, at);
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, at);
        QTest::mouseDClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QTest::mouseRelease(view, Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(!w_->view().window.has_value()); // the zoom is reset
        QVERIFY(!view->clickPending());          // and no click waits to probe
        // A series asked for would keep the service busy until its answer is posted.
        QTRY_VERIFY(!w_->frameService()->busy());
        QCoreApplication::sendPostedEvents();
        QCOMPARE(replaced.count(), 0);
        QVERIFY(sameValues(w_->shownSeries(), before)); // the series is the one plotted before
        // A single click still plots the series through its point.
        QSignalSpy again(w_.get(), &MainWindow::seriesShown);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(again.wait(10000));
        QVERIFY(!sameValues(w_->shownSeries(), before));
    }

    // The title, the recent files and the last folder come once the first frame is painted (the
    // frame need not wait for them); at once when no frame is asked for.
    void theTitleAndRecentFilesFollowTheFirstFrame() {
        QVERIFY(open(kSample));
        QTRY_COMPARE(w_->windowTitle(), QString("tas_rectilinear_grid_2D.nc — Strata"));
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        QSettings().setValue("recentFiles", QStringList{});
        w_->openFile(kHgt);
        QVERIFY(opened.wait(20000));
        // The frame is read on the worker after this: not on the screen yet.
        QCOMPARE(w_->windowTitle(), QString("tas_rectilinear_grid_2D.nc — Strata"));
        QVERIFY(QSettings().value("recentFiles").toStringList().isEmpty());
        QVERIFY(shown.count() > 0 || shown.wait(20000));
        QTRY_COMPARE(w_->windowTitle(), QString("hgt.nc — Strata"));
        QVERIFY(QSettings().value("recentFiles").toStringList().join('\n').contains("hgt.nc"));

        // A file with nothing to draw: no frame, and the title at once.
        QTemporaryDir dir;
        const std::string path = dir.filePath("words.nc").toStdString();
        int nc = 0, dim = 0, var = 0;
        QCOMPARE(nc_create(path.c_str(), NC_CLOBBER, &nc), NC_NOERR);
        QCOMPARE(nc_def_dim(nc, "n", 5, &dim), NC_NOERR);
        QCOMPARE(nc_def_var(nc, "name", NC_CHAR, 1, &dim, &var), NC_NOERR);
        QCOMPARE(nc_enddef(nc), NC_NOERR);
        QCOMPARE(nc_put_var_text(nc, var, "words"), NC_NOERR);
        QCOMPARE(nc_close(nc), NC_NOERR);
        opened.clear();
        w_->openFile(QString::fromStdString(path));
        QVERIFY(opened.wait(20000));
        QCOMPARE(w_->windowTitle(), QString("words.nc — Strata"));
        QVERIFY(QSettings().value("recentFiles").toStringList().join('\n').contains("words.nc"));
    }

    void aScalarVariableShowsItsValue() {
        QVERIFY(open(kData + "/test_hgroups.nc"));
        const QString path = "/mozaic_flight_2012030403540535_ascent/lat";
        QTreeWidgetItem* item = w_->datasetPanel()->itemOf(path);
        QVERIFY(item);
        w_->datasetPanel()->tree()->setCurrentItem(item);
        auto* stack = w_->findChild<QStackedWidget*>();
        auto* message = w_->findChild<QLabel*>("centralMessage");
        QVERIFY(stack && message);
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(message));
        // ncdump: lat = 32.0113906860352, units "degree_north".
        QVERIFY2(message->text().contains("32.01") && message->text().contains("degree_north"),
                 qPrintable(message->text()));
        QVERIFY2(w_->lastError().isEmpty(), qPrintable(w_->lastError()));
        QVERIFY(w_->slicePanel()->findChildren<QSlider*>().isEmpty()); // nothing to step through
        // Nor colours to choose: the colour panel is off, and says why.
        QVERIFY(!w_->colourPanel()->isEnabled());
        QVERIFY2(w_->colourPanel()->toolTip().contains("scalar"), qPrintable(w_->colourPanel()->toolTip()));
        QVERIFY(open(kHgt)); // a variable drawn: on again
        QVERIFY(w_->colourPanel()->isEnabled());
        QVERIFY(w_->colourPanel()->toolTip().isEmpty());
    }

    void playControlsOnlyForDimsToPlay() {
        QVERIFY(open(kData + "/reduced.nc")); // sst(time=1, zlev=1, lat, lon)
        QVERIFY(settle());
        for (const QString dim : {"time", "zlev"}) {
            QVERIFY(w_->slicePanel()->playButton(dim));
            QVERIFY(!w_->slicePanel()->playButton(dim)->isVisibleTo(w_->slicePanel()));
        }
        QVERIFY(!w_->slicePanel()->rateBox()->isVisibleTo(w_->slicePanel())); // no rate to set
        QTest::keyClick(w_.get(), Qt::Key_Space);
        QVERIFY(!w_->slicePanel()->playing());
        QVERIFY(open(kHgt)); // time=21
        QVERIFY(w_->slicePanel()->playButton("time"));
        QVERIFY(w_->slicePanel()->playButton("time")->isVisibleTo(w_->slicePanel()));
        QVERIFY(w_->slicePanel()->rateBox()->isVisibleTo(w_->slicePanel()));
        QVERIFY(open(kData + "/test_hgroups.nc")); // a line along its only dim: no slider
        QVERIFY(w_->slicePanel()->findChildren<QSlider*>().isEmpty());
        QVERIFY(!w_->slicePanel()->rateBox()->isVisibleTo(w_->slicePanel()));
    }

    void theShortcutListIsComplete() {
        QAction* list = nullptr;
        for (QAction* a : w_->findChildren<QAction*>())
            if (a->text().remove('&') == "Keyboard Shortcuts") list = a;
        QVERIFY(list);
        list->trigger();
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = w_->findChild<QMessageBox*>("shortcutsBox")));
        const QString text = box->text();
        int keys = 0;
        for (const QAction* a : w_->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts()) {
                QVERIFY2(text.contains(k.toString(QKeySequence::NativeText).toHtmlEscaped()),
                         qPrintable(a->text() + ": " + k.toString()));
                ++keys;
            }
        for (const QShortcut* s : w_->findChildren<QShortcut*>()) {
            QVERIFY2(text.contains(s->key().toString(QKeySequence::NativeText)),
                     qPrintable(s->key().toString()));
            ++keys;
        }
        QVERIFY(keys >= 15); // Open, Export, Undo/Redo, steps, Space, Home/End, ...
        box->close();
    }

    void theLayoutIsRemembered() {
        {
            MainWindow a;
            a.show();
            QVERIFY(QTest::qWaitForWindowExposed(&a));
            auto* colour = a.findChild<QDockWidget*>("colourDock");
            auto* data = a.findChild<QDockWidget*>("datasetDock");
            QVERIFY(colour && data);
            QCOMPARE(a.dockWidgetArea(colour), Qt::RightDockWidgetArea);
            a.addDockWidget(Qt::LeftDockWidgetArea, colour);
            data->hide();
            a.close();
        }
        MainWindow b;
        auto* colour = b.findChild<QDockWidget*>("colourDock");
        auto* data = b.findChild<QDockWidget*>("datasetDock");
        QCOMPARE(b.dockWidgetArea(colour), Qt::LeftDockWidgetArea);
        QVERIFY(data->isHidden());
        QSettings().remove("window"); // the other tests' windows start from the defaults
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestWindowState t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_windowstate.moc"
