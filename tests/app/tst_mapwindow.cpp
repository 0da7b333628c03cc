// The window's maps, under Xvfb: View ▸ Coastlines over a lon/lat frame (their ink where the
// shores are, and only there), a grid mapping shown as a map in its own CRS, and a curvilinear
// frame (stage IV: x/y with 2-D lat/lon) recognised and put on a Robinson map from the View
// menu. Every frame shown is compared with netCDF-C's and with the core's (verifyShown).
#include <QAction>
#include <QFile>
#include <QMenu>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "main_window.h"
#include "strata/render/view_layout.h"
#include "strata/render/vtk_views.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";
const QString kStageIv = kData + "/test_stageiv_xyt.nc";

} // namespace

class TestMapWindow : public QObject, test::WindowCase {
    Q_OBJECT
private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_mapwindow");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    // View ▸ Coastlines: on at the start, over the sample's lon/lat frame; unchecking it takes
    // the coasts off the picture (only pixels inside the plot change back) and checking puts
    // them back. The action's tip names the level drawn and where it comes from (GSHHG when
    // Debian's gmt-gshhg-low is installed), and says none while they are off.
    void coastlinesToggleFromTheViewMenu() {
        QVERIFY(open(kSample));
        verifyShown();
        auto* action = w_->findChild<QAction*>("coastlinesAction");
        QVERIFY(action);
        QVERIFY(action->isCheckable() && action->isChecked());
        ImageView* view = w_->imageView();
        QVERIFY(view->settings().coastlines);
        QImage with;
        QTRY_VERIFY(!(with = view->grabImage()).isNull());
        QTRY_VERIFY2(action->statusTip().startsWith("Coastlines: G"), qPrintable(action->statusTip()));
        if (QFileInfo::exists("/usr/share/gmt-gshhg/binned_GSHHS_c.nc"))
            QTRY_COMPARE(
                action->statusTip(),
                QString("Coastlines: GSHHG 2.3.7 crude (25 km), /usr/share/gmt-gshhg (gmt-gshhg-low)"));
        QCOMPARE(action->toolTip(), action->statusTip());
        action->trigger();
        QVERIFY(!action->isChecked());
        QVERIFY(!view->settings().coastlines);
        QImage without;
        QTRY_VERIFY(!(without = view->grabImage()).isNull() && without != with);
        // Where the coasts were: inside the plot only, and where the shorelines are. The plot
        // and the lon/lat of its pixels from the layout of the sample's whole 96 × 192 frame.
        const DataArray& shown = w_->shownFrame();
        const AxisGrid gy = axisGrid(shown, 0), gx = axisGrid(shown, 1);
        const ViewWindow window = fullWindow(gx, gy);
        const ViewTransform t(computeLayout(with.width(), with.height(), view->devicePixelRatioF(), window,
                                            keepsAspect(AspectMode::Auto, gx, gy), {192, 96})
                                  .plot,
                              window);
        const PixelRect& plot = t.plot();
        std::vector<QPoint> changed; // top-left origin, as QImage has it
        for (int y = 0; y < with.height(); ++y)
            for (int x = 0; x < with.width(); ++x)
                if (with.pixel(x, y) != without.pixel(x, y)) {
                    QVERIFY(qGray(with.pixel(x, y)) < 60); // coast ink went
                    const double px = x + 0.5, py = with.height() - y - 0.5;
                    QVERIFY2(plot.contains(px, py),
                             qPrintable(QString("pixel (%1, %2) outside the plot").arg(x).arg(y)));
                    changed.push_back({x, y});
                }
        // The nearest changed pixel to a longitude/latitude, in pixels.
        auto inkNear = [&](double lon, double lat) {
            const double px = t.pixelX(lon), py = with.height() - t.pixelY(lat);
            double best = 1e9;
            for (const QPoint& p : changed)
                best = std::min(best, std::hypot(p.x() + 0.5 - px, p.y() + 0.5 - py));
            return best;
        };
        // Shore points (each within 0.3° of a vertex of the crude shoreline, a pixel or less
        // here): Cape Agulhas, Cape Horn's Isla Hornos, the Cape of Good Hope's coast near Cape
        // Town, Cape Farewell in Greenland.
        for (auto [lon, lat] : {std::pair{20.0, -34.83}, {292.7, -55.98}, {18.47, -34.35}, {316.1, 59.8}})
            QVERIFY2(inkNear(lon, lat) <= 2,
                     qPrintable(QString("%1, %2: %3").arg(lon).arg(lat).arg(inkNear(lon, lat))));
        // Far from any shore (the Libyan desert, 700 km; the South Pacific, 1000 km): none within
        // 3° (about six pixels).
        const double perDegree = plot.width() / 360;
        for (auto [lon, lat] : {std::pair{20.0, 25.0}, {240.0, -30.0}})
            QVERIFY2(inkNear(lon, lat) > 3 * perDegree,
                     qPrintable(QString("%1, %2: %3").arg(lon).arg(lat).arg(inkNear(lon, lat))));
        QTRY_COMPARE(action->statusTip(), QString("Coastlines: none drawn"));
        action->trigger();
        QVERIFY(view->settings().coastlines);
        QTRY_COMPARE(view->grabImage(), with);
    }

    // lcc_km.nc (Daymet, Lambert conformal in km, no lat/lon) is a map in its own CRS: the
    // graticule is drawn through its grid mapping (ink that goes with the coastlines' switch),
    // and View > Projection offers the maps (reprojected through its CRS); the stage IV grid
    // (x/y with 2-D lat/lon, curvilinear) has them while its cells are shown, and greys them out,
    // saying why, while its rows and columns are.
    void aGridMappingIsAMapInItsOwnCrs() {
        auto* menu = w_->findChild<QMenu*>("projectionMenu");
        QVERIFY(menu);
        auto* robinson = w_->findChild<QAction*>("projection_Robinson");
        QVERIFY(robinson);
        QVERIFY(open(kStageIv));
        verifyShown();
        emit menu->aboutToShow();
        QVERIFY(robinson->isEnabled());
        w_->setGridSpace(GridSpace::Index);
        emit menu->aboutToShow();
        QVERIFY(!robinson->isEnabled());
        QVERIFY2(robinson->toolTip().contains("curvilinear"), qPrintable(robinson->toolTip()));
        w_->setGridSpace(GridSpace::LonLat);
        QVERIFY(open(kData + "/lcc_km.nc"));
        verifyShown();
        emit menu->aboutToShow();
        QVERIFY(robinson->isEnabled());
        ImageView* view = w_->imageView();
        QImage with;
        QTRY_VERIFY(!(with = view->grabImage()).isNull());
        auto* coast = w_->findChild<QAction*>("coastlinesAction");
        QVERIFY(coast && coast->isChecked());
        coast->trigger();
        QImage without;
        QTRY_VERIFY(!(without = view->grabImage()).isNull() && without != with);
        long ink = 0;
        for (int y = 0; y < with.height(); ++y)
            for (int x = 0; x < with.width(); ++x) ink += with.pixel(x, y) != without.pixel(x, y);
        QVERIFY2(ink > 300, qPrintable(QString::number(ink))); // meridians and parallels across the plot
        coast->trigger();
        QVERIFY(view->settings().coastlines);
        // On a map: the frame resampled there (the picture changes), and back.
        QTRY_VERIFY(!(with = view->grabImage()).isNull());
        auto* lambert = w_->findChild<QAction*>("projection_LambertConformal");
        QVERIFY(lambert);
        lambert->trigger();
        QCOMPARE(view->settings().projection, std::string("LambertConformal"));
        QTRY_VERIFY(view->grabImage() != with);
        w_->findChild<QAction*>("projection_none")->trigger();
        QVERIFY(view->settings().projection.empty());
    }

    // A curvilinear frame (stage IV: 2-D lat/lon, no grid mapping) put on a map from the View
    // menu: the frame's values are the file's still, the picture is resampled (another), the
    // view says nothing went wrong, and the map is saved with the view and undone.
    void aCurvilinearFrameOnAMapFromTheMenu() {
        QVERIFY(open(kStageIv));
        w_->setGridSpace(GridSpace::LonLat);
        verifyShown();
        ImageView* view = w_->imageView();
        QImage before;
        QTRY_VERIFY(!(before = view->grabImage()).isNull());
        auto* menu = w_->findChild<QMenu*>("projectionMenu");
        auto* robinson = w_->findChild<QAction*>("projection_Robinson");
        QVERIFY(menu && robinson);
        emit menu->aboutToShow();
        QVERIFY(robinson->isEnabled());
        robinson->trigger();
        QCOMPARE(w_->view().projection, std::string("Robinson"));
        QCOMPARE(view->settings().projection, std::string("Robinson"));
        verifyShown();
        QImage after;
        QTRY_VERIFY(!(after = view->grabImage()).isNull() && after != before);
        QVERIFY2(view->lastError().isEmpty(), qPrintable(view->lastError()));
        QVERIFY2(!w_->statusBar()->currentMessage().contains("not applied"),
                 qPrintable(w_->statusBar()->currentMessage()));
        QTemporaryDir dir;
        QVERIFY(w_->saveView(dir.filePath("map.json")));
        QFile saved(dir.filePath("map.json"));
        QVERIFY(saved.open(QIODevice::ReadOnly));
        QVERIFY(saved.readAll().contains("\"projection\": \"Robinson\""));
        w_->undo();
        QVERIFY(w_->view().projection.empty());
        QVERIFY(view->settings().projection.empty());
        verifyShown();
    }

    void recognisesLatLonFromCfAttributes() {
        // test_stageiv_xyt: (time, y, x) with 2-D lat/lon; y and x are projection coordinates.
        QVERIFY(open(kStageIv));
        QCOMPARE(QString::fromStdString(w_->view().xDim), QString("x"));
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("y"));
        verifyShown();
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestMapWindow t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_mapwindow.moc"
