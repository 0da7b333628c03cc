// The grid space of a curvilinear frame (2-D longitude/latitude): its cells drawn where their
// longitude/latitude say, or as rows and columns (View ▸ Grid; --grid).
#include <QActionGroup>
#include <QMenu>

#include "main_window.h"
#include "strata/render/image_view.h"

namespace strata::app {

void MainWindow::buildGridMenu(QMenu* view) {
    QMenu* grid = view->addMenu(tr("&Grid"));
    auto* group = new QActionGroup(grid);
    auto add = [&](const QString& text, const char* name, GridSpace space) {
        QAction* a = grid->addAction(text);
        a->setObjectName(name);
        a->setCheckable(true);
        a->setChecked(image_->settings().grid == space);
        group->addAction(a);
        connect(a, &QAction::triggered, this, [this, space] { setGridSpace(space); });
    };
    add(tr("&Longitude/latitude"), "gridLonLatAction", GridSpace::LonLat);
    add(tr("&Index space"), "gridIndexAction", GridSpace::Index);
}

void MainWindow::setGridSpace(GridSpace space) {
    if (auto* a = findChild<QAction*>(space == GridSpace::LonLat ? "gridLonLatAction" : "gridIndexAction"))
        a->setChecked(true);
    if (image_->settings().grid == space) return;
    ImageViewSettings s = image_->settings();
    const bool zoomed = s.window.has_value();
    s.grid = space;
    image_->setSettings(s);
    if (zoomed) image_->resetView(); // a zoom is in the other space's coordinates: the whole frame
}

GridSpace MainWindow::gridSpace() const { return image_->settings().grid; }

} // namespace strata::app
