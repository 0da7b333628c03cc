// The view: every change goes through Workspace::apply (change), and present() tells the
// widgets; a change that needs a new frame asks the frame service for it, and the frame, when it
// comes, is handed to the image or the line view and timed to the screen.
#include <QAction>
#include <QActionGroup>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <cmath>
#include <cstdio>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "main_window.h"
#include "series_dock.h"
#include "slice_panel.h"
#include "status_panel.h"
#include "strata/core/area.h"
#include "strata/core/format.h"
#include "strata/core/runtime.h"
#include "strata/core/startup_trace.h"
#include "strata/core/transfer.h"
#include "strata/render/coastline_status.h"
#include "strata/render/frame_labels.h"
#include "strata/render/image_export.h"
#include "strata/render/paint_trace.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// How long the end of an open (finishOpen) waits, at most, for its first frame's paint.
constexpr int kOpenEndAfterFrameMs = 250;

} // namespace

std::optional<ViewChange> MainWindow::applied(const ViewSpec& wanted, bool record) {
    ViewSpec next = wanted;
    canonicaliseProjection(next);
    try {
        return ws_.apply(next, record);
    } catch (const Error& e) {
        showError(tr("Cannot show this view"), q(e.what()), false);
        return std::nullopt;
    }
}

bool MainWindow::change(const ViewSpec& wanted, bool record) {
    const std::optional<ViewChange> c = applied(wanted, record);
    if (c) present(*c);
    return c.has_value();
}

void MainWindow::present(const ViewChange& c) {
    const ViewSpec& v = view();
    showProjection();
    showUnits();
    if (c.variable) clearSeries(); // another variable's series
    if (c.roles || dimBar_->chip(q(v.xDim)) == nullptr) {
        dimBar_->show(ws_.variable(), v, onCells(v));
        slices_->show(ws_.variable(), v);
        series_->setDims(v.slicedDims(ws_.variable().dims()), v.xDim, v.yDim);
        series_->setCell(-1, -1); // a click on the old frame means nothing now
    } else {
        slices_->setIndices(v); // a loaded view, or a jump: the sliders follow
    }
    series_->followView(v); // the step marked on the series moves with the slider
    // A loaded or undone view brings its vectors: the menu follows.
    if (auto* a = findChild<QAction*>("vectors_" + QString::fromStdString(toString(v.vectors)));
        a && !a->isChecked())
        a->setChecked(true);
    if (colour_->colouring() != v.colouring) colour_->set(v.colouring); // not on every step: typing goes on
    colour_->setEnabled(true); // disabled while a scalar or nothing was shown
    colour_->setToolTip(QString());
    updateUndoActions();
    rememberViewSoon();
    emit viewChanged();
}

void MainWindow::applyView(const ViewSpec& spec, const std::string& steppingDim, int direction) {
    showView(spec, true, steppingDim, direction);
}

void MainWindow::showView(const ViewSpec& spec, bool record, const std::string& steppingDim, int direction) {
    if (!ws_.dataset()) return;
    const ViewSpec before = view();
    const bool variableChanged = spec.variable != before.variable;
    const std::optional<ViewChange> c = applied(spec, record);
    if (!c) return;
    // Asked for first: the worker reads and colours the frame while the panels, the units and
    // the dimension bar are brought up to date (18 ms of a file's first frame on two cores).
    requestFrame(before, steppingDim, direction);
    present(*c);
    if (variableChanged) onResidencyChanged(q(view().variable)); // where this one's data is
}

void MainWindow::requestFrame(const ViewSpec& before, const std::string& steppingDim, int direction) {
    startup::mark(startup::Milestone::FrameRequested);
    frameAsked_ = true;
    // The image view's isolines (its settings, not the view's) are traced on the worker with
    // the colours, for this frame and the steps ahead.
    ViewSpec asked = atZoom(view()).spec; // a HEALPix pyramid's variable at the zoom that fits
    asked.contours = image_->settings().contours;
    const std::uint64_t id = service_->requestFrame(asked, steppingDim, direction);
    ws_.awaitFrame(id);
    noteTask(before);
    timing_.requested(id);
    // A frame from a GPU is painted through GL: the surface (the VTK views' module, its window)
    // is made while the worker computes it, not after it arrives. While the GPU's driver is
    // still starting, the frame comes from the host and is painted without GL: the surface is
    // then made once it is on the screen (onPresented), before the device's frame comes.
    const ComputeInfo* decided = computeInfoIfDecided();
    if (decided && !decided->device.isHost()) prepareGlAhead();
}

void MainWindow::prepareGlAhead() {
    if (glPrepared_) return;
    glPrepared_ = true;
    QTimer::singleShot(0, this, [this] { image_->prepareGl(); });
}

void MainWindow::assignDim(const QString& dim, Role role, ReduceOp op) {
    const ViewSpec& now = view();
    if (role != Role::Reduce && roleOf(now, dim.toStdString()) == role) { // dropped where it is
        const QString where = role == Role::X ? tr("on X") : role == Role::Y ? tr("on Y") : tr("sliced");
        statusBar()->showMessage(tr("%1 is %2 already").arg(dim, where), 4000);
        return;
    }
    ViewSpec next = assignRole(now, ws_.variable().dims(), dim.toStdString(), role, op);
    // Latitude newly sliced (a Hovmöller of time against longitude) starts at the row nearest
    // the equator, not at the first row (a pole).
    const std::string lat = latitudeDim(ws_.variable());
    if (!lat.empty() && roleOf(now, lat) != Role::Slice && roleOf(next, lat) == Role::Slice)
        if (const Coordinate* c = ws_.variable().coords().find(lat);
            c && c->dims.size() == 1 && !c->values.empty()) {
            std::int64_t nearest = 0;
            for (std::size_t i = 1; i < c->values.size(); ++i)
                if (std::fabs(c->values[i]) < std::fabs(c->values[std::size_t(nearest)]))
                    nearest = std::int64_t(i);
            std::erase_if(next.indices, [&](const auto& p) { return p.first == lat; });
            next.indices.push_back({lat, nearest});
        }
    if (next.xDim == now.xDim && next.yDim == now.yDim && next.reductions == now.reductions &&
        next.indices == now.indices) {
        statusBar()->showMessage(tr("%1 stays where it is: a view needs a dim on X").arg(dim), 4000);
        return;
    }
    applyView(next);
}

void MainWindow::setCoastlines(bool on) {
    ImageViewSettings s = image_->settings();
    s.coastlines = on;
    image_->setSettings(s);
    if (auto* a = findChild<QAction*>("coastlinesAction"); a && a->isChecked() != on) a->setChecked(on);
    if (on)
        if (const std::string why = coastlineProblem(); !why.empty())
            statusBar()->showMessage(tr("Coastlines not drawn: %1").arg(QString::fromStdString(why)), 10000);
}

void MainWindow::setContours(bool on) {
    ImageViewSettings s = image_->settings();
    if (on)
        s.contours = contourChoice_.levels;
    else
        s.contours.reset();
    s.contourLabels = contourChoice_.labels;
    s.contourDashNegative = contourChoice_.dashNegative;
    s.contourColour = contourChoice_.colour;
    s.contourWidth = contourChoice_.width;
    image_->setSettings(s);
    if (auto* a = findChild<QAction*>("contoursAction"); a && a->isChecked() != on) a->setChecked(on);
    if (on && ws_.dataset() && shownFrame().ndim() == 2) {
        ImageFrame frame{shownFrame(), {}, std::nullopt, nullptr, std::nullopt};
        const std::string why = contoursProblem(frame, s);
        if (!why.empty())
            statusBar()->showMessage(tr("Contours not drawn: %1").arg(QString::fromStdString(why)), 10000);
    }
}

void MainWindow::setVectors(VectorStyle style) {
    const QString id = "vectors_" + QString::fromStdString(toString(style));
    if (auto* a = findChild<QAction*>(id); a && !a->isChecked()) a->setChecked(true);
    if (view().vectors == style) return;
    ViewSpec next = view();
    next.vectors = style;
    if (!ws_.dataset() || next.variable.empty()) return;
    applyView(next); // the frame service computes the pair's frames with the view's
}

void MainWindow::buildParticleMenu(QMenu* vectors) {
    vectors->addSeparator();
    QAction* pause = vectors->addAction(tr("Pa&use Particles"));
    pause->setObjectName("pauseParticlesAction");
    pause->setCheckable(true);
    pause->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    pause->setToolTip(tr("Hold the particles where they are; again to let them move"));
    connect(pause, &QAction::toggled, image_, &ImageView::setParticlesPaused);
    const auto factors = [&](const QString& title, const QString& id, std::vector<double> values,
                             void (MainWindow::*set)(double)) {
        QMenu* menu = vectors->addMenu(title);
        menu->setObjectName(id + "Menu");
        auto* group = new QActionGroup(menu);
        for (double f : values) {
            QAction* a = menu->addAction(f == 1 ? tr("Normal") : QString("× %1").arg(f));
            a->setObjectName(id + "_" + QString::number(f));
            a->setCheckable(true);
            a->setChecked(f == 1);
            group->addAction(a);
            connect(a, &QAction::triggered, this, [this, set, f] { (this->*set)(f); });
        }
    };
    factors(tr("Particle &Density"), "particleDensity", {0.25, 0.5, 1, 2, 4, 8},
            &MainWindow::setParticleDensity);
    factors(tr("Particle S&peed"), "particleSpeed", {0.25, 0.5, 1, 2, 4}, &MainWindow::setParticleSpeed);
}

namespace {

// One of the particles' factors in the image view's settings, and its menu entry (`id`_factor)
// checked.
void setParticleFactor(MainWindow& w, double ImageViewSettings::*field, const QString& id, double factor) {
    ImageViewSettings s = w.imageView()->settings();
    s.*field = factor;
    w.imageView()->setSettings(s);
    if (auto* a = w.findChild<QAction*>(id + "_" + QString::number(factor)); a && !a->isChecked())
        a->setChecked(true);
}

} // namespace

void MainWindow::setParticleDensity(double factor) {
    setParticleFactor(*this, &ImageViewSettings::particleDensity, "particleDensity", factor);
}

void MainWindow::setParticleSpeed(double factor) {
    setParticleFactor(*this, &ImageViewSettings::particleSpeed, "particleSpeed", factor);
}

void MainWindow::setContourVariable(const QString& name) {
    const std::string n = name.toStdString() == view().variable ? std::string() : name.toStdString();
    if (view().contourVariable != n && ws_.dataset() && !view().variable.empty()) {
        ViewSpec next = view();
        next.contourVariable = n;
        applyView(next); // the frame service computes its frame with the view's
    }
    if (!image_->settings().contours) setContours(true);
}

void MainWindow::setContourChoice(const ContourChoice& choice) {
    contourChoice_ = choice;
    setContours(true);
    setFilledContours(image_->settings().filledContours); // at the new levels
}

void MainWindow::setFilledContours(bool on) {
    ImageViewSettings s = image_->settings();
    s.filledContours = on;
    s.fillLevels = contourChoice_.levels;
    image_->setSettings(s);
    if (auto* a = findChild<QAction*>("filledContoursAction"); a && a->isChecked() != on) a->setChecked(on);
}

void MainWindow::contourLevelsDialog() {
    if (contourDialog_) {
        contourDialog_->raise();
        contourDialog_->activateWindow();
        return;
    }
    auto* dialog = new ContourDialog(contourChoice_, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &ContourDialog::changed, this, &MainWindow::setContourChoice);
    contourDialog_ = dialog;
    dialog->show();
}

void MainWindow::noteCoastlines(QAction* action) {
    const QString drawn = image_->coastlinesDrawn(), problem = image_->coastlinesProblem();
    QString tip = drawn.isEmpty() ? tr("Coastlines: none drawn") : tr("Coastlines: %1").arg(drawn);
    if (!problem.isEmpty()) tip += tr(" (%1)").arg(problem);
    if (tip == action->statusTip()) return;
    action->setToolTip(tip);
    action->setStatusTip(tip);
}

ImageViewSettings MainWindow::imageSettings() const {
    ImageViewSettings s = image_->settings();
    s.colouring = view().colouring;
    s.window = view().window;
    s.projection = view().projection;
    s.vectors = view().vectors;
    return s;
}

void MainWindow::onColourChanged() {
    if (!ws_.dataset()) return;
    const ViewSpec before = view();
    ViewSpec next = before;
    next.colouring = colour_->colouring();
    const bool needsWhole =
        needsVariableRange(next.colouring.range.mode) && !needsVariableRange(before.colouring.range.mode);
    if (!change(next)) return;
    if (needsWhole) { // the frame service works out the variable's extremes
        requestFrame(before, {}, 0);
        return;
    }
    try {
        image_->setSettings(imageSettings());
    } catch (const Error& e) {
        showError(tr("Colour"), q(e.what()), false);
    }
}

void MainWindow::onFrameReady(const std::shared_ptr<const FrameResult>& r) {
    if (!ws_.awaitsFrame(r->id)) return; // overtaken: a newer request is on its way
    startup::mark(startup::Milestone::FrameDelivered);
    timing_.arrived();
    endTask();
    if (!r->error.isEmpty()) {
        finishOpen();
        showError(tr("Cannot compute this view"), r->error, false);
        return;
    }
    updateDeviceLabel(&r->fallback);
    if (r->fallback.fellBack) statusBar()->showMessage(q(r->fallback.reason), 8000);
    const DataArray& frame = r->frame;
    const std::string lat = latitudeDim(ws_.variable());
    const healpix::Pyramid* pyramid = this->pyramid();
    shownZoom_ = pyramid ? zoomOfPath(*pyramid, r->spec.variable) : -1;
    try {
        // A frame along sphere cells (HEALPix, a mesh's faces) is drawn as a map of them.
        cells_ = r->cells;
        const std::shared_ptr<const SphereCells> cells = r->cells;
        if (!r->cellsError.isEmpty() && r->cellsError != cellsError_)
            statusBar()->showMessage(tr("Not drawn as a map: %1").arg(r->cellsError), 15000);
        cellsError_ = r->cellsError;
        if (frame.ndim() == 2 || cells) {
            image_->setSettings(imageSettings());
            std::string title = frameTitle(frame, r->spec.reductions, r->spec.areaWeighted, lat);
            if (shownZoom_ >= 0) title += "  (HEALPix zoom " + std::to_string(shownZoom_) + ")";
            ImageFrame shown{frame, std::move(title), r->variableRange, r->coloured, r->frameRange};
            if (cells) {
                shown.cells = cells;
                shown.coloured.reset(); // coloured as a row of cells by the view
            } else {
                shown.crs = ws_.latLon().crs(frame); // a grid mapping's map: coastlines drawn in it
            }
            shown.vectorU = r->vectorU;
            shown.vectorV = r->vectorV;
            shown.vectorsGridRelative = r->vectorsGridRelative;
            shown.contourFrame = r->contourFrame;
            shown.isolines = r->isolines;
            image_->setFrame(std::move(shown));
            if (!r->vectorError.isEmpty())
                statusBar()->showMessage(tr("Vectors not drawn: %1").arg(r->vectorError), 10000);
            if (!r->contourError.isEmpty())
                statusBar()->showMessage(
                    tr("Isolines of %1 not drawn: %2").arg(q(r->spec.contourVariable), r->contourError),
                    10000);
            else if (r->contourFrame)
                if (const std::string why = contourFrameProblem(frame, *r->contourFrame); !why.empty())
                    statusBar()->showMessage(tr("Contours not drawn: %1").arg(q(why)), 10000);
            stack_->setCurrentWidget(image_);
        } else {
            LineSeries line = r->line ? *r->line : lineSeries(frame.asHost()); // drawn from the host
            line.title = frameTitle(frame, r->spec.reductions, r->spec.areaWeighted, lat);
            line_->setSeries(std::move(line));
            stack_->setCurrentWidget(line_);
        }
        ws_.showFrame({view(), frame, r->variableRange, r->frameRange});
        // A constant frame is drawn in one colour over its value ± 0.5: say so, or the bar
        // looks like a range of data.
        std::optional<MinMax> extremes = r->frameRange;
        if (!extremes && r->coloured) extremes = r->coloured->extremes;
        if ((frame.ndim() == 2 || cells) && extremes && extremes->first == extremes->second &&
            std::isfinite(extremes->first)) {
            const double c = extremes->first;
            const std::string units = frame.attrs().text("units").value_or("");
            statusBar()->showMessage(
                tr("Constant field: every value of this frame is %1%2 (the colour bar spans it ± 0.5)")
                    .arg(q(formatNarrowest(c)), units.empty() ? QString() : " " + q(units)),
                10000);
        }
        timing_.handedOver(r->id);
        lastError_.clear();
    } catch (const Error& e) {
        showError(tr("Cannot show this view"), q(e.what()), false);
        return;
    }
    rememberViewSoon();
    // The open's title and settings follow the first frame's paint (onPresented); a window off
    // the screen paints nothing, and a paint that never comes must not keep them away for long.
    if (openEnd_) {
        if (isVisible())
            QTimer::singleShot(kOpenEndAfterFrameMs, this, [this] { finishOpen(); });
        else
            finishOpen();
    }
    emit frameShown();
}

void MainWindow::onPresented() {
    followZoom(); // a resize, or the first paint's layout, may want another zoom of a pyramid
    const std::optional<double> ms = timing_.presented();
    if (!ms) return;
    startup::mark(startup::Milestone::Presented);
    if (!glPrepared_ && cudaDeviceLikely())
        prepareGlAhead(); // a first frame from the host: the device's is next
    finishOpen();
    service_->frameShown(); // the worker may now compute the steps around it
    status_->setFrameMs(*ms);
    if (timing_.trace) {
        // The ms from the request to the screen, from the request to the frame's arrival on the
        // GUI thread, and from there to the end of setFrame (the rest is the paint and the swap).
        // Then the bytes copied device → host by this process so far (0 on a GPU-resident path).
        // Last, for a frame drawn by GL: the ms from setFrame's end to the paint, of the paint
        // until the GPU has drawn it, and from there to the swap's end (the display's own
        // presentation of the window's pixels), then of the paint, the ms bringing the scene up
        // to date and issuing VTK's render; -1 where the raster path painted.
        const qint64 now = timing_.presentedNs(), requested = timing_.requestNs();
        const qint64 arrived = timing_.arrivedNs(), handed = timing_.handedOverNs();
        const PaintTimes p = lastPaint();
        const bool gl = p.beganNs >= handed && p.drawnNs >= p.beganNs;
        const auto span = [gl](qint64 from, qint64 to) { return gl ? double(to - from) / 1e6 : -1.0; };
        std::fprintf(stderr, "strata-frame %lld %.3f %.3f %.3f %llu %.3f %.3f %.3f %.3f %.3f\n",
                     static_cast<long long>(now), *ms, double(arrived - requested) / 1e6,
                     double(handed - arrived) / 1e6,
                     static_cast<unsigned long long>(transferCounters().deviceToHost),
                     span(handed, p.beganNs), span(p.beganNs, p.drawnNs), span(p.drawnNs, now),
                     span(p.beganNs, p.preparedNs), span(p.preparedNs, p.renderedNs));
        std::fflush(stderr);
    }
}

} // namespace strata::app
