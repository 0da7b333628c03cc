// View ▸ Projection: longitude/latitude frames shown on a map (strata/render/projection.h),
// resampled on the frame's device, with a labelled graticule and the coastlines projected.
#include <QActionGroup>
#include <QMenu>
#include <QStatusBar>

#include "main_window.h"
#include "strata/core/cell_areas.h"
#include "strata/render/coastline_status.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/projection.h"
#include "strata/render/sphere_cells.h"
#include "view_roles.h"

namespace strata::app {

void MainWindow::addProjectionMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("&Projection"));
    menu->setObjectName("projectionMenu");
    auto* group = new QActionGroup(menu);
    group->setExclusive(true);
    auto add = [&](const QString& label, const QString& name) {
        QAction* a = menu->addAction(label);
        a->setObjectName("projection_" + (name.isEmpty() ? QStringLiteral("none") : name));
        a->setCheckable(true);
        a->setData(name);
        a->setChecked(QString::fromStdString(image_->settings().projection) == name);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, name] { setProjection(name); });
    };
    add(tr("&None (longitude, latitude)"), QString());
    menu->addSeparator();
    for (const std::string& n : Projection::knownNames())
        add(QString::fromStdString(n), QString::fromStdString(n));
    // Only frames whose x/y are CF longitude/latitude can be projected: the choices are offered
    // for those alone (checked again each time the menu opens).
    // A greyed-out choice says why on hover.
    menu->setToolTipsVisible(true);
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        const DataArray& shown = shownFrame();
        const bool lonLat = (shown.ndim() == 2 || cellsOf(shown)) && projectable(shown);
        QString why;
        if (!lonLat)
            why = shown.ndim() != 2
                      ? tr("No map is shown")
                      : tr("Projections apply to frames whose x is longitude and y latitude, a "
                           "grid mapping's x and y, or a curvilinear grid's cells (View > Grid)");
        for (QAction* a : menu->actions())
            if (!a->data().toString().isEmpty()) {
                a->setEnabled(lonLat);
                a->setToolTip(lonLat ? QString() : why);
                a->setStatusTip(lonLat ? QString() : why);
            }
    });
}

namespace {

// The projection's own spelling of `name` ("" for none); throws for a name it does not know.
std::string canonicalProjection(const std::string& name) {
    return name.empty() ? std::string() : Projection::byName(name).name();
}

} // namespace

void MainWindow::setGridFile(std::shared_ptr<const Dataset> grid) {
    gridFile_ = grid;
    ws_.setGridFile(grid);
    service_->setGridFile(std::move(grid)); // the cells are found with it from the next frame
}

std::shared_ptr<const SphereCells> MainWindow::cellsOf(const DataArray& frame) const {
    return cells_ && isAlong(frame, *cells_) ? cells_ : nullptr;
}

bool MainWindow::onCells(const ViewSpec& v) const {
    if (!ws_.dataset()) return false;
    try {
        return !cellAreaDim(groupOf(*ws_.dataset(), v.variable), ws_.variable(), gridFile_.get()).empty();
    } catch (const Error&) { // a grid that cannot be: said where the frame is drawn
        return false;
    }
}

bool MainWindow::projectable(const DataArray& frame) {
    if (cellsOf(frame)) return true;
    if (isLonLatFrame(frame) || (ws_.dataset() && ws_.latLon().crs(frame))) return true;
    if (image_->settings().grid != GridSpace::LonLat) return false;
    try { // a curvilinear grid drawn as its cells
        return curvilinearGrid(frame).has_value();
    } catch (const Error&) {
        return false;
    }
}

void MainWindow::setProjection(const QString& name) {
    std::string canonical;
    try {
        canonical = canonicalProjection(name.toStdString());
    } catch (const Error& e) {
        statusBar()->showMessage(QString::fromStdString(e.what()), 10000);
        return;
    }
    if (view().projection == canonical) return; // showProjection keeps the image's equal to it
    ViewSpec next = view();
    next.projection = canonical;
    next.window.reset(); // a zoom in degrees means nothing in map metres, and back
    if (!ws_.dataset() || next.variable.empty()) {
        ws_.setProjection(canonical); // no view yet: the next one is shown in it
        showProjection();
        emit viewChanged();
    } else if (!change(next)) {
        return;
    }
    const DataArray& shown = shownFrame();
    if (!canonical.empty() && (shown.ndim() == 2 || cellsOf(shown)) && !projectable(shown))
        statusBar()->showMessage(tr("%1 applies to longitude/latitude frames and grid mappings only")
                                     .arg(QString::fromStdString(canonical)),
                                 10000);
}

void MainWindow::keepProjection(ViewSpec& spec) const {
    if (spec.projection == view().projection) return;
    spec.projection = view().projection;
    spec.window.reset();
}

void MainWindow::canonicaliseProjection(ViewSpec& spec) {
    try {
        spec.projection = canonicalProjection(spec.projection);
    } catch (const Error& e) { // a saved view naming a projection this build does not know
        statusBar()->showMessage(QString::fromStdString(e.what()), 10000);
        spec.projection.clear();
    }
}

void MainWindow::showProjection() {
    // Every view change comes here (each step): nothing to do while the image shows the view's.
    const std::string& projection = view().projection;
    if (image_->settings().projection == projection) return;
    const QString id =
        "projection_" + (projection.empty() ? QStringLiteral("none") : QString::fromStdString(projection));
    if (auto* a = findChild<QAction*>(id); a && !a->isChecked()) a->setChecked(true);
    ImageViewSettings s = image_->settings();
    s.projection = projection;
    s.window = view().window; // in the projection's own coordinates
    image_->setSettings(s);
}

} // namespace strata::app
