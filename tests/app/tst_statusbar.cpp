// The status bar as a user meets it (under Xvfb): a long message is shortened beside the
// permanent widgets, whole in its tooltip; a new memory budget is told at once (a variable
// streamed for want of room loads under a larger one); a file with nothing to show leaves no
// word of the file before; the busy bar fills as the percentage beside it says; and the word on a
// Dask computation shows what it is told and hides.
#include <QtTest>

#include <QApplication>
#include <QHelpEvent>
#include <QInputDialog>
#include <QLabel>
#include <QProgressBar>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTimer>
#include <QToolTip>

#include "cluster_progress.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "message_bar.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kHgt = kData + "/hgt.nc";

// A netCDF file with a dim and an attribute but no variable: nothing to show.
QString writeEmpty(const QTemporaryDir& dir) {
    const QString path = dir.filePath("empty.nc");
    nctest::Writer w(path.toStdString(), NC_NETCDF4);
    w.dim("x", 3);
    w.text(NC_GLOBAL, "title", "no variables");
    w.enddef();
    return path;
}

} // namespace

class TestStatusBar : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    QLabel* label(const char* name) const { return w_->statusBar()->findChild<QLabel*>(name); }
    // Settings ▸ Memory Budget… answered with `text`.
    void chooseBudget(const QString& text) {
        QAction* action = nullptr;
        for (QAction* a : w_->findChildren<QAction*>())
            if (a->text().startsWith("&Memory Budget")) action = a;
        QVERIFY(action);
        auto* answer = new QTimer(this);
        answer->setInterval(20);
        connect(answer, &QTimer::timeout, this, [answer, text] {
            if (auto* d = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                answer->stop();
                answer->deleteLater();
                d->setTextValue(text);
                d->accept();
            }
        });
        answer->start();
        action->trigger(); // returns once the dialog is answered
    }
    // The residency label's text once it holds `part` (up to 20 s).
    bool residencySays(const QString& part) {
        for (int i = 0; i < 800; ++i) {
            if (label("residency")->text().contains(part)) return true;
            QTest::qWait(25);
        }
        return false;
    }

private slots:
    void init() { w_ = test::makeTestWindow("tst_statusbar"); }
    void cleanup() { w_.reset(); }

    void aLongMessageIsShortenedBesideThePermanentWidgets() {
        QVERIFY(test::openAndShow(*w_, kHgt));
        QStatusBar* bar = w_->statusBar();
        QString message = "A long message:";
        for (int i = 0; i < 40; ++i) message += QString(" word%1").arg(i);
        bar->showMessage(message);
        int left = bar->width();
        for (QWidget* c : bar->findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
            if (c->isVisible() && !c->isWindow()) left = std::min(left, c->x());
        // Hovering over the message shows it whole.
        const QPoint at(20, bar->height() / 2);
        QHelpEvent help(QEvent::ToolTip, at, bar->mapToGlobal(at));
        QApplication::sendEvent(bar, &help);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), message);
        QToolTip::hideText();
        // It is drawn shortened, ending before the leftmost permanent widget; the bar still
        // holds it whole.
        auto* messages = qobject_cast<MessageBar*>(bar);
        QVERIFY(messages);
        QVERIFY2(messages->shownMessage().endsWith(QChar(0x2026)), qPrintable(messages->shownMessage()));
        QVERIFY(messages->messageRect().right() < left);
        QVERIFY(bar->fontMetrics().horizontalAdvance(messages->shownMessage()) <=
                messages->messageRect().width());
        QCOMPARE(bar->currentMessage(), message);
        // A short one is drawn as it is, and has no tooltip of its own.
        bar->showMessage("Short");
        QCOMPARE(messages->shownMessage(), QString("Short"));
    }

    void aNewBudgetIsToldAtOnce() {
        chooseBudget("1K"); // nothing open: only kept
        QVERIFY(test::openAndShow(*w_, kHgt));
        QVERIFY2(residencySays("larger than the budget"), qPrintable(label("residency")->text()));
        chooseBudget("60%");
        QVERIFY2(w_->statusBar()->currentMessage().startsWith("Memory budget: "),
                 qPrintable(w_->statusBar()->currentMessage()));
        // The old budget's word goes at once, and the variable loads under the new one.
        QVERIFY2(!label("residency")->text().contains("larger than the budget"),
                 qPrintable(label("residency")->text()));
        QVERIFY2(residencySays("Data: on "), qPrintable(label("residency")->text()));
        QVERIFY2(label("residency")->toolTip().startsWith("Budget "),
                 qPrintable(label("residency")->toolTip()));
    }

    void aFileWithNothingToShowLeavesNoWordOfTheLastOne() {
        QTemporaryDir dir;
        const QString empty = writeEmpty(dir);
        QVERIFY(test::openAndShow(*w_, kHgt));
        QVERIFY(residencySays("Data: "));
        QTRY_VERIFY(label("residency")->isVisible());
        w_->statusBar()->showMessage("A message about hgt.nc");
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        w_->openFile(empty);
        QVERIFY(opened.wait(20000));
        QVERIFY2(w_->statusBar()->currentMessage().contains("has no numeric variable to show"),
                 qPrintable(w_->statusBar()->currentMessage()));
        QVERIFY2(!label("residency")->isVisible() || label("residency")->text().isEmpty(),
                 qPrintable(label("residency")->text()));
        QCOMPARE(w_->frameTimeLabel()->text(), QString::fromUtf8("Frame: —"));
    }

    // A mean over time of a variable larger than the budget is read slab by slab: the busy bar
    // fills with the percentage the label beside it says; an open, which tells none, is a stripe.
    void theBusyBarFillsAsThePercentageSays() {
        auto* bar = w_->statusBar()->findChild<QProgressBar*>("progress");
        auto* task = label("task");
        QVERIFY(bar && task);
        w_->frameService()->setResidentBudget(21 * 73 * 144 * 4 / 4); // a quarter of HGT
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        w_->openFile(kHgt);
        QVERIFY(bar->isVisibleTo(w_.get()));
        QCOMPARE(bar->maximum(), 0); // no fraction known
        QVERIFY(shown.wait(20000));
        QStringList told; // the label and the bar as each slab of the pass leaves them
        int determinate = 0;
        connect(w_->frameService(), &FrameService::computeProgress, this, [&](quint64, double) {
            const auto m = QRegularExpression("^mean over time: (\\d+) %$").match(task->text());
            told << QString("%1 [%2/%3 of %4]")
                        .arg(task->text())
                        .arg(bar->value())
                        .arg(bar->maximum())
                        .arg(bar->isVisibleTo(w_.get()));
            if (m.hasMatch() && bar->maximum() == 100 && bar->value() == m.captured(1).toInt()) ++determinate;
        });
        shown.clear();
        w_->assignDim("time", Role::Reduce);
        QVERIFY(shown.wait(20000));
        disconnect(w_->frameService(), &FrameService::computeProgress, this, nullptr);
        QVERIFY2(told.size() > 2, qPrintable(told.join(" | ")));
        QVERIFY2(determinate == told.size(), qPrintable(told.join(" | ")));
    }

    // What Python's Dask computations tell (strata.show): the words and a bar filled as far,
    // a stripe while the tasks are not counted, nothing once it ends.
    void theClusterProgressShowsWhatItIsToldAndHides() {
        auto* p = new ClusterProgress(w_->statusBar());
        QVERIFY(!p->isVisibleTo(w_.get()));
        QCOMPARE(p->text(), QString());
        p->setProgress("computing on Dask (4 workers): 3/13 tasks", 3.0 / 13);
        QVERIFY(p->isVisibleTo(w_.get()));
        QCOMPARE(p->text(), QString("computing on Dask (4 workers): 3/13 tasks"));
        QCOMPARE(p->percent(), 23);
        auto* bar = w_->statusBar()->findChild<QProgressBar*>("clusterBar");
        QVERIFY(bar && bar->isVisibleTo(w_.get()));
        QCOMPARE(bar->value(), 23);
        p->setProgress("computing on Dask (4 workers)", -1);
        QCOMPARE(p->percent(), -1);
        QCOMPARE(bar->maximum(), 0);
        p->setProgress("computing on Dask (4 workers): 13/13 tasks", 1.0);
        QCOMPARE(p->percent(), 100);
        p->setProgress(QString(), -1);
        QVERIFY(!p->isVisibleTo(w_.get()));
        QCOMPARE(p->text(), QString());
    }
};

QTEST_MAIN(TestStatusBar)
#include "tst_statusbar.moc"
