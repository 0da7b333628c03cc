// Long names in the window (under Xvfb), on a file written here through netCDF-C: a variable
// with a long name keeps its attributes' values in view (the names' column no wider than two
// fifths of the table, the title above it shortened and whole in its tooltip), and a frame
// title too long for the view is shortened there and whole in a tooltip over it.
#include <QtTest>

#include <QApplication>
#include <QHeaderView>
#include <QMouseEvent>
#include <QTemporaryDir>
#include <QToolTip>
#include <QTreeWidget>

#include "dataset_panel.h"
#include "elided_label.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const std::string kName = "surface_downwelling_shortwave_flux_in_air_assuming_clear_sky_and_no_aerosol";
const std::string kLongName =
    "Surface downwelling shortwave flux in air assuming clear sky and no aerosol, averaged over "
    "the hour before each time step, from the second reanalysis run of the regional model";
const std::string kHistory = "Made by hand for a test of the window, with a history longer than any "
                             "panel is wide, so that the value has to be shortened where it is shown";

// `kName`(time, lat, lon) with long attributes.
QString writeLongNames(const QTemporaryDir& dir) {
    const QString path = dir.filePath("long_names.nc");
    nctest::Writer w(path.toStdString(), NC_NETCDF4);
    const int t = w.dim("time", 2), y = w.dim("lat", 6), x = w.dim("lon", 8);
    const int tv = w.var("time", NC_DOUBLE, {t}), yv = w.var("lat", NC_DOUBLE, {y}),
              xv = w.var("lon", NC_DOUBLE, {x});
    const int v = w.var(kName.c_str(), NC_FLOAT, {t, y, x});
    w.text(tv, "units", "days since 2010-01-01");
    w.text(yv, "units", "degrees_north");
    w.text(xv, "units", "degrees_east");
    w.text(v, "long_name", kLongName);
    w.text(v, "units", "W m-2");
    w.text(v, "history", kHistory);
    w.enddef();
    std::vector<double> lat, lon;
    for (int i = 0; i < 6; ++i) lat.push_back(-50 + 20 * i);
    for (int i = 0; i < 8; ++i) lon.push_back(45 * i);
    w.put(yv, lat);
    w.put(xv, lon);
    w.put(tv, std::vector<double>{0, 1});
    std::vector<float> values(2 * 6 * 8);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i);
    w.put(v, values);
    return path;
}

} // namespace

class TestLongNames : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::unique_ptr<MainWindow> w_;

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_longnames");
        QVERIFY(test::openAndShow(*w_, writeLongNames(dir_)));
        QCOMPARE(w_->view().variable, kName);
    }
    void cleanupTestCase() { w_.reset(); }

    void attributeValuesStayInView() {
        DatasetPanel* panel = w_->datasetPanel();
        QTreeWidgetItem* item = panel->itemOf(QString::fromStdString(kName));
        QVERIFY(item);
        panel->tree()->setCurrentItem(item);
        QTreeWidget* attributes = panel->attributes();
        QTRY_VERIFY(attributes->topLevelItemCount() >= 3);
        const int room = attributes->viewport()->width();
        QVERIFY(room > 100);
        // The values' column starts within the first half and ends inside the table.
        QHeaderView* header = attributes->header();
        QVERIFY2(header->sectionViewportPosition(1) <= room * 2 / 5,
                 qPrintable(QString("values at %1 of %2").arg(header->sectionViewportPosition(1)).arg(room)));
        QVERIFY2(header->sectionViewportPosition(1) + header->sectionSize(1) <= room,
                 qPrintable(QString("values end at %1 of %2")
                                .arg(header->sectionViewportPosition(1) + header->sectionSize(1))
                                .arg(room)));
        // The long value is shortened there, whole in its tooltip.
        for (int i = 0; i < attributes->topLevelItemCount(); ++i)
            if (attributes->topLevelItem(i)->text(0) == "history")
                QCOMPARE(attributes->topLevelItem(i)->toolTip(1), QString::fromStdString(kHistory));
        // The title names the variable, shortened to the panel and whole in its tooltip.
        ElidedLabel* title = panel->attributesTitle();
        QCOMPARE(title->text(), "Attributes of " + QString::fromStdString(kName));
        QVERIFY(title->width() <= panel->width());
        QVERIFY2(title->shownText().endsWith(QChar(0x2026)), qPrintable(title->shownText()));
        QCOMPARE(title->toolTip(), title->text());
    }

    void aLongFrameTitleIsWholeInATooltip() {
        ImageView* view = w_->imageView();
        const QPointF onTitle(view->width() / 2.0, 20);
        const QString whole = view->titleToolTipAt(onTitle);
        QVERIFY2(whole.startsWith(QString::fromStdString(kLongName)), qPrintable(whole));
        QVERIFY(!whole.contains(QChar(0x2026)));
        QVERIFY(view->titleToolTipAt(QPointF(view->width() / 2.0, view->height() / 2.0)).isEmpty());
        // Hovering over the title shows it, and moving off it hides it.
        QMouseEvent move(QEvent::MouseMove, onTitle, view->mapToGlobal(onTitle), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        QTRY_VERIFY(QToolTip::isVisible());
        QCOMPARE(QToolTip::text(), whole);
        const QPointF inside(view->width() / 2.0, view->height() / 2.0);
        QMouseEvent away(QEvent::MouseMove, inside, view->mapToGlobal(inside), Qt::NoButton, Qt::NoButton,
                         Qt::NoModifier);
        QApplication::sendEvent(view, &away);
        QTRY_VERIFY(!QToolTip::isVisible());
    }
};

QTEST_MAIN(TestLongNames)
#include "tst_longnames.moc"
