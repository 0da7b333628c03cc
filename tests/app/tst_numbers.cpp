// The window's numbers, under Xvfb: the probe names every dim's value (dates, hemispheres, the
// lat/lon of projected and curvilinear grids), the step box counts 1..n, titles keep their
// width while stepping, a mean over latitude says it is unweighted, and exports get a name
// from the view, their extension, a plain status message and the sliced dims' columns.
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include "../nc_read.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "slice_panel.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/frame_labels.h"
#include "strata/render/view_layout.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";

// The longitude and latitude (degrees) of the point (x, y) (metres) of a Lambert conformal conic
// map on an ellipsoid: Snyder, Map Projections: A Working Manual (1987), 15-1 to 15-11 and 7-9,
// the latitude by iteration. Written out here, apart from PROJ and the code under test.
std::pair<double, double> lambertInverse(double x, double y, double lat1, double lat2, double lat0,
                                         double lon0, double a, double invFlattening) {
    const double d = M_PI / 180, f = 1 / invFlattening, e = std::sqrt(2 * f - f * f);
    auto m = [&](double phi) { return std::cos(phi) / std::sqrt(1 - e * e * std::sin(phi) * std::sin(phi)); };
    auto t = [&](double phi) {
        return std::tan(M_PI / 4 - phi / 2) /
               std::pow((1 - e * std::sin(phi)) / (1 + e * std::sin(phi)), e / 2);
    };
    const double n =
        (std::log(m(lat1 * d)) - std::log(m(lat2 * d))) / (std::log(t(lat1 * d)) - std::log(t(lat2 * d)));
    const double F = m(lat1 * d) / (n * std::pow(t(lat1 * d), n)), rho0 = a * F * std::pow(t(lat0 * d), n);
    const double rho = std::copysign(std::hypot(x, rho0 - y), n), tt = std::pow(rho / (a * F), 1 / n);
    const double theta = std::atan2(x, rho0 - y);
    double phi = M_PI / 2 - 2 * std::atan(tt);
    for (int i = 0; i < 20; ++i)
        phi =
            M_PI / 2 - 2 * std::atan(tt * std::pow((1 - e * std::sin(phi)) / (1 + e * std::sin(phi)), e / 2));
    return {theta / n / d + lon0, phi / d};
}

// The index of the value of `v` nearest `x`.
std::size_t nearestIndex(const std::vector<float>& v, double x) {
    std::size_t best = 0;
    for (std::size_t i = 1; i < v.size(); ++i)
        if (std::abs(v[i] - x) < std::abs(v[best] - x)) best = i;
    return best;
}

} // namespace

class TestNumbers : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    bool open(const QString& path) { return test::openAndShow(*w_, path); }
    bool show(const ViewSpec& spec) {
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        w_->applyView(spec);
        for (int i = 0; i < 400 && (w_->frameService()->busy() || shown.isEmpty()); ++i) shown.wait(50);
        return !shown.isEmpty();
    }
    // The probe's text for the cell in the middle of the image, hovered with the mouse.
    QString probeMiddle() {
        ImageView* view = w_->imageView();
        const QPoint at(view->width() / 2, view->height() / 2);
        if (!view->pickAt(QPointF(at)).inside) return {};
        QMouseEvent move(QEvent::MouseMove, QPointF(at), view->mapToGlobal(QPointF(at)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        return w_->probeText();
    }

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_numbers");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    // The sample at its first month: the probe says lat, lon and time, all short.
    void probeNamesEverySlicedDim() {
        QVERIFY(open(kSample));
        QVERIFY(show(defaultView(*w_->dataset(), "tas")));
        QTRY_VERIFY(!probeMiddle().isEmpty());
        const QString text = w_->probeText();
        QVERIFY2(text.contains(QRegularExpression("^lat = \\d+\\.\\d\\d°[NS], lon = \\d+\\.\\d\\d°[EW]?, "
                                                  "time = 2005-01-16: tas = [0-9.]+ K$")),
                 qPrintable(text));
        // tas is float32: its value in the float's shortest form (at most 9 significant
        // digits), not the double it widens to ("271.3456115722656").
        const QString value = text.section("tas = ", 1).section(' ', 0, 0);
        int digits = 0;
        for (QChar c : value) digits += c.isDigit();
        QVERIFY2(digits <= 9, qPrintable(value));
    }

    // Twelve months count "1 / 12" to "12 / 12"; every title has the same length.
    void stepBoxAndTitlesAddUp() {
        QVERIFY(open(kSample));
        ViewSpec spec = defaultView(*w_->dataset(), "tas");
        QVERIFY(show(spec));
        QSpinBox* box = w_->slicePanel()->positionBox("time");
        QVERIFY(box);
        QCOMPARE(box->text(), QString("1 / 12"));
        QSet<int> lengths;
        for (std::int64_t i = 0; i < 12; ++i) {
            spec.indices = {{"time", i}};
            QVERIFY(show(spec));
            QCOMPARE(w_->view().indexOf("time"), i);
            lengths << int(frameTitle(w_->shownFrame()).size());
        }
        QCOMPARE(box->text(), QString("12 / 12"));
        QCOMPARE(lengths.size(), 1);
        QVERIFY(QString::fromStdString(frameTitle(w_->shownFrame())).endsWith("time = 2005-12-16"));
    }

    void meanOverLatitudeSaysUnweighted() {
        QVERIFY(open(kSample));
        ViewSpec spec = defaultView(*w_->dataset(), "tas");
        spec.xDim = "lon";
        spec.yDim.clear();
        spec.reductions = {{"lat", ReduceOp::Mean}};
        QVERIFY(show(spec));
        QVERIFY2(
            QString::fromStdString(w_->lineView()->series().title).contains("mean over lat (unweighted)"),
            w_->lineView()->series().title.c_str());
        spec.areaWeighted = true;
        QVERIFY(show(spec));
        QVERIFY(
            QString::fromStdString(w_->lineView()->series().title).contains("area-weighted mean over lat"));
        QVERIFY(!QString::fromStdString(w_->lineView()->series().title).contains("unweighted"));
    }

    // A name from the view, ".png"/".csv" added, the message in words, time as a CSV column.
    void exportsSayWhatTheyHold() {
        QVERIFY(open(kSample));
        QVERIFY(show(defaultView(*w_->dataset(), "tas")));
        QCOMPARE(QFileInfo(w_->suggestedExportPath("png")).fileName(), QString("tas_2005-01-16.png"));
        QTemporaryDir dir;
        QVERIFY(w_->exportPng(dir.filePath("january"), QSize(640, 400)));
        QVERIFY(QFileInfo::exists(dir.filePath("january.png")));
        QCOMPARE(w_->statusBar()->currentMessage(), QString("Saved january.png, 640 × 400"));
        QVERIFY(w_->statusBar()->toolTip().contains("copied device→host"));
        QVERIFY(w_->exportCsv(dir.filePath("january")));
        QFile f(dir.filePath("january.csv"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readLine().trimmed(), QByteArray("lat,lon,time,tas"));
        QVERIFY(f.readLine().trimmed().contains(",2005-01-16T12:00:00,"));
        QCOMPARE(w_->statusBar()->currentMessage(), QString("Saved january.csv, 18432 rows"));
    }

    // lcc_km.nc (Lambert conformal, km): the probe gives lat/lon through PROJ, inside the
    // file's stated bounds; test_stageiv_xyt.nc: from its 2-D lat/lon.
    // A packed short (ERA-Interim's z: scale_factor 0.3745…, add_offset 109477.5) is probed to
    // its step's one decimal, not to the 17 digits of the double it unpacks to.
    void packedValuesAreProbedToTheirStep() {
        QTemporaryDir dir;
        const std::string path = QDir(dir.path()).filePath("z_packed.nc").toStdString();
        const double scale = 0.3745650979742, offset = 109477.5;
        std::vector<short> raw(6 * 8);
        for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = short(int(i * 977 % 60000) - 30000);
        {
            nctest::Writer w(path, 0);
            const int y = w.dim("lat", 6), x = w.dim("lon", 8);
            const int lat = w.var("lat", NC_FLOAT, {y}), lon = w.var("lon", NC_FLOAT, {x});
            w.text(lat, "units", "degrees_north");
            w.text(lon, "units", "degrees_east");
            const int z = w.var("z", NC_SHORT, {y, x});
            w.att(z, "scale_factor", NC_DOUBLE, std::vector<double>{scale});
            w.att(z, "add_offset", NC_DOUBLE, std::vector<double>{offset});
            w.text(z, "units", "m**2 s**-2");
            w.enddef();
            w.put(lat, std::vector<float>{-50, -30, -10, 10, 30, 50});
            w.put(lon, std::vector<float>{0, 45, 90, 135, 180, 225, 270, 315});
            w.put(z, raw);
        }
        QVERIFY(open(QString::fromStdString(path)));
        QVERIFY(show(defaultView(*w_->dataset(), "z")));
        QTRY_VERIFY(!probeMiddle().isEmpty());
        ImageView* view = w_->imageView();
        const Pick pick = view->pickAt(QPointF(view->width() / 2, view->height() / 2));
        const std::size_t row = std::size_t(pick.row), column = std::size_t(pick.column);
        const double expected = raw[row * 8 + column] * scale + offset; // y = lat is the frame's row
        const QString value = w_->probeText().section("z = ", 1).section(' ', 0, 0);
        QCOMPARE(value, QString::number(expected, 'f', 1));
        QVERIFY2(w_->probeText().endsWith(" m**2 s**-2"), qPrintable(w_->probeText()));
    }

    void probeGivesLatLonOfOtherGrids() {
        QVERIFY(open(kData + "/lcc_km.nc"));
        QVERIFY(show(defaultView(*w_->dataset(), "prcp")));
        QTRY_VERIFY(!probeMiddle().isEmpty());
        QRegularExpression latLon("lat = (\\d+\\.\\d+)°N, lon = (\\d+\\.\\d+)°W");
        auto m = latLon.match(w_->probeText());
        QVERIFY2(m.hasMatch(), qPrintable(w_->probeText()));
        {
            // The cell under the middle of the view: the layout of the whole 619 × 569 km grid
            // (x, y read with netCDF-C; 1 km apart, a whole number of pixels per cell where it
            // fits) maps the pixel to a point in km, whose nearest x and y are the cell's. Its
            // lat/lon is the Lambert conformal inverse of that cell's centre, with the file's
            // constants (standard parallels 25 and 60, origin 42.5N 100W, WGS 84's ellipsoid).
            const std::string file = (kData + "/lcc_km.nc").toStdString();
            const nctest::NcValues xs = nctest::readNcFloats(file, "x"), ys = nctest::readNcFloats(file, "y");
            QCOMPARE(xs.values.size(), std::size_t(619));
            QCOMPARE(ys.values.size(), std::size_t(569));
            const ImageView* view = w_->imageView();
            const DataArray& frame = w_->shownFrame();
            const AxisGrid gy = axisGrid(frame, 0), gx = axisGrid(frame, 1);
            const ViewWindow window = fullWindow(gx, gy);
            const double dpr = view->devicePixelRatioF();
            const ViewTransform t(computeLayout(int(view->width() * dpr), int(view->height() * dpr), dpr,
                                                window, keepsAspect(AspectMode::Auto, gx, gy), {619, 569})
                                      .plot,
                                  window);
            const double px = view->width() / 2 * dpr, py = (view->height() - view->height() / 2) * dpr;
            const std::size_t column = nearestIndex(xs.values, t.dataX(px)),
                              row = nearestIndex(ys.values, t.dataY(py));
            const auto [lon, lat] = lambertInverse(xs.values[column] * 1000, ys.values[row] * 1000, 25, 60,
                                                   42.5, -100, 6378137, 298.257223563);
            // Within half of the last decimal written (three here: a cell is about 0.01°).
            auto half = [](const QString& text) {
                return 0.5 * std::pow(10.0, -text.section('.', 1).size()) + 1e-9;
            };
            QVERIFY2(std::abs(m.captured(1).toDouble() - lat) <= half(m.captured(1)),
                     qPrintable(QString("%1 (cell %2, %3): want lat %4")
                                    .arg(w_->probeText())
                                    .arg(row)
                                    .arg(column)
                                    .arg(lat, 0, 'f', 6)));
            QVERIFY2(std::abs(-m.captured(2).toDouble() - lon) <= half(m.captured(2)),
                     qPrintable(QString("%1 (cell %2, %3): want lon %4")
                                    .arg(w_->probeText())
                                    .arg(row)
                                    .arg(column)
                                    .arg(lon, 0, 'f', 6)));
        }
        QVERIFY(w_->probeText().contains("time = 1980-07-01 12:00"));

        QVERIFY(open(kData + "/test_stageiv_xyt.nc"));
        QVERIFY(show(defaultView(*w_->dataset(), "Total_precipitation_surface_1_Hour_Accumulation")));
        QTRY_VERIFY(!probeMiddle().isEmpty());
        m = latLon.match(w_->probeText());
        QVERIFY2(m.hasMatch(), qPrintable(w_->probeText()));
        QVERIFY2(w_->probeText().contains(QRegularExpression("time = \\d{4}-\\d\\d-\\d\\d \\d\\d:00:")),
                 qPrintable(w_->probeText()));
    }

    // test_stageiv_xyt.nc (2-D lat/lon through `coordinates`) is drawn in longitude/latitude: the
    // probe names the cell under the cursor by its indices, and that cell's centre (read here with
    // netCDF-C) is the one nearest the cursor's longitude/latitude. View > Grid > Index space
    // draws rows and columns again.
    void curvilinearProbeAndIndexSpace() {
        const std::string file = (kData + "/test_stageiv_xyt.nc").toStdString();
        const nctest::NcValues lat = nctest::readNcFloats(file, "lat"),
                               lon = nctest::readNcFloats(file, "lon");
        QCOMPARE(lat.shape, (std::vector<std::size_t>{118, 87}));
        QVERIFY(open(kData + "/test_stageiv_xyt.nc"));
        QVERIFY(show(defaultView(*w_->dataset(), "Total_precipitation_surface_1_Hour_Accumulation")));
        QVERIFY(w_->gridSpace() == GridSpace::LonLat);
        QTRY_VERIFY(!probeMiddle().isEmpty());
        QRegularExpression cell("^y = (\\d+), x = (\\d+), lat = (\\d+\\.\\d+)°N, lon = (\\d+\\.\\d+)°W");
        auto m = cell.match(w_->probeText());
        QVERIFY2(m.hasMatch(), qPrintable(w_->probeText()));
        const std::size_t row = m.captured(1).toULong(), column = m.captured(2).toULong();
        const ImageView* view = w_->imageView();
        const Pick p = view->pickAt(QPointF(view->width() / 2, view->height() / 2));
        QVERIFY(p.inside);
        // The point under the middle of the view, by the layout of the cells' lon/lat extent
        // (degrees both ways: one degree as long as the other).
        const std::optional<CurvilinearGrid> grid = curvilinearGrid(w_->shownFrame());
        QVERIFY(grid);
        const double dpr = view->devicePixelRatioF();
        const ViewTransform t(
            computeLayout(int(view->width() * dpr), int(view->height() * dpr), dpr, grid->extent, true).plot,
            grid->extent);
        const double px = view->width() / 2 * dpr, py = (view->height() - view->height() / 2) * dpr;
        QVERIFY2(std::abs(p.x - t.dataX(px)) < 1e-9 && std::abs(p.y - t.dataY(py)) < 1e-9,
                 qPrintable(QString("picked %1, %2; the layout gives %3, %4")
                                .arg(p.x)
                                .arg(p.y)
                                .arg(t.dataX(px))
                                .arg(t.dataY(py))));
        std::size_t nearest = 0;
        double best = 1e300;
        for (std::size_t k = 0; k < lat.values.size(); ++k) {
            const double dx = (lon.values[k] - p.x) * std::cos(p.y * M_PI / 180), dy = lat.values[k] - p.y;
            if (dx * dx + dy * dy < best) best = dx * dx + dy * dy, nearest = k;
        }
        QCOMPARE(row * 87 + column, nearest);
        QVERIFY(std::abs(m.captured(3).toDouble() - lat.values[nearest]) < 0.006);
        QVERIFY(std::abs(-m.captured(4).toDouble() - lon.values[nearest]) < 0.006);

        auto* index = w_->findChild<QAction*>("gridIndexAction");
        QVERIFY(index);
        index->trigger();
        QVERIFY(w_->gridSpace() == GridSpace::Index);
        QVERIFY(w_->imageView()->settings().grid == GridSpace::Index);
        // Rows and columns: the data x under the cursor is a column index, not a longitude.
        // The pick is of the last paint's layout: wait for the one in index space.
        QSignalSpy presented(view, &ImageView::presented);
        QVERIFY(presented.wait(10000));
        const Pick q = view->pickAt(QPointF(view->width() / 2, view->height() / 2));
        QVERIFY(q.inside);
        // Index space: columns 0..86 and rows 0..117 as cells a unit wide, drawn whole with one
        // unit as long both ways; the middle pixel's column and row by that layout.
        const ViewWindow cells{-0.5, 86.5, -0.5, 117.5};
        const ViewTransform ti(
            computeLayout(int(view->width() * dpr), int(view->height() * dpr), dpr, cells, true, {87, 118})
                .plot,
            cells);
        QCOMPARE(q.column, static_cast<std::int64_t>(std::floor(ti.dataX(px) + 0.5)));
        QCOMPARE(q.row, static_cast<std::int64_t>(std::floor(ti.dataY(py) + 0.5)));
        QVERIFY2(std::abs(q.x - ti.dataX(px)) < 1e-9,
                 qPrintable(QString("%1 %2").arg(q.x).arg(ti.dataX(px))));
        w_->findChild<QAction*>("gridLonLatAction")->trigger();
        QVERIFY(w_->gridSpace() == GridSpace::LonLat);
    }
};

QTEST_MAIN(TestNumbers)
#include "tst_numbers.moc"
