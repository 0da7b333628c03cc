// The window's files: exports (PNG and CSV through the explicit copy-to-host path, written
// atomically, never over the input) and saved views.
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QSpinBox>
#include <QStatusBar>
#include <cstdio>

#include "export_names.h"
#include "export_view.h"
#include "form_rows.h"
#include "main_window.h"
#include "strata/core/atomic_file.h"
#include "strata/core/memory_budget.h"
#include "strata/io/multifile.h"
#include "view_json.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// Asks for a pixel size, starting from `size`; false when cancelled.
bool askSize(QWidget* parent, QSize& size) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("PNG size"));
    auto* form = new QFormLayout(&dialog);
    const SizeRows rows = addSizeRows(form, size, 64);
    addOkCancel(form, &dialog);
    if (dialog.exec() != QDialog::Accepted) return false;
    size = rows.size();
    return true;
}

// exportView's options in the window: the size asked for, and what the View menu shows beside
// the view (coastlines, the grid's space); with -v, the details on stderr as the command line's.
ExportOptions exportOptions(const ImageViewSettings& shown, QSize pixels, bool verbose) {
    ExportOptions o;
    o.width = pixels.width();
    o.height = pixels.height();
    o.coastlines = shown.coastlines;
    o.contours = shown.contours;
    o.filledContours = shown.filledContours;
    o.fillLevels = shown.fillLevels;
    o.particleDensity = shown.particleDensity;
    o.particleSpeed = shown.particleSpeed;
    o.lonLatGrid = shown.grid == GridSpace::LonLat;
    o.verbose = verbose;
    if (verbose) o.tell = [](const std::string& line) { std::fprintf(stderr, "strata: %s\n", line.c_str()); };
    return o;
}

} // namespace

ExportOptions MainWindow::viewExportOptions(QSize pixels) const {
    ExportOptions options = exportOptions(image_->settings(), pixels, verbose_);
    options.vectors = view().vectors; // the pair the window draws, computed again for the file
    options.vectorU = view().vectorU;
    options.vectorV = view().vectorV;
    return options;
}

DataArray MainWindow::frameOnScreen() const {
    const OnScreen& s = ws_.screen();
    // A colour, zoom or projection changed since: the same frame, seen otherwise.
    return s.view && keyOf(*s.view) == keyOf(view()) ? s.frame : DataArray();
}

bool MainWindow::exportPng(const QString& wanted, QSize pixels) {
    const auto& ds = ws_.dataset();
    const DataArray& shown = shownFrame();
    if (!ds || shown.ndim() == 0) {
        showError(tr("Export PNG"), tr("nothing to export: no frame is shown"), false);
        return false;
    }
    const QString path = q(withExtension(wanted.toStdString(), "png"));
    try {
        ExportOptions options = viewExportOptions(pixels);
        options.frame = frameOnScreen(); // not computed again when it is the view's
        const ExportResult r =
            exportView(*ds, atShownZoom(view()), {ExportFormat::Png, path.toStdString()}, options);
        settings_.setExportSize(pixels);
        showSaved(
            tr("Saved %1, %2 × %3").arg(QFileInfo(path).fileName()).arg(pixels.width()).arg(pixels.height()),
            path, r.bytesFromDevice);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Export PNG failed"), q(e.what()), true);
        return false;
    }
}

bool MainWindow::exportCsv(const QString& wanted) {
    const auto& ds = ws_.dataset();
    const DataArray& shown = shownFrame();
    if (!ds || shown.ndim() == 0) {
        showError(tr("Export CSV"), tr("nothing to export: no frame is shown"), false);
        return false;
    }
    const QString path = q(withExtension(wanted.toStdString(), "csv"));
    try {
        ExportOptions options = viewExportOptions(settings_.exportSize());
        options.frame = frameOnScreen(); // not computed again when it is the view's
        const ExportResult r =
            exportView(*ds, atShownZoom(view()), {ExportFormat::Csv, path.toStdString()}, options);
        showSaved(r.rows == 1 ? tr("Saved %1, 1 row").arg(QFileInfo(path).fileName())
                              : tr("Saved %1, %2 rows").arg(QFileInfo(path).fileName()).arg(r.rows),
                  path, r.bytesFromDevice);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Export CSV failed"), q(e.what()), true);
        return false;
    }
}

void MainWindow::showSaved(const QString& message, const QString& path, std::uint64_t bytesFromDevice) {
    // The copy off the device is a detail: the tooltip says it, and -v adds it to the message.
    const QString detail = tr("%1: %2 copied device→host").arg(path, q(formatBytes(bytesFromDevice)));
    statusBar()->setToolTip(detail);
    statusBar()->showMessage(verbose_ ? message + " (" + detail + ")" : message, 10000);
    if (verbose_) std::fprintf(stderr, "strata: %s\n", qPrintable(detail));
}

bool MainWindow::saveView(const QString& chosen) {
    // A name without an extension gets ".json", as the dialog's filter says.
    const QString path = QFileInfo(chosen).suffix().isEmpty() ? chosen + ".json" : chosen;
    try {
        const auto& ds = ws_.dataset();
        AtomicFile file(path.toStdString(), ds ? inputsOf(*ds) : std::vector<std::string>{});
        QFile out(q(file.tempPath()));
        ViewSpec saved = view();
        if (ds) saved.derived = derivedStatementsOf(*ds);        // the view's variable may be one of them
        if (gridFile_) saved.gridFile = gridFile_->path;         // where its mesh is
        if (!saved.derived.empty()) saved.with = othersOfView(); // and the datasets they read
        saved.contours = image_->settings().contours;            // the window keeps them in the image view
        saved.contourLabels = contourChoice_.labels;
        saved.contourDashes = contourChoice_.dashNegative;
        saved.contourColour = contourChoice_.colour;
        saved.contourWidth = contourChoice_.width;
        saved.filledContours = image_->settings().filledContours;
        if (saved.filledContours && !saved.contours) saved.fillLevels = image_->settings().fillLevels;
        if (!out.open(QIODevice::WriteOnly) || out.write(toJsonText(saved)) < 0)
            throw IoError("cannot write " + path.toStdString() + ": " + out.errorString().toStdString());
        out.close();
        file.commit();
        statusBar()->showMessage(tr("Saved the view to %1").arg(path), 5000);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Save view failed"), q(e.what()), true);
        return false;
    }
}

bool MainWindow::loadView(const QString& path) {
    QFile in(path);
    if (!in.open(QIODevice::ReadOnly)) {
        showError(tr("Load view failed"), tr("cannot read %1: %2").arg(path, in.errorString()), true);
        return false;
    }
    try {
        ViewSpec v = viewFromJsonText(in.readAll());
        // Paths relative to the view's own folder: its file, a file set's files, the others'.
        const auto resolved = [&](const std::string& f) {
            return QFileInfo(q(f)).isRelative() ? QFileInfo(path).dir().filePath(q(f)).toStdString() : f;
        };
        if (!v.file.empty()) v.file = resolved(v.file);
        if (!v.gridFile.empty()) v.gridFile = resolved(v.gridFile);
        for (auto& f : v.files) f = resolved(f);
        for (auto& other : v.with)
            for (auto& f : other.paths) f = resolved(f);
        // The contours go to the image view's settings, not into the window's view.
        const std::optional<ContourSpec> contours = v.contours;
        const ContourChoice choice{contours.value_or(contourChoice_.levels), v.contourLabels, v.contourDashes,
                                   v.contourColour, v.contourWidth};
        const std::optional<ContourSpec> fill = v.fillLevels; // the levels chosen without lines
        v.contours.reset();
        v.fillLevels.reset();
        v.contourLabels = true;
        v.contourDashes = false;
        v.contourColour = ViewSpec().contourColour;
        v.contourWidth = 1;
        const bool filled = v.filledContours; // the image view's too
        v.filledContours = false;
        if (!showLoadedView(v)) return false;
        if (contours) {
            setContourChoice(choice);
        } else {
            if (fill) contourChoice_.levels = *fill;
            setContours(false);
        }
        setFilledContours(filled);
        return true;
    } catch (const Error& e) {
        showError(tr("Load view failed"), tr("%1: %2").arg(path, q(e.what())), true);
        return false;
    }
}

bool MainWindow::showLoadedView(const ViewSpec& saved) {
    ViewSpec v = saved;
    if (!v.gridFile.empty()) { // its mesh's grid file first: the file opens onto it
        if (!gridFile_ || QFileInfo(q(gridFile_->path)) != QFileInfo(q(v.gridFile))) {
            OpenNotes notes;
            setGridFile(std::make_shared<const Dataset>(io::openPaths({v.gridFile}, notes)));
        }
        v.gridFile.clear();
    }
    if (const auto missing = missingOthers(v); !missing.empty()) { // its other datasets first
        pendingView_ = v;
        for (const auto& other : missing) {
            QStringList paths;
            for (const auto& p : other.paths) paths << q(p);
            addDatasets(paths, q(other.alias));
        }
        return true;
    }
    const auto& ds = ws_.dataset();
    if (!v.files.empty()) { // a file set
        const bool sameSet = ds && samePaths(ds->files, v.files);
        if (!sameSet) {
            QStringList files;
            for (const auto& f : v.files) files << q(f);
            openFiles(files, v);
            return true;
        }
    }
    const bool sameFile = ds && !v.file.empty() && QFileInfo(q(v.file)) == QFileInfo(q(ds->path));
    if (!v.file.empty() && !sameFile && v.files.empty()) {
        openFile(q(v.file), v); // shown when the file is open
        return true;
    }
    if (!ds) throw ValueError("the view names no file and none is open");
    if (!v.derived.empty()) addDerivedQuietly(v.derived);
    ViewSpec fitted;
    if (!fitViewTo(v, *ws_.dataset(), fitted, gridFile_.get()))
        throw ValueError("the view does not fit " + ds->path + ": no variable '" + v.variable +
                         "' with dim '" + v.xDim + "'");
    applyView(fitted);
    return true;
}

QString MainWindow::suggestedExportPath(const QString& extension) const {
    return inExportFolder(q(exportBaseName(shownFrame(), view().reductions)) + "." + extension);
}

QString MainWindow::inExportFolder(const QString& name) const {
    const QString folder = settings_.exportFolder();
    return folder.isEmpty() ? name : QDir(folder).filePath(name);
}

void MainWindow::exportPngDialog() {
    if (!ws_.dataset()) return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export PNG"), suggestedExportPath("png"),
                                                      tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    QSize size = settings_.exportSize();
    if (!askSize(this, size)) return;
    settings_.setExportFolder(QFileInfo(path).absolutePath());
    exportPng(path, size);
}

void MainWindow::exportCsvDialog() {
    if (!ws_.dataset()) return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), suggestedExportPath("csv"),
                                                      tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    settings_.setExportFolder(QFileInfo(path).absolutePath());
    exportCsv(path);
}

// Views are saved and loaded in a folder of their own (the last one used; at first the
// user's documents), not beside the data.
void MainWindow::saveViewDialog() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Save view"), settings_.viewFolder(),
                                                      tr("Strata views (*.json)"));
    if (path.isEmpty()) return;
    settings_.setViewFolder(QFileInfo(path).absolutePath());
    saveView(path);
}

void MainWindow::loadViewDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load view"), settings_.viewFolder(),
                                                      tr("Strata views (*.json)"));
    if (path.isEmpty()) return;
    settings_.setViewFolder(QFileInfo(path).absolutePath());
    loadView(path);
}

} // namespace strata::app
