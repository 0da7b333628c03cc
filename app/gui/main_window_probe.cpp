// The window's probe: the value under the cursor in the status bar, and the series through a
// clicked cell in the Series dock (computed on the frame service, fetched to the host there).
#include <QComboBox>
#include <QDockWidget>
#include <QStatusBar>
#include <cmath>

#include "main_window.h"
#include "slice_panel.h"
#include "strata/core/format.h"
#include "strata/io/geo.h"
#include "strata/render/frame_labels.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

void MainWindow::onHover(const Pick& pick) {
    if (!pick.inside || shown_.ndim() != 2) {
        probeText_.clear();
        statusBar()->clearMessage();
        return;
    }
    QString value;
    try {
        const DataArray cell =
            shown_.isel({Indexer{shown_.dims()[0], pick.row}, Indexer{shown_.dims()[1], pick.column}});
        const double v = cell.asHost().values<double>().at(0);
        // A float32 value in the float's own shortest form, not its widened double's digits.
        const std::string number =
            cell.dtype() == DType::Float32 ? formatNumber(static_cast<float>(v)) : formatNumber(v);
        value = std::isnan(v) ? tr("missing") : q(number);
        if (auto units = var_.attrs().text("units")) value += " " + q(*units);
    } catch (const Error& e) {
        value = q(e.what());
    }
    // Where: the frame's two axes, latitude and longitude where the file gives them otherwise
    // (2-D coordinates, a grid mapping), and the value of every sliced dim.
    QStringList where;
    where << QString("%1 = %2").arg(q(shown_.dims()[0]), q(pick.yLabel))
          << QString("%1 = %2").arg(q(shown_.dims()[1]), q(pick.xLabel));
    if (ds_ && (!geo_ || !geo_->isFor(*ds_, var_))) geo_ = std::make_shared<io::LatLonLocator>(*ds_, var_);
    if (geo_)
        if (const auto ll = geo_->at(shown_, pick.row, pick.column))
            where << "lat = " + q(geo_->latFormat(shown_).number(ll->lat))
                  << "lon = " + q(geo_->lonFormat(shown_).number(ll->lon));
    // On a map (View ▸ Projection): the cursor's own longitude and latitude (the projection's
    // inverse of the pixel), beside the cell's.
    if (!image_->settings().projection.empty()) {
        const double lon = std::remainder(pick.x, 360.0);
        where << tr("cursor at %1°%2, %3°%4")
                     .arg(std::fabs(pick.y), 0, 'f', 2)
                     .arg(pick.y < 0 ? "S" : "N")
                     .arg(std::fabs(lon), 0, 'f', 2)
                     .arg(lon < 0 ? "W" : "E");
    }
    for (const auto& d : spec_.slicedDims(var_.dims())) {
        const Coordinate* c = shown_.coords().find(d); // the frame's own slice, when it has one
        const QString at = c && c->dims.empty() && c->values.size() == 1
                               ? q(c->labelWithUnits(0))
                               : coordinateText(var_, d, spec_.indexOf(d));
        where << QString("%1 = %2").arg(q(d), at);
    }
    probeText_ = QString("%1: %2 = %3").arg(where.join(", "), q(var_.name()), value);
    statusBar()->showMessage(probeText_);
}

void MainWindow::refreshSeriesDims() {
    // The dim the user chose stays while it is sliced; otherwise the first sliced dim.
    const QString keep = preferredSeriesDim_;
    seriesDim_->blockSignals(true);
    seriesDim_->clear();
    const auto sliced = spec_.slicedDims(var_.dims());
    for (const auto& d : sliced) seriesDim_->addItem(q(d));
    seriesDim_->addItem(q(spec_.xDim));
    if (!spec_.yDim.empty()) seriesDim_->addItem(q(spec_.yDim));
    const bool keepIt = std::find(sliced.begin(), sliced.end(), keep.toStdString()) != sliced.end();
    seriesDim_->setCurrentIndex(keepIt ? seriesDim_->findText(keep) : 0);
    seriesDim_->blockSignals(false);
}

void MainWindow::plotSeriesAt(std::int64_t row, std::int64_t column, const QString& dim) {
    if (!ds_ || shown_.ndim() != 2) return;
    const std::string along = (dim.isEmpty() ? seriesDim_->currentText() : dim).toStdString();
    if (along.empty()) return;
    seriesRow_ = row;
    seriesColumn_ = column;
    ViewSpec s = spec_;
    s.xDim = along;
    s.yDim.clear();
    s.indices.clear();
    for (const auto& d : var_.dims()) {
        if (d == along || roleOf(spec_, d) == Role::Reduce) continue;
        const std::int64_t i = d == spec_.yDim ? row : d == spec_.xDim ? column : spec_.indexOf(d);
        s.indices.push_back({d, i});
    }
    wantedSeries_ = service_->requestSeries(s);
    seriesDock_->show();
}

void MainWindow::onSeriesReady(const std::shared_ptr<const SeriesResult>& r) {
    if (r->id != wantedSeries_) return;
    if (!r->error.isEmpty()) {
        showError(tr("Cannot plot the series"), r->error, false);
        return;
    }
    series_ = r->series;
    LineSeries s = r->line ? *r->line : lineSeries(series_);
    QStringList at;
    for (const auto& [d, i] : r->spec.indices) at << QString("%1 = %2").arg(q(d), coordinateText(var_, d, i));
    s.title = variableTitle(series_) + "  " + at.join(", ").toStdString();
    // The dock is short: the y axis says the name and units, the title the long name.
    const auto units = var_.attrs().text("units");
    s.yTitle = var_.name() + (units && !units->empty() ? " [" + *units + "]" : "");
    seriesPlot_->setSeries(std::move(s));
    seriesDock_->setWindowTitle(tr("Series along %1").arg(q(r->spec.xDim)));
    emit seriesShown();
}

} // namespace strata::app
