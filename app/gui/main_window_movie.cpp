// File ▸ Export Animation…: the view as a movie along one of its sliced dims (exportMovie in
// export_view.h, each frame as Export PNG draws it). The dialog asks for the dim, the steps, the
// rate and the size; the status bar shows the frames written with a bar and Cancel (Esc too),
// and the window answers between frames.
#include <QComboBox>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStatusBar>
#include <algorithm>

#include "form_rows.h"
#include "main_window.h"
#include "movie_writer.h"
#include "slice_panel.h"
#include "strata/render/sphere_cells.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

// The dialog's fields: steps counted from 1 and both ends shown, as the sliders count them.
bool askMovie(QWidget* parent, const DataArray& var, const std::vector<std::string>& sliced,
              MainWindow::MovieChoice& c) {
    QDialog dialog(parent);
    dialog.setWindowTitle(QObject::tr("Export Animation"));
    auto* dim = new QComboBox(&dialog);
    dim->setObjectName("movieDim");
    for (const std::string& d : sliced) dim->addItem(q(d));
    dim->setCurrentText(c.dim);
    auto* first = new QSpinBox(&dialog);
    auto* last = new QSpinBox(&dialog);
    auto* every = new QSpinBox(&dialog);
    first->setObjectName("movieFirst");
    last->setObjectName("movieLast");
    every->setObjectName("movieEvery");
    auto steps = [&] {
        const int n = int(var.sizeOf(dim->currentText().toStdString()));
        first->setRange(1, n);
        last->setRange(1, n);
        every->setRange(1, std::max(1, n));
        first->setValue(1);
        last->setValue(n);
        every->setValue(1);
    };
    steps();
    QObject::connect(dim, &QComboBox::currentTextChanged, &dialog, steps);
    auto* fps = new QDoubleSpinBox(&dialog);
    fps->setObjectName("movieFps");
    fps->setRange(0.1, 120);
    fps->setDecimals(1);
    fps->setValue(c.fps);
    fps->setSuffix(QObject::tr(" frames/s"));
    auto* form = new QFormLayout(&dialog);
    form->addRow(QObject::tr("Animate"), dim);
    form->addRow(QObject::tr("From step"), first);
    form->addRow(QObject::tr("To step"), last);
    form->addRow(QObject::tr("Every"), every);
    form->addRow(QObject::tr("Rate"), fps);
    const SizeRows size = addSizeRows(form, c.size, 16);
    addOkCancel(form, &dialog);
    if (dialog.exec() != QDialog::Accepted) return false;
    c.dim = dim->currentText();
    c.start = std::min(first->value(), last->value()) - 1;
    c.stop = std::max(first->value(), last->value());
    c.step = every->value();
    c.fps = fps->value();
    c.size = size.size();
    return true;
}

} // namespace

MainWindow::MovieChoice MainWindow::defaultMovieChoice() const {
    MovieChoice c;
    c.size = image_->size();
    // A map or a section; a line only where it is a map of sphere cells (HEALPix).
    const bool cellMap = cells_ && view().xDim == cells_->dim();
    if (!ws_.dataset() || view().variable.empty() || (view().yDim.empty() && !cellMap)) return c;
    const std::vector<std::string> sliced = view().slicedDims(ws_.variable().dims());
    const std::string active = slices_->activeDim().toStdString();
    if (std::find(sliced.begin(), sliced.end(), active) != sliced.end())
        c.dim = q(active);
    else if (!sliced.empty())
        c.dim = q(sliced.front());
    return c;
}

void MainWindow::exportMovieDialog() {
    if (!ws_.dataset() || movieCancel_) return;
    MovieChoice c = defaultMovieChoice();
    if (c.dim.isEmpty()) {
        showError(tr("Export Animation"),
                  tr("Nothing to animate: the view has no dim to step through (a movie steps a dim "
                     "that is neither on X nor on Y, nor reduced)."),
                  true);
        return;
    }
    QString path =
        QFileDialog::getSaveFileName(this, tr("Export Animation"), suggestedExportPath("mp4"),
                                     tr("MP4 movies (*.mp4);;WebM movies (*.webm);;GIF animations (*.gif)"));
    if (path.isEmpty()) return;
    try {
        (void)movieFormatOf(path.toStdString());
    } catch (const ValueError&) {
        path += ".mp4"; // no movie's name: MP4, the format every player reads
    }
    if (!askMovie(this, ws_.variable(), view().slicedDims(ws_.variable().dims()), c)) return;
    settings_.setExportFolder(QFileInfo(path).absolutePath());
    exportMovie(path, c);
}

void MainWindow::cancelMovie() {
    if (movieCancel_) *movieCancel_ = true;
}

bool MainWindow::exportMovie(const QString& path, const MovieChoice& choice) {
    if (movieCancel_) {
        statusBar()->showMessage(tr("A movie is being written: one at a time"), 5000);
        return false;
    }
    try {
        const MovieResult r = writeMovie(path, choice);
        showSaved(tr("Saved %1, %2 frames, %3 × %4, %5%6")
                      .arg(QFileInfo(path).fileName())
                      .arg(r.frames)
                      .arg(r.width)
                      .arg(r.height)
                      .arg(q(r.encoder), r.encoderNote.empty() ? QString() : " (" + q(r.encoderNote) + ")"),
                  path, r.bytesFromDevice);
        return true;
    } catch (const CancelledError&) {
        statusBar()->showMessage(tr("Export Animation cancelled: no file was written"), 8000);
    } catch (const std::exception& e) {
        statusBar()->clearMessage();
        showError(tr("Export Animation failed"), q(e.what()), true);
    }
    return false;
}

MovieResult MainWindow::writeMovie(const QString& path, const MovieChoice& choice) {
    STRATA_EXPECTS(!movieCancel_, ValueError, "a movie is being written: one at a time");
    const std::shared_ptr<const Dataset> ds = ws_.dataset(); // held: the window may open another
    STRATA_EXPECTS(ds && shownFrame().ndim() > 0, ValueError,
                   "Export Animation " + path.toStdString() + ": nothing to export, no frame is shown");
    const ViewSpec shown = view(); // the view as it is now, whatever the window does meanwhile
    const QSize size = choice.size.isEmpty() ? image_->size() : choice.size;
    bool cancel = false;
    movieCancel_ = &cancel;
    auto* bar = new QProgressBar(this);
    bar->setObjectName("movieProgress");
    bar->setMaximum(0); // busy until the first frame is written
    bar->setFormat(tr("frame %v / %m"));
    bar->setTextVisible(true);
    auto* stop = new QPushButton(tr("Cancel"), this);
    stop->setObjectName("movieCancel");
    stop->setToolTip(tr("Stop writing the movie (Esc): no file is left"));
    statusBar()->addPermanentWidget(bar);
    statusBar()->addPermanentWidget(stop);
    connect(stop, &QPushButton::clicked, this, &MainWindow::cancelMovie);
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(esc, &QShortcut::activated, this, &MainWindow::cancelMovie);
    statusBar()->showMessage(tr("Writing %1…").arg(QFileInfo(path).fileName()));
    auto cleanUp = [&] {
        movieCancel_ = nullptr;
        delete esc;
        statusBar()->removeWidget(bar);
        statusBar()->removeWidget(stop);
        bar->deleteLater();
        stop->deleteLater();
    };
    QCoreApplication::processEvents(); // the bar on the screen before the first frame
    MovieExport movie{path.toStdString(),
                      choice.dim.toStdString(),
                      choice.start,
                      choice.stop,
                      choice.step,
                      choice.fps,
                      [&](int done, int total) {
                          bar->setMaximum(total);
                          bar->setValue(done);
                          emit movieFrameWritten(done, total);
                          QCoreApplication::processEvents(); // the window answers; Cancel is read here
                          return !cancel;
                      }};
    try {
        const MovieResult r = strata::app::exportMovie(*ds, shown, movie, viewExportOptions(size));
        cleanUp();
        return r;
    } catch (...) {
        cleanUp();
        throw;
    }
}

} // namespace strata::app
