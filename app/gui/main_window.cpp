#include "main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <cstdio>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "series_dock.h"
#include "slice_panel.h"
#include "status_panel.h"
#include "strata/core/area.h"
#include "strata/core/format.h"
#include "strata/core/runtime.h"
#include "strata/core/settings.h"
#include "strata/core/transfer.h"
#include "strata/io/multifile.h"
#include "strata/render/coastline_status.h"
#include "strata/render/frame_labels.h"
#include "strata/render/paint_trace.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
std::vector<std::string> toStd(const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& s : list) out.push_back(s.toStdString());
    return out;
}

std::string spliced(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
    return out;
}

// What an open of `paths` is called: the path, or the file set's label.
QString openLabel(const QStringList& paths) {
    return paths.size() == 1 ? paths[0] : q(fileSetLabel(toStd(paths)));
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), service_(new FrameService(this)), opener_(new DatasetOpener(this)),
      stack_(new QStackedWidget(this)), image_(new ImageView(this)), line_(new LinePlotView(this)),
      message_(new QLabel(this)), dimBar_(new DimensionBar(this)), slices_(new SlicePanel(this)),
      colour_(new ColourPanel(this)), datasetPanel_(new DatasetPanel(this)), series_(new SeriesDock(this)) {
    timing_.trace = settings::traceFrames();
    setWindowTitle("Strata");
    setAcceptDrops(true);
    resize(1400, 900);

    message_->setAlignment(Qt::AlignCenter);
    message_->setWordWrap(true);
    message_->setObjectName("centralMessage");
    stack_->addWidget(image_);
    stack_->addWidget(line_);
    stack_->addWidget(message_);
    stack_->setCurrentWidget(message_);
    message_->setText(tr("Open a netCDF file (Ctrl+O) or drop one here."));

    auto* centre = new QWidget(this);
    auto* layout = new QVBoxLayout(centre);
    layout->setContentsMargins(2, 2, 2, 2);
    layout->addWidget(dimBar_);
    layout->addWidget(stack_, 1);
    layout->addWidget(slices_);
    setCentralWidget(centre);

    buildDocks();
    setCoastlines(true);             // over longitude/latitude frames, unless asked otherwise
    setGridSpace(GridSpace::LonLat); // curvilinear frames where their lon/lat say
    buildMenus();
    status_ = new StatusPanel(statusBar());
    buildResidency();
    // The keyboard starts on the image: ← → and Page keys step the active slider from there
    // (the first focusable widget would otherwise be a spin box that keeps the arrows).
    image_->setFocusPolicy(Qt::StrongFocus);
    line_->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(image_);
    image_->setFocus();
    connectParts();

    rememberTimer_ = new QTimer(this);
    rememberTimer_->setSingleShot(true);
    rememberTimer_->setInterval(1000); // the settings file is written once the user pauses
    connect(rememberTimer_, &QTimer::timeout, this, &MainWindow::rememberView);
    updateDeviceLabel();
    buildShortcuts();
    restoreLayout();
}

MainWindow::~MainWindow() = default;

void MainWindow::connectParts() {
    connect(opener_, &DatasetOpener::opened, this, &MainWindow::onOpened);
    connect(status_, &StatusPanel::cancelOpenClicked, this, &MainWindow::cancelOpen);
    connect(status_, &StatusPanel::cancelTaskClicked, this, &MainWindow::cancelTask);
    connect(status_, &StatusPanel::cancelLoadClicked, this, [this] {
        if (!view().variable.empty()) service_->cancelLoad(view().variable);
    });
    connect(service_, &FrameService::busyChanged, status_, &StatusPanel::setBusy);
    connect(service_, &FrameService::residencyChanged, this, &MainWindow::onResidencyChanged);
    connect(service_, &FrameService::computeProgress, this, [this](quint64 id, double done) {
        if (!ws_.awaitsFrame(id)) return; // an older request's pass: overtaken
        task_.done = done;
        showTask();
    });
    connect(service_, &FrameService::frameReady, this, &MainWindow::onFrameReady);
    connect(service_, &FrameService::seriesReady, this, &MainWindow::onSeriesReady);

    connect(dimBar_, &DimensionBar::roleRequested, this,
            [this](const QString& dim, Role role, ReduceOp op) { assignDim(dim, role, op); });
    connect(
        dimBar_, &DimensionBar::opChosen, this, [this](const QString& dim, ReduceOp op, bool areaWeighted) {
            ViewSpec next = assignRole(view(), ws_.variable().dims(), dim.toStdString(), Role::Reduce, op);
            if (op == ReduceOp::Mean)
                next.areaWeighted = areaWeighted; // "mean" and "area mean" switch all means
            applyView(next);
        });
    connect(slices_, &SlicePanel::indexChanged, this,
            [this](const QString& dim, qint64 index, int direction) {
                ViewSpec s = view();
                bool found = false;
                for (auto& [d, i] : s.indices)
                    if (q(d) == dim) {
                        i = index;
                        found = true;
                    }
                if (!found) s.indices.push_back({dim.toStdString(), index});
                applyView(s, dim.toStdString(), direction);
            });
    connect(colour_, &ColourPanel::changed, this, &MainWindow::onColourChanged);
    colour_->setShownRangeSource([this] { return shownColourRange(); });
    connect(datasetPanel_, &DatasetPanel::variableChosen, this, &MainWindow::showVariable);
    connect(image_, &ImageView::cellHovered, this, &MainWindow::onHover);
    connect(image_, &ImageView::cellClicked, this, [this](const Pick& p) {
        if (p.inside) plotSeriesAt(p.row, p.column);
    });
    connect(image_, &ImageView::framePathChanged, this, [this](const FramePathInfo& p) {
        status_->setRender(tr("Render: %1").arg(q(std::string(name(p.path)))), q(p.reason));
        if (timing_.trace) { // what the status bar says, for scripts that run the window
            std::fprintf(stderr, "strata-path %s: %s\n", std::string(name(p.path)).c_str(), p.reason.c_str());
            std::fflush(stderr);
        }
    });
    connect(image_, &ImageView::settingsChanged, this, [this](const ImageViewSettings& s) {
        if (!ws_.dataset() || s.window == view().window) return;
        ViewSpec next = view();
        next.window = s.window; // the user zoomed, panned or reset: the view follows
        change(next);
    });
    connect(image_, &ImageView::drawError, this,
            [this](const QString& m) { showError(tr("Drawing failed"), m, false); });
    connect(image_, &ImageView::presented, this, &MainWindow::onPresented);
    connect(line_, &LinePlotView::frameSwapped, this, &MainWindow::onPresented);
    // The plots draw through the VTK views, loaded on first use: when that fails, each plot
    // says why in its place and the status bar says it too.
    for (LinePlotView* plot : {line_, series_->plotView()})
        connect(plot, &LinePlotView::unavailable, this,
                [this](const QString& m) { statusBar()->showMessage(m); });
    connect(series_, &SeriesDock::alongChanged, this,
            [this] { plotSeriesAt(series_->row(), series_->column()); });
}

const DataArray& MainWindow::shownSeries() const { return series_->series(); }
LinePlotView* MainWindow::seriesView() const { return series_->plotView(); }
QDockWidget* MainWindow::seriesDock() const { return series_; }
QComboBox* MainWindow::seriesDimBox() const { return series_->dimBox(); }
QLabel* MainWindow::deviceLabel() const { return status_->deviceLabel(); }
QLabel* MainWindow::renderLabel() const { return status_->renderLabel(); }
QLabel* MainWindow::frameTimeLabel() const { return status_->frameTimeLabel(); }

void MainWindow::buildDocks() {
    auto* dataDock = new QDockWidget(tr("Dataset"), this);
    dataDock->setObjectName("datasetDock");
    dataDock->setWidget(datasetPanel_);
    addDockWidget(Qt::LeftDockWidgetArea, dataDock);

    auto* colourDock = new QDockWidget(tr("Colour"), this);
    colourDock->setObjectName("colourDock");
    colourDock->setWidget(colour_);
    addDockWidget(Qt::RightDockWidgetArea, colourDock);

    addDockWidget(Qt::BottomDockWidgetArea, series_);
    series_->hide();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    file->addAction(tr("Open &Zarr Store…"), this, [this] { // a store is a directory
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Open a Zarr store"), settings_.lastFolder());
        if (!dir.isEmpty()) openFile(dir);
    });
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    rebuildRecentMenu();
    file->addSeparator();
    file->addAction(tr("Export &PNG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::exportPngDialog);
    file->addAction(tr("Export &CSV…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportCsvDialog);
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    buildEditMenu(menuBar()->addMenu(tr("&Edit")));

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(tr("&Save View…"), QKeySequence::Save, this, &MainWindow::saveViewDialog);
    view->addAction(tr("&Load View…"), QKeySequence(Qt::CTRL | Qt::Key_L), this, &MainWindow::loadViewDialog);
    view->addSeparator();
    view->addAction(tr("Step &Forward"), QKeySequence(Qt::CTRL | Qt::Key_Right), this,
                    [this] { slices_->step(+1); });
    view->addAction(tr("Step &Back"), QKeySequence(Qt::CTRL | Qt::Key_Left), this,
                    [this] { slices_->step(-1); });
    view->addAction(tr("&Play/Pause"), QKeySequence(Qt::CTRL | Qt::Key_P), this, [this] {
        if (!slices_->activeDim().isEmpty()) slices_->togglePlay(slices_->activeDim());
    });
    view->addAction(tr("&Reset Zoom"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                    [this] { image_->resetView(); });
    QAction* coast = view->addAction(tr("&Coastlines"));
    coast->setObjectName("coastlinesAction");
    coast->setCheckable(true);
    coast->setChecked(image_->settings().coastlines);
    connect(coast, &QAction::toggled, this, &MainWindow::setCoastlines);
    buildGridMenu(view);
    addProjectionMenu(view);
    view->addSeparator();
    for (QDockWidget* d : findChildren<QDockWidget*>()) view->addAction(d->toggleViewAction());

    QMenu* settings = menuBar()->addMenu(tr("&Settings"));
    settings->addAction(tr("&Memory Budget…"), this, &MainWindow::chooseResidentBudget);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Keyboard Shortcuts"), this, &MainWindow::showShortcuts);
    help->addAction(tr("&About Strata"), this, [this] {
        QMessageBox::about(this, tr("About Strata"),
                           tr("<b>Strata %1</b><br>Gridded data on the GPU.<br>netCDF-C %2<br>Compute: %3")
                               .arg(STRATA_VERSION, q(io::netcdfLibraryVersion()), q(computeInfo().name)));
    });
}

void MainWindow::updateDeviceLabel(const FallbackNote* note) {
    const ComputeInfo& info = computeInfo();
    QString text, tip;
    if (info.device.isHost()) {
        text = tr("Compute: %1").arg(q(info.name));
        tip = tr("CPU backend: %1").arg(q(info.reason));
    } else {
        text = tr("Compute: %1, %2 used by Strata").arg(q(info.name), q(formatBytes(deviceBytesInUse())));
        tip = q(info.reason);
    }
    if (note && note->fellBack) {
        text += tr(" (this view on the CPU)");
        tip = q(note->reason);
    }
    status_->setDevice(text, tip);
}

// ---- opening

void MainWindow::openDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open netCDF files (several: one dataset along time)"), settings_.lastFolder(),
        tr("netCDF files (*.nc *.nc4 *.cdf *.h5 *.netcdf);;All files (*)"));
    if (!paths.isEmpty()) openFiles(paths);
}

void MainWindow::openFile(const QString& path, std::optional<ViewSpec> initial) {
    openFiles({path}, initial);
}

void MainWindow::openFiles(const QStringList& paths, std::optional<ViewSpec> initial) {
    if (paths.isEmpty()) return;
    opener_->open(paths, std::move(initial));
    status_->setOpening(true);
    statusBar()->showMessage(tr("Opening %1…").arg(openLabel(paths)));
}

void MainWindow::cancelOpen() {
    if (!opener_->cancel()) return;
    status_->setOpening(false);
    statusBar()->showMessage(tr("Opening cancelled"), 5000);
}

void MainWindow::onOpened(const QStringList& paths, const std::optional<ViewSpec>& wanted,
                          const OpenOutcome& outcome) {
    status_->setOpening(false);
    const QString path = openLabel(paths);
    if (!outcome.error.isEmpty()) {
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), outcome.error, true);
        emit openFailed(outcome.error);
        return;
    }
    rememberView();
    clearSeries(); // the last file's series means nothing here
    ws_.setDataset(outcome.dataset);
    const Dataset& ds = *ws_.dataset();
    service_->setDataset(ws_.dataset());
    datasetPanel_->setDataset(ws_.dataset());
    settings_.addRecent(paths);
    rebuildRecentMenu();
    settings_.setLastFolder(QFileInfo(q(ds.path)).absolutePath());
    setWindowTitle(QString("%1 — Strata")
                       .arg(ds.files.empty() ? QFileInfo(path).fileName() : q(fileSetLabel(ds.files))));
    if (!outcome.notes.lines.empty())
        statusBar()->showMessage(q(spliced(outcome.notes.lines)), 10000);
    else
        statusBar()->showMessage(tr("Opened %1").arg(path), 4000);

    std::optional<ViewSpec> initial = wanted;
    if (!initial && initialView_) { // the command line's view, once
        try {
            initial = initialView_(ds);
            if (initial) keepProjection(*initial); // --projection
        } catch (const Error& e) {
            showError(tr("Cannot show the view asked for"), q(e.what()), true);
        }
        initialView_ = nullptr;
    }
    ViewSpec fitted;
    bool have = initial && fitViewTo(*initial, ds, fitted);
    if (!have) {
        const std::optional<ViewSpec> last = settings_.lastView(ds);
        have = last && fitViewTo(*last, ds, fitted);
        keepProjection(fitted);
    }
    if (have) {
        datasetPanel_->setCurrent(q(fitted.variable));
        applyView(fitted);
    } else if (const std::string first = defaultVariable(ds); !first.empty()) {
        showVariable(q(first));
    } else {
        showNothing(tr("%1 has no numeric variable to show.").arg(path));
    }
    ws_.forgetHistory(); // the first view of a file is not a change to undo
    updateUndoActions();
    emit datasetOpened(path);
}

void MainWindow::showNothing(const QString& message) {
    stack_->setCurrentWidget(message_);
    message_->setText(message);
    dimBar_->clear();
    slices_->clear();
    ws_.clearView(); // nothing of the previous file's view stays
    endTask();
}

void MainWindow::showVariable(const QString& variablePath) {
    service_->allowLoad(variablePath.toStdString()); // shown anew: loaded even if once cancelled
    if (!ws_.dataset()) return;
    const Dataset& ds = *ws_.dataset();
    try {
        const std::string path = variablePath.toStdString();
        const DataArray var = variableOf(ds, path);
        if (isNumeric(var.dtype()) && var.ndim() == 0) {
            showScalar(variablePath, var);
            return;
        }
        if (!isNumeric(var.dtype())) {
            showError(tr("Cannot show %1").arg(variablePath),
                      tr("%1: variable '%2' is %3 with %4 dims: nothing to draw")
                          .arg(q(ds.path), variablePath, q(std::string(name(var.dtype()))))
                          .arg(var.ndim()),
                      false);
            return;
        }
        for (const auto& d : var.dims())
            if (var.sizeOf(d) == 0) {
                showError(tr("Cannot show %1").arg(variablePath),
                          tr("%1: variable '%2' holds no values: dim '%3' has length 0")
                              .arg(q(ds.path), variablePath, q(d)),
                          false);
                return;
            }
        rememberView();
        ViewSpec spec;
        const std::optional<ViewSpec> last = settings_.lastView(ds);
        const bool have = last && last->variable == path && fitViewTo(*last, ds, spec);
        if (!have) {
            const ViewSpec& now = view();
            spec = defaultView(groupOf(ds, path), var.name());
            spec.variable = path;
            spec.colouring = colouringFor(path); // its own, or the defaults: not the last variable's
            spec.projection = now.projection;
            if (spec.xDim == now.xDim && spec.yDim == now.yDim) spec.window = now.window; // same axes
        }
        keepProjection(spec);
        datasetPanel_->setCurrent(variablePath);
        applyView(spec);
    } catch (const Error& e) {
        showError(tr("Cannot show %1").arg(variablePath), q(e.what()), false);
    }
}

// ---- the view

bool MainWindow::change(const ViewSpec& wanted, bool record) {
    ViewSpec next = wanted;
    canonicaliseProjection(next);
    ViewChange c;
    try {
        c = ws_.apply(next, record);
    } catch (const Error& e) {
        showError(tr("Cannot show this view"), q(e.what()), false);
        return false;
    }
    present(c);
    return true;
}

void MainWindow::present(const ViewChange& c) {
    const ViewSpec& v = view();
    showProjection();
    if (c.variable) clearSeries(); // another variable's series
    if (c.roles || dimBar_->chip(q(v.xDim)) == nullptr) {
        dimBar_->show(ws_.variable(), v);
        slices_->show(ws_.variable(), v);
        series_->setDims(v.slicedDims(ws_.variable().dims()), v.xDim, v.yDim);
        series_->setCell(-1, -1); // a click on the old frame means nothing now
    } else {
        slices_->setIndices(v); // a loaded view, or a jump: the sliders follow
    }
    if (colour_->colouring() != v.colouring) colour_->set(v.colouring); // not on every step: typing goes on
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
    if (!change(spec, record)) return;
    requestFrame(before, steppingDim, direction);
    if (variableChanged) onResidencyChanged(q(view().variable)); // where this one's data is
}

void MainWindow::requestFrame(const ViewSpec& before, const std::string& steppingDim, int direction) {
    const std::uint64_t id = service_->requestFrame(view(), steppingDim, direction);
    ws_.awaitFrame(id);
    noteTask(before);
    timing_.requested(id);
}

void MainWindow::assignDim(const QString& dim, Role role, ReduceOp op) {
    const ViewSpec& now = view();
    const ViewSpec next = assignRole(now, ws_.variable().dims(), dim.toStdString(), role, op);
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

ImageViewSettings MainWindow::imageSettings() const {
    ImageViewSettings s = image_->settings();
    s.colouring = view().colouring;
    s.window = view().window;
    s.projection = view().projection;
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
    timing_.arrived();
    endTask();
    if (!r->error.isEmpty()) {
        showError(tr("Cannot compute this view"), r->error, false);
        return;
    }
    updateDeviceLabel(&r->fallback);
    if (r->fallback.fellBack) statusBar()->showMessage(q(r->fallback.reason), 8000);
    const DataArray& frame = r->frame;
    const std::string lat = latitudeDim(ws_.variable());
    try {
        if (frame.ndim() == 2) {
            image_->setSettings(imageSettings());
            image_->setFrame(ImageFrame{frame,
                                        frameTitle(frame, r->spec.reductions, r->spec.areaWeighted, lat),
                                        r->variableRange, r->coloured, r->frameRange});
            stack_->setCurrentWidget(image_);
        } else {
            LineSeries line = r->line ? *r->line : lineSeries(frame.asHost()); // drawn from the host
            line.title = frameTitle(frame, r->spec.reductions, r->spec.areaWeighted, lat);
            line_->setSeries(std::move(line));
            stack_->setCurrentWidget(line_);
        }
        ws_.showFrame({view(), frame, r->variableRange, r->frameRange});
        timing_.handedOver(r->id);
        lastError_.clear();
    } catch (const Error& e) {
        showError(tr("Cannot show this view"), q(e.what()), false);
        return;
    }
    rememberViewSoon();
    emit frameShown();
}

void MainWindow::onPresented() {
    const std::optional<double> ms = timing_.presented();
    if (!ms) return;
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

// ---- errors

void MainWindow::showError(const QString& title, const QString& message, bool dialog) {
    lastError_ = message;
    statusBar()->showMessage(message, 15000);
    if (!dialog) return;
    if (errorBox_) errorBox_->close();
    errorBox_ = new QMessageBox(QMessageBox::Warning, title, message, QMessageBox::Ok, this);
    errorBox_->setAttribute(Qt::WA_DeleteOnClose);
    errorBox_->setObjectName("errorBox");
    errorBox_->open(); // window-modal, and the event loop goes on
}

// ---- window events

void MainWindow::dragEnterEvent(QDragEnterEvent* e) {
    if (e->mimeData()->hasUrls()) e->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* e) {
    QStringList paths; // several files dropped: one dataset
    for (const QUrl& url : e->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (paths.isEmpty()) return;
    openFiles(paths);
    e->acceptProposedAction();
}

void MainWindow::closeEvent(QCloseEvent* e) {
    rememberView();
    saveLayout();
    QMainWindow::closeEvent(e);
}

} // namespace strata::app
