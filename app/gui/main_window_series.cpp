// The Series dock's series: asked for through a clicked cell (computed on the frame service,
// fetched to the host there), plotted with the view's step marked, and written as CSV.
#include <QFileDialog>
#include <QFileInfo>

#include "export_names.h"
#include "export_view.h"
#include "main_window.h"
#include "series_dock.h"
#include "slice_panel.h"
#include "strata/io/csv.h"
#include "strata/render/frame_labels.h"
#include "value_text.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

void MainWindow::plotSeriesAt(std::int64_t row, std::int64_t column, const QString& dim) {
    if (!ws_.dataset() || shownFrame().ndim() != 2) return;
    const std::string along = (dim.isEmpty() ? series_->along() : dim).toStdString();
    if (along.empty()) return;
    series_->setCell(row, column);
    const ViewSpec& spec_ = view();
    ViewSpec s = spec_;
    s.xDim = along;
    s.yDim.clear();
    s.indices.clear();
    for (const auto& d : ws_.variable().dims()) {
        if (d == along || roleOf(spec_, d) == Role::Reduce) continue;
        const std::int64_t i = d == spec_.yDim ? row : d == spec_.xDim ? column : spec_.indexOf(d);
        s.indices.push_back({d, i});
    }
    ws_.awaitSeries(service_->requestSeries(atShownZoom(s))); // the cells of the zoom shown
    series_->show();
}

void MainWindow::onSeriesReady(const std::shared_ptr<const SeriesResult>& r) {
    if (!ws_.awaitsSeries(r->id)) return;
    const DataArray& var_ = ws_.variable();
    if (!r->error.isEmpty()) {
        showError(tr("Cannot plot the series"), r->error, false);
        return;
    }
    LineSeries s = r->line ? *r->line : lineSeries(r->series);
    QStringList at;
    for (const auto& [d, i] : r->spec.indices) at << QString("%1 = %2").arg(q(d), coordinateText(var_, d, i));
    s.title = variableTitle(r->series) + "  " + at.join(", ").toStdString();
    // The dock is short: the y axis says the name and units, the title the long name.
    const auto units = r->series.attrs().text("units"); // in the units shown
    s.yTitle = var_.name() + (units && !units->empty() ? " [" + *units + "]" : "");
    series_->plot(r->series, std::move(s), q(r->spec.xDim), ValueText::of(var_, r->series));
    series_->followView(view()); // the step shown, marked where the view slices the series' dim
    emit seriesShown();
}

bool MainWindow::exportSeriesCsv(const QString& wanted) {
    const DataArray& series = series_->series();
    if (!ws_.dataset() || series.ndim() != 1) {
        showError(tr("Export series CSV"), tr("nothing to export: no series is plotted"), false);
        return false;
    }
    const QString path = q(withExtension(wanted.toStdString(), "csv"));
    try {
        // The frame CSV's writer (values, missing ones and dates as it writes them), with units.
        const io::CsvResult r =
            io::writeCsv(series, path.toStdString(), inputsOf(*ws_.dataset()), io::CsvHeader::NamesWithUnits);
        showSaved(r.rows == 1 ? tr("Saved %1, 1 row").arg(QFileInfo(path).fileName())
                              : tr("Saved %1, %2 rows").arg(QFileInfo(path).fileName()).arg(r.rows),
                  path, r.bytesFromDevice);
        return true;
    } catch (const std::exception& e) {
        showError(tr("Export series CSV failed"), q(e.what()), true);
        return false;
    }
}

QString MainWindow::suggestedSeriesExportPath() const {
    const DataArray& series = series_->series();
    if (series.ndim() != 1) return inExportFolder("series.csv");
    return inExportFolder(q(exportBaseName(series, {})) + "_along-" + q(series.dims()[0]) + ".csv");
}

void MainWindow::exportSeriesCsvDialog() {
    if (series_->series().ndim() != 1) return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export series CSV"),
                                                      suggestedSeriesExportPath(), tr("CSV files (*.csv)"));
    if (path.isEmpty()) return;
    settings_.setExportFolder(QFileInfo(path).absolutePath());
    exportSeriesCsv(path);
}

} // namespace strata::app
