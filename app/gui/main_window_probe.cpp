// The window's probe: the value under the cursor in the status bar.
#include <QStatusBar>
#include <cmath>

#include "main_window.h"
#include "slice_panel.h"
#include "strata/io/geo.h"
#include "strata/render/frame_labels.h"
#include "strata/render/sphere_cells.h"
#include "value_text.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

void MainWindow::onHover(const Pick& pick) {
    const DataArray& shown_ = shownFrame();
    const DataArray& var_ = ws_.variable();
    const ViewSpec& spec_ = view();
    // A map of sphere cells (HEALPix): the cell's index along its dim, and its centre.
    const std::shared_ptr<const SphereCells> cells = cellsOf(shown_);
    if (!pick.inside || (shown_.ndim() != 2 && !cells)) {
        probeText_.clear();
        statusBar()->clearMessage();
        return;
    }
    QString value;
    try {
        const DataArray cell =
            cells
                ? shown_.isel({Indexer{shown_.dims()[0], pick.column}})
                : shown_.isel({Indexer{shown_.dims()[0], pick.row}, Indexer{shown_.dims()[1], pick.column}});
        // In the frame's units: the display units, or none for a count.
        value = ValueText::of(var_, cell)(cell.asHost().values<double>().at(0));
    } catch (const Error& e) {
        value = q(e.what());
    }
    // Where: the frame's two axes, latitude and longitude where the file gives them otherwise
    // (2-D coordinates, a grid mapping), and the value of every sliced dim.
    QStringList where;
    if (cells) {
        double lon = 0, lat = 0;
        cells->centre(pick.column, lon, lat);
        where << QString("%1 = %2").arg(q(shown_.dims()[0]), q(pick.xLabel))
              << tr("centre %1°%2, %3°%4")
                     .arg(std::fabs(lat), 0, 'f', 3)
                     .arg(lat < 0 ? "S" : "N")
                     .arg(std::fabs(lon), 0, 'f', 3)
                     .arg(lon < 0 ? "W" : "E");
    } else {
        where << QString("%1 = %2").arg(q(shown_.dims()[0]), q(pick.yLabel))
              << QString("%1 = %2").arg(q(shown_.dims()[1]), q(pick.xLabel));
    }
    if (ws_.dataset() && !cells) {
        const io::LatLonLocator& geo = ws_.latLon();
        if (const auto ll = geo.at(shown_, pick.row, pick.column))
            where << "lat = " + q(geo.latFormat(shown_).number(ll->lat))
                  << "lon = " + q(geo.lonFormat(shown_).number(ll->lon));
    }
    // On a map (View ▸ Projection): the cursor's own longitude and latitude (the projection's
    // inverse of the pixel), beside the cell's.
    if (!image_->settings().projection.empty() || cells) {
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

} // namespace strata::app
