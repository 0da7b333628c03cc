// The window's maps, under Xvfb: View ▸ Coastlines over a lon/lat frame (their ink where the
// shores are, and only there), a grid mapping shown as a map in its own CRS, and a curvilinear
// frame (stage IV: x/y with 2-D lat/lon) recognised and put on a Robinson map from the View
// menu. That map's pixels are checked against cells found here, apart from the resampling: the
// longitude/latitude each pixel shows from the projection's inverse, its cell the one whose
// centre in netCDF-C's lat/lon is nearest on the sphere, its colour the colour map's for
// netCDF-C's value.
#include <QAction>
#include <QFile>
#include <QMenu>
#include <QMouseEvent>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>

#include "main_window.h"
#include "map_checks.h"
#include "nc_read.h"
#include "render/render_fixtures.h"
#include "strata/render/projection.h"
#include "strata/render/view_layout.h"
#include "strata/render/vtk_views.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;
using test::CoastlinesOff;
using test::extremes;
using namespace test::maps;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";
const QString kStageIv = kData + "/test_stageiv_xyt.nc";

// b reflected through a along their great circle: the step from b to a taken once more.
Unit beyond(const Unit& a, const Unit& b) {
    const double d = 2 * (a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
    return {d * a[0] - b[0], d * a[1] - b[1], d * a[2] - b[2]};
}

// Stage IV's cells as netCDF-C reads them, their centres (the 2-D lat and lon) and their values
// at time 0 (the fill as NaN), and a ring of centres about them: the grid's lines continued a
// step beyond its edges, which is where curvilinear_grid.h says a grid without bounds is given
// its outline (halfway to them). A point whose nearest centre is on the ring is off the data.
struct StageIvCells {
    std::size_t rows = 0, columns = 0; // the file's; the centres are (rows + 2) × (columns + 2)
    std::vector<Unit> centres;         // row-major, the ring included
    std::vector<float> values;         // of each centre; NaN on the ring
    std::vector<bool> ring;
    double spacing = INFINITY; // the least chord between neighbours in a row or a column
};

StageIvCells stageIvCells() {
    StageIvCells c;
    const std::string path = kStageIv.toStdString();
    const nctest::NcValues v = nctest::readNcFloats(path, "Total_precipitation_surface_1_Hour_Accumulation");
    const std::vector<double> lat = nctest::readPlain(path, "lat"), lon = nctest::readPlain(path, "lon");
    if (v.shape.size() != 3 || lat.size() != v.shape[1] * v.shape[2] || lon.size() != lat.size()) return c;
    const std::size_t rows = v.shape[1], columns = v.shape[2], w = columns + 2;
    c.rows = rows;
    c.columns = columns;
    c.centres.resize((rows + 2) * w);
    c.values.assign(c.centres.size(), NAN);
    c.ring.assign(c.centres.size(), true);
    // Centre (j, i) of the (rows + 2) × (columns + 2): the ring at rows and columns 0 and n + 1.
    auto at = [&](std::size_t j, std::size_t i) -> Unit& { return c.centres[j * w + i]; };
    for (std::size_t j = 0; j < rows; ++j) {
        for (std::size_t i = 0; i < columns; ++i) {
            const std::size_t k = j * columns + i; // the file's, time 0
            at(j + 1, i + 1) = unitVector(lon[k], lat[k]);
            c.values[(j + 1) * w + i + 1] = v.values[k];
            c.ring[(j + 1) * w + i + 1] = false;
        }
        at(j + 1, 0) = beyond(at(j + 1, 1), at(j + 1, 2));
        at(j + 1, columns + 1) = beyond(at(j + 1, columns), at(j + 1, columns - 1));
    }
    for (std::size_t i = 0; i < w; ++i) {
        at(0, i) = beyond(at(1, i), at(2, i));
        at(rows + 1, i) = beyond(at(rows, i), at(rows - 1, i));
    }
    for (std::size_t j = 1; j <= rows; ++j)
        for (std::size_t i = 1; i <= columns; ++i)
            c.spacing = std::min({c.spacing, chord(at(j, i), at(j, i + 1)), chord(at(j, i), at(j + 1, i))});
    return c;
}

// The centres within `tie` (a chord) of the nearest one's distance from `p`, by trying each.
std::vector<std::size_t> nearestCentres(const StageIvCells& c, const Unit& p, double tie) {
    std::vector<double> d(c.centres.size());
    double nearest = INFINITY;
    for (std::size_t k = 0; k < d.size(); ++k) nearest = std::min(nearest, d[k] = chord(p, c.centres[k]));
    std::vector<std::size_t> near;
    for (std::size_t k = 0; k < d.size(); ++k)
        if (d[k] <= nearest + tie) near.push_back(k);
    return near;
}

// What the map's pixels were checked against: how many of each kind, and the wrong ones.
struct MapCheck {
    long inCells = 0, offData = 0, wrong = 0;
    long ties = 0; // pixels with centres as near of two colours: either was taken
    // Pixels in a cell showing the colour of one of that cell's eight neighbours, not counted
    // wrong: on the GPU machine's GL path 3 of 3,905 did (values at 9 % of the range, so not a
    // colour's rounding), where the map pixel's centre lies near a quadrilateral's edge.
    long neighbours = 0;
    QString first; // the first wrong pixel
};

// The stage IV frame on a Robinson map in `img` (device pixels), at every 5th pixel of the plot
// at least 2 pixels inside it (its edges may carry the plot's outline). `t`: the view's plot and
// its window in map metres, unzoomed. The rule: a view pixel shows the map image's pixel under
// its centre (the raster view; GL's nearest texel); that pixel, the cell whose quadrilateral holds
// its own centre's longitude/latitude (Reprojection), the quadrilaterals' corners being the means
// of the four centres about them (curvilinear_grid.h). On a grid of near squares that is the cell
// whose centre lies nearest on the sphere: here its value's colour over `range`, or white (the
// map's background) where the nearest centre is on the ring beyond the grid or the point is off
// the map. Where centres are as near within 2 % of the cells' spacing, the colour of either.
MapCheck checkMap(const QImage& img, const ViewTransform& t, const StageIvCells& cells, const Colouring& c,
                  MinMax range) {
    const ViewWindow& window = t.window();
    const double across = window.x1 - window.x0, down = window.y1 - window.y0;
    const double dx = across / kMapPixelsAcross, dy = down / std::lround(kMapPixelsAcross * down / across);
    // The centre of the map pixel under each view pixel's centre, in map metres, then degrees.
    std::vector<double> x, y;
    std::vector<std::pair<int, int>> at; // the view pixels, origin bottom left
    const PixelRect& plot = t.plot();
    for (int j = int(std::ceil(plot.y0 + 2)); j + 0.5 < plot.y1 - 2; j += 5)
        for (int i = int(std::ceil(plot.x0 + 2)); i + 0.5 < plot.x1 - 2; i += 5) {
            at.emplace_back(i, j);
            x.push_back(window.x0 + (std::floor((t.dataX(i + 0.5) - window.x0) / dx) + 0.5) * dx);
            y.push_back(window.y0 + (std::floor((t.dataY(j + 0.5) - window.y0) / dy) + 0.5) * dy);
        }
    Projection::byName("Robinson").inverse(x, y); // NaN off the map
    const auto table = colormapTable(c.colormap, c.reversed);
    const Rgba8 white{255, 255, 255, 255};
    MapCheck out;
    for (std::size_t p = 0; p < at.size(); ++p) {
        const auto [i, j] = at[p];
        const Rgba8 got = test::colourAt(img, i + 0.5, j + 0.5);
        std::vector<std::size_t> near;
        if (!std::isnan(x[p]) && !std::isnan(y[p]))
            near = nearestCentres(cells, unitVector(x[p], y[p]), 0.02 * cells.spacing);
        std::vector<Rgba8> want;
        bool inCell = false;
        for (std::size_t k : near) {
            if (cells.ring[k]) {
                want.push_back(white);
                continue;
            }
            inCell = true;
            const double v = cells.values[k];
            want.push_back(test::expectedColour(table, v, range.first, range.second, c.nanColour));
            // A value within a thousandth of a colour's width of the next colour: GL colours in
            // float, and may take that one.
            const double at = (v - range.first) / (range.second - range.first) * double(table.size());
            if (std::fabs(at - std::round(at)) < 1e-3)
                for (double side : {-1e-2, 1e-2})
                    want.push_back(
                        test::expectedColour(table,
                                             range.first + (std::round(at) + side) / double(table.size()) *
                                                               (range.second - range.first),
                                             range.first, range.second, c.nanColour));
        }
        if (near.empty()) want.push_back(white);
        ++(inCell ? out.inCells : out.offData);
        out.ties +=
            std::find_if(want.begin(), want.end(), [&](Rgba8 o) { return o != want[0]; }) != want.end();
        if (std::find(want.begin(), want.end(), got) != want.end()) continue;
        if (inCell) {
            const std::size_t k = near[0], w = cells.columns + 2;
            bool neighbour = false;
            for (std::ptrdiff_t dj : {-1, 0, 1})
                for (std::ptrdiff_t di : {-1, 0, 1}) {
                    const std::size_t n = std::size_t(std::ptrdiff_t(k) + dj * std::ptrdiff_t(w) + di);
                    if (n < cells.values.size())
                        neighbour =
                            neighbour ||
                            got == (cells.ring[n] ? white
                                                  : test::expectedColour(table, cells.values[n], range.first,
                                                                         range.second, c.nanColour));
                }
            if (neighbour) {
                ++out.neighbours;
                continue;
            }
        }
        if (out.wrong++ > 0) continue;
        const std::size_t k = near.empty() ? 0 : near[0], w = cells.columns + 2;
        out.first = QString("pixel (%1, %2) from the bottom left, lon %3 lat %4: %5, want %6 (%7)")
                        .arg(i)
                        .arg(j)
                        .arg(x[p])
                        .arg(y[p])
                        .arg(test::str(got),
                             test::str(want[0]) + QString(" at %1 of the colours' width")
                                                      .arg(near.empty() || cells.ring[near[0]]
                                                               ? -1.0
                                                               : (cells.values[near[0]] - range.first) /
                                                                     (range.second - range.first)))
                        .arg(near.empty()          ? QString("off the map")
                             : cells.ring[near[0]] ? QString("off the data")
                                                   : QString("cell %1, %2").arg(k / w - 1).arg(k % w - 1));
    }
    return out;
}

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
    // view says nothing went wrong, and the map is saved with the view and undone. With the
    // coastlines off (they cross the frame), the map's pixels are those checkMap works out from
    // netCDF-C's lat, lon and values: each in its nearest cell's colour over the frame's
    // extremes, or white off the data.
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
        {
            const CoastlinesOff off(*w_);
            QVERIFY(off.ok());
            QImage map;
            QTRY_VERIFY(!(map = view->grabImage()).isNull() && !view->settings().coastlines);
            const StageIvCells cells = stageIvCells();
            QCOMPARE(cells.rows * cells.columns, std::size_t(118 * 87));
            // The frame's own range: its extremes by a plain loop over netCDF-C's values.
            QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
            const MinMax range = extremes(cells.values);
            QCOMPARE(view->colourRange(), range);
            QVERIFY(!view->settings().window); // unzoomed: the window is the map image's
            const MapCheck check = checkMap(map, ViewTransform(view->layout().plot, view->window()), cells,
                                            w_->view().colouring, range);
            qInfo("%ld pixels checked: %ld in cells, %ld off the data; %ld as near two colours; %ld with a "
                  "neighbour's colour",
                  check.inCells + check.offData, check.inCells, check.offData, check.ties, check.neighbours);
            // A neighbour's colour at a cell's edge, at most one in-cell pixel in 200: a frame
            // shifted by half a map pixel (the mutant pixel-sampled-at-corner) gives 188 here.
            QVERIFY2(check.neighbours * 200 <= check.inCells,
                     qPrintable(QString("%1 of %2 pixels in cells show a neighbour's colour")
                                    .arg(check.neighbours)
                                    .arg(check.inCells)));
            QVERIFY2(
                check.inCells > 3000 && check.offData > 3000,
                qPrintable(QString("%1 in cells, %2 off the data").arg(check.inCells).arg(check.offData)));
            QVERIFY2(
                check.wrong == 0,
                qPrintable(
                    QString("%1 pixels of the wrong colour, first %2").arg(check.wrong).arg(check.first)));
        }
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
