// The Series dock in the window, under Xvfb, on the sample (tas: time 12, lat 96, lon 192): the
// readout of the sample under the mouse (moved in the plot's GL window), the series as CSV, the
// marker of the step shown (found in the drawn picture), and the placeholder once cleared.
// Expected values come from netCDF-C (nc_read.h) and dates from Qt's own calendar, apart from
// the core.
#include <QtTest>

#include <QComboBox>
#include <QCursor>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QSlider>
#include <QTemporaryDir>
#include <QTimer>
#include <QWindow>
#include <cmath>

#include "main_window.h"
#include "marker_pixels.h"
#include "nc_read.h"
#include "series_dock.h"
#include "slice_panel.h"
#include "strata/core/format.h"
#include "strata/render/vtk_views.h"
#include "window_checks.h"

using namespace strata;
using namespace strata::app;
using test::isMarker;
using test::markerColumn;

namespace {

const QString kSample = QStringLiteral(STRATA_TEST_DATA) + "/tas_rectilinear_grid_2D.nc";
const QString kHgt = QStringLiteral(STRATA_TEST_DATA) + "/hgt.nc";

// The sample's time coordinate (days since 1850-01-01, proleptic Gregorian) as netCDF-C reads it.
std::vector<double> sampleTimes() {
    std::vector<double> t(12, NAN);
    int nc = 0, id = 0;
    if (nc_open(kSample.toStdString().c_str(), NC_NOWRITE, &nc) != NC_NOERR) return {};
    if (nc_inq_varid(nc, "time", &id) != NC_NOERR || nc_get_var_double(nc, id, t.data()) != NC_NOERR)
        t.clear();
    nc_close(nc);
    return t;
}

// The date of `days` since 1850-01-01 by Qt's calendar (proleptic Gregorian): "2005-01-16".
QString dateOf(double days) {
    return QDate(1850, 1, 1).addDays(static_cast<qint64>(std::floor(days))).toString(Qt::ISODate);
}

// Marker pixels anywhere in the picture.
int markerPixels(const QImage& img) {
    int n = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) n += isMarker(img.pixel(x, y));
    return n;
}

// The display's own pointer moved off every window: windows mapped or moved under it send
// the plot Leave events (which clear the readout) between the test's synthetic moves.
void awayFromTheWindows() {
    const QRect screen = QGuiApplication::primaryScreen()->geometry();
    QCursor::setPos(screen.bottomRight() - QPoint(2, 2));
    QTest::qWait(50);
}

// Answers the next modal file dialog with `answer` (accepts it with that file; empty: rejects),
// first noting the folder and the name it offered.
struct DialogAnswer {
    QString folder, name;
    bool seen = false;
};
void answerFileDialog(QObject* context, const QString& answer, DialogAnswer* out) {
    auto* timer = new QTimer(context);
    QObject::connect(timer, &QTimer::timeout, context, [timer, answer, out] {
        auto* dialog = qobject_cast<QFileDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        timer->stop();
        timer->deleteLater();
        out->seen = true;
        out->folder = dialog->directory().absolutePath();
        out->name = dialog->selectedFiles().value(0);
        if (answer.isEmpty()) {
            dialog->reject();
            return;
        }
        dialog->setDirectory(QFileInfo(answer).absolutePath());
        if (auto* edit = dialog->findChild<QLineEdit*>("fileNameEdit"))
            edit->setText(QFileInfo(answer).fileName());
        static_cast<QDialog*>(dialog)->accept(); // QFileDialog::accept, protected there
    });
    timer->start(50);
}

} // namespace

class TestSeriesDock : public QObject, test::WindowCase {
    Q_OBJECT

    SeriesDock* dock() const { return w_->findChild<SeriesDock*>(); }
    // The plot's picture once its GL window shows it with its axis laid out.
    QImage drawnPlot() {
        LinePlotView* plot = w_->seriesView();
        if (!plot->glWindow() || !QTest::qWaitForWindowExposed(plot->glWindow())) return {};
        QImage img;
        for (int i = 0; i < 100 && !(plot->xAxis().drawn() && !img.isNull()); ++i) {
            QTest::qWait(20);
            img = plot->grabFramebuffer();
        }
        return img;
    }
    // The series through the cell at a third of the image's width and half its height, at
    // time step `step`; the cell picked.
    Pick plotSeriesAtStep(int step) {
        w_->slicePanel()->slider("time")->setValue(step);
        if (!settle()) return {};
        ImageView* view = w_->imageView();
        const QPoint at(view->width() / 3, view->height() / 2);
        const Pick pick = view->pickAt(at);
        QSignalSpy shown(w_.get(), &MainWindow::seriesShown);
        QTest::mouseClick(view, Qt::LeftButton, Qt::NoModifier, at);
        if (!shown.wait(10000)) return {};
        return pick;
    }

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_seriesdock");
        QVERIFY(open(kSample));
        QCOMPARE(sampleTimes().size(), std::size_t(12));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    void hoverReadsOutTheSampleUnderTheMouse() {
        QVERIFY(ensure(kSample));
        const Pick pick = plotSeriesAtStep(3);
        QVERIFY(pick.inside);
        QCOMPARE(w_->seriesDimBox()->currentText(), QString("time"));
        const QImage img = drawnPlot();
        QVERIFY(!img.isNull());
        const nctest::NcValues tas = nctest::readNcFloats(kSample.toStdString(), "tas");
        const std::vector<double> times = sampleTimes();
        QWindow* gl = w_->seriesView()->glWindow();
        const double dpr = img.devicePixelRatio();
        awayFromTheWindows();
        auto readoutAt = [&](double column) {
            QTest::mouseMove(gl, QPoint(int(std::floor(column)), gl->height() / 2));
            return dock()->readout()->text();
        };
        // Sample i: "time = <its date>[ <its hour>]: tas = <its value> K".
        auto names = [&](const QString& text, std::size_t i) {
            const QString value = QString::fromStdString(formatNumber(tas.at(i, pick.row, pick.column)));
            return text.startsWith("time = " + dateOf(times[i])) && text.endsWith(": tas = " + value + " K");
        };
        // Over the marker, found in the picture (drawn by VTK at step 3): step 3's date and value.
        const double marker = markerColumn(img) / dpr;
        QVERIFY(marker > 0);
        QString text = readoutAt(marker);
        QVERIFY2(names(text, 3), qPrintable(text));
        // Where the axis puts sample 10, and a little off it: sample 10.
        const PlotXAxis axis = w_->seriesView()->xAxis();
        QVERIFY(axis.drawn());
        for (double off : {0.0, 0.3, -0.3}) {
            const double gap = axis.pixelAt(times[10]) - axis.pixelAt(times[9]);
            text = readoutAt(axis.pixelAt(times[10]) + off * gap);
            QVERIFY2(names(text, 10), qPrintable(text));
        }
        // Left of the axis: nothing.
        QCOMPARE(readoutAt(std::max(0.0, axis.left - 10)), QString());
    }

    void missingValuesReadAsMissing() {
        // The dock alone, on a series with a NaN: read out as "missing", without units.
        SeriesDock dock;
        dock.resize(700, 320);
        dock.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dock));
        DataArray s = DataArray::fromHost("tas", {"step"}, {5}, std::vector<double>{1, 2, NAN, 4, 5});
        ValueText text;
        text.units = "K";
        dock.plot(s, lineSeries(s), "step", text);
        QVERIFY(dock.plotView()->glWindow());
        QVERIFY(QTest::qWaitForWindowExposed(dock.plotView()->glWindow()));
        QTRY_VERIFY(dock.plotView()->xAxis().drawn());
        awayFromTheWindows();
        const PlotXAxis axis = dock.plotView()->xAxis();
        QWindow* gl = dock.plotView()->glWindow();
        QTest::mouseMove(gl, QPoint(int(axis.pixelAt(2)), gl->height() / 2));
        QCOMPARE(dock.readout()->text(), QString("step = index 2: tas = missing"));
        QTest::mouseMove(gl, QPoint(int(axis.pixelAt(1)), gl->height() / 2));
        QCOMPARE(dock.readout()->text(), QString("step = index 1: tas = 2 K"));
    }

    void exportsTheSeriesAsCsv() {
        QVERIFY(ensure(kSample));
        const Pick pick = plotSeriesAtStep(0);
        QVERIFY(pick.inside);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        // The dock's button asks where, then writes; the next time it asks in that folder.
        QVERIFY(dock()->exportButton()->isEnabled());
        DialogAnswer first, second;
        answerFileDialog(this, dir.filePath("series"), &first);
        QTest::mouseClick(dock()->exportButton(), Qt::LeftButton);
        QVERIFY(first.seen);
        const QString path = dir.filePath("series.csv"); // ".csv" added
        QVERIFY2(QFileInfo::exists(path), qPrintable(QDir(dir.path()).entryList().join(", ")));
        answerFileDialog(this, {}, &second);
        QTest::mouseClick(dock()->exportButton(), Qt::LeftButton);
        QVERIFY(second.seen);
        QCOMPARE(second.folder, QDir(dir.path()).absolutePath());
        QCOMPARE(QFileInfo(second.name).fileName(), QFileInfo(w_->suggestedSeriesExportPath()).fileName());
        QVERIFY(QFileInfo(second.name).fileName().endsWith("_along-time.csv"));

        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 1 + 12);
        const QList<QByteArray> header = lines[0].split(',');
        QCOMPARE(header.first(), QByteArray("time")); // written as dates: no units
        QCOMPARE(header.last(), QByteArray("tas [K]"));
        QVERIFY2(header.contains("lat [degrees_north]") && header.contains("lon [degrees_east]"),
                 lines[0].constData());
        const nctest::NcValues tas = nctest::readNcFloats(kSample.toStdString(), "tas");
        const std::vector<double> times = sampleTimes();
        for (std::size_t i = 0; i < 12; ++i) {
            const QList<QByteArray> row = lines[int(1 + i)].split(',');
            QCOMPARE(row.size(), header.size());
            QVERIFY2(row.first().startsWith(dateOf(times[i]).toLatin1()), row.first().constData());
            QCOMPARE(row.last().toFloat(), tas.at(i, pick.row, pick.column));
        }
    }

    void marksTheStepShownAndFollowsTheSlider() {
        QVERIFY(ensure(kSample));
        QVERIFY(plotSeriesAtStep(4).inside);
        const std::vector<double> times = sampleTimes();
        LinePlotView* plot = w_->seriesView();
        QVERIFY(plot->series().marker.has_value());
        QCOMPARE(*plot->series().marker, times[4]);
        QImage img = drawnPlot();
        const double dpr = img.devicePixelRatio();
        QVERIFY2(std::fabs(markerColumn(img) / dpr - plot->xAxis().pixelAt(times[4])) <= 2,
                 qPrintable(QString("marker drawn at %1, axis puts step 4 at %2")
                                .arg(markerColumn(img) / dpr)
                                .arg(plot->xAxis().pixelAt(times[4]))));
        // A step of the slider moves the marker; the series is not asked for again.
        QSignalSpy asked(w_.get(), &MainWindow::seriesShown);
        const DataArray before = w_->shownSeries();
        w_->slicePanel()->slider("time")->setValue(9);
        QVERIFY(settle());
        QCOMPARE(*plot->series().marker, times[9]);
        QTRY_VERIFY(
            std::fabs(markerColumn(plot->grabFramebuffer()) / dpr - plot->xAxis().pixelAt(times[9])) <= 2);
        QCOMPARE(asked.count(), 0);
        QVERIFY(test::difference(w_->shownSeries(), before).isEmpty());
    }

    void noMarkerAlongADimOnScreen() {
        // A series along lon (the view's X): no step to mark.
        QVERIFY(ensure(kSample));
        QVERIFY(plotSeriesAtStep(5).inside);
        QVERIFY(markerPixels(drawnPlot()) > 0);
        QSignalSpy again(w_.get(), &MainWindow::seriesShown);
        w_->seriesDimBox()->setCurrentText("lon");
        QVERIFY(again.wait(10000));
        QCOMPARE(w_->shownSeries().dims(), (std::vector<std::string>{"lon"}));
        QVERIFY(!w_->seriesView()->series().marker.has_value());
        QTRY_COMPARE(markerPixels(w_->seriesView()->grabFramebuffer()), 0);
        QVERIFY(w_->seriesView()->xAxis().drawn());
        w_->seriesDimBox()->setCurrentText("time"); // as the other tests expect it
    }

    void clearedItSaysHowAndStaysSmall() {
        QVERIFY(ensure(kSample));
        QVERIFY(plotSeriesAtStep(0).inside);
        QTRY_VERIFY(dock()->isVisible() && w_->seriesView()->isVisible());
        QVERIFY(!dock()->placeholder()->isVisible());
        w_->resizeDocks({dock()}, {360}, Qt::Vertical); // the user made it taller
        QTRY_COMPARE(dock()->height(), 360);
        const int plotted = dock()->height();
        QVERIFY(open(kHgt)); // another file: the series means nothing there
        QCOMPARE(w_->shownSeries().ndim(), 0);
        QVERIFY(dock()->isVisible());
        QVERIFY(!w_->seriesView()->isVisible());
        QVERIFY(dock()->placeholder()->isVisible());
        QCOMPARE(dock()->placeholder()->text(), QString("Click a cell of the map to plot its series"));
        QVERIFY(!dock()->exportButton()->isEnabled());
        QTRY_VERIFY2(dock()->height() < 120, qPrintable(QString::number(dock()->height())));
        // A click plots again, at the height the dock had.
        QSignalSpy shown(w_.get(), &MainWindow::seriesShown);
        w_->plotSeriesAt(30, 60);
        QVERIFY(shown.wait(10000));
        QVERIFY(w_->seriesView()->isVisible());
        QVERIFY(!dock()->placeholder()->isVisible());
        QTRY_VERIFY2(std::abs(dock()->height() - plotted) <= 4,
                     qPrintable(QString("%1 vs %2").arg(dock()->height()).arg(plotted)));
    }
};

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    QApplication app(argc, argv);
    TestSeriesDock t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_seriesdock.moc"
