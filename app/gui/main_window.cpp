#include "main_window.h"
#include "strata/render/coastline_status.h"
#include "strata/render/paint_trace.h"

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
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <cstdio>
#include <ctime>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "slice_panel.h"
#include "strata/core/area.h"
#include "strata/core/cancel.h"
#include "strata/core/format.h"
#include "strata/core/memory_budget.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/io/multifile.h"
#include "strata/render/frame_labels.h"
#include "view_json.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }
std::vector<std::string> toStd(const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& s : list) out.push_back(s.toStdString());
    return out;
}

qint64 monotonicNs() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::string spliced(const std::vector<std::string>& lines) {
    std::string out;
    for (const auto& l : lines) out += (out.empty() ? "" : "\n") + l;
    return out;
}

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), service_(new FrameService(this)), stack_(new QStackedWidget(this)),
      image_(new ImageView(this)), line_(new LinePlotView(this)), message_(new QLabel(this)),
      dimBar_(new DimensionBar(this)), slices_(new SlicePanel(this)), colour_(new ColourPanel(this)),
      datasetPanel_(new DatasetPanel(this)), seriesDock_(new QDockWidget(tr("Series"), this)),
      seriesPlot_(new LinePlotView(this)), seriesDim_(new QComboBox(this)), progress_(new QProgressBar(this)),
      cancel_(new QPushButton(tr("Cancel"), this)), deviceLabel_(new QLabel(this)),
      renderLabel_(new QLabel(this)), frameTimeLabel_(new QLabel(this)) {
    clock_.start();
    traceFrames_ = qEnvironmentVariableIsSet("STRATA_TRACE_FRAMES");
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
    buildStatusBar();
    buildResidency();
    buildTask();
    // The keyboard starts on the image: ← → and Page keys step the active slider from there
    // (the first focusable widget would otherwise be a spin box that keeps the arrows).
    image_->setFocusPolicy(Qt::StrongFocus);
    line_->setFocusPolicy(Qt::StrongFocus);
    setFocusProxy(image_);
    image_->setFocus();

    connect(dimBar_, &DimensionBar::roleRequested, this,
            [this](const QString& dim, Role role, ReduceOp op) { assignDim(dim, role, op); });
    connect(dimBar_, &DimensionBar::opChosen, this,
            [this](const QString& dim, ReduceOp op, bool areaWeighted) {
                ViewSpec next = assignRole(spec_, var_.dims(), dim.toStdString(), Role::Reduce, op);
                if (op == ReduceOp::Mean)
                    next.areaWeighted = areaWeighted; // "mean" and "area mean" switch all means
                applyView(next);
            });
    connect(slices_, &SlicePanel::indexChanged, this,
            [this](const QString& dim, qint64 index, int direction) {
                ViewSpec s = spec_;
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
    connect(service_, &FrameService::frameReady, this, &MainWindow::onFrameReady);
    connect(service_, &FrameService::seriesReady, this, &MainWindow::onSeriesReady);
    connect(image_, &ImageView::cellHovered, this, &MainWindow::onHover);
    connect(image_, &ImageView::cellClicked, this, [this](const Pick& p) {
        if (p.inside) plotSeriesAt(p.row, p.column);
    });
    connect(image_, &ImageView::framePathChanged, this, [this](const FramePathInfo& p) {
        renderLabel_->setText(tr("Render: %1").arg(q(std::string(name(p.path)))));
        renderLabel_->setToolTip(q(p.reason));
        if (traceFrames_) { // what the status bar says, for scripts that run the window
            std::fprintf(stderr, "strata-path %s: %s\n", std::string(name(p.path)).c_str(), p.reason.c_str());
            std::fflush(stderr);
        }
    });
    connect(image_, &ImageView::settingsChanged, this, [this](const ImageViewSettings& s) {
        const ViewSpec before = spec_;
        spec_.window = s.window; // the user zoomed, panned or reset: the view follows
        recordView(before);
        rememberViewSoon();
        emit viewChanged();
    });
    connect(image_, &ImageView::drawError, this,
            [this](const QString& m) { showError(tr("Drawing failed"), m, false); });
    connect(image_, &ImageView::presented, this, &MainWindow::onPresented);
    connect(line_, &LinePlotView::frameSwapped, this, &MainWindow::onPresented);
    // The plots draw through the VTK views, loaded on first use: when that fails, each plot
    // says why in its place and the status bar says it too.
    for (LinePlotView* plot : {line_, seriesPlot_})
        connect(plot, &LinePlotView::unavailable, this,
                [this](const QString& m) { statusBar()->showMessage(m); });
    connect(seriesDim_, &QComboBox::activated, this,
            [this] { preferredSeriesDim_ = seriesDim_->currentText(); });
    connect(seriesDim_, &QComboBox::currentIndexChanged, this, [this] {
        if (seriesRow_ >= 0) plotSeriesAt(seriesRow_, seriesColumn_);
    });

    labelTimer_ = new QTimer(this);
    labelTimer_->setSingleShot(true);
    labelTimer_->setInterval(500);
    connect(labelTimer_, &QTimer::timeout, this,
            [this] { frameTimeLabel_->setText(tr("Frame: %1 ms").arg(lastFrameMs_, 0, 'f', 1)); });
    rememberTimer_ = new QTimer(this);
    rememberTimer_->setSingleShot(true);
    rememberTimer_->setInterval(1000); // the settings file is written once the user pauses
    connect(rememberTimer_, &QTimer::timeout, this, &MainWindow::rememberView);
    QSettings settings;
    exportSize_ = settings.value("export/size", exportSize_).toSize();
    updateDeviceLabel();
    buildShortcuts();
    restoreLayout();
}

MainWindow::~MainWindow() {
    if (openWatcher_) openWatcher_->waitForFinished();
}

void MainWindow::buildDocks() {
    auto* dataDock = new QDockWidget(tr("Dataset"), this);
    dataDock->setObjectName("datasetDock");
    dataDock->setWidget(datasetPanel_);
    addDockWidget(Qt::LeftDockWidgetArea, dataDock);

    auto* colourDock = new QDockWidget(tr("Colour"), this);
    colourDock->setObjectName("colourDock");
    colourDock->setWidget(colour_);
    addDockWidget(Qt::RightDockWidgetArea, colourDock);

    auto* body = new QWidget(seriesDock_);
    auto* layout = new QVBoxLayout(body);
    layout->setContentsMargins(2, 2, 2, 2);
    auto* row = new QHBoxLayout;
    row->addWidget(new QLabel(tr("Along"), body));
    seriesDim_->setObjectName("seriesDim");
    row->addWidget(seriesDim_);
    row->addStretch(1);
    layout->addLayout(row);
    seriesPlot_->setMinimumHeight(220);
    layout->addWidget(seriesPlot_, 1);
    seriesDock_->setObjectName("seriesDock");
    seriesDock_->setWidget(body);
    addDockWidget(Qt::BottomDockWidgetArea, seriesDock_);
    seriesDock_->hide();
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::openDialog);
    file->addAction(tr("Open &Zarr Store…"), this, [this] { // a store is a directory
        const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a Zarr store"),
                                                              QSettings().value("lastFolder").toString());
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

void MainWindow::buildStatusBar() {
    progress_->setRange(0, 0);
    progress_->setMaximumWidth(160);
    progress_->setObjectName("progress");
    progress_->hide();
    cancel_->setObjectName("cancel");
    cancel_->hide();
    connect(cancel_, &QPushButton::clicked, this, &MainWindow::cancelOpen);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(cancel_);
    statusBar()->addPermanentWidget(deviceLabel_);
    statusBar()->addPermanentWidget(renderLabel_);
    statusBar()->addPermanentWidget(frameTimeLabel_);
    renderLabel_->setText(tr("Render: none"));
    frameTimeLabel_->setText(tr("Frame: —"));
    connect(service_, &FrameService::busyChanged, this, [this](bool busy) {
        if (!openWatcher_) progress_->setVisible(busy);
    });
}

void MainWindow::updateDeviceLabel(const FallbackNote* note) {
    const ComputeInfo& info = computeInfo();
    QString text;
    if (info.device.isHost()) {
        text = tr("Compute: %1").arg(q(info.name));
        deviceLabel_->setToolTip(tr("CPU backend: %1").arg(q(info.reason)));
    } else {
        text = tr("Compute: %1, %2 used by Strata").arg(q(info.name), q(formatBytes(deviceBytesInUse())));
        deviceLabel_->setToolTip(q(info.reason));
    }
    if (note && note->fellBack) {
        text += tr(" (this view on the CPU)");
        deviceLabel_->setToolTip(q(note->reason));
    }
    deviceLabel_->setText(text);
}

// ---- opening

void MainWindow::openDialog() {
    QSettings settings;
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open netCDF files (several: one dataset along time)"),
                                      settings.value("lastFolder").toString(),
                                      tr("netCDF files (*.nc *.nc4 *.cdf *.h5 *.netcdf);;All files (*)"));
    if (!paths.isEmpty()) openFiles(paths);
}

void MainWindow::openFile(const QString& path, std::optional<ViewSpec> initial) {
    openFiles({path}, initial);
}

void MainWindow::openFiles(const QStringList& paths, std::optional<ViewSpec> initial) {
    if (paths.isEmpty()) return;
    const QString path = paths.size() == 1 ? paths[0] : q(fileSetLabel(toStd(paths)));
    cancelOpen();
    const std::uint64_t generation = ++openGeneration_;
    openCancel_ = std::make_shared<std::atomic<bool>>(false);
    openWatcher_ = new QFutureWatcher<OpenOutcome>(this);
    progress_->show();
    cancel_->show();
    statusBar()->showMessage(tr("Opening %1…").arg(path));
    auto* watcher = openWatcher_;
    connect(watcher, &QFutureWatcher<OpenOutcome>::finished, this,
            [this, watcher, generation, paths, initial] {
                const OpenOutcome outcome = watcher->result();
                watcher->deleteLater();
                if (watcher == openWatcher_) openWatcher_ = nullptr;
                if (generation != openGeneration_) return; // cancelled, or overtaken by another open
                progress_->hide();
                cancel_->hide();
                onOpened(paths, initial, outcome);
            });
    watcher->setFuture(QtConcurrent::run([p = toStd(paths), cancel = openCancel_] {
        OpenOutcome out;
        const CancelScope scope(cancel.get()); // Cancel stops its reads over HTTP
        try {
            auto ds = std::make_shared<Dataset>(io::openPaths(p, out.notes)); // isolated, one or many
            out.dataset = std::move(ds);
        } catch (const std::exception& e) {
            out.error = QString::fromStdString(e.what());
        }
        return out;
    }));
}

void MainWindow::cancelOpen() {
    if (!openWatcher_) return;
    ++openGeneration_; // its result, when it comes, is dropped
    openWatcher_ = nullptr;
    if (openCancel_) openCancel_->store(true); // its transfers (a store over HTTP) are aborted
    progress_->hide();
    cancel_->hide();
    statusBar()->showMessage(tr("Opening cancelled"), 5000);
}

bool MainWindow::opening() const { return openWatcher_ != nullptr; }

void MainWindow::onOpened(const QStringList& paths, std::optional<ViewSpec> initial,
                          const OpenOutcome& outcome) {
    const QString path = paths.size() == 1 ? paths[0] : q(fileSetLabel(toStd(paths)));
    if (!outcome.error.isEmpty()) {
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), outcome.error, true);
        emit openFailed(outcome.error);
        return;
    }
    rememberView();
    clearSeries(); // the last file's series means nothing here
    shownSpec_.reset();
    ds_ = outcome.dataset;
    service_->setDataset(ds_);
    datasetPanel_->setDataset(ds_);
    addRecent(paths);
    QSettings().setValue("lastFolder", QFileInfo(q(ds_->path)).absolutePath());
    setWindowTitle(QString("%1 — Strata")
                       .arg(ds_->files.empty() ? QFileInfo(path).fileName() : q(fileSetLabel(ds_->files))));
    if (!outcome.notes.lines.empty())
        statusBar()->showMessage(q(spliced(outcome.notes.lines)), 10000);
    else
        statusBar()->showMessage(tr("Opened %1").arg(path), 4000);

    if (!initial && initialView_) { // the command line's view, once
        try {
            initial = initialView_(*ds_);
            if (initial) keepProjection(*initial); // --projection
        } catch (const Error& e) {
            showError(tr("Cannot show the view asked for"), q(e.what()), true);
        }
        initialView_ = nullptr;
    }
    ViewSpec fitted;
    bool have = initial && fitViewTo(*initial, *ds_, fitted);
    if (!have) {
        const QByteArray saved = QSettings().value(lastViewKey(*ds_)).toByteArray();
        if (!saved.isEmpty()) try {
                have = fitViewTo(viewFromJsonText(saved), *ds_, fitted);
            } catch (const Error&) {
                have = false;
            }
        keepProjection(fitted);
    }
    if (have) {
        datasetPanel_->setCurrent(q(fitted.variable));
        var_ = variableOf(*ds_, fitted.variable);
        applyView(fitted);
    } else if (const std::string first = defaultVariable(*ds_); !first.empty()) {
        showVariable(q(first));
    } else {
        stack_->setCurrentWidget(message_);
        message_->setText(tr("%1 has no numeric variable to show.").arg(path));
        dimBar_->clear();
        slices_->clear();
        spec_ = ViewSpec(); // nothing of the previous file's view stays
        var_ = DataArray();
        shown_ = DataArray();
    }
    history_.clear(); // the views of the last file cannot be shown here
    updateUndoActions();
    emit datasetOpened(path);
}

void MainWindow::showVariable(const QString& variablePath) {
    service_->allowLoad(variablePath.toStdString()); // shown anew: loaded even if once cancelled
    if (!ds_) return;
    try {
        const std::string path = variablePath.toStdString();
        const DataArray var = variableOf(*ds_, path);
        if (isNumeric(var.dtype()) && var.ndim() == 0) {
            showScalar(variablePath, var);
            return;
        }
        if (!isNumeric(var.dtype())) {
            showError(tr("Cannot show %1").arg(variablePath),
                      tr("%1: variable '%2' is %3 with %4 dims: nothing to draw")
                          .arg(q(ds_->path), variablePath, q(std::string(name(var.dtype()))))
                          .arg(var.ndim()),
                      false);
            return;
        }
        for (const auto& d : var.dims())
            if (var.sizeOf(d) == 0) {
                showError(tr("Cannot show %1").arg(variablePath),
                          tr("%1: variable '%2' holds no values: dim '%3' has length 0")
                              .arg(q(ds_->path), variablePath, q(d)),
                          false);
                return;
            }
        rememberView();
        var_ = var;
        ViewSpec spec;
        const QByteArray saved = QSettings().value(lastViewKey(*ds_)).toByteArray();
        bool have = false;
        if (!saved.isEmpty()) try {
                const ViewSpec last = viewFromJsonText(saved);
                have = last.variable == path && fitViewTo(last, *ds_, spec);
            } catch (const Error&) {
            }
        if (!have) {
            spec = defaultView(groupOf(*ds_, path), var.name());
            spec.variable = path;
            spec.colouring = colouringFor(path); // its own, or the defaults: not the last variable's
            spec.projection = spec_.projection;
            if (spec.xDim == spec_.xDim && spec.yDim == spec_.yDim) spec.window = spec_.window; // same axes
        }
        keepProjection(spec);
        datasetPanel_->setCurrent(variablePath);
        applyView(spec);
    } catch (const Error& e) {
        showError(tr("Cannot show %1").arg(variablePath), q(e.what()), false);
    }
}

// ---- the view

void MainWindow::applyView(const ViewSpec& spec, const std::string& steppingDim, int direction) {
    if (!ds_) return;
    const bool variableChanged = spec.variable != spec_.variable || spec.file != spec_.file;
    const ViewSpec before = spec_;
    const bool rolesChanged = spec.variable != spec_.variable || spec.xDim != spec_.xDim ||
                              spec.yDim != spec_.yDim || spec.reductions != spec_.reductions ||
                              spec.areaWeighted != spec_.areaWeighted || spec.file != spec_.file ||
                              dimBar_->chip(q(spec.xDim)) == nullptr;
    spec_ = spec;
    spec_.file = ds_->path;
    spec_.files = ds_->files;
    try {
        var_ = variableOf(*ds_, spec_.variable);
        validate(spec_, var_);
    } catch (const Error& e) {
        showError(tr("Cannot show this view"), q(e.what()), false);
        return;
    }
    showProjection();
    recordView(before);
    if (variableChanged) clearSeries(); // another variable's series
    if (rolesChanged) {
        dimBar_->show(var_, spec_);
        slices_->show(var_, spec_);
        refreshSeriesDims();
        seriesRow_ = seriesColumn_ = -1; // a click on the old frame means nothing now
    } else {
        slices_->setIndices(spec_); // a loaded view, or a jump: the sliders follow
    }
    if (colour_->colouring() != spec_.colouring)
        colour_->set(spec_.colouring); // not on every step: typing goes on
    const std::uint64_t id = service_->requestFrame(spec_, steppingDim, direction);
    if (variableChanged) onResidencyChanged(q(spec_.variable)); // where this one's data is
    wantedFrame_ = id;
    noteTask(before);
    requestedAt_[id] = monotonicNs();
    while (requestedAt_.size() > 64) requestedAt_.erase(requestedAt_.begin());
    emit viewChanged();
}

void MainWindow::assignDim(const QString& dim, Role role, ReduceOp op) {
    const ViewSpec next = assignRole(spec_, var_.dims(), dim.toStdString(), role, op);
    if (next.xDim == spec_.xDim && next.yDim == spec_.yDim && next.reductions == spec_.reductions &&
        next.indices == spec_.indices) {
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
    s.colouring = spec_.colouring;
    s.window = spec_.window;
    s.projection = spec_.projection;
    return s;
}

void MainWindow::onColourChanged() {
    if (!ds_) return;
    ViewSpec s = spec_;
    s.colouring = colour_->colouring();
    const bool needsWhole =
        needsVariableRange(s.colouring.range.mode) && !needsVariableRange(spec_.colouring.range.mode);
    const ViewSpec before = spec_;
    spec_ = s;
    recordView(before);
    if (needsWhole) { // the frame service works out the variable's extremes
        applyView(s);
        noteTask(before);
        return;
    }
    try {
        image_->setSettings(imageSettings());
        rememberViewSoon();
    } catch (const Error& e) {
        showError(tr("Colour"), q(e.what()), false);
    }
}

void MainWindow::onFrameReady(const std::shared_ptr<const FrameResult>& r) {
    if (r->id != wantedFrame_) return; // overtaken: a newer request is on its way
    readyAt_ = monotonicNs();
    endTask();
    if (!r->error.isEmpty()) {
        showError(tr("Cannot compute this view"), r->error, false);
        return;
    }
    updateDeviceLabel(&r->fallback);
    if (r->fallback.fellBack) statusBar()->showMessage(q(r->fallback.reason), 8000);
    shown_ = r->frame;
    variableRange_ = r->variableRange;
    frameRange_ = r->frameRange;
    try {
        if (shown_.ndim() == 2) {
            image_->setSettings(imageSettings());
            image_->setFrame(ImageFrame{
                shown_, frameTitle(shown_, r->spec.reductions, r->spec.areaWeighted, latitudeDim(var_)),
                r->variableRange, r->coloured, r->frameRange});
            stack_->setCurrentWidget(image_);
        } else {
            LineSeries line = r->line ? *r->line : lineSeries(shown_.asHost()); // drawn from the host
            line.title = frameTitle(shown_, r->spec.reductions, r->spec.areaWeighted, latitudeDim(var_));
            line_->setSeries(std::move(line));
            stack_->setCurrentWidget(line_);
        }
        presentPendingSince_ = requestedAt_.count(r->id) ? requestedAt_[r->id] : monotonicNs();
        shownAt_ = monotonicNs();
        shownSpec_ = spec_;
        lastError_.clear();
    } catch (const Error& e) {
        showError(tr("Cannot show this view"), q(e.what()), false);
        return;
    }
    rememberViewSoon();
    emit frameShown();
}

void MainWindow::onPresented() {
    if (!presentPendingSince_) return;
    service_->frameShown(); // the worker may now compute the steps around it
    const qint64 now = monotonicNs();
    lastFrameMs_ = (now - *presentPendingSince_) / 1e6;
    // The label is refreshed at most twice a second: a repaint of the status bar per frame is
    // work a step does not need.
    if (!labelTimer_->isActive()) labelTimer_->start();
    if (traceFrames_) {
        // Then the ms from the request to the frame's arrival on the GUI thread, and from there
        // to the end of setFrame (the rest is the paint and the swap).
        // Then the bytes copied device → host by this process so far (0 on a GPU-resident path).
        // Last, for a frame drawn by GL: the ms from setFrame's end to the paint, of the paint
        // until the GPU has drawn it, and from there to the swap's end (the display's own
        // presentation of the window's pixels), then of the paint, the ms bringing the scene up
        // to date and issuing VTK's render; -1 where the raster path painted.
        const PaintTimes p = lastPaint();
        const bool gl = p.beganNs >= shownAt_ && p.drawnNs >= p.beganNs;
        const auto ms = [gl](qint64 from, qint64 to) { return gl ? (to - from) / 1e6 : -1.0; };
        std::fprintf(stderr, "strata-frame %lld %.3f %.3f %.3f %llu %.3f %.3f %.3f %.3f %.3f\n",
                     static_cast<long long>(now), lastFrameMs_, (readyAt_ - *presentPendingSince_) / 1e6,
                     (shownAt_ - readyAt_) / 1e6,
                     static_cast<unsigned long long>(transferCounters().deviceToHost),
                     ms(shownAt_, p.beganNs), ms(p.beganNs, p.drawnNs), ms(p.drawnNs, now),
                     ms(p.beganNs, p.preparedNs), ms(p.preparedNs, p.renderedNs));
        std::fflush(stderr);
    }
    presentPendingSince_.reset();
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
