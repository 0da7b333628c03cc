// A GRIB file in the window, under Xvfb (issue 39): tests/data/grib/single_levels.grib2 (ERA5-like
// 2 m, 10 m and mean sea level fields on two steps, make_grib_fixtures.py) opens with one group a
// hypercube in the dataset panel, as cfgrib's datasets split it; choosing a group's variable
// there shows its frame, each value the analytic field the fixture was written from (within
// the 16-bit packing's precision), and the next step shows the next step's field.
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>
#include <cmath>

#include "dataset_panel.h"
#include "main_window.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kFile = QStringLiteral(STRATA_TEST_DATA "/grib/single_levels.grib2");

// make_grib_fixtures.py's field().
double field(double lat, double lon, double base, double wave) {
    const double r = M_PI / 180.0;
    return base + 10.0 * std::cos(lat * r) * std::sin(wave * lon * r) + 0.05 * lat;
}

// Empty when `frame` (latitude × longitude) is field(·, ·, base, 1) on `group`'s coordinates.
QString notTheField(const DataArray& frame, const Dataset& group, double base) {
    if (frame.ndim() != 2 || frame.dims()[0] != "latitude" || frame.dims()[1] != "longitude")
        return "not a latitude × longitude frame";
    const std::vector<double> lat = group.coords.find("latitude")->values,
                              lon = group.coords.find("longitude")->values;
    const std::vector<double> v = frame.asHost().values<double>();
    if (v.size() != lat.size() * lon.size()) return "not the grid's size";
    for (std::size_t k = 0; k < v.size(); ++k)
        if (!(std::fabs(v[k] - field(lat[k / lon.size()], lon[k % lon.size()], base, 1)) < 0.01))
            return QString("point %1: %2").arg(k).arg(v[k]);
    return {};
}

} // namespace

class TestGribWindow : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

private slots:
    void initTestCase() { w_ = test::makeTestWindow("tst_gribwindow"); }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    void eachHypercubeIsAGroupOfThePanel() {
        QVERIFY(test::openAndShow(*w_, kFile));
        QTreeWidget* tree = w_->datasetPanel()->tree();
        QStringList groups;
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            if ((*it)->text(0).startsWith("group ")) groups << (*it)->text(0);
        QCOMPARE(groups, (QStringList{"group /heightAboveGround_2_instant",
                                      "group /heightAboveGround_10_instant", "group /meanSea_instant"}));
        for (const char* path : {"/heightAboveGround_2_instant/t2m", "/heightAboveGround_2_instant/d2m",
                                 "/heightAboveGround_10_instant/u10", "/heightAboveGround_10_instant/v10",
                                 "/meanSea_instant/msl"})
            QVERIFY2(w_->datasetPanel()->itemOf(path), path);

        // Chosen in the panel: v10 at step 0, then step 1 (6 h), each its own field.
        QTreeWidgetItem* item = w_->datasetPanel()->itemOf("/heightAboveGround_10_instant/v10");
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        tree->setCurrentItem(item);
        QVERIFY(shown.wait(10000));
        QTRY_VERIFY(!w_->frameService()->busy() &&
                    w_->view().variable == "/heightAboveGround_10_instant/v10");
        const Dataset& ten = w_->dataset()->findGroup("heightAboveGround_10_instant");
        QCOMPARE(w_->view().indexOf("step"), std::int64_t(0));
        QString why = notTheField(w_->shownFrame(), ten, -3.0);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        ViewSpec next = w_->view();
        std::erase_if(next.indices, [](const auto& p) { return p.first == "step"; });
        next.indices.push_back({"step", 1});
        shown.clear();
        w_->applyView(next);
        QVERIFY(shown.wait(10000));
        QTRY_VERIFY(!w_->frameService()->busy());
        why = notTheField(w_->shownFrame(), ten, -3.0 + 6);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_MAIN(TestGribWindow)
#include "tst_gribwindow.moc"
