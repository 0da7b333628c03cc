// Other datasets beside the open one: File ▸ Add Dataset… (Ctrl+Shift+O), the command line's
// --with, and those a saved view reads. Derived variables read their variables by alias
// (b.tas); the dataset panel lists them under their aliases. Each opens off the GUI thread,
// one at a time, through a DatasetOpener of its own.
#include <QFileDialog>
#include <QFileInfo>
#include <QStatusBar>
#include <algorithm>

#include "dataset_panel.h"
#include "main_window.h"
#include "status_panel.h"
#include "strata/io/multifile.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// The paths a dataset was opened from: its files (a set), else its path.
std::vector<std::string> pathsOf(const Dataset& ds) {
    return ds.files.empty() ? std::vector<std::string>{ds.path} : ds.files;
}

QString label(const QStringList& paths) {
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    return paths.size() == 1 ? QFileInfo(paths[0]).fileName() : q(fileSetLabel(files));
}

} // namespace

bool MainWindow::samePaths(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const std::string& x, const std::string& y) {
        return QFileInfo(q(x)) == QFileInfo(q(y));
    });
}

void MainWindow::setInitialDerived(std::vector<std::string> statements, std::vector<DatasetAlias> others) {
    initialDerived_ = std::move(statements);
    others_ = std::move(others);
    datasetPanel_->setOthers(others_);
}

void MainWindow::addDatasetDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Add a dataset (its variables read as b.NAME in derived variables)"), settings_.lastFolder(),
        tr("netCDF files (*.nc *.nc4 *.cdf *.h5 *.netcdf);;All files (*)"));
    if (!paths.isEmpty()) addDatasets(paths);
}

void MainWindow::openGridFileDialog() {
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open the grid file of a mesh (MPAS, ICON, UGRID, SCRIP)"), settings_.lastFolder(),
        tr("netCDF files (*.nc *.nc4 *.cdf *.h5 *.netcdf);;All files (*)"));
    if (path.isEmpty()) return;
    try { // the metadata only: the mesh is read when a variable on it is shown
        OpenNotes notes;
        setGridFile(std::make_shared<const Dataset>(io::openPaths({path.toStdString()}, notes)));
    } catch (const Error& e) {
        showError(tr("Cannot open %1").arg(QFileInfo(path).fileName()), q(e.what()), true);
        return;
    }
    statusBar()->showMessage(tr("Meshes are read from %1 too").arg(QFileInfo(path).fileName()), 8000);
    if (ws_.dataset() && !view().variable.empty()) // the variable's view again, on the mesh found
        applyView(
            defaultView(groupOf(*ws_.dataset(), view().variable), ws_.variable().name(), gridFile_.get()));
}

void MainWindow::addDatasets(const QStringList& paths, const QString& alias) {
    if (paths.isEmpty()) return;
    QString as = alias;
    for (char c = 'b'; as.isEmpty() && c <= 'z'; ++c) { // the first alias neither open nor coming
        const QString candidate(QChar::fromLatin1(c));
        const bool taken = std::any_of(others_.begin(), others_.end(),
                                       [&](const DatasetAlias& o) { return q(o.alias) == candidate; }) ||
                           std::any_of(adding_.begin(), adding_.end(),
                                       [&](const Adding& a) { return a.alias == candidate; });
        if (!taken) as = candidate;
    }
    if (as.isEmpty()) {
        showError(tr("Cannot add %1").arg(label(paths)),
                  tr("Every alias from b to z is taken by a dataset open beside this one."), true);
        return;
    }
    adding_.push_back({as, paths});
    if (adding_.size() == 1) addNextDataset();
}

void MainWindow::addNextDataset() {
    if (adding_.empty()) return;
    adder_->open(adding_.front().paths, std::nullopt);
    status_->setOpening(true);
    statusBar()->showMessage(tr("Adding %1 as %2…").arg(label(adding_.front().paths), adding_.front().alias));
}

void MainWindow::onDatasetAdded(const QStringList& paths, const OpenOutcome& outcome) {
    status_->setOpening(opener_->opening());
    if (adding_.empty() || adding_.front().paths != paths) return; // not the one asked for
    const Adding added = adding_.front();
    adding_.erase(adding_.begin());
    if (!outcome.error.isEmpty()) {
        adding_.clear(); // a view waiting for it cannot be shown: the rest need not open
        pendingView_.reset();
        showError(tr("Cannot add %1").arg(label(paths)), outcome.error, true);
        emit openFailed(outcome.error);
        return;
    }
    const std::string alias = added.alias.toStdString();
    auto same =
        std::find_if(others_.begin(), others_.end(), [&](const DatasetAlias& o) { return o.alias == alias; });
    const bool replaced = same != others_.end();
    if (replaced)
        same->dataset = outcome.dataset;
    else
        others_.push_back({alias, outcome.dataset});
    datasetPanel_->setOthers(others_);
    if (replaced && ws_.dataset() && !derivedStatementsOf(*ws_.dataset()).empty()) {
        // Derived variables read the alias: made again over the dataset now behind it.
        try {
            auto next = std::make_shared<Dataset>(*ws_.dataset());
            for (const std::string& s : derivedStatementsOf(*next)) derive(*next, s, others_);
            std::shared_ptr<const Dataset> ds = std::move(next);
            ws_.setDataset(ds, true);
            service_->updateDataset(ds);
            datasetPanel_->setDataset(ds);
            applyView(view());
        } catch (const Error& e) {
            showError(tr("Derived variables no longer fit"), q(e.what()), true);
        }
    }
    statusBar()->showMessage(
        tr("Added %1 as %2: derived variables read its variables as %2.NAME").arg(label(paths), added.alias),
        8000);
    emit datasetAdded(added.alias);
    if (!adding_.empty()) {
        addNextDataset();
    } else if (pendingView_) { // a loaded view's other datasets are open: now the view
        const ViewSpec v = *pendingView_;
        pendingView_.reset();
        try {
            showLoadedView(v);
        } catch (const Error& e) {
            showError(tr("Load view failed"), q(e.what()), true);
        }
    }
}

std::vector<ViewSpec::Other> MainWindow::missingOthers(const ViewSpec& v) const {
    std::vector<ViewSpec::Other> out;
    for (const ViewSpec::Other& o : v.with) {
        auto it = std::find_if(others_.begin(), others_.end(),
                               [&](const DatasetAlias& a) { return a.alias == o.alias; });
        if (it == others_.end() || !samePaths(pathsOf(*it->dataset), o.paths)) out.push_back(o);
    }
    return out;
}

std::vector<ViewSpec::Other> MainWindow::othersOfView() const {
    std::vector<ViewSpec::Other> out;
    for (const DatasetAlias& o : others_) out.push_back({o.alias, pathsOf(*o.dataset)});
    return out;
}

} // namespace strata::app
