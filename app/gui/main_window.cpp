#include "main_window.h"

#include <QAction>
#include <QActionGroup>
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
#include "message_bar.h"
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
#include "units_button.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent), service_(new FrameService(this)), opener_(new DatasetOpener(this)),
      stack_(new QStackedWidget(this)), image_(new ImageView(this)), line_(new LinePlotView(this)),
      message_(new QLabel(this)), dimBar_(new DimensionBar(this)), slices_(new SlicePanel(this)),
      colour_(new ColourPanel(this)), datasetPanel_(new DatasetPanel(this)), series_(new SeriesDock(this)) {
    adder_ = new DatasetOpener(this);
    timing_.trace = settings::traceFrames();
    setWindowTitle("Strata");
    setAcceptDrops(true);
    resize(1400, 900);
    setMinimumSize(720, 480); // below, the docks and the view overlap
    // Its messages shortened beside the permanent widgets, whole in their tooltip.
    setStatusBar(new MessageBar(this));

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
    connect(adder_, &DatasetOpener::opened, this,
            [this](const QStringList& paths, const std::optional<ViewSpec>&, const OpenOutcome& outcome) {
                onDatasetAdded(paths, outcome);
            });
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
                applyView(withIndex(view(), dim.toStdString(), index), dim.toStdString(), direction);
            });
    connect(colour_, &ColourPanel::changed, this, &MainWindow::onColourChanged);
    connect(colour_->unitsButton(), &UnitsButton::chosen, this, &MainWindow::setDisplayUnits);
    colour_->setShownRangeSource([this] { return shownColourRange(); });
    connect(datasetPanel_, &DatasetPanel::variableChosen, this, &MainWindow::showVariable);
    connect(dimBar_, &DimensionBar::anomalyRequested, this, &MainWindow::anomalyDialog);
    connect(datasetPanel_, &DatasetPanel::derivedEditRequested, this,
            [this](const QString& statement) { derivedDialog(statement); });
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
        next.window = s.window;         // the user zoomed, panned or reset: the view follows
        if (change(next)) followZoom(); // a HEALPix pyramid's zoom follows the pixels' size
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
    connect(series_, &SeriesDock::exportCsvRequested, this, &MainWindow::exportSeriesCsvDialog);
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
    connect(recentMenu_, &QMenu::aboutToShow, this, &MainWindow::rebuildRecentMenu); // files come and go
    file->addSeparator();
    file->addAction(tr("&Add Dataset…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O), this,
                    &MainWindow::addDatasetDialog);
    file->addAction(tr("Open &Grid File…"), this, &MainWindow::openGridFileDialog);
    file->addAction(tr("New &Derived Variable…"), QKeySequence(Qt::CTRL | Qt::Key_D), this,
                    [this] { derivedDialog(); });
    file->addSeparator();
    file->addAction(tr("Export &PNG…"), QKeySequence(Qt::CTRL | Qt::Key_E), this,
                    &MainWindow::exportPngDialog);
    file->addAction(tr("Export &CSV…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E), this,
                    &MainWindow::exportCsvDialog);
    file->addAction(tr("Export &Animation…"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_E), this,
                    &MainWindow::exportMovieDialog);
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
    // The level drawn changes with the zoom: the action tells the last one (and where it is from).
    connect(image_, &ImageView::presented, coast, [this, coast] { noteCoastlines(coast); });
    QAction* contours = view->addAction(tr("Con&tours"));
    contours->setObjectName("contoursAction");
    contours->setCheckable(true);
    contours->setToolTip(tr("Isolines of the frame, labelled, at about ten nice levels in the colour range "
                            "(View ▸ Contour Levels… chooses others)"));
    connect(contours, &QAction::toggled, this, &MainWindow::setContours);
    // View ▸ Contour Variable: the data variables with the shown one's dims, listed as it opens.
    QMenu* contourVar = view->addMenu(tr("Contour &Variable"));
    contourVar->setObjectName("contourVariableMenu");
    connect(contourVar, &QMenu::aboutToShow, this, [this, contourVar] {
        contourVar->clear();
        if (!ws_.dataset()) return;
        const Dataset& ds = *ws_.dataset();
        const DataArray shown = ws_.variable();
        const std::string current =
            this->view().contourVariable.empty() ? this->view().variable : this->view().contourVariable;
        for (const std::string& n : ds.dataVariables()) {
            const Variable* v = ds.findVariable(n);
            if (!v || v->dims() != shown.dims() || v->shape() != shown.shape()) continue;
            QAction* a = contourVar->addAction(q(n));
            a->setObjectName("contourVariable_" + q(n));
            a->setCheckable(true);
            a->setChecked(n == current);
            connect(a, &QAction::triggered, this, [this, n] { setContourVariable(q(n)); });
        }
    });
    QAction* filled = view->addAction(tr("&Filled Contours"));
    filled->setObjectName("filledContoursAction");
    filled->setCheckable(true);
    filled->setToolTip(tr("The colour map in bands at the contour levels, the colour bar too"));
    connect(filled, &QAction::toggled, this, &MainWindow::setFilledContours);
    QAction* levels = view->addAction(tr("Contour &Levels…"), this, &MainWindow::contourLevelsDialog);
    levels->setObjectName("contourLevelsAction");
    levels->setToolTip(tr("The isolines' levels (auto, a count, a list or a step), labels and dashes"));
    QMenu* vectors = view->addMenu(tr("&Vectors"));
    vectors->setObjectName("vectorsMenu");
    vectors->setToolTipsVisible(true);
    auto* vectorGroup = new QActionGroup(vectors);
    for (const auto& [style, label] :
         {std::pair{VectorStyle::None, tr("&None")}, std::pair{VectorStyle::Arrows, tr("&Arrows")},
          std::pair{VectorStyle::Barbs, tr("&Barbs (knots)")},
          std::pair{VectorStyle::Streamlines, tr("&Streamlines")},
          std::pair{VectorStyle::Particles, tr("&Particles")}}) {
        QAction* a = vectors->addAction(label);
        a->setObjectName("vectors_" + QString::fromStdString(toString(style)));
        a->setCheckable(true);
        a->setChecked(style == VectorStyle::None);
        a->setToolTip(tr("The dataset's wind (or other vector pair, by CF standard names) over the frame"));
        vectorGroup->addAction(a);
        connect(a, &QAction::triggered, this, [this, style] { setVectors(style); });
    }
    buildParticleMenu(vectors);
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
    // The device is found off this thread: on a GPU that is the CUDA driver's start (about
    // 200 ms), which the window's first paint does not wait for. The label follows.
    const ComputeInfo* decided = computeInfoIfDecided();
    if (!decided) {
        status_->setDevice(tr("Compute: …"), tr("Finding the compute device"));
        if (!deviceFinder_.joinable())
            deviceFinder_ = std::jthread([this] {
                (void)computeInfo();
                QMetaObject::invokeMethod(
                    this, [this] { updateDeviceLabel(); }, Qt::QueuedConnection);
            });
        return;
    }
    // Frames computed on the host while the GPU's driver started: the view on the screen is
    // asked for again, from the device (after this call: it may come from onFrameReady).
    if (service_->deviceDecided())
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (ws_.screen().view) requestFrame(view(), {}, 0);
            },
            Qt::QueuedConnection);
    const ComputeInfo& info = *decided;
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

// ---- errors

void MainWindow::showError(const QString& title, const QString& message, bool dialog) {
    lastError_ = message;
    if (verbose_) std::fprintf(stderr, "strata: %s: %s\n", qPrintable(title), qPrintable(message));
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
    if (movieCancel_) { // closed while a movie is written: it stops (and leaves no file), then this
        *movieCancel_ = true;
        QTimer::singleShot(0, this, &QWidget::close);
        e->ignore();
        return;
    }
    rememberView();
    saveLayout();
    QMainWindow::closeEvent(e);
}

} // namespace strata::app
