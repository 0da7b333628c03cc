// The window's colour state as a user meets it: a fixed range belongs to its variable (another
// file starts from its own or the defaults, and coming back restores it); choosing Fixed starts
// from the range shown; a range the fields refuse is said at the field and the last valid one
// stays; the map previews follow Reverse; the colour of missing values is set in the panel.
#include <QtTest>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMouseEvent>
#include <QStatusBar>
#include <QToolButton>

#include "colour_panel.h"
#include "contour_dialog.h"
#include "io/nc_write.h"
#include "main_window.h"
#include "nc_read.h"
#include "strata/core/ops.h"
#include "strata/render/colormaps.h"
#include "units_button.h"
#include "view_json.h"
#include "window_fixture.h"

using namespace strata;
using namespace strata::app;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/../../resources/sample/tas_rectilinear_grid_2D.nc";
const QString kHgt = kData + "/hgt.nc";
const QString kLcc = kData + "/lcc_km.nc";

QString str(MinMax r) { return QString("[%1, %2]").arg(r.first, 0, 'g', 10).arg(r.second, 0, 'g', 10); }

} // namespace

class TestColourState : public QObject {
    Q_OBJECT
    std::unique_ptr<MainWindow> w_;

    bool open(const QString& path) { return test::openAndShow(*w_, path); }
    // The frame shown's own finite extremes.
    MinMax shownExtremes() const { return minmaxValues(w_->shownFrame()); }
    ColourPanel* panel() const { return w_->colourPanel(); }
    void typeRange(const QString& lo, const QString& hi) {
        panel()->minEdit()->setText(lo);
        panel()->maxEdit()->setText(hi);
        emit panel()->maxEdit()->editingFinished();
    }

private slots:
    void initTestCase() {
        w_ = test::makeTestWindow("tst_colourstate");
        QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    }
    void cleanupTestCase() {
        w_.reset();
        QSettings().clear();
    }

    // Choosing Fixed keeps the picture: the fields start from the range drawn, not from 0 to 1.
    void choosingFixedStartsFromTheShownRange() {
        QVERIFY(open(kSample));
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
        const MinMax shown = shownExtremes();
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str(shown));
        panel()->modeBox()->setCurrentIndex(2); // Fixed
        const ColourRange& r = w_->view().colouring.range;
        QCOMPARE(r.mode, RangeMode::Fixed);
        QCOMPARE(str({r.fixedMin, r.fixedMax}), str(shown));
        QVERIFY(!panel()->minEdit()->text().isEmpty() && panel()->minEdit()->isEnabled());
        // tas is float32: its extremes read in the float's shortest form, not the double's noise.
        for (QLineEdit* e : {panel()->minEdit(), panel()->maxEdit()}) {
            int digits = 0;
            for (QChar c : e->text()) digits += c.isDigit();
            QVERIFY2(digits <= 9, qPrintable(e->text()));
        }
        QCOMPARE(panel()->minEdit()->text().toFloat(), float(shown.first));
        QCOMPARE(panel()->maxEdit()->text().toFloat(), float(shown.second));
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str(shown));
    }

    // min >= max (or not a number) is refused at the field, and the range drawn stays the last
    // valid one.
    void aRefusedRangeIsSaidAtTheField() {
        QVERIFY(open(kSample));
        panel()->modeBox()->setCurrentIndex(2);
        typeRange("250", "300");
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
        QVERIFY(!panel()->rangeError()->isVisibleTo(panel()));
        for (const auto& [lo, hi] : {std::pair{"300", "250"}, std::pair{"270", "270"}}) {
            typeRange(lo, hi);
            QVERIFY(panel()->rangeError()->isVisibleTo(panel()));
            QVERIFY2(panel()->rangeError()->text().contains("below"),
                     qPrintable(panel()->rangeError()->text()));
            QVERIFY(!panel()->minEdit()->toolTip().isEmpty());
            QVERIFY(panel()->minEdit()->styleSheet().contains("border"));
            QCOMPARE(w_->view().colouring.range.fixedMin, 250.0);
            QCOMPARE(w_->view().colouring.range.fixedMax, 300.0);
            QCOMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
        }
        // An emptied field (which the validator keeps from finishing) is said as it is typed,
        // in place of the older message.
        panel()->minEdit()->clear();
        emit panel()->minEdit()->textEdited(QString());
        QVERIFY(panel()->rangeError()->isVisibleTo(panel()));
        QVERIFY2(panel()->rangeError()->text().contains("must be numbers"),
                 qPrintable(panel()->rangeError()->text()));
        QCOMPARE(w_->view().colouring.range.fixedMin, 250.0);
        typeRange("260", "290");
        QVERIFY(!panel()->rangeError()->isVisibleTo(panel()));
        QVERIFY(panel()->minEdit()->styleSheet().isEmpty());
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({260, 290}));
        typeRange("250", "300");
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
    }

    // The sample's fixed 250–300 K is not hgt's (geopotential metres) nor lcc_km's range: each
    // starts from its own (here: the defaults, per frame); back on the sample, 250–300 again.
    void aFixedRangeStaysWithItsVariable() {
        QVERIFY(open(kSample));
        panel()->modeBox()->setCurrentIndex(2);
        typeRange("250", "300");
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
        for (const QString& other : {kHgt, kLcc}) {
            QVERIFY(open(other));
            QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
            const MinMax own = shownExtremes(); // lcc_km's first frame is all 0: drawn over 0 ± 0.5
            const MinMax drawn = own.first < own.second ? own : MinMax{own.first - 0.5, own.second + 0.5};
            QTRY_COMPARE(str(w_->imageView()->colourRange()), str(drawn));
            QCOMPARE(panel()->modeBox()->currentIndex(), 0);
            QVERIFY(panel()->minEdit()->text().isEmpty());
        }
        QVERIFY(open(kSample));
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
        QCOMPARE(panel()->modeBox()->currentIndex(), 2);
    }

    // A copy of the sample in degC has a variable of the same name: it starts from its own
    // default view, neither under the sample's fixed 250–300 K nor reduced as the sample was
    // left; the colour map, set deliberately, carries over, and a fixed range only to a
    // variable of the same units.
    void aVariableOfTheSameNameInAnotherFileStartsFromItsOwn() {
        QTemporaryDir dir;
        const QString celsius = QDir(dir.path()).filePath("tas_degC.nc");
        const QString kelvin = QDir(dir.path()).filePath("tas_K.nc");
        QVERIFY(QFile::copy(kSample, celsius));
        QVERIFY(QFile::copy(kSample, kelvin));
        for (const QString& f : {celsius, kelvin})
            QFile::setPermissions(f, QFile::ReadOwner | QFile::WriteOwner);
        {
            int id = 0, var = 0, ndims = 0, dims[NC_MAX_VAR_DIMS];
            nctest::ok(nc_open(celsius.toUtf8().constData(), NC_WRITE, &id), "nc_open");
            nctest::ok(nc_inq_varid(id, "tas", &var), "tas");
            nctest::ok(nc_inq_varndims(id, var, &ndims), "ndims");
            nctest::ok(nc_inq_vardimid(id, var, dims), "dims");
            std::size_t n = 1;
            for (int d = 0; d < ndims; ++d) {
                std::size_t len = 0;
                nctest::ok(nc_inq_dimlen(id, dims[d], &len), "dimlen");
                n *= len;
            }
            std::vector<float> v(n);
            nctest::ok(nc_get_var_float(id, var, v.data()), "get");
            for (float& x : v) x -= 273.15f;
            nctest::ok(nc_redef(id), "redef");
            nctest::ok(nc_put_att_text(id, var, "units", 4, "degC"), "units");
            nctest::ok(nc_enddef(id), "enddef");
            nctest::ok(nc_put_var_float(id, var, v.data()), "put");
            nctest::ok(nc_close(id), "close");
        }
        QVERIFY(open(kelvin));
        panel()->mapBox()->setCurrentIndex(panel()->mapBox()->findText("magma"));
        panel()->modeBox()->setCurrentIndex(2);
        typeRange("250", "300");
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
        ViewSpec reduced = w_->view(); // left as the mean over time
        reduced.reductions = {{"time", ReduceOp::Mean}};
        reduced.indices.clear();
        QSignalSpy shownReduced(w_.get(), &MainWindow::frameShown);
        w_->applyView(reduced);
        QVERIFY(shownReduced.wait(20000) || shownReduced.count() > 0);
        QCOMPARE(w_->view().reductions.size(), std::size_t(1));
        QVERIFY(open(celsius));
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("tas"));
        QVERIFY(w_->view().reductions.empty());
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
        QCOMPARE(w_->view().colouring.colormap, std::string("magma"));
        const MinMax own = shownExtremes();
        QVERIFY2(own.second < 100, qPrintable(str(own))); // in degC
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str(own));
        // Back on the Kelvin file: its own last view, reduced and fixed.
        QVERIFY(open(kelvin));
        QCOMPARE(w_->view().reductions.size(), std::size_t(1));
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
        // From there to another file in Kelvin: the fixed range means the same, and carries
        // (the reduction does not).
        const QString kelvin2 = QDir(dir.path()).filePath("tas_K2.nc");
        QVERIFY(QFile::copy(kSample, kelvin2));
        QVERIFY(open(kelvin2));
        QVERIFY(w_->view().reductions.empty());
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
        QCOMPARE(w_->view().colouring.colormap, std::string("magma"));
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
    }

    // lcc_km's first frame is 0 everywhere: drawn over 0 ± 0.5, and the status bar says the
    // field is constant rather than leave the bar to look like a range of data.
    void aConstantFrameIsSaidToBeConstant() {
        QVERIFY(open(kLcc));
        const MinMax own = shownExtremes();
        QCOMPARE(own.first, own.second);
        const QString message = w_->statusBar()->currentMessage();
        QVERIFY2(message.startsWith("Constant field: every value of this frame is 0"), qPrintable(message));
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({own.first - 0.5, own.second + 0.5}));
    }

    // Another variable of the same file starts from its own colours too (lat_bnds has none).
    void anotherVariableStartsFromItsOwn() {
        QVERIFY(open(kSample));
        panel()->modeBox()->setCurrentIndex(2); // the sample's tas: Fixed 250-300
        typeRange("250", "300");
        QTRY_COMPARE(str(w_->imageView()->colourRange()), str({250, 300}));
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        w_->showVariable("lat_bnds");
        QVERIFY(shown.wait(20000) || shown.count() > 0);
        QCOMPARE(QString::fromStdString(w_->view().variable), QString("lat_bnds"));
        QCOMPARE(w_->view().colouring.range.mode, RangeMode::Frame);
        w_->showVariable("tas");
        QTRY_COMPARE(w_->view().colouring.range.mode, RangeMode::Fixed);
    }

    // The previews in the map list run low to high, and high to low once Reverse is ticked.
    void thePreviewsFollowReverse() {
        QComboBox* maps = panel()->mapBox();
        const int i = maps->findText("batlow");
        QVERIFY(i >= 0);
        const auto table = colormapTable("batlow");
        auto leftmost = [&] {
            const QImage img = maps->itemIcon(i).pixmap(QSize(96, 14)).toImage();
            const QRgb c = img.pixel(0, img.height() / 2);
            return Rgba8{std::uint8_t(qRed(c)), std::uint8_t(qGreen(c)), std::uint8_t(qBlue(c)), 255};
        };
        panel()->reverseBox()->setChecked(false);
        QVERIFY(leftmost() == table.front());
        panel()->reverseBox()->setChecked(true);
        QVERIFY(leftmost() == table.back());
        panel()->reverseBox()->setChecked(false);
        QVERIFY(leftmost() == table.front());
    }

    // Missing values are grey unless set; the panel sets their colour, and the view draws it.
    // View ▸ Contours draws the frame's isolines (the contours' dark grey appears in the plot)
    // and takes them away again.
    void viewContoursDrawsIsolines() {
        QVERIFY(open(kSample));
        ImageView* view = w_->imageView();
        auto grey = [&] {
            const QImage img = view->grabImage();
            long n = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x) {
                    const QColor c = img.pixelColor(x, y);
                    n += c.red() == 72 && c.green() == 72 && c.blue() == 72;
                }
            return n;
        };
        QTRY_VERIFY(!view->grabImage().isNull());
        const long before = grey();
        auto* action = w_->findChild<QAction*>("contoursAction");
        QVERIFY(action && !action->isChecked());
        action->trigger();
        QVERIFY(view->settings().contours.has_value());
        QTRY_VERIFY2(grey() > before + 200,
                     qPrintable(QString("%1 grey pixels, %2 before").arg(grey()).arg(before)));
        action->trigger();
        QVERIFY(!view->settings().contours);
        QTRY_COMPARE(grey(), before);
    }

    // View ▸ Contour Levels…: a list that is not increasing is said at the field and not
    // applied; valid levels, labels and dashes apply at once and turn the contours on.
    void contourLevelsDialogAppliesValidLevels() {
        QVERIFY(open(kSample));
        ImageView* view = w_->imageView();
        auto* action = w_->findChild<QAction*>("contourLevelsAction");
        QVERIFY(action);
        action->trigger();
        auto* dialog = w_->findChild<ContourDialog*>("contourDialog");
        QVERIFY(dialog);
        dialog->levels()->setText("270,260");
        QVERIFY2(dialog->problem()->text().contains("270,260 are not increasing"),
                 qPrintable(dialog->problem()->text()));
        QVERIFY(!view->settings().contours); // nothing applied
        dialog->levels()->setText("250,270,290");
        QVERIFY(dialog->problem()->text().isEmpty());
        QVERIFY(view->settings().contours.has_value());
        QCOMPARE(toString(*view->settings().contours), std::string("250,270,290"));
        QVERIFY(w_->findChild<QAction*>("contoursAction")->isChecked());
        dialog->labels()->setChecked(false);
        dialog->dashes()->setChecked(true);
        QVERIFY(!view->settings().contourLabels);
        QVERIFY(view->settings().contourDashNegative);
        dialog->width()->setValue(2.5);
        QCOMPARE(view->settings().contourWidth, 2.5);
        dialog->setColour(Rgba8{10, 120, 250, 255});
        QVERIFY((view->settings().contourColour == Rgba8{10, 120, 250, 255}));
        // Off and on again: the levels chosen stay.
        w_->findChild<QAction*>("contoursAction")->trigger();
        QVERIFY(!view->settings().contours);
        w_->findChild<QAction*>("contoursAction")->trigger();
        QCOMPARE(toString(*view->settings().contours), std::string("250,270,290"));
        dialog->close();
    }

    // A saved view keeps the contours (levels, labels, dashes) and loading it brings them back;
    // one without them turns them off. Levels that cannot be read make the view unreadable.
    void savedViewsKeepTheContours() {
        QVERIFY(open(kSample));
        ImageView* view = w_->imageView();
        w_->setContourChoice({parseContourSpec("4:0"), false, true, Rgba8{200, 30, 30, 255}, 2.5});
        QTemporaryDir dir;
        const QString path = dir.filePath("contoured.json");
        QVERIFY(w_->saveView(path));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(o["contours"].toString(), QString("4:0"));
        QCOMPARE(o["contourLabels"].toBool(true), false);
        QCOMPARE(o["contourDashes"].toBool(false), true);
        QCOMPARE(o["contourWidth"].toDouble(), 2.5);
        QCOMPARE(o["contourColour"].toArray(), (QJsonArray{200, 30, 30, 255}));
        w_->setContourChoice({ContourSpec{}, true, false});
        w_->setContours(false);
        QVERIFY(w_->loadView(path));
        QVERIFY(view->settings().contours.has_value());
        QCOMPARE(toString(*view->settings().contours), std::string("4:0"));
        QVERIFY(!view->settings().contourLabels && view->settings().contourDashNegative);
        QCOMPARE(view->settings().contourWidth, 2.5);
        QVERIFY((view->settings().contourColour == Rgba8{200, 30, 30, 255}));
        QVERIFY(!w_->view().contours); // not in the window's own view
        // Saved without contours: loading it takes them away.
        w_->setContours(false);
        const QString plain = dir.filePath("plain.json");
        QVERIFY(w_->saveView(plain));
        w_->setContours(true);
        QVERIFY(w_->loadView(plain));
        QVERIFY(!view->settings().contours);
        QJsonObject bad = o;
        bad["contours"] = "5,3";
        try {
            (void)viewFromJson(bad);
            QFAIL("levels that are not increasing were read");
        } catch (const ValueError& e) {
            QVERIFY2(QString(e.what()).contains("\"contours\": contour levels '5,3'"), e.what());
        }
    }

    void theMissingColourIsSetInThePanel() {
        QVERIFY(open(kSample));
        const Rgba8 grey = Colouring().nanColour;
        QVERIFY(grey.r == grey.g && grey.g == grey.b);
        QVERIFY(panel()->nanButton()->isVisibleTo(panel()));
        const Rgba8 teal{0, 128, 128, 255};
        panel()->setNanColour(teal);
        QVERIFY(w_->view().colouring.nanColour == teal);
        QVERIFY(w_->imageView()->settings().colouring.nanColour == teal);
        const Rgba8 under{1, 2, 3, 255};
        panel()->setUnderColour(under);
        QVERIFY(w_->view().colouring.underColour == under);
        panel()->setUnderColour(std::nullopt);
        QVERIFY(!w_->view().colouring.underColour);
    }
    // The Colour panel's Units: tas (K) shown in degC is each stored value less 273.15 (read here
    // with netCDF-C), the button and the probe say degC, a fixed range is converted on the way
    // and then kept per units, and units that measure something else are refused, the view left
    // as it was.
    void displayUnitsConvertAndKeepTheirRange() {
        QVERIFY(open(kSample));
        const nctest::NcValues stored = nctest::readNcFloats(kSample.toStdString(), "tas");
        QVERIFY(stored.shape.size() == 3);
        const std::size_t cells = stored.shape[1] * stored.shape[2];
        UnitsButton* units = panel()->unitsButton();
        QCOMPARE(units->text(), QString("K"));
        QVERIFY(units->isEnabled());
        QVERIFY2(units->offered().contains("degC") && units->offered().contains("degF") &&
                     !units->offered().contains("hPa"),
                 qPrintable(units->offered().join(",")));
        panel()->modeBox()->setCurrentIndex(2); // Fixed
        typeRange("250", "300");
        QCOMPARE(w_->view().colouring.range.fixedMax, 300.0);

        w_->setDisplayUnits("degC");
        QCOMPARE(w_->view().units, std::string("degC"));
        QTRY_COMPARE(w_->shownFrame().attrs().text("units").value_or(""), std::string("degC"));
        QCOMPARE(units->text(), QString("degC"));
        const std::vector<double> frame = w_->shownFrame().asHost().values<double>();
        QCOMPARE(frame.size(), cells);
        const std::int64_t t = w_->view().indexOf("time");
        for (std::size_t i = 0; i < cells; ++i) {
            const double want = double(float(double(stored.values[t * cells + i]) - 273.15));
            QVERIFY2(std::abs(frame[i] - want) <= 1e-4,
                     qPrintable(QString("%1: %2 vs %3").arg(i).arg(frame[i]).arg(want)));
        }
        const ColourRange& r = w_->view().colouring.range;
        QVERIFY(std::abs(r.fixedMin + 23.15) < 1e-9 && std::abs(r.fixedMax - 26.85) < 1e-9);
        QTRY_VERIFY(std::abs(w_->imageView()->colourRange().first + 23.15) < 1e-9);
        ImageView* view = w_->imageView();
        const QPoint at(view->width() / 2, view->height() / 2);
        QTRY_VERIFY(view->pickAt(QPointF(at)).inside);
        QMouseEvent move(QEvent::MouseMove, QPointF(at), view->mapToGlobal(QPointF(at)), Qt::NoButton,
                         Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(view, &move);
        QVERIFY2(w_->probeText().endsWith(" degC"), qPrintable(w_->probeText()));

        // A range set in degC stays with degC; K gets its own back.
        typeRange("-10", "10");
        w_->setDisplayUnits(QString()); // as stored
        QTRY_COMPARE(w_->shownFrame().attrs().text("units").value_or(""), std::string("K"));
        QCOMPARE(str({w_->view().colouring.range.fixedMin, w_->view().colouring.range.fixedMax}),
                 str({250, 300}));
        w_->setDisplayUnits("degC");
        QCOMPARE(str({w_->view().colouring.range.fixedMin, w_->view().colouring.range.fixedMax}),
                 str({-10, 10}));

        // Metres are no temperature: refused, with why, and degC stays.
        w_->setDisplayUnits("m");
        QTRY_VERIFY(w_->errorBox() && w_->errorBox()->isVisible());
        QVERIFY2(w_->errorBox()->text().contains("different things"), qPrintable(w_->errorBox()->text()));
        w_->errorBox()->close();
        QCOMPARE(w_->view().units, std::string("degC"));
        QCOMPARE(units->text(), QString("degC"));
        w_->setDisplayUnits(QString());
        panel()->modeBox()->setCurrentIndex(0);
    }
};

QTEST_MAIN(TestColourState)
#include "tst_colourstate.moc"
