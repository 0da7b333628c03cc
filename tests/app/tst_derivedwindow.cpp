// Derived variables in the window, against netCDF-C's values of hgt.nc: Anomaly… on a time
// chip, File ▸ New Derived Variable…, saved views that bring them along, and another dataset
// added beside the open one (File ▸ Add Dataset…) and read by its alias.
#include <QtTest>

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QInputDialog>
#include <QSpinBox>
#include <QSurfaceFormat>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <cmath>
#include <functional>

#include "anomaly_dialog.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "nc_frame.h"
#include "nc_read.h"
#include "strata/core/derived.h"
#include "strata/render/vtk_views.h"
#include "view_json.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";
const QString kHgt = kData + "/hgt.nc";

// hgt.nc's HGT (time 21, lat 73, lon 144; _FillValue -999 as NaN) as netCDF-C reads it.
const nctest::NcValues& hgtFromNetcdf() {
    static const nctest::NcValues v = nctest::readNcFloats(kHgt.toStdString(), "HGT");
    return v;
}

// Where a 73 × 144 map `shown` differs from expected(i) (within 1e-3, relative above 1; NaN
// where NaN is expected), or empty.
QString mapDiffers(const DataArray& shown, const std::function<double(std::size_t)>& expected) {
    const std::vector<double> v = shown.asHost().values<double>();
    if (v.size() != 73 * 144) return QString("%1 values").arg(v.size());
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double e = expected(i);
        if (!(std::fabs(v[i] - e) <= 1e-3 * std::max(1.0, std::fabs(e)) ||
              (std::isnan(v[i]) && std::isnan(e))))
            return QString("value %1: %2, expected %3").arg(i).arg(v[i]).arg(e);
    }
    return {};
}

} // namespace

class TestDerivedWindow : public QObject, test::WindowCase {
    Q_OBJECT
private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_derivedwindow");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    // Derived variables in the window: Anomaly… on the time chip (its sliders move the base
    // period and redraw), a statement of File ▸ New Derived Variable…, and a saved view that
    // brings its derived variable to the file opened afresh. Frames against netCDF-C's values.
    void derivedVariablesAndTheAnomalyDialog() {
        QVERIFY(open(kHgt));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("HGT"));
        const nctest::NcValues& f = hgtFromNetcdf();
        QCOMPARE(f.values.size(), std::size_t(21 * 73 * 144));
        auto at = [&](std::size_t t, std::size_t i) { return double(f.values[t * 73 * 144 + i]); };
        auto frameIs = [&](const std::function<double(std::size_t)>& expected) {
            return mapDiffers(w_->shownFrame(), expected);
        };

        // Anomaly… on the time chip. The record: January 1958, then the Februaries of 1958–1977;
        // the base period starts as all of it (it does not hold 1991–2020).
        ViewSpec map; // a map of February 1958 (the file's last view may be another)
        map.variable = "HGT";
        map.xDim = "lon";
        map.yDim = "lat";
        map.indices = {{"time", 1}};
        w_->applyView(map);
        QVERIFY(settle());
        QVERIFY(w_->dimensionBar()->chip("time"));
        emit w_->dimensionBar()->anomalyRequested("time");
        auto* dialog = w_->findChild<AnomalyDialog*>();
        QVERIFY(dialog);
        QCOMPARE(dialog->firstYear()->value(), 1958);
        QCOMPARE(dialog->lastYear()->value(), 1977);
        QTRY_COMPARE(QString::fromStdString(w_->view().variable), QString("HGT_anomaly"));
        QCOMPARE(w_->view().indexOf("time"), std::int64_t(1)); // seen as HGT was
        verifyShown();
        // February 1958 against the mean of the Februaries of the base period.
        auto februaries = [&](std::size_t i, std::size_t last) {
            double s = 0, n = 0;
            for (std::size_t t = 1; t <= last; ++t)
                if (!std::isnan(at(t, i))) s += at(t, i), n += 1;
            return s / n;
        };
        QString why = frameIs([&](std::size_t i) { return at(1, i) - februaries(i, 20); });
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(w_->view().colouring.colormap, std::string("RdBu"));
        QVERIFY(w_->datasetPanel()->itemOf("HGT_anomaly"));
        QCOMPARE(w_->datasetPanel()->itemOf("HGT_anomaly")->text(0), QString("HGT_anomaly ƒ"));
        QCOMPARE(QString::fromStdString(w_->shownFrame().attrs().text("long_name").value_or("")),
                 QString("HGT anomaly vs 1958–1977 monthly climatology"));
        // The base period's last year moved to 1960: a new climatology (three Februaries).
        dialog->lastYear()->setValue(1960);
        QTRY_VERIFY(w_->dataset()->findVariable("HGT_anomaly") &&
                    derivedSourceOf(*w_->dataset()->findVariable("HGT_anomaly"))->statement() ==
                        "HGT_anomaly = anomaly(HGT, \"month\", 1958, 1960)");
        verifyShown();
        why = frameIs([&](std::size_t i) { return at(1, i) - februaries(i, 3); });
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QCOMPARE(QString::fromStdString(w_->shownFrame().attrs().text("long_name").value_or("")),
                 QString("HGT anomaly vs 1958–1960 monthly climatology"));
        dialog->close();

        // A statement of File ▸ New Derived Variable…, shown with the slice it was at.
        ViewSpec sixth = w_->view(); // the sixth step (February 1961)
        sixth.indices = {{"time", 5}};
        w_->applyView(sixth);
        QVERIFY(settle());
        QVERIFY(w_->addDerived("twice [gpm] = HGT_anomaly * 0 + HGT * 2"));
        QTRY_COMPARE(QString::fromStdString(w_->view().variable), QString("twice"));
        verifyShown();
        why = frameIs([&](std::size_t i) { return at(5, i) * 2; });
        QVERIFY2(why.isEmpty(), qPrintable(why));
        // A refused statement says why, and changes nothing.
        QVERIFY(!w_->addDerived("bad = HGT +"));
        QVERIFY(!w_->dataset()->findVariable("bad"));

        // Saved, and loaded on the file opened afresh: the view brings its derived variables.
        QTemporaryDir dir;
        const QString path = QDir(dir.path()).filePath("derived-view.json");
        QVERIFY(w_->saveView(path));
        QFile saved(path);
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(saved.readAll().contains("twice [gpm] = HGT_anomaly * 0 + HGT * 2"));
        QVERIFY(open(kSample));
        QVERIFY(w_->loadView(path));
        QTRY_COMPARE(QString::fromStdString(w_->view().variable), QString("twice"));
        verifyShown();
        why = frameIs([&](std::size_t i) { return at(5, i) * 2; });
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // A derived variable reduced in the window as a stored one is: hypot(ua, va) of
    // geostrophic_500.nc averaged over time, then area-weighted over the globe at each step,
    // against the same worked out here on netCDF-C's reading (NaN skipped, cos(latitude)).
    void aDerivedVariableIsReducedAndAreaMeaned() {
        const QString path = kData + "/geostrophic_500.nc";
        QVERIFY(open(path));
        QVERIFY(w_->addDerived("speed = hypot(ua, va)"));
        const auto u = nctest::readDecoded(path.toStdString(), "ua"),
                   v = nctest::readDecoded(path.toStdString(), "va");
        QVERIFY(u && v);
        nctest::NdValues speed = *u;
        for (std::size_t k = 0; k < speed.values.size(); ++k)
            speed.values[k] = double(float(std::hypot(u->values[k], v->values[k])));
        ViewSpec s = w_->view();
        s.variable = "speed";
        s.xDim = "lon";
        s.yDim = "lat";
        s.indices.clear();
        s.reductions = {{"time", ReduceOp::Mean}};
        s.areaWeighted = false;
        w_->applyView(s);
        QVERIFY(settle());
        const nctest::NdValues mean = nctest::reduced(speed, 0, "mean");
        QString why = mapDiffers(w_->shownFrame(), [&](std::size_t i) { return mean.values[i]; });
        QVERIFY2(why.isEmpty(), qPrintable(why));

        s.xDim = "time";
        s.yDim.clear();
        s.reductions = {{"lat", ReduceOp::Mean}, {"lon", ReduceOp::Mean}};
        s.areaWeighted = true;
        w_->applyView(s);
        QVERIFY(settle());
        const nctest::NdValues area =
            nctest::areaMean(speed, {"lat", "lon"}, "lat", nctest::readPlain(path.toStdString(), "lat"));
        const std::vector<double> shown = w_->shownFrame().asHost().values<double>();
        QCOMPARE(shown.size(), std::size_t(2));
        for (std::size_t t = 0; t < 2; ++t)
            QVERIFY2(
                std::fabs(shown[t] - area.values[t]) <= 1e-4 * std::fabs(area.values[t]),
                qPrintable(QString("step %1: %2, expected %3").arg(t).arg(shown[t]).arg(area.values[t])));
    }

    void anAddedDatasetIsReadByAlias() {
        // b: hgt.nc's grid and times, its HGT changed (written here through netCDF-C).
        QTemporaryDir dir;
        const QString other = QDir(dir.path()).filePath("hgt_b.nc");
        const nctest::NcValues& f = hgtFromNetcdf();
        // A copy of hgt.nc at `path` whose HGT is `values`.
        auto writeCopy = [&](const QString& path, const std::vector<float>& values) {
            QVERIFY(QFile::copy(kHgt, path));
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner);
            int id = 0, var = 0;
            nctest::ok(nc_open(path.toUtf8().constData(), NC_WRITE, &id), "nc_open");
            nctest::ok(nc_inq_varid(id, "HGT", &var), "HGT");
            nctest::ok(nc_put_var_float(id, var, values.data()), "nc_put_var_float");
            nctest::ok(nc_close(id), "nc_close");
        };
        std::vector<float> changed(f.values.size());
        for (std::size_t i = 0; i < changed.size(); ++i)
            changed[i] = i % 97 == 0 ? NAN : float(f.values[i] * 0.5 + double(i % 13));
        writeCopy(other, changed);
        QVERIFY(open(kHgt));
        QSignalSpy added(w_.get(), &MainWindow::datasetAdded);
        w_->addDatasets({other});
        QVERIFY(added.wait(20000));
        QCOMPARE(added.first().first().toString(), QString("b"));
        QCOMPARE(w_->otherDatasets().size(), std::size_t(1));
        // The panel: the dataset as a, the other as b with its variables as expressions read them.
        QTreeWidget* tree = w_->datasetPanel()->tree();
        QCOMPARE(tree->topLevelItemCount(), 2);
        QCOMPARE(tree->topLevelItem(0)->text(0), QString("a: hgt.nc"));
        QCOMPARE(tree->topLevelItem(1)->text(0), QString("b: hgt_b.nc"));
        QTreeWidgetItem* bHgt = nullptr;
        for (QTreeWidgetItemIterator it(tree->topLevelItem(1)); *it; ++it)
            if ((*it)->text(0) == "HGT") bHgt = *it;
        QVERIFY(bHgt);
        QVERIFY(bHgt->toolTip(0).startsWith("b.HGT"));
        QVERIFY(!w_->datasetPanel()->itemOf("b.HGT")); // not one of the dataset's own
        // Double-clicking it offers a derived variable of it (the dialog, cancelled here).
        QSignalSpy edit(w_->datasetPanel(), &DatasetPanel::derivedEditRequested);
        QString offered;
        QTimer::singleShot(0, [&] {
            if (auto* box = qobject_cast<QInputDialog*>(QApplication::activeModalWidget())) {
                offered = box->textValue();
                box->reject();
            }
        });
        emit tree->itemDoubleClicked(bHgt, 0);
        QCOMPARE(edit.count(), 1);
        QCOMPARE(offered, QString("HGT_b = b.HGT"));
        QVERIFY(!w_->dataset()->findVariable("HGT_b")); // cancelled: nothing added

        ViewSpec map;
        map.variable = "HGT";
        map.xDim = "lon";
        map.yDim = "lat";
        map.indices = {{"time", 4}};
        w_->applyView(map);
        QVERIFY(settle());
        QVERIFY(w_->addDerived("d = HGT - b.HGT"));
        QTRY_COMPARE(QString::fromStdString(w_->view().variable), QString("d"));
        verifyShown();
        const auto expected = [&](std::size_t i) {
            const std::size_t k = 4 * 73 * 144 + i;
            return double(f.values[k]) - double(changed[k]);
        };
        QString why = mapDiffers(w_->shownFrame(), expected);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // A saved view names b with its path; another window loading it opens b first.
        const QString viewPath = QDir(dir.path()).filePath("with-view.json");
        QVERIFY(w_->saveView(viewPath));
        const ViewSpec saved = [&] {
            QFile in(viewPath);
            return in.open(QIODevice::ReadOnly) ? viewFromJsonText(in.readAll()) : ViewSpec{};
        }();
        QCOMPARE(saved.with.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(saved.with[0].alias), QString("b"));
        QCOMPARE(QFileInfo(QString::fromStdString(saved.with[0].paths.at(0))), QFileInfo(other));
        MainWindow second;
        second.resize(900, 600);
        second.show();
        QVERIFY(QTest::qWaitForWindowExposed(&second)); // before its opens fork (window_fixture.h)
        QSignalSpy secondShown(&second, &MainWindow::frameShown);
        QVERIFY(second.loadView(viewPath));
        QTRY_VERIFY_WITH_TIMEOUT(second.view().variable == "d" && secondShown.count() > 0, 20000);
        QCOMPARE(second.otherDatasets().size(), std::size_t(1));
        QTRY_VERIFY_WITH_TIMEOUT(second.shownFrame().variable().size() == 73 * 144, 20000);
        why = mapDiffers(second.shownFrame(), expected);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // A view naming b at another file: b is replaced, and d made again over it.
        const QString third = QDir(dir.path()).filePath("hgt_b2.nc");
        std::vector<float> quartered(f.values.size());
        for (std::size_t i = 0; i < quartered.size(); ++i) quartered[i] = float(f.values[i] * 0.25);
        writeCopy(third, quartered);
        ViewSpec moved = saved;
        moved.with[0].paths = {third.toStdString()};
        const QString movedPath = QDir(dir.path()).filePath("moved-view.json");
        {
            QFile out(movedPath);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(toJsonText(moved));
        }
        QVERIFY(w_->loadView(movedPath));
        QTRY_VERIFY_WITH_TIMEOUT(
            w_->otherDatasets().size() == 1 &&
                QFileInfo(QString::fromStdString(w_->otherDatasets()[0].dataset->path)) == QFileInfo(third),
            20000);
        QVERIFY(settle());
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("d"));
        why = mapDiffers(w_->shownFrame(), [&](std::size_t i) {
            const std::size_t k = 4 * 73 * 144 + i;
            return double(f.values[k]) - double(quartered[k]);
        });
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // A file that is not a dataset: an error naming it, and nothing added.
        const QString bad = QDir(dir.path()).filePath("not-netcdf.nc");
        QFile junk(bad);
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("this is not netCDF\n");
        junk.close();
        QSignalSpy failed(w_.get(), &MainWindow::openFailed);
        w_->addDatasets({bad});
        QVERIFY(failed.wait(20000));
        QVERIFY2(w_->lastError().contains("not-netcdf.nc"), qPrintable(w_->lastError()));
        if (w_->errorBox()) w_->errorBox()->close();
        QCOMPARE(w_->otherDatasets().size(), std::size_t(1));
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestDerivedWindow t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_derivedwindow.moc"
