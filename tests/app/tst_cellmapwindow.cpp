// Variables on cells of the sphere in the window, under Xvfb (issue 37): a HEALPix variable
// and an MPAS mesh's variable open as maps of their cells. Every 5th pixel of each map is
// checked against a cell found here apart from Strata's drawing (healpix::cellOf, checked
// against healpy in tst_healpix; the MPAS cell whose centre is nearest, its cells being Voronoi
// regions), and the probe names the cell under the cursor.
#include <QAction>
#include <QMenu>
#include <QMouseEvent>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "app/healpix_file.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "map_checks.h"
#include "nc_read.h"
#include "render/render_fixtures.h"
#include "strata/io/multifile.h"
#include "strata/render/vtk_views.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;
using namespace test::maps;
using test::CoastlinesOff;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);

// The cursor moved to `at` (widget pixels) over `view`: the probe follows it.
void hover(QWidget* view, QPoint at) {
    QMouseEvent move(QEvent::MouseMove, QPointF(at), view->mapToGlobal(QPointF(at)), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(view, &move);
}

} // namespace

class TestCellMapWindow : public QObject, test::WindowCase {
    Q_OBJECT
private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_cellmapwindow");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    // A variable on a HEALPix grid opens as a map of its cells (x the cell dim, no y), on plate
    // carrée when no projection is chosen: each pixel of the plot (every 5th) shows the colour of
    // the cell holding its map pixel's centre (healpix::cellOf, checked against healpy in
    // tst_healpix), white off the map; the probe names the cell, its centre and its value; the
    // View menu's projections apply to it (Robinson changes the picture, with no error).
    void aHealpixVariableIsAMapOfItsCells() {
        QTemporaryDir dir;
        const QString path = dir.filePath("healpix.nc");
        test::writeHealpixFile(path.toStdString());
        QVERIFY(open(path));
        QCOMPARE(w_->view().xDim, std::string("cell"));
        QVERIFY(w_->view().yDim.empty());
        verifyShown();
        ImageView* view = w_->imageView();
        QCOMPARE(w_->centralWidget()->findChild<QStackedWidget*>()->currentWidget(), view);
        const CoastlinesOff off(*w_);
        QVERIFY(off.ok());
        QImage map;
        QTRY_VERIFY(!(map = view->grabImage()).isNull() && !view->settings().coastlines);
        QVERIFY2(view->lastError().isEmpty(), qPrintable(view->lastError()));
        const MinMax range = view->colourRange();
        QCOMPARE(range, MinMax(0.0, double(strata::healpix::cellCount(test::kHealpixNside) - 1)));
        const auto table = colormapTable(w_->view().colouring.colormap, w_->view().colouring.reversed);
        const CellsCheck check = checkCellsMap(
            map, ViewTransform(view->layout().plot, view->window()), [&](double lon, double lat) {
                const std::int64_t cell =
                    strata::healpix::cellOf(test::kHealpixNside, strata::healpix::Order::Nest, lon, lat);
                return std::vector<Rgba8>{cell < 0 ? Rgba8{255, 255, 255, 255}
                                                   : test::expectedColour(table, double(cell), range.first,
                                                                          range.second,
                                                                          w_->view().colouring.nanColour)};
            });
        // A pixel on a cell's edge may fall either side of it (PROJ and the kernel's formulas):
        // one in 200 at most; a map offset by half a pixel gets far more.
        QVERIFY2(check.ok(), qPrintable(check.what()));
        // The probe: the cell under the cursor, its index, centre and value.
        const QPoint at(view->width() / 2 + 7, view->height() / 2 - 5);
        const Pick pick = view->pickAt(at);
        QVERIFY(pick.inside);
        QCOMPARE(pick.column,
                 strata::healpix::cellOf(test::kHealpixNside, strata::healpix::Order::Nest, pick.x, pick.y));
        hover(view, at);
        QVERIFY2(w_->probeText().contains(QString("cell = %1").arg(pick.column)) &&
                     w_->probeText().contains(QString("tas = %1").arg(pick.column)) &&
                     w_->probeText().contains("centre "),
                 qPrintable(w_->probeText()));
        auto* menu = w_->findChild<QMenu*>("projectionMenu");
        auto* robinson = w_->findChild<QAction*>("projection_Robinson");
        QVERIFY(menu && robinson);
        emit menu->aboutToShow();
        QVERIFY(robinson->isEnabled());
        robinson->trigger();
        verifyShown();
        QImage after;
        QTRY_VERIFY(!(after = view->grabImage()).isNull() && after != map);
        QVERIFY2(view->lastError().isEmpty(), qPrintable(view->lastError()));
        w_->undo();
        verifyShown();
    }

    // An MPAS mesh's variable on its cells (areaCell along nCells) opens as a map of the faces.
    // MPAS cells are the Voronoi regions of their centres, so the face holding a point is the
    // one whose centre (netCDF-C's latCell/lonCell) is nearest on the sphere: each plot pixel
    // (every 5th) shows that face's value's colour, either one where two centres are as near
    // within 1 % of the nearest's distance; the probe names the face under the cursor.
    void aMeshVariableIsAMapOfItsFaces() {
        const QString file = kData + "/mesh/mpas_QU1920km.nc";
        QVERIFY(open(file));
        // The last case's Undo may answer the open's wait: its file is the one to be open.
        QTRY_VERIFY(w_->dataset() &&
                    QString::fromStdString(w_->dataset()->path).endsWith("mpas_QU1920km.nc"));
        w_->applyView(defaultView(*w_->dataset(), "areaCell"));
        QCOMPARE(w_->view().xDim, std::string("nCells"));
        QVERIFY(w_->view().yDim.empty());
        verifyShown();
        ImageView* view = w_->imageView();
        const CoastlinesOff off(*w_);
        QVERIFY(off.ok());
        QImage map;
        QTRY_VERIFY(!(map = view->grabImage()).isNull() && !view->settings().coastlines);
        QVERIFY2(view->lastError().isEmpty(), qPrintable(view->lastError()));
        const std::string path = file.toStdString();
        const std::vector<double> lat = nctest::readPlain(path, "latCell"),
                                  lon = nctest::readPlain(path, "lonCell"),
                                  area = nctest::readPlain(path, "areaCell");
        QCOMPARE(area.size(), std::size_t(162));
        std::vector<Unit> centres;
        for (std::size_t k = 0; k < lat.size(); ++k)
            centres.push_back(unitVector(lon[k] * 180 / M_PI, lat[k] * 180 / M_PI));
        const MinMax range = view->colourRange();
        QCOMPARE(range, MinMax(*std::min_element(area.begin(), area.end()),
                               *std::max_element(area.begin(), area.end())));
        const auto table = colormapTable(w_->view().colouring.colormap, w_->view().colouring.reversed);
        const CellsCheck check = checkCellsMap(
            map, ViewTransform(view->layout().plot, view->window()), [&](double lon, double lat) {
                const Unit p = unitVector(lon, lat);
                double nearest = INFINITY;
                for (const Unit& c : centres) nearest = std::min(nearest, chord(p, c));
                std::vector<Rgba8> want;
                for (std::size_t k = 0; k < centres.size(); ++k)
                    if (chord(p, centres[k]) <= nearest * 1.01)
                        want.push_back(test::expectedColour(table, area[k], range.first, range.second,
                                                            w_->view().colouring.nanColour));
                return want;
            });
        QVERIFY2(check.ok(), qPrintable(check.what()));
        const QPoint at(view->width() / 2 + 11, view->height() / 2 + 3);
        const Pick pick = view->pickAt(at);
        QVERIFY(pick.inside);
        hover(view, at);
        QVERIFY2(w_->probeText().contains(QString("nCells = %1").arg(pick.column)),
                 qPrintable(w_->probeText()));
    }

    // Data beside an MPAS grid file: with the grid open (File ▸ Open Grid File…) the area mean
    // over the faces weighs each by the grid's areaCell (netCDF-C's reading, NaNs left out); a
    // saved view names the grid file, and loading it with no grid open opens it again and shows
    // the same means.
    void aMeshAreaMeanAndItsSavedView() {
        QTemporaryDir dir;
        const QString grid = kData + "/mesh/mpas_QU1920km.nc", data = dir.filePath("value.nc");
        const std::vector<double> area = nctest::readPlain(grid.toStdString(), "areaCell");
        const std::size_t n = area.size();
        std::vector<float> values;
        for (int t = 0; t < 2; ++t)
            for (std::size_t i = 0; i < n; ++i)
                values.push_back(i % 13 == 5 ? NAN : float(100 * area[i] - 3 * t + 0.02 * double(i % 5)));
        {
            nctest::Writer f(data.toStdString(), NC_NETCDF4);
            const int time = f.dim("time", 2), cells = f.dim("nCells", n);
            const int v = f.var("value", NC_FLOAT, {time, cells});
            f.enddef();
            f.put(v, values);
        }
        std::vector<double> want;
        for (int t = 0; t < 2; ++t) {
            double s = 0, sw = 0;
            for (std::size_t i = 0; i < n; ++i)
                if (const float v = values[std::size_t(t) * n + i]; !std::isnan(v))
                    s += area[i] * v, sw += area[i];
            want.push_back(s / sw);
        }
        const auto showsWant = [&] {
            const DataArray& f = w_->shownFrame();
            if (f.ndim() != 1 || f.size() != 2 || f.dims()[0] != "time") return false;
            const std::vector<double> got = f.asHost().values<double>();
            for (std::size_t t = 0; t < 2; ++t)
                if (!(std::fabs(got[t] - want[t]) < 1e-5 * std::fabs(want[t]))) return false;
            return true;
        };
        OpenNotes notes;
        w_->setGridFile(std::make_shared<const Dataset>(io::openPaths({grid.toStdString()}, notes)));
        QVERIFY(open(data));
        ViewSpec v = w_->view();
        QCOMPARE(v.xDim, std::string("nCells")); // the faces on the map, found through the grid
        v.xDim = "time";
        v.indices.clear();
        v.reductions = {{"nCells", ReduceOp::Mean}};
        v.areaWeighted = true;
        w_->applyView(v);
        QCOMPARE(w_->view().areaWeighted, true);
        QTRY_VERIFY_WITH_TIMEOUT(showsWant(), 10000);
        const QString saved = dir.filePath("view.json");
        QVERIFY(w_->saveView(saved));
        QFile json(saved);
        QVERIFY(json.open(QIODevice::ReadOnly));
        QVERIFY(QString(json.readAll()).contains("mpas_QU1920km.nc"));
        w_->setGridFile(nullptr);
        QVERIFY(open(kData + "/mesh/mpas_QU1920km.nc")); // another file, no grid
        QVERIFY(!w_->gridFile());
        QVERIFY(w_->loadView(saved));
        QTRY_VERIFY_WITH_TIMEOUT(w_->dataset() && QString::fromStdString(w_->dataset()->path) == data, 10000);
        QVERIFY(w_->gridFile());
        QTRY_VERIFY_WITH_TIMEOUT(showsWant(), 10000);
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestCellMapWindow t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_cellmapwindow.moc"
