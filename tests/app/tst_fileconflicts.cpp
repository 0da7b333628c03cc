// A directory of files that do not form one dataset, opened in the window (under Xvfb), on
// files written here through netCDF-C: every conflict is listed in a dialog titled with the
// directory's name, with the groups of files that do form one, the largest chosen; opening
// another group opens those files as one dataset. A directory that cannot be opened is named in
// its error's title.
#include <QtTest>

#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QTemporaryDir>

#include "file_group_dialog.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

// `variable`(time, lat, lon) with two records from day `first` (none when `withTime` is false:
// a field of its own, such as orography).
void writeMember(const QString& path, const char* variable, double first, bool withTime = true) {
    nctest::Writer w(path.toStdString(), NC_NETCDF4);
    const int y = w.dim("lat", 4), x = w.dim("lon", 5);
    const int yv = w.var("lat", NC_DOUBLE, {y}), xv = w.var("lon", NC_DOUBLE, {x});
    int t = -1, tv = -1, v = -1;
    if (withTime) {
        t = w.dim("time", NC_UNLIMITED);
        tv = w.var("time", NC_DOUBLE, {t});
        w.text(tv, "units", "days since 2000-01-01");
        v = w.var(variable, NC_FLOAT, {t, y, x});
    } else {
        v = w.var(variable, NC_FLOAT, {y, x});
    }
    w.text(yv, "units", "degrees_north");
    w.text(xv, "units", "degrees_east");
    w.enddef();
    w.put(yv, std::vector<double>{-60, -20, 20, 60});
    w.put(xv, std::vector<double>{0, 72, 144, 216, 288});
    std::vector<float> values(withTime ? 40 : 20);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(first + double(i));
    if (withTime) {
        w.putAt(tv, {0}, {2}, std::vector<double>{first, first + 15});
        w.putAt(v, {0, 0, 0}, {2, 4, 5}, values);
    } else {
        w.put(v, values);
    }
}

// A year of tas in three files, pr over the first two of them, and orography.
struct Directory {
    QTemporaryDir dir;
    QStringList tas, pr;
    Directory() {
        for (int i = 0; i < 3; ++i) {
            tas << dir.filePath(QString("tas_%1.nc").arg(i));
            writeMember(tas.back(), "tas", 30.0 * i);
        }
        for (int i = 0; i < 2; ++i) {
            pr << dir.filePath(QString("pr_%1.nc").arg(i));
            writeMember(pr.back(), "pr", 30.0 * i);
        }
        writeMember(dir.filePath("orog.nc"), "orog", 0, false);
    }
    QString name() const { return QDir(dir.path()).dirName(); }
};

QStringList texts(const QListWidget* list) {
    QStringList out;
    for (int i = 0; i < list->count(); ++i) out << list->item(i)->text();
    return out;
}

} // namespace

class TestFileConflicts : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

private slots:
    void init() { w_ = test::makeTestWindow("tst_fileconflicts"); }
    void cleanup() { w_.reset(); }

    void aDirectoryOfUnrelatedFilesOffersItsGroups() {
        Directory d;
        QSignalSpy failed(w_.get(), &MainWindow::openFailed);
        w_->openFiles({d.dir.path() + "/"}); // as a shell completes it
        QVERIFY(failed.wait(20000));
        auto* dialog = w_->findChild<FileGroupDialog*>();
        QVERIFY(dialog);
        QTRY_VERIFY(dialog->isVisible());
        QVERIFY2(dialog->windowTitle().contains(d.name()), qPrintable(dialog->windowTitle()));
        // Every conflict with the largest group, each naming its file.
        const QStringList conflicts = texts(dialog->conflictList());
        QCOMPARE(conflicts.size(), 3);
        QVERIFY2(conflicts[0].contains("pr_0.nc") && conflicts[0].contains("overlap along 'time'"),
                 qPrintable(conflicts[0]));
        QVERIFY2(conflicts[1].contains("pr_1.nc") && conflicts[1].contains("overlap along 'time'"),
                 qPrintable(conflicts[1]));
        QVERIFY2(conflicts[2].contains("orog.nc") && conflicts[2].contains("no dim 'time'"),
                 qPrintable(conflicts[2]));
        QCOMPARE(texts(dialog->groupList()), (QStringList{"3 files: tas_*.nc along time",
                                                          "2 files: pr_*.nc along time", "1 file: orog.nc"}));
        QCOMPARE(dialog->groupList()->currentRow(), 0); // the largest
        // Another group chosen: its files open as one dataset.
        dialog->groupList()->setCurrentRow(1);
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY2(shown.wait(20000) || shown.count() > 0, qPrintable(w_->lastError()));
        std::vector<std::string> expected;
        for (const QString& f : d.pr) expected.push_back(f.toStdString());
        QCOMPARE(w_->dataset()->files, expected);
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("pr"));
        QTRY_VERIFY(!w_->findChild<FileGroupDialog*>());
    }

    // The largest group chosen at first: Open Group opens it.
    void theLargestGroupOpensAtOnce() {
        Directory d;
        QSignalSpy failed(w_.get(), &MainWindow::openFailed);
        w_->openFiles({d.dir.path()});
        QVERIFY(failed.wait(20000));
        auto* dialog = w_->findChild<FileGroupDialog*>();
        QVERIFY(dialog);
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        QTest::mouseClick(dialog->openButton(), Qt::LeftButton);
        QVERIFY2(shown.wait(20000) || shown.count() > 0, qPrintable(w_->lastError()));
        QCOMPARE(w_->dataset()->files.size(), std::size_t(3));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("tas"));
    }

    void aDirectoryThatCannotBeOpenedIsNamed() {
        QTemporaryDir dir;
        QFile bad(dir.filePath("bad.nc"));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write("not a netCDF file");
        bad.close();
        QSignalSpy failed(w_.get(), &MainWindow::openFailed);
        w_->openFiles({dir.path() + "/"});
        QVERIFY(failed.wait(20000));
        QVERIFY(w_->errorBox());
        QCOMPARE(w_->errorBox()->windowTitle(), "Cannot open " + QDir(dir.path()).dirName());
    }
};

QTEST_MAIN(TestFileConflicts)
#include "tst_fileconflicts.moc"
