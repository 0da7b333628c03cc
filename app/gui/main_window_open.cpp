// Opening: File ▸ Open, a drop, the command line or a recent entry (through the DatasetOpener,
// off the GUI thread), then the first view of the dataset (the command line's, the file's last
// one, or its first variable's default view), and showing another variable of it. Files that
// do not form one dataset are offered as the groups of them that do (FileGroupDialog).
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QStackedWidget>
#include <QStatusBar>
#include <cstdio>
#include <utility>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "file_group_dialog.h"
#include "main_window.h"
#include "series_dock.h"
#include "slice_panel.h"
#include "status_panel.h"
#include "strata/core/startup_trace.h"
#include "strata/io/multifile.h"

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

// Its name in a dialog's title: the file's or the directory's ("data" for "/x/data/"), the
// glob's, or the file set's label.
QString openName(const QStringList& paths) { return QFileInfo(QDir::cleanPath(openLabel(paths))).fileName(); }

} // namespace

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
    startup::mark(startup::Milestone::OpenBegun);
    opener_->open(paths, std::move(initial));
    status_->setOpening(true);
    statusBar()->showMessage(tr("Opening %1…").arg(openLabel(paths)));
}

void MainWindow::cancelOpen() {
    const bool adding = adder_->cancel(); // Add Dataset…'s too, and the view that waited on it
    adding_.clear();
    pendingView_.reset();
    if (!opener_->cancel() && !adding) return;
    status_->setOpening(false);
    statusBar()->showMessage(tr("Opening cancelled"), 5000);
}

void MainWindow::onOpened(const QStringList& paths, const std::optional<ViewSpec>& wanted,
                          const OpenOutcome& outcome) {
    startup::mark(startup::Milestone::OpenDelivered);
    finishOpen(); // the last file's, were its frame still on its way
    status_->setOpening(false);
    const QString path = openLabel(paths);
    if (!outcome.error.isEmpty()) {
        if (outcome.grouping.groups.size() > 1)
            offerGroups(openName(paths), outcome);
        else
            showError(tr("Cannot open %1").arg(openName(paths)), outcome.error, true);
        emit openFailed(outcome.error);
        return;
    }
    rememberView();
    carried_.reset();
    if (ws_.dataset() && !view().variable.empty()) // its colour map may carry to a namesake
        carried_ = Carried{view().variable, shownUnits(), view().colouring}; // its range is in these
    clearSeries(); // the last file's series means nothing here
    std::shared_ptr<const Dataset> opened = outcome.dataset;
    std::vector<std::string> statements = initialDerived_; // the command line's --derive, once
    if (wanted)
        statements.insert(statements.end(), wanted->derived.begin(), wanted->derived.end()); // a saved view's
    if (!statements.empty()) {
        auto withDerived = std::make_shared<Dataset>(*opened);
        try {
            for (const std::string& statement : statements) derive(*withDerived, statement, others_);
            opened = std::move(withDerived);
        } catch (const Error& e) {
            showError(tr("Cannot derive a variable"), q(e.what()), true);
        }
        initialDerived_.clear();
    }
    ws_.setDataset(opened);
    const Dataset& ds = *ws_.dataset();
    service_->setDataset(ws_.dataset());
    datasetPanel_->setDataset(ws_.dataset());
    startup::mark(startup::Milestone::PanelFilled);
    openEnd_ = OpenEnd{
        QString("%1 — Strata").arg(ds.files.empty() ? QFileInfo(path).fileName() : q(fileSetLabel(ds.files))),
        paths, QFileInfo(q(ds.path)).absolutePath()};
    std::vector<std::string> told = outcome.notes.warnings;
    told.insert(told.end(), outcome.notes.lines.begin(), outcome.notes.lines.end());
    if (!told.empty())
        statusBar()->showMessage(q(spliced(told)), 10000);
    else
        statusBar()->showMessage(tr("Opened %1").arg(path), 4000);

    frameAsked_ = false;
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
    bool have = initial && fitViewTo(*initial, ds, fitted, gridFile_.get());
    if (!have) {
        const std::optional<ViewSpec> last = settings_.lastView(ds);
        if (last && !last->derived.empty()) {
            try { // its derived variables, where the datasets they read are open
                addDerivedQuietly(last->derived);
            } catch (const Error&) {
                // one reads a dataset not open now: the last view does not fit, the default shows
            }
        }
        have = last && fitViewTo(*last, *ws_.dataset(), fitted, gridFile_.get());
        keepProjection(fitted);
    }
    if (have) {
        datasetPanel_->setCurrent(q(fitted.variable));
        applyView(fitted);
    } else if (const std::string first = defaultVariable(*ws_.dataset()); !first.empty()) {
        showVariable(q(first));
    } else {
        showNothing(tr("%1 has no numeric variable to show.").arg(path));
    }
    carried_.reset();    // offered to the file's first view only
    ws_.forgetHistory(); // the first view of a file is not a change to undo
    updateUndoActions();
    if (!frameAsked_) finishOpen(); // no frame on its way: a scalar, nothing to show, an error
    emit datasetOpened(path);
}

void MainWindow::finishOpen() {
    if (!openEnd_) return;
    const OpenEnd end = *std::exchange(openEnd_, std::nullopt);
    setWindowTitle(end.title);
    settings_.addRecent(end.paths);
    rebuildRecentMenu();
    settings_.setLastFolder(end.folder);
}

void MainWindow::offerGroups(const QString& name, const OpenOutcome& outcome) {
    lastError_ = outcome.error;
    statusBar()->showMessage(outcome.error.section('\n', 0, 0), 15000);
    if (errorBox_) errorBox_->close();
    if (auto* shown = findChild<FileGroupDialog*>()) shown->close();
    auto* dialog = new FileGroupDialog(name, outcome.grouping, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &FileGroupDialog::groupChosen, this,
            [this](const QStringList& files) { openFiles(files); });
    dialog->open(); // window-modal, and the event loop goes on
}

void MainWindow::showNothing(const QString& message) {
    stack_->setCurrentWidget(message_);
    message_->setText(message);
    dimBar_->clear();
    slices_->clear();
    ws_.clearView(); // nothing of the previous file's view stays
    endTask();
    status_->clearShown();             // nor its data, nor its frame's time
    statusBar()->showMessage(message); // what the window says, not the last file's message
    colour_->setEnabled(false);
    colour_->setToolTip(tr("Nothing is drawn: no colours to choose"));
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
        const bool have = last && last->variable == path && fitViewTo(*last, ds, spec, gridFile_.get());
        if (!have) {
            const ViewSpec& now = view();
            spec = defaultView(groupOf(ds, path), var.name(), gridFile_.get());
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

} // namespace strata::app
