// The window on a file set (under Xvfb): File ▸ Open with several files, several files dropped,
// the title and dataset panel naming the set, the series through a point across every file
// (values from netCDF-C reads of each file), saved views and recent files keeping the set (a glob
// enabled while it matches files), and the set's last view restored when it is opened again.
#include <QFileInfo>
#include <QMenu>
#include <QMimeData>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

#include "app/window_fixture.h"
#include "dataset_panel.h"
#include "io/nc_write.h"
#include "nc_read.h"

using namespace strata;
using strata::app::ViewSpec;

namespace {

// tas(time, lat, lon) = 100 * record + 10 * y + x, two records a file, time in days.
void writeMember(const std::string& path, int first) {
    nctest::Writer w(path, NC_NETCDF4);
    const int t = w.dim("time", NC_UNLIMITED), y = w.dim("lat", 6), x = w.dim("lon", 8);
    const int tv = w.var("time", NC_DOUBLE, {t}), yv = w.var("lat", NC_DOUBLE, {y}),
              xv = w.var("lon", NC_DOUBLE, {x});
    const int v = w.var("tas", NC_FLOAT, {t, y, x});
    w.text(tv, "units", "days since 2010-01-01");
    w.text(yv, "units", "degrees_north");
    w.text(xv, "units", "degrees_east");
    w.enddef();
    std::vector<double> lat, lon;
    for (int i = 0; i < 6; ++i) lat.push_back(-50 + 20 * i);
    for (int i = 0; i < 8; ++i) lon.push_back(45 * i);
    w.put(yv, lat);
    w.put(xv, lon);
    w.putAt(tv, {0}, {2}, std::vector<double>{first * 10.0, first * 10.0 + 10});
    std::vector<float> values;
    for (int k = 0; k < 2; ++k)
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 8; ++j) values.push_back(float(100 * (first + k) + 10 * i + j));
    w.putAt(v, {0, 0, 0}, {2, 6, 8}, values);
}

// Three members named against their time order.
struct Set {
    QTemporaryDir dir;
    QStringList files, inTimeOrder;
    Set() {
        files = {dir.filePath("tas_c.nc"), dir.filePath("tas_a.nc"), dir.filePath("tas_b.nc")};
        writeMember(files[0].toStdString(), 4); // c: records 4, 5
        writeMember(files[1].toStdString(), 2); // a: 2, 3
        writeMember(files[2].toStdString(), 0); // b: 0, 1
        inTimeOrder = {files[2], files[1], files[0]};
    }
};

QStringList memberNames(strata::app::MainWindow& w) {
    QStringList out;
    for (auto* tree : w.datasetPanel()->findChildren<QTreeWidget*>())
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            if ((*it)->text(0).startsWith("Files (")) {
                for (int i = 0; i < (*it)->childCount(); ++i) out << (*it)->child(i)->text(0);
            }
    return out;
}

bool openSet(strata::app::MainWindow& w, const QStringList& files) {
    QSignalSpy shown(&w, &strata::app::MainWindow::frameShown);
    w.openFiles(files);
    return shown.wait(20000) || shown.count() > 0;
}

} // namespace

class TestMainWindowMultiFile : public QObject {
    Q_OBJECT
private slots:
    void init() { w_ = test::makeTestWindow("tst_mainwindow_multifile"); }
    void cleanup() { w_.reset(); }

    void opensSeveralFilesAsOneDataset() {
        Set s;
        QVERIFY(openSet(*w_, s.files));
        // The title follows the first frame's paint (finishOpen).
        QTRY_COMPARE(w_->windowTitle(), QString("tas_*.nc (3 files) — Strata"));
        QCOMPARE(memberNames(*w_), (QStringList{"tas_b.nc", "tas_a.nc", "tas_c.nc"}));
        QCOMPARE(w_->dataset()->findDim("time")->length, std::int64_t(6));
        // The series through (lat 4, lon 7) along time: every member, read by netCDF-C here.
        QSignalSpy series(w_.get(), &strata::app::MainWindow::seriesShown);
        w_->plotSeriesAt(4, 7, "time");
        QVERIFY(series.wait(20000) || series.count() > 0);
        std::vector<float> expect;
        for (const QString& f : s.inTimeOrder) {
            const auto v = nctest::readNcFloats(f.toStdString(), "tas");
            for (std::size_t k = 0; k < 2; ++k) expect.push_back(v.at(k, 4, 7));
        }
        const auto got = w_->shownSeries().asHost().values<float>();
        QCOMPARE(got, expect);
        // Recent files remember the whole set.
        const QStringList recent = QSettings().value("recentFiles").toStringList();
        QVERIFY(!recent.isEmpty());
        QCOMPARE(recent.first().split('\n').size(), 3);
    }

    void dropOfSeveralFiles() {
        Set s;
        QMimeData mime;
        QList<QUrl> urls;
        for (const QString& f : s.files) urls << QUrl::fromLocalFile(f);
        mime.setUrls(urls);
        QSignalSpy shown(w_.get(), &strata::app::MainWindow::frameShown);
        QDragEnterEvent enter(QPoint(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(w_.get(), &enter); // a drop goes where the drag entered
        QVERIFY(enter.isAccepted());
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(w_.get(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY2(shown.wait(20000) || shown.count() > 0, qPrintable(w_->lastError()));
        QCOMPARE(w_->dataset()->files.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(w_->dataset()->files.front()), s.inTimeOrder.front());
    }

    void savedViewKeepsTheFiles() {
        Set s;
        QVERIFY(openSet(*w_, s.files));
        const QString view = s.dir.filePath("set.json");
        QVERIFY(w_->saveView(view));
        QFile f(view);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray json = f.readAll();
        QVERIFY2(json.contains("\"files\"") && json.contains("tas_c.nc"), json.constData());
        QVERIFY(openSet(*w_, {QString(STRATA_TEST_DATA) + "/tas_rectilinear_grid_2D.nc"}));
        QVERIFY(w_->dataset()->files.empty());
        QSignalSpy shown(w_.get(), &strata::app::MainWindow::frameShown);
        QVERIFY(w_->loadView(view)); // opens the set again
        QVERIFY(shown.wait(20000) || shown.count() > 0);
        QCOMPARE(w_->dataset()->files.size(), std::size_t(3));
        QTRY_COMPARE(w_->windowTitle(), QString("tas_*.nc (3 files) — Strata"));
    }

    // A file set's last view comes back when the set is opened again, here through a glob that
    // names the same files (it was saved under the first file and looked up under the set).
    void lastViewOfASetIsRestored() {
        Set s;
        QVERIFY(openSet(*w_, s.files));
        ViewSpec changed = w_->view();
        QCOMPARE(changed.indexOf("time"), std::int64_t(0)); // the default view
        changed.indices = {{"time", 3}};
        changed.colouring.colormap = "magma";
        QSignalSpy shown(w_.get(), &strata::app::MainWindow::frameShown);
        w_->applyView(changed);
        QVERIFY(shown.wait(20000) || shown.count() > 0);
        QVERIFY(openSet(*w_, {QString(STRATA_TEST_DATA) + "/hgt.nc"})); // another file
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("HGT"));
        QVERIFY(openSet(*w_, s.files));
        QCOMPARE(w_->view().indexOf("time"), std::int64_t(3));
        QCOMPARE(QString::fromStdString(w_->view().colouring.colormap), QString("magma"));
        QVERIFY(openSet(*w_, {QString(STRATA_TEST_DATA) + "/hgt.nc"}));
        QVERIFY(openSet(*w_, {s.dir.filePath("tas_*.nc")}));
        QCOMPARE(w_->dataset()->files.size(), std::size_t(3));
        QCOMPARE(w_->view().indexOf("time"), std::int64_t(3));
    }

    // A glob opened from the command line is a recent entry, enabled while it matches files
    // (whatever its wildcards), and opened as the set it matches then; greyed out once it
    // matches none.
    void aRecentGlobOpensWhileItMatches() {
        Set s;
        const QString glob = s.dir.filePath("tas_?.nc");
        QVERIFY(openSet(*w_, {glob}));
        QCOMPARE(w_->dataset()->files.size(), std::size_t(3));
        QVERIFY(openSet(*w_, {QString(STRATA_TEST_DATA) + "/hgt.nc"}));
        QAction* entry = recentEntry(glob);
        QVERIFY(entry);
        QVERIFY2(entry->isEnabled(), qPrintable(entry->toolTip()));
        QVERIFY2(entry->toolTip().startsWith("3 files"), qPrintable(entry->toolTip()));
        QSignalSpy shown(w_.get(), &strata::app::MainWindow::frameShown);
        entry->trigger();
        QVERIFY(shown.wait(20000) || shown.count() > 0);
        QCOMPARE(w_->dataset()->files.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(w_->dataset()->files.front()), s.inTimeOrder.front());
        // The files gone: greyed out, and the tooltip says why.
        for (const QString& f : s.files) QVERIFY(QFile::remove(f));
        QAction* gone = recentEntry(glob);
        QVERIFY(gone);
        QVERIFY(!gone->isEnabled());
        QVERIFY2(gone->toolTip().contains("no file matches"), qPrintable(gone->toolTip()));
        // A glob with '*' that matches nothing is greyed out too.
        QVERIFY(openSet(*w_, {QString(STRATA_TEST_DATA) + "/hgt.nc"}));
        QSettings().setValue("recentFiles", QStringList{s.dir.filePath("tas_*.nc")});
        QAction* star = recentEntry(s.dir.filePath("tas_*.nc"));
        QVERIFY(star);
        QVERIFY(!star->isEnabled());
    }

private:
    // File ▸ Open Recent's entry for `path`, as the menu shows it when opened.
    QAction* recentEntry(const QString& path) {
        QMenu* recent = nullptr;
        for (QMenu* m : w_->findChildren<QMenu*>())
            if (m->title() == "Open &Recent") recent = m;
        if (!recent) return nullptr;
        emit recent->aboutToShow(); // as it is about to be shown: made anew
        for (QAction* a : recent->actions())
            if (a->text().endsWith(" " + QFileInfo(path).absoluteFilePath())) return a;
        return nullptr;
    }

    std::unique_ptr<strata::app::MainWindow> w_;
};

QTEST_MAIN(TestMainWindowMultiFile)
#include "tst_mainwindow_multifile.moc"
