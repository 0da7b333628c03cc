// Saved views under Xvfb: a view written to JSON and read back (colours, reductions, the zoom),
// the map projection saved, loaded and undone with the view, a file's last view restored when it
// is opened again, a view asked for before the file is open, and views of variables in groups.
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "dataset_panel.h"
#include "dimension_bar.h"
#include "slice_panel.h"
#include "strata/render/vtk_views.h"
#include "view_json.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;
using test::drag;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";
const QString kHgt = kData + "/hgt.nc";

} // namespace

class TestSavedViews : public QObject, test::WindowCase {
    Q_OBJECT

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_savedviews");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    void saveAndLoadAView() {
        QVERIFY(ensure(kHgt));
        QTemporaryDir dir;
        ViewSpec v = defaultView(*w_->dataset(), "HGT");
        v = assignRole(v, {"time", "lat", "lon"}, "time", Role::Reduce, ReduceOp::Std);
        v.colouring.colormap = "RdBu";
        v.colouring.reversed = true;
        v.colouring.range = {RangeMode::Fixed, -3, 4};
        w_->applyView(v);
        verifyShown();
        const QString path = dir.filePath("view.json");
        QVERIFY(w_->saveView(path));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        QVERIFY(w_->loadView(path));
        verifyShown();
        const ViewSpec& back = w_->view();
        QCOMPARE(back.reductions, v.reductions);
        QCOMPARE(back.xDim, v.xDim);
        QCOMPARE(back.yDim, v.yDim);
        QVERIFY(back.colouring == v.colouring);
        // The JSON reads back to the same struct.
        const ViewSpec parsed = viewFromJsonText(toJsonText(back));
        QCOMPARE(toJsonText(parsed), toJsonText(back));
        // A file that is not a view: a clear error, and the view stays.
        QFile junk(dir.filePath("junk.json"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("{\"variable\": 3}");
        junk.close();
        QVERIFY(!w_->loadView(junk.fileName()));
        QVERIFY(w_->lastError().contains("\"variable\" must be text"));
        QCOMPARE(w_->view().reductions, v.reductions);
        if (w_->errorBox()) w_->errorBox()->close();
    }

    void theZoomIsSavedWithTheView() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        ImageView* image = w_->imageView();
        QVERIFY(!w_->view().window);
        // Painted once, so that the wheel zooms about a point of the plot.
        QSignalSpy presented(image, &ImageView::presented);
        image->requestRender();
        QVERIFY(presented.wait(5000));
        const QPointF at = image->rect().center();
        QWheelEvent wheel(at, image->mapToGlobal(at), QPoint(), QPoint(0, 240), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(image, &wheel);
        QVERIFY(image->settings().window.has_value());
        const ViewWindow zoomed = *image->settings().window;
        QVERIFY(zoomed.x1 - zoomed.x0 < 300); // in from the whole 360° of longitude
        QVERIFY(w_->view().window == zoomed); // the view follows the user's zoom
        // A step keeps it.
        w_->slicePanel()->step(+1);
        verifyShown();
        QVERIFY(w_->view().window == zoomed);
        QVERIFY(image->settings().window == zoomed);

        QTemporaryDir dir;
        const QString path = dir.filePath("zoomed.json");
        QVERIFY(w_->saveView(path));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(viewFromJsonText(saved.readAll()).window == zoomed);
        image->resetView(); // View ▸ Reset Zoom
        QVERIFY(!image->settings().window);
        QVERIFY(!w_->view().window);
        QVERIFY(w_->loadView(path));
        verifyShown();
        QVERIFY(w_->view().window == zoomed);
        QTRY_VERIFY(image->settings().window == zoomed); // the image is zoomed again
        // Time onto Y: other axes, so the window (in degrees) goes.
        const ViewSpec hovmoller = assignRole(w_->view(), {"time", "lat", "lon"}, "time", Role::Y);
        w_->applyView(hovmoller);
        verifyShown();
        QVERIFY(!w_->view().window);
        QVERIFY(!image->settings().window);
        w_->applyView(defaultView(*w_->dataset(), "HGT")); // as the next case expects to find it
        verifyShown();
    }

    void theProjectionIsSavedWithTheView() {
        QVERIFY(ensure(kSample));
        w_->applyView(defaultView(*w_->dataset(), "tas"));
        verifyShown();
        ImageView* image = w_->imageView();
        auto checked = [this](const char* name) {
            const auto* a = w_->findChild<QAction*>(name);
            return a && a->isChecked();
        };
        w_->setProjection("robinson"); // any case: the projection's own spelling is kept
        QCOMPARE(QString::fromStdString(w_->view().projection), QString("Robinson"));
        QCOMPARE(QString::fromStdString(image->settings().projection), QString("Robinson"));
        QVERIFY(checked("projection_Robinson"));

        QTemporaryDir dir;
        const QString path = dir.filePath("robinson.json");
        QVERIFY(w_->saveView(path));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromStdString(viewFromJsonText(saved.readAll()).projection), QString("Robinson"));

        w_->setProjection(QString());
        QVERIFY(w_->view().projection.empty());
        QVERIFY(image->settings().projection.empty());
        QVERIFY(checked("projection_none"));
        QVERIFY(w_->loadView(path)); // the map again, and its menu entry
        verifyShown();
        QCOMPARE(QString::fromStdString(w_->view().projection), QString("Robinson"));
        QCOMPARE(QString::fromStdString(image->settings().projection), QString("Robinson"));
        QVERIFY(checked("projection_Robinson"));
        w_->undo(); // the view before the load: no map
        QVERIFY(w_->view().projection.empty());
        QVERIFY(image->settings().projection.empty());
        w_->redo();
        QCOMPARE(QString::fromStdString(image->settings().projection), QString("Robinson"));

        // Another file's first (or remembered) view is shown in the window's projection.
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        w_->openFile(kHgt);
        QVERIFY(opened.wait(20000));
        verifyShown();
        QCOMPARE(QString::fromStdString(w_->view().file), kHgt);
        QCOMPARE(QString::fromStdString(w_->view().projection), QString("Robinson"));
        QCOMPARE(QString::fromStdString(image->settings().projection), QString("Robinson"));

        // A view naming a projection this build does not know: shown without one, and said.
        QFile bad(dir.filePath("unknown.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        ViewSpec unknown = w_->view();
        unknown.projection = "Robinsn";
        bad.write(toJsonText(unknown));
        bad.close();
        QVERIFY(w_->loadView(bad.fileName()));
        verifyShown();
        QVERIFY(w_->view().projection.empty());
        QVERIFY(image->settings().projection.empty());
        QVERIFY2(w_->statusBar()->currentMessage().contains("Robinsn"),
                 qPrintable(w_->statusBar()->currentMessage()));
    }

    // A saved view whose file has gone, or whose variable the file no longer holds: an error
    // naming the file or the variable, and the window keeps showing what it showed.
    void aViewOfAGoneFileOrVariableSaysSo() {
        QTemporaryDir dir;
        const QString copy = dir.filePath("hgt_copy.nc");
        QVERIFY(QFile::copy(kHgt, copy));
        QVERIFY(open(copy));
        ViewSpec v = defaultView(*w_->dataset(), "HGT");
        v.indices = {{"time", 3}};
        w_->applyView(v);
        verifyShown();
        const QString path = dir.filePath("gone.json");
        QVERIFY(w_->saveView(path));

        QVERIFY(open(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        const ViewSpec before = w_->view();
        QVERIFY(QFile::remove(copy));
        w_->loadView(path); // the file is opened as the window opens any: its error comes later
        QTRY_VERIFY_WITH_TIMEOUT(w_->lastError().contains("hgt_copy.nc"), 20000);
        QVERIFY2(w_->lastError().contains("no such file"), qPrintable(w_->lastError()));
        QVERIFY(w_->view() == before);
        verifyShown();

        // The file is there, but holds no such variable (renamed since the view was saved).
        ViewSpec renamed = before;
        renamed.variable = "HGT_renamed";
        QFile bad(dir.filePath("renamed.json"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(toJsonText(renamed));
        bad.close();
        QVERIFY(!w_->loadView(bad.fileName()));
        QVERIFY2(w_->lastError().contains("renamed.json") && w_->lastError().contains("'HGT_renamed'"),
                 qPrintable(w_->lastError()));
        QVERIFY(w_->view() == before);
        verifyShown();
    }

    void reopeningAFileRestoresItsLastView() {
        QVERIFY(open(kHgt));
        drag(w_->dimensionBar()->chip("time"), w_->dimensionBar()->slot(Role::Y));
        verifyShown();
        QVERIFY(open(kSample));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("tas"));
        QVERIFY(open(kHgt));
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("time"));
        verifyShown();
    }

    void aViewAskedForFirstIsShown() {
        // What the command line does with --var anom --projection Mollweide: the resolver runs
        // once the file is open, and its view keeps the projection set before.
        w_->setProjection("Mollweide");
        w_->setInitialView([](const Dataset& ds) {
            ViewSpec v = defaultView(ds, "anom");
            v.indices = {};
            return v;
        });
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        w_->openFile(kData + "/reduced.nc");
        QVERIFY(opened.wait(20000));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("anom"));
        verifyShown();
        QCOMPARE(QString::fromStdString(w_->view().projection), QString("Mollweide"));
        QCOMPARE(QString::fromStdString(w_->imageView()->settings().projection), QString("Mollweide"));
        w_->setProjection(QString()); // as the next case expects
    }

    void groupViewsAreRemembered() {
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        w_->openFile(kData + "/test_hgroups.nc");
        QVERIFY(opened.wait(20000));
        // The root has no data variable: the first group's is shown.
        QVERIFY(QString::fromStdString(w_->view().variable).startsWith("/"));
        verifyShown();
        QString other;
        for (QTreeWidgetItemIterator it(w_->datasetPanel()->tree()); *it; ++it)
            if ((*it)->text(0) == "O3" && (*it)->data(0, Qt::UserRole + 1).toString().startsWith("/"))
                other = (*it)->data(0, Qt::UserRole + 1).toString();
        QVERIFY(!other.isEmpty());
        w_->showVariable(other);
        verifyShown();
        QTemporaryDir d;
        QVERIFY(w_->saveView(d.filePath("g.json")));
        QVERIFY(open(kHgt));
        QVERIFY(w_->loadView(d.filePath("g.json"))); // opens the file again, at that view
        QTRY_COMPARE_WITH_TIMEOUT(QString::fromStdString(w_->view().variable), other, 20000);
        verifyShown();
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestSavedViews t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_savedviews.moc"
