// The window as a user drives it, under Xvfb: opening files, default roles, dragging dim chips
// with real mouse events onto X, Y, Slice and Reduce, sliders and play, the probe, the series
// dock, colour ranges, saved views, exports, bad files and attributes ignored in decoding.
// The window's maps (coastlines, projections, curvilinear frames) are tst_mapwindow's.
// Every frame shown is compared, value by value, with the core's own computeView of the same
// spec; and a few of them, the ranges and the CSV export, with values read here by netCDF-C
// (nc_read.h), apart from the core.
#include <QAction>
#include <QtTest>

#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QFutureWatcher>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPainter>
#include <QProcess>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QToolButton>
#include <QTreeWidget>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "nc_read.h"
#include "render/render_fixtures.h"
#include "slice_panel.h"
#include "strata/core/format.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/render/view_layout.h"
#include "strata/render/vtk_views.h"
#include "view_json.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;
using test::CoastlinesOff;
using test::coreFrame;
using test::difference;
using test::drag;
using test::extremes;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";
const QString kHgt = kData + "/hgt.nc";

// hgt.nc's HGT (time 21, lat 73, lon 144; _FillValue -999 as NaN) as netCDF-C reads it.
const nctest::NcValues& hgtFromNetcdf() {
    static const nctest::NcValues v = nctest::readNcFloats(kHgt.toStdString(), "HGT");
    return v;
}

// A frame of HGT picked from the netCDF-C values by hand: its dims (two of time, lat, lon, in
// the frame's order) at `fixed` for the third, or the empty string when `shown` has them.
QString differenceFromNetcdf(const DataArray& shown, const std::string& yDim, const std::string& xDim,
                             std::size_t fixed) {
    const nctest::NcValues& f = hgtFromNetcdf();
    if (f.values.size() != 21 * 73 * 144) return "hgt.nc not read by netCDF-C";
    const std::vector<std::string> names{"time", "lat", "lon"};
    const int y = int(std::find(names.begin(), names.end(), yDim) - names.begin());
    const int x = int(std::find(names.begin(), names.end(), xDim) - names.begin());
    std::vector<double> v;
    for (std::size_t i = 0; i < f.shape[y]; ++i)
        for (std::size_t j = 0; j < f.shape[x]; ++j) {
            std::size_t at[3] = {fixed, fixed, fixed};
            at[y] = i;
            at[x] = j;
            v.push_back(f.at(at[0], at[1], at[2]));
        }
    const Shape shape{std::int64_t(f.shape[y]), std::int64_t(f.shape[x])};
    return difference(shown, DataArray::fromHost("HGT", {yDim, xDim}, shape, v));
}

// Every cell of a (lat, lon) plane drawn whole in `img` (device pixels, `scale` per logical
// one), checked at its centre against the colour the map gives its value in `plane` (netCDF-C's,
// row-major) over the plane's extremes (the Frame range, by hand). `frame` gives only the axes:
// where the layout (computeLayout, as the view lays a whole regular frame out) puts each centre.
// Returns the number of cells of the wrong colour; `first` names the first of them.
long wrongCells(const QImage& img, double scale, const DataArray& frame, const std::vector<float>& plane,
                const Colouring& c, QString& first) {
    const AxisGrid y = axisGrid(frame, 0), x = axisGrid(frame, 1);
    const ViewWindow window = fullWindow(x, y);
    const std::int64_t rows = frame.shape()[0], cols = frame.shape()[1];
    const ViewLayout layout = computeLayout(img.width(), img.height(), scale, window,
                                            keepsAspect(AspectMode::Auto, x, y), {cols, rows});
    const ViewTransform t(layout.plot, window);
    const MinMax range = extremes(plane);
    const auto table = colormapTable(c.colormap, c.reversed);
    long wrong = 0;
    for (std::int64_t i = 0; i < rows; ++i)
        for (std::int64_t j = 0; j < cols; ++j) {
            const double v = plane[std::size_t(i * cols + j)];
            const Rgba8 want = test::expectedColour(table, v, range.first, range.second, c.nanColour);
            const Rgba8 got = test::colourAt(img, t.pixelX(x.centres[j]), t.pixelY(y.centres[i]));
            if (got == want) continue;
            if (wrong++ == 0)
                first = QString("cell (%1, %2) = %3: %4, want %5")
                            .arg(i)
                            .arg(j)
                            .arg(v)
                            .arg(test::str(got), test::str(want));
        }
    return wrong;
}

QStringList chipsIn(MainWindow& w, Role role) {
    QStringList out;
    for (DimChip* c : w.dimensionBar()->slot(role)->findChildren<DimChip*>())
        if (c->isVisibleTo(w.dimensionBar())) out << c->dim();
    out.sort();
    return out;
}

} // namespace

class TestMainWindow : public QObject, test::WindowCase {
    Q_OBJECT
private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_mainwindow");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    void opensTheSampleWithDefaultRoles() {
        QVERIFY(open(kSample));
        const ViewSpec& v = w_->view();
        QCOMPARE(QString::fromStdString(v.variable), QString("tas"));
        QCOMPARE(QString::fromStdString(v.xDim), QString("lon"));
        QCOMPARE(QString::fromStdString(v.yDim), QString("lat"));
        QCOMPARE(chipsIn(*w_, Role::X), QStringList{"lon"});
        QCOMPARE(chipsIn(*w_, Role::Y), QStringList{"lat"});
        QCOMPARE(chipsIn(*w_, Role::Slice), QStringList{"time"});
        QVERIFY(w_->slicePanel()->slider("time"));
        QCOMPARE(w_->slicePanel()->slider("time")->value(), 0);
        QVERIFY(w_->datasetPanel()->itemOf("tas"));
        QVERIFY(w_->datasetPanel()->itemOf("lat_bnds")); // listed, among the coordinates
        verifyShown();
        QCOMPARE(w_->shownFrame().shape(), (Shape{96, 192}));
        // The file's (lat, lon) plane at time 0, as netCDF-C reads it.
        const nctest::NcValues tas = nctest::readNcFloats(kSample.toStdString(), "tas");
        QCOMPARE(tas.shape, (std::vector<std::size_t>{12, 96, 192}));
        const std::vector<double> plane(tas.values.begin(), tas.values.begin() + 96 * 192);
        const QString why =
            difference(w_->shownFrame(), DataArray::fromHost("tas", {"lat", "lon"}, {96, 192}, plane));
        QVERIFY2(why.isEmpty(), qPrintable("against netCDF-C: " + why));
        // The device found off the GUI thread, and named (not "…") once the frame is shown.
        QCOMPARE(w_->deviceLabel()->text().left(9), QString("Compute: "));
        QVERIFY2(w_->deviceLabel()->text().contains(QString::fromStdString(computeInfo().name)),
                 qPrintable(w_->deviceLabel()->text()));
    }

    void selectingAVariableShowsIt() {
        QVERIFY(open(kData + "/reduced.nc"));
        QTreeWidgetItem* item = w_->datasetPanel()->itemOf("anom");
        QVERIFY(item);
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        w_->datasetPanel()->tree()->setCurrentItem(item);
        QVERIFY(shown.wait(10000));
        const ViewSpec& v = w_->view();
        QCOMPARE(QString::fromStdString(v.variable), QString("anom"));
        QCOMPARE(QString::fromStdString(v.yDim), QString("lat"));
        QCOMPARE(QString::fromStdString(v.xDim), QString("lon"));
        QCOMPARE(chipsIn(*w_, Role::Slice), (QStringList{"time", "zlev"}));
        verifyShown();
        // The variable's attributes are listed.
        bool units = false;
        for (int i = 0; i < w_->datasetPanel()->attributes()->topLevelItemCount(); ++i)
            units |= w_->datasetPanel()->attributes()->topLevelItem(i)->text(0) == "units";
        QVERIFY(units);
    }

    void ignoredAttributesAreMarkedInThePanel() {
        // A NaN _FillValue on packed shorts: shown decoded, nothing masked; the variable and the
        // attribute carry a warning icon with the reason as tooltip; other rows carry none.
        QTemporaryDir dir;
        const QString file = dir.filePath("nanfill.nc");
        nctest::writeNanFillShort(file.toStdString(), {0, -32768, 1, 100, 32767, -1});
        QVERIFY(open(file));
        verifyShown();
        const auto shown = w_->shownFrame().asHost().values<double>();
        QCOMPARE(shown.size(), std::size_t(6));
        QVERIFY(std::none_of(shown.begin(), shown.end(), [](double v) { return std::isnan(v); }));
        QVERIFY(std::count(shown.begin(), shown.end(), 250.0) == 1); // the packed 0
        const QString why = "attribute '_FillValue' value NaN cannot be represented in int16; ignored, as "
                            "xarray does";
        QTreeWidgetItem* item = w_->datasetPanel()->itemOf("t2m");
        QVERIFY(item);
        QVERIFY(!item->icon(0).isNull());
        QCOMPARE(item->toolTip(0), why);
        QVERIFY(w_->datasetPanel()->itemOf("x") == nullptr ||
                w_->datasetPanel()->itemOf("x")->icon(0).isNull());
        w_->datasetPanel()->setCurrent("t2m");
        QTreeWidget* attributes = w_->datasetPanel()->attributes();
        int marked = 0;
        for (int i = 0; i < attributes->topLevelItemCount(); ++i) {
            const QTreeWidgetItem* a = attributes->topLevelItem(i);
            if (a->icon(0).isNull()) continue;
            ++marked;
            QCOMPARE(a->text(0), QString("_FillValue"));
            QCOMPARE(a->toolTip(0), why);
        }
        QCOMPARE(marked, 1);
    }

    void groupVariableIsALine() {
        QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
        w_->openFile(kData + "/test_hgroups.nc"); // its root group has no data variable
        QVERIFY(opened.wait(20000));
        QString path;
        for (QTreeWidgetItemIterator it(w_->datasetPanel()->tree()); *it; ++it)
            if ((*it)->text(0) == "CO" && (*it)->data(0, Qt::UserRole + 1).toString().startsWith("/")) {
                path = (*it)->data(0, Qt::UserRole + 1).toString();
                break;
            }
        QVERIFY(!path.isEmpty());
        w_->showVariable(path);
        verifyShown();
        QCOMPARE(w_->shownFrame().ndim(), 1);
        QCOMPARE(w_->findChild<QStackedWidget*>()->currentWidget(), static_cast<QWidget*>(w_->lineView()));
    }

    void dragTimeOntoYGivesAHovmoller() {
        QVERIFY(open(kHgt));
        drag(w_->dimensionBar()->chip("time"), w_->dimensionBar()->slot(Role::Y));
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("time"));
        QCOMPARE(QString::fromStdString(w_->view().xDim), QString("lon"));
        QCOMPARE(chipsIn(*w_, Role::Slice), QStringList{"lat"}); // swapped into time's place
        verifyShown();
        QCOMPARE(w_->shownFrame().dims(), (std::vector<std::string>{"time", "lon"}));
        const QString why =
            differenceFromNetcdf(w_->shownFrame(), "time", "lon", std::size_t(w_->view().indexOf("lat")));
        QVERIFY2(why.isEmpty(), qPrintable("against netCDF-C: " + why));
    }

    void dragOntoXSwaps() {
        QVERIFY(open(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        drag(w_->dimensionBar()->chip("lat"), w_->dimensionBar()->slot(Role::X));
        QCOMPARE(QString::fromStdString(w_->view().xDim), QString("lat"));
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("lon"));
        verifyShown();
        const QString why =
            differenceFromNetcdf(w_->shownFrame(), "lon", "lat", std::size_t(w_->view().indexOf("time")));
        QVERIFY2(why.isEmpty(), qPrintable("against netCDF-C: " + why));
    }

    void dragOntoReduceAndChooseTheOp() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        drag(w_->dimensionBar()->chip("time"), w_->dimensionBar()->slot(Role::Reduce));
        QCOMPARE(int(w_->view().reductions.size()), 1);
        QCOMPARE(w_->view().reductions[0].second, ReduceOp::Mean);
        verifyShown();
        QCOMPARE(w_->shownFrame().dims(), (std::vector<std::string>{"lat", "lon"}));
        // The op button on the chip: max.
        QToolButton* op = w_->dimensionBar()->chip("time")->opButton();
        QVERIFY(op->isVisible());
        QCOMPARE(op->text(), QString("mean"));
        QAction* max = nullptr;
        for (QAction* a : op->menu()->actions())
            if (a->text() == "max") max = a;
        QVERIFY(max);
        max->trigger();
        QCOMPARE(w_->view().reductions[0].second, ReduceOp::Max);
        verifyShown();
        // The frame is the maximum over time, as the core computes it on its own.
        const DataArray direct = reduce(w_->dataset()->operator[]("HGT").load(Device::host(), Stream::host()),
                                        {"time"}, ReduceOp::Max);
        QVERIFY(difference(w_->shownFrame(), direct).isEmpty());
        // And the maximum of each cell's 21 values as netCDF-C reads them, by a plain loop.
        const nctest::NcValues& f = hgtFromNetcdf();
        QCOMPARE(f.values.size(), std::size_t(21 * 73 * 144));
        std::vector<double> most(73 * 144, NAN);
        for (std::size_t t = 0; t < 21; ++t)
            for (std::size_t i = 0; i < 73 * 144; ++i)
                if (const float v = f.values[t * 73 * 144 + i]; !std::isnan(v) && !(v <= most[i]))
                    most[i] = v;
        const QString why =
            difference(w_->shownFrame(), DataArray::fromHost("HGT", {"lat", "lon"}, {73, 144}, most));
        QVERIFY2(why.isEmpty(), qPrintable("against netCDF-C: " + why));
    }

    void dragYOntoSliceGivesALine() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        drag(w_->dimensionBar()->chip("lat"), w_->dimensionBar()->slot(Role::Slice));
        QCOMPARE(QString::fromStdString(w_->view().xDim), QString("lon"));
        QVERIFY(w_->view().yDim.empty());
        QCOMPARE(chipsIn(*w_, Role::Slice), (QStringList{"lat", "time"}));
        verifyShown();
        QCOMPARE(w_->shownFrame().ndim(), 1);
        QCOMPARE(w_->findChild<QStackedWidget*>()->currentWidget(), static_cast<QWidget*>(w_->lineView()));
        // And back onto Y with the keyboard: focus the chip, press Y.
        DimChip* lat = w_->dimensionBar()->chip("lat");
        lat->setFocus();
        QTest::keyClick(lat, Qt::Key_Y);
        QCOMPARE(QString::fromStdString(w_->view().yDim), QString("lat"));
        verifyShown();
        QCOMPARE(w_->shownFrame().ndim(), 2);
    }

    void keyboardRolesForEveryDrag() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        // Keys go where the focus is: it stays on the chip of the dim being moved.
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_.get()));
        w_->dimensionBar()->chip("time")->setFocus();
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w_->dimensionBar()->chip("time")));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_R);
        QCOMPARE(roleOf(w_->view(), "time"), Role::Reduce);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w_->dimensionBar()->chip("time")));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_S);
        QCOMPARE(roleOf(w_->view(), "time"), Role::Slice);
        QTRY_COMPARE(QApplication::focusWidget(), static_cast<QWidget*>(w_->dimensionBar()->chip("time")));
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_X);
        QCOMPARE(roleOf(w_->view(), "time"), Role::X);
        QCOMPARE(roleOf(w_->view(), "lon"), Role::Slice); // time came from Slice: lon goes there
        verifyShown();
    }

    void sliderStepsAndPlays() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        QSlider* s = w_->slicePanel()->slider("time");
        QVERIFY(s);
        s->setFocus();
        QTest::keyClick(s, Qt::Key_Right);
        QCOMPARE(w_->view().indexOf("time"), 1);
        const Coordinate* time = w_->dataset()->coords.find("time");
        QVERIFY(time && time->time);
        QCOMPARE(w_->slicePanel()->valueLabel("time")->text(), QString::fromStdString(time->label(1)));
        verifyShown();
        // On the CPU path the step arrives colour-mapped by the frame service's worker; the view
        // drew it with the frame's own range.
        if (w_->shownFrame().device().isHost()) {
            QTRY_VERIFY(w_->imageView()->colouredAhead());
            QCOMPARE(w_->imageView()->colourRange(), minmaxValues(coreFrame(*w_, w_->view())));
            const auto plane = hgtFromNetcdf().values.begin() + w_->view().indexOf("time") * 73 * 144;
            QCOMPARE(w_->imageView()->colourRange(), extremes({plane, plane + 73 * 144}));
        }
        QTest::keyClick(s, Qt::Key_PageUp);
        QCOMPARE(w_->view().indexOf("time"), 1 + s->pageStep());
        verifyShown();
        // The window's own arrow and Page keys step the active dim: they are the window's
        // shortcuts, which act in the active window (run alone, no earlier test activated it).
        w_->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(w_.get()));
        w_->setFocus();
        QTest::keyClick(w_.get(), Qt::Key_Left);
        QCOMPARE(w_->view().indexOf("time"), s->pageStep());
        QTest::keyClick(w_.get(), Qt::Key_PageDown);
        QCOMPARE(w_->view().indexOf("time"), 0);
        QTest::keyClick(w_.get(), Qt::Key_PageUp);
        QCOMPARE(w_->view().indexOf("time"), s->pageStep());
        // Play at 60 frames/s: the index moves on, and loops past the end.
        w_->slicePanel()->rateBox()->setValue(60);
        QTest::mouseClick(w_->slicePanel()->playButton("time"), Qt::LeftButton);
        QVERIFY(w_->slicePanel()->playing());
        std::int64_t last = w_->view().indexOf("time");
        bool looped = false;
        for (int i = 0; i < 400 && !looped; ++i) {
            QTest::qWait(10);
            const std::int64_t now = w_->view().indexOf("time");
            looped = now < last;
            last = now;
        }
        QVERIFY(looped);
        QTest::mouseClick(w_->slicePanel()->playButton("time"), Qt::LeftButton);
        QVERIFY(!w_->slicePanel()->playing());
        const std::int64_t stopped = w_->view().indexOf("time");
        // Stopped: no timer of the panel runs, and once what was asked is shown the index stays.
        for (const QTimer* t : w_->slicePanel()->findChildren<QTimer*>()) QVERIFY(!t->isActive());
        QVERIFY(settle() && serviceIdle());
        QCOMPARE(w_->view().indexOf("time"), stopped);
        verifyShown();
    }

    void probeShowsTheValueUnderTheCursor() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        ImageView* view = w_->imageView();
        QTRY_VERIFY(view->pickAt(QPointF(view->width() / 2.0, view->height() / 2.0)).inside);
        const QPoint at(view->width() / 2, view->height() / 2);
        const Pick pick = view->pickAt(at);
        QTest::mouseMove(view, at);
        QMouseEvent move(QEvent::MouseMove, QPointF(at), view->mapToGlobal(QPointF(at)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        // The value the probe shows is the file's at the cell whose coordinates it shows: the
        // cell found in netCDF-C's lat and lon, its value read by netCDF-C (the pick's place in
        // the picture is checked by hand in tst_imageview and tst_numbers).
        const std::string hgt = kHgt.toStdString();
        const std::vector<double> lats = nctest::readPlain(hgt, "lat"), lons = nctest::readPlain(hgt, "lon");
        const auto row = std::find(lats.begin(), lats.end(), pick.yCentre) - lats.begin();
        const auto column = std::find(lons.begin(), lons.end(), pick.xCentre) - lons.begin();
        QVERIFY(row < std::ptrdiff_t(lats.size()) && column < std::ptrdiff_t(lons.size()));
        QCOMPARE(std::int64_t(row), pick.row);
        QCOMPARE(std::int64_t(column), pick.column);
        const auto file = nctest::frameOf(hgt, "HGT", "lon", "lat", w_->view().indices, {});
        QVERIFY(file);
        const double expected = file->values[std::size_t(row) * lons.size() + std::size_t(column)];
        // HGT is float32: the probe writes the float's shortest form.
        const DataArray frame = coreFrame(*w_, w_->view());
        QCOMPARE(frame.dtype(), DType::Float32);
        QVERIFY2(w_->probeText().contains(QString::fromStdString(formatNumber(static_cast<float>(expected)))),
                 qPrintable(w_->probeText()));
        QCOMPARE(frame.asHost().values<double>()[pick.row * frame.shape()[1] + pick.column], expected);
        QVERIFY(w_->probeText().contains(QString::fromStdString(pick.xLabel)));
    }

    void clickPlotsTheSeriesThroughThePoint() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        ImageView* view = w_->imageView();
        const QPoint at(view->width() / 3, view->height() / 2);
        const Pick pick = view->pickAt(at);
        QVERIFY(pick.inside);
        QSignalSpy series(w_.get(), &MainWindow::seriesShown);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        QVERIFY(series.wait(10000));
        QVERIFY(w_->seriesDock()->isVisible());
        QCOMPARE(w_->seriesDimBox()->currentText(), QString("time"));
        // The series of the cell the pick names, from netCDF-C; and from the core, as a second check.
        const auto file = nctest::frameOf(kHgt.toStdString(), "HGT", "time", "",
                                          {{"lat", pick.row}, {"lon", pick.column}}, {});
        QVERIFY(file);
        QString why = difference(w_->shownSeries(), *file);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const DataArray direct =
            w_->dataset()->operator[]("HGT").isel({Indexer{"lat", pick.row}, Indexer{"lon", pick.column}});
        why = difference(w_->shownSeries(), direct.load(Device::host(), Stream::host()));
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const auto& plotted = w_->seriesView()->series();
        QCOMPARE(int(plotted.y.size()), 21);
        QCOMPARE(plotted.y[5], direct.asHost().values<double>()[5]);
        QVERIFY(plotted.xTime.has_value()); // dates on x
        // Along another dim: the same point's series along lon.
        QSignalSpy again(w_.get(), &MainWindow::seriesShown);
        w_->seriesDimBox()->setCurrentText("lon");
        QVERIFY(again.wait(10000));
        QCOMPARE(w_->shownSeries().dims(), (std::vector<std::string>{"lon"}));
    }

    void theSeriesDockFloatsAndDocksWithItsPlot() {
        // The series plot draws in a native GL window of its own, which moves with the dock to a
        // floating window and back; it draws the series there too.
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        QSignalSpy series(w_.get(), &MainWindow::seriesShown);
        w_->seriesDimBox()->setCurrentText("time"); // an earlier test may have left another dim
        w_->plotSeriesAt(10, 20);
        QVERIFY(series.wait(10000));
        QCOMPARE(w_->shownSeries().dims(), (std::vector<std::string>{"time"}));
        // HGT at (lat 10, lon 20) over the 21 times, as netCDF-C reads it: the blue line (the
        // series' pen) passes through each sample. The line's leftmost and rightmost columns are
        // the first and last times, its top and bottom rows the largest and smallest values;
        // sample k is then at the column its date gives (the times are "months since 1958-1-1",
        // 0, 1, 13, 25, ...: dates a month, then a year, apart), and that column's blue run
        // holds the sample's row (within 3 pixels: the pen's width and its antialiasing).
        std::vector<float> values;
        std::vector<double> days;
        const nctest::NcValues months = nctest::readNcFloats(kHgt.toStdString(), "time");
        QCOMPARE(months.values.size(), std::size_t(21));
        for (std::size_t t = 0; t < 21; ++t) {
            values.push_back(hgtFromNetcdf().at(t, 10, 20));
            const std::chrono::year_month_day date = std::chrono::year(1958) / std::chrono::January / 1 +
                                                     std::chrono::months(int(months.values[t]));
            days.push_back(std::chrono::sys_days(date).time_since_epoch().count());
        }
        const MinMax vr = extremes(values);
        QVERIFY(vr.second - vr.first > 10); // a line with a shape to follow
        QString why;
        auto drawsTheSeries = [&](LinePlotView* v) {
            const QImage img = v->grabFramebuffer();
            why = "no picture";
            if (img.isNull()) return false;
            auto blue = [&](int x, int y) {
                const QRgb c = img.pixel(x, y); // the rest is white, grey, dark text and orange
                return qBlue(c) > qRed(c) + 60 && qBlue(c) > qGreen(c) + 20;
            };
            int left = img.width(), right = -1, top = img.height(), bottom = -1;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    if (blue(x, y)) {
                        left = std::min(left, x), right = std::max(right, x);
                        top = std::min(top, y), bottom = std::max(bottom, y);
                    }
            why = "no blue line";
            if (right - left < 100 || bottom - top < 20) return false;
            for (int k = 0; k < 21; ++k) {
                const int x = int(std::lround(left + (right - left) * (days[std::size_t(k)] - days[0]) /
                                                         (days[20] - days[0])));
                const double want =
                    top + (vr.second - values[std::size_t(k)]) / (vr.second - vr.first) * (bottom - top);
                int lo = img.height(), hi = -1;
                for (int y = 0; y < img.height(); ++y)
                    if (blue(x, y)) lo = std::min(lo, y), hi = std::max(hi, y);
                if (want < lo - 3 || want > hi + 3) {
                    why = QString("time %1 (%2): want row %3, the line's column %4 is blue from %5 to %6")
                              .arg(k)
                              .arg(values[std::size_t(k)])
                              .arg(want)
                              .arg(x)
                              .arg(lo)
                              .arg(hi);
                    return false;
                }
            }
            return true;
        };
        QTRY_VERIFY2(w_->seriesDock()->isVisible() && drawsTheSeries(w_->seriesView()), qPrintable(why));
        w_->seriesDock()->setFloating(true);
        QVERIFY(QTest::qWaitForWindowExposed(w_->seriesDock()));
        QVERIFY(QTest::qWaitForWindowExposed(w_->seriesView()->glWindow()));
        QTRY_VERIFY2(drawsTheSeries(w_->seriesView()), qPrintable(why));
        w_->seriesDock()->setFloating(false);
        QVERIFY(QTest::qWaitForWindowExposed(w_->seriesView()->glWindow()));
        QTRY_VERIFY2(drawsTheSeries(w_->seriesView()), qPrintable(why));
    }

    void colourRangeOfTheWholeVariable() {
        QVERIFY(ensure(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        w_->colourPanel()->modeBox()->setCurrentIndex(1); // whole variable
        QVERIFY(settle());
        QTRY_COMPARE(w_->view().colouring.range.mode, RangeMode::Variable);
        const auto [lo, hi] =
            minmaxValues(w_->dataset()->operator[]("HGT").load(Device::host(), Stream::host()));
        QTRY_COMPARE(w_->imageView()->colourRange().first, lo);
        QCOMPARE(w_->imageView()->colourRange().second, hi);
        QCOMPARE((MinMax{lo, hi}), extremes(hgtFromNetcdf().values)); // netCDF-C's values, a plain loop
        // Symmetric about zero: [-m, m] with m the variable's largest |extreme|.
        w_->colourPanel()->modeBox()->setCurrentIndex(3);
        const double m = std::max(std::fabs(lo), std::fabs(hi));
        QTRY_COMPARE(w_->imageView()->colourRange(), (MinMax{-m, m}));
        // Fixed, typed.
        w_->colourPanel()->modeBox()->setCurrentIndex(2);
        w_->colourPanel()->minEdit()->setText("5000");
        w_->colourPanel()->maxEdit()->setText("6000");
        emit w_->colourPanel()->maxEdit()->editingFinished();
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
        QTRY_COMPARE(w_->imageView()->colourRange(), (MinMax{5000, 6000}));
        w_->colourPanel()->mapBox()->setCurrentText("magma");
        w_->colourPanel()->reverseBox()->setChecked(true);
        QCOMPARE(QString::fromStdString(w_->imageView()->settings().colouring.colormap), QString("magma"));
        QVERIFY(w_->imageView()->settings().colouring.reversed);
    }

    void exportsFromTheWindow() {
        QVERIFY(open(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        verifyShown();
        QTemporaryDir dir;
        // The pictures at exactly the size asked for, each of HGT's 73 × 144 cells at time 0 in
        // the colour viridis gives its value as netCDF-C reads it (missing: the missing colour),
        // over the frame's extremes. The coastlines are off: their ink covers cells.
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
        {
            const CoastlinesOff off(*w_);
            QVERIFY(off.ok());
            const nctest::NcValues& hgt = hgtFromNetcdf();
            QCOMPARE(hgt.shape, (std::vector<std::size_t>{21, 73, 144}));
            const std::vector<float> plane(hgt.values.begin(), hgt.values.begin() + 73 * 144);
            for (QSize size : {QSize(640, 400), QSize(1000, 700)}) {
                const QString png = dir.filePath(QString("v%1.png").arg(size.width()));
                QVERIFY(w_->exportPng(png, size));
                QImage image(png);
                QCOMPARE(image.size(), size);
                QString first;
                const long wrong = wrongCells(image, 1, w_->shownFrame(), plane, w_->view().colouring, first);
                QVERIFY2(wrong == 0, qPrintable(QString("%1: %2 cells of the wrong colour, first %3")
                                                    .arg(png)
                                                    .arg(wrong)
                                                    .arg(first)));
            }
        }
        QVERIFY(w_->imageView()->settings().coastlines);
        QVERIFY(w_->statusBar()->toolTip().contains("copied device→host"));
        const QString csv = dir.filePath("frame.csv");
        QVERIFY(w_->exportCsv(csv));
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 73 * 144);
        QCOMPARE(lines[0], QByteArray("lat,lon,time,HGT"));
        // Every row: the cell's latitude, longitude and value at time 0 as netCDF-C reads them
        // (shortest round-trip text reads back to the same float), and time 0's label.
        const nctest::NcValues lat = nctest::readNcFloats(kHgt.toStdString(), "lat"),
                               lon = nctest::readNcFloats(kHgt.toStdString(), "lon");
        QCOMPARE(lat.values.size(), std::size_t(73));
        QCOMPARE(lon.values.size(), std::size_t(144));
        QCOMPARE(w_->view().indexOf("time"), 0);
        const QByteArray time = lines[1].split(',').value(2);
        for (int i = 0; i < 73 * 144; ++i) {
            const QList<QByteArray> row = lines[1 + i].split(',');
            const float want[3] = {lat.values[i / 144], lon.values[i % 144], hgtFromNetcdf().values[i]};
            QVERIFY2(row.size() == 4 && row[0].toFloat() == want[0] && row[1].toFloat() == want[1] &&
                         row[2] == time && row[3].toFloat() == want[2],
                     qPrintable(QString("row %1: %2, netCDF-C %3,%4,%5")
                                    .arg(1 + i)
                                    .arg(QString(lines[1 + i]))
                                    .arg(want[0])
                                    .arg(want[1])
                                    .arg(want[2])));
        }
        // The input file is never overwritten.
        QVERIFY(!w_->exportCsv(kHgt));
        QVERIFY(w_->lastError().contains("input file"));
        if (w_->errorBox()) w_->errorBox()->close();
    }

    void areaMeanFromTheDimensionBar() {
        // With latitude and longitude reduced, "area mean" on the latitude chip makes both one
        // area-weighted mean: the chips say so, the line is the cos(lat)-weighted global mean
        // of each time, and its title names it; "mean" again makes them plain means.
        QVERIFY(open(kHgt));
        ViewSpec spec = defaultView(*w_->dataset(), "HGT");
        spec.xDim = "time";
        spec.yDim.clear();
        spec.indices.clear();
        spec.reductions = {{"lat", ReduceOp::Mean}, {"lon", ReduceOp::Mean}};
        w_->applyView(spec);
        verifyShown();
        auto action = [&](const char* dim, const QString& text) -> QAction* {
            for (QAction* a : w_->dimensionBar()->chip(dim)->opButton()->menu()->actions())
                if (a->text() == text && a->isVisible()) return a;
            return nullptr;
        };
        QAction* area = action("lat", "area mean");
        QVERIFY(area);
        area->trigger();
        QVERIFY(w_->view().areaWeighted);
        verifyShown();
        QCOMPARE(w_->dimensionBar()->chip("lat")->opButton()->text(), QString("area mean"));
        QCOMPARE(w_->dimensionBar()->chip("lon")->opButton()->text(), QString("area mean"));
        QVERIFY2(QString::fromStdString(w_->lineView()->series().title)
                     .contains("area-weighted mean over lat, lon"),
                 w_->lineView()->series().title.c_str());
        const DataArray whole = variableOf(*w_->dataset(), "HGT").load(Device::host(), Stream::host());
        const auto v = whole.values<double>();
        const auto lat = whole.coords().find("lat")->values;
        double s = 0, sw = 0;
        for (int j = 0; j < 73; ++j)
            for (int i = 0; i < 144; ++i)
                if (const double x = v[j * 144 + i]; !std::isnan(x)) {
                    s += std::cos(lat[j] * M_PI / 180) * x;
                    sw += std::cos(lat[j] * M_PI / 180);
                }
        QVERIFY(std::abs(w_->shownFrame().asHost().values<double>()[0] - s / sw) < 1e-6 * s / sw);
        QAction* plain = action("lon", "mean");
        QVERIFY(plain);
        plain->trigger();
        QVERIFY(!w_->view().areaWeighted);
        verifyShown();
        QCOMPARE(w_->dimensionBar()->chip("lat")->opButton()->text(), QString("mean"));
    }

    void aResidentVariableIsNotReadAgain() {
        // Once the variable shown is resident, a Hovmöller step, a reduction over time and a
        // step under it read nothing from the file; the status bar and the dataset panel say
        // where the data is.
        QVERIFY(open(kHgt));
        w_->applyView(defaultView(*w_->dataset(), "HGT"));
        drag(w_->dimensionBar()->chip("time"), w_->dimensionBar()->slot(Role::Y));
        verifyShown();
        w_->frameService()->waitForLoads();
        const QLabel* label = w_->findChild<QLabel*>("residency");
        QVERIFY(label);
        // On the compute device: a GPU where there is one, else the host.
        const QString where = computeDevice().isCuda() ? "on GPU 0 (" : "on the host (";
        QTRY_VERIFY2(label->text().startsWith("Data: " + where), qPrintable(label->text()));
        QVERIFY2(w_->datasetPanel()->residencyOf("HGT").startsWith(where),
                 qPrintable(w_->datasetPanel()->residencyOf("HGT")));
        QVERIFY(!w_->findChild<QPushButton*>("cancelLoad")->isVisible());
        QVERIFY(serviceIdle()); // steps computed ahead before the load ended are done too
        // The expected frames come from a copy loaded here, before counting (the window's
        // reads are what is counted, not the test's).
        const DataArray whole = variableOf(*w_->dataset(), "HGT").load(Device::host(), Stream::host());
        auto expect = [&](const char* what) {
            FallbackNote note;
            const QString why =
                difference(w_->shownFrame(), computeFrame(whole, w_->view(), Device::host(), note));
            QVERIFY2(why.isEmpty(), qPrintable(QString(what) + ": " + why));
        };
        // Waits for the frame asked for last, without reading anything itself.
        auto shownNow = [&](auto&& change) {
            QSignalSpy shown(w_.get(), &MainWindow::frameShown);
            change();
            QTRY_VERIFY(shown.count() > 0 && !w_->frameService()->busy());
        };
        const io::ReadCounters before = io::readCounters();
        for (int i = 0; i < 3; ++i) {
            shownNow([&] { w_->slicePanel()->step(+1); }); // the Hovmöller's latitude
            expect("Hovmöller step");
        }
        shownNow([&] { w_->assignDim("time", Role::Reduce, ReduceOp::Std); });
        expect("std over time");
        shownNow([&] { w_->slicePanel()->step(+1); });
        expect("a step under the reduction");
        QCOMPARE(io::readCounters().reads, before.reads);
    }

    void theCommandLineWritesTheWindowsCsv() {
        // The same view through the window's export and through the command line: the same bytes.
        QVERIFY(open(kHgt));
        ViewSpec spec = defaultView(*w_->dataset(), "HGT");
        spec.xDim = "lon";
        spec.yDim = "time";
        spec.indices = {};
        spec.reductions = {{"lat", ReduceOp::Mean}};
        w_->applyView(spec);
        verifyShown();
        QTemporaryDir dir;
        const QString fromWindow = dir.filePath("window.csv"), fromCli = dir.filePath("cli.csv");
        QVERIFY(w_->exportCsv(fromWindow));
        QProcess p;
        // The binary is where the build put it, or (on another machine) where the environment says.
        p.start(qEnvironmentVariable("STRATA_APP_BINARY", STRATA_APP_BINARY),
                {kHgt, "--var", "HGT", "--x", "lon", "--y", "time", "--reduce", "lat=mean", "--export-csv",
                 fromCli});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        QFile a(fromWindow), b(fromCli);
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        const QByteArray x = a.readAll(), y = b.readAll();
        QVERIFY(x.size() > 1000);
        QVERIFY2(x == y, "the window's CSV and the command line's differ");
    }

    void aBadFileShowsAnErrorAndTheAppGoesOn() {
        QSignalSpy failed(w_.get(), &MainWindow::openFailed);
        w_->openFile(kData + "/bad/trunc_nc4_half.nc");
        QVERIFY(failed.wait(20000));
        QVERIFY(w_->errorBox());
        QVERIFY(w_->errorBox()->text().contains("trunc_nc4_half.nc"));
        w_->errorBox()->close();
        QSignalSpy failedAgain(w_.get(), &MainWindow::openFailed);
        w_->openFile(kData + "/bad/hdf5_crash_global_heap.nc"); // crashes HDF5: in a child process
        QVERIFY(failedAgain.wait(30000));
        QVERIFY2(w_->lastError().contains("hdf5_crash_global_heap.nc"), qPrintable(w_->lastError()));
        if (w_->errorBox()) w_->errorBox()->close();
        QVERIFY(open(kSample)); // and the window still works
        verifyShown();
    }

    void longLinesAreThinnedForDrawing() {
        LineSeries s;
        const std::size_t n = 100000;
        for (std::size_t i = 0; i < n; ++i) {
            s.x.push_back(double(i));
            s.y.push_back(std::sin(i * 1e-3));
        }
        s.y[31337] = 50;  // a spike
        s.y[70001] = NAN; // a gap
        const LineSeries t = thinnedForDrawing(s, 2000);
        QVERIFY(t.y.size() <= 3000 && t.y.size() >= 1000);
        QVERIFY(std::find(t.y.begin(), t.y.end(), 50.0) != t.y.end());
        QVERIFY(std::any_of(t.y.begin(), t.y.end(), [](double v) { return std::isnan(v); }));
        QVERIFY(std::is_sorted(t.x.begin(), t.x.end()));
        QCOMPARE(thinnedForDrawing(s, 200000).y.size(), n); // short enough: as it is

        // A 2-million-point variable: shown as a line, the window answering all along.
        QTemporaryDir dir;
        const std::string path = dir.filePath("long.nc").toStdString();
        {
            nctest::Writer w(path, NC_64BIT_OFFSET);
            const int d = w.dim("obs", 2000000);
            const int v = w.var("value", NC_FLOAT, {d});
            w.enddef();
            std::vector<float> values(2000000);
            for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i % 1000);
            w.put(v, values);
        }
        QVERIFY(open(QString::fromStdString(path)));
        QVERIFY(settle());
        QCOMPARE(w_->shownFrame().size(), std::int64_t(2000000));
        QVERIFY(w_->lineView()->series().y.size() <= 8192 + 4096);
        QCOMPARE(*std::max_element(w_->lineView()->series().y.begin(), w_->lineView()->series().y.end()),
                 999.0);
    }

    void everyBadFileLeavesTheWindowRunning() {
        // The whole corpus of damaged and odd files: each opens (and shows, or says why it
        // cannot) or fails with a message naming the file; the window survives them all.
        const QStringList files = QDir(kData + "/bad").entryList({"*.nc"}, QDir::Files);
        QVERIFY(files.size() > 20);
        for (const QString& name : files) {
            QSignalSpy opened(w_.get(), &MainWindow::datasetOpened);
            QSignalSpy failed(w_.get(), &MainWindow::openFailed);
            w_->openFile(kData + "/bad/" + name);
            QTRY_VERIFY_WITH_TIMEOUT(opened.count() + failed.count() == 1, 30000);
            if (failed.count()) {
                QVERIFY2(w_->lastError().contains(name), qPrintable(name + ": " + w_->lastError()));
                if (w_->errorBox()) w_->errorBox()->close();
            } else {
                QTRY_VERIFY_WITH_TIMEOUT(!w_->frameService()->busy(), 30000);
            }
        }
        QVERIFY(open(kSample));
        verifyShown();
    }

    void cancelOpening() {
        QVERIFY(ensure(kSample));
        w_->applyView(defaultView(*w_->dataset(), "tas"));
        verifyShown();
        w_->openFile(kHgt);
        QVERIFY(w_->opening());
        // The open runs to its end on its own thread; the window drops what it brings.
        const auto watchers = w_->findChildren<QFutureWatcherBase*>();
        QVERIFY(!watchers.isEmpty());
        QSignalSpy finished(watchers.last(), &QFutureWatcherBase::finished);
        w_->cancelOpen();
        QVERIFY(!w_->opening());
        QVERIFY(finished.wait(20000));
        QCOMPARE(QFileInfo(QString::fromStdString(w_->dataset()->path)), QFileInfo(kSample));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("tas")); // still the sample
    }

    void screenshot() {
        // docs/screenshot.png: STRATA_SCREENSHOT=path makes it; the test checks the window shows data.
        QVERIFY(open(kSample));
        w_->applyView(defaultView(*w_->dataset(), "tas"));
        verifyShown();
        ImageView* view = w_->imageView();
        w_->plotSeriesAt(48, 96);
        QTRY_VERIFY(w_->shownSeries().ndim() == 1);
        QTest::qWait(300);
        // The views draw in native GL windows of their own, which QWidget::grab does not see:
        // each visible one is painted over the widgets at its place.
        QImage shot = w_->grab().toImage();
        {
            QPainter painter(&shot);
            for (LinePlotView* plot : w_->findChildren<LinePlotView*>())
                if (plot->isVisible() && plot->glWindow())
                    painter.drawImage(plot->mapTo(w_.get(), QPoint(0, 0)), plot->grabFramebuffer());
            if (view->drawsWithGl())
                painter.drawImage(view->mapTo(w_.get(), QPoint(0, 0)), view->grabImage());
        }
        if (const QByteArray out = qgetenv("STRATA_SCREENSHOT"); !out.isEmpty())
            QVERIFY(shot.save(QString::fromUtf8(out)));
        // The data on screen: with the coastlines off (their ink covers cells), every one of the
        // 96 × 192 cells shows at its centre the colour viridis gives its value as netCDF-C reads
        // it, over the frame's extremes.
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
        const CoastlinesOff off(*w_);
        QVERIFY(off.ok());
        const nctest::NcValues tas = nctest::readNcFloats(kSample.toStdString(), "tas");
        QCOMPARE(tas.shape, (std::vector<std::size_t>{12, 96, 192}));
        const std::vector<float> plane(tas.values.begin(), tas.values.begin() + 96 * 192);
        QImage frame;
        QTRY_VERIFY(!(frame = view->grabImage()).isNull() && !view->settings().coastlines);
        QString first;
        const long wrong = wrongCells(frame, view->devicePixelRatioF(), w_->shownFrame(), plane,
                                      w_->view().colouring, first);
        QVERIFY2(wrong == 0,
                 qPrintable(QString("%1 cells of the wrong colour, first %2").arg(wrong).arg(first)));
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestMainWindow t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_mainwindow.moc"
