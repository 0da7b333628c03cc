// View ▸ Projection: longitude/latitude frames shown on a map (strata/render/projection.h),
// resampled on the frame's device, with a labelled graticule and the coastlines projected.
#include <QActionGroup>
#include <QMenu>
#include <QStatusBar>

#include "main_window.h"
#include "strata/render/coastline_status.h"
#include "strata/render/projection.h"

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
    connect(menu, &QMenu::aboutToShow, this, [this, menu] {
        const bool lonLat = shown_.ndim() == 2 && isLonLatFrame(shown_);
        for (QAction* a : menu->actions())
            if (!a->data().toString().isEmpty()) a->setEnabled(lonLat);
    });
}

void MainWindow::setProjection(const QString& name) {
    std::string canonical;
    if (!name.isEmpty()) {
        try {
            canonical = Projection::byName(name.toStdString()).name();
        } catch (const Error& e) {
            statusBar()->showMessage(QString::fromStdString(e.what()), 10000);
            return;
        }
    }
    ImageViewSettings s = image_->settings();
    if (s.projection == canonical) return;
    s.projection = canonical;
    s.window.reset(); // a zoom in degrees means nothing in map metres, and back
    image_->setSettings(s);
    image_->resetView();
    const QString id =
        "projection_" + (canonical.empty() ? QStringLiteral("none") : QString::fromStdString(canonical));
    if (auto* a = findChild<QAction*>(id); a && !a->isChecked()) a->setChecked(true);
    if (!canonical.empty() && shown_.ndim() == 2 && !isLonLatFrame(shown_))
        statusBar()->showMessage(
            tr("%1 applies to longitude/latitude frames only").arg(QString::fromStdString(canonical)), 10000);
}

} // namespace strata::app
