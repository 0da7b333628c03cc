// A Dataset held in memory (from Python's strata.show), shown as a file is: its variables in
// the dataset panel, the variable asked for with its default view. A newer Dataset of the same
// shape keeps the view (roles, indices, colours); nothing of it is remembered in the settings.
#include "dataset_panel.h"
#include "main_window.h"

namespace strata::app {

void MainWindow::showDataset(std::shared_ptr<const Dataset> ds, const QString& title, const QString& variable,
                             std::optional<ColourRange> range) {
    const ViewSpec before = view();
    lastError_.clear(); // the data shown before failed, perhaps; these are asked for anew
    const bool update = ws_.dataset() && ws_.dataset()->path.empty() && !before.variable.empty();
    clearSeries();
    ws_.setDataset(std::move(ds), update);
    ws_.setMemoryRange(range); // colouringFor gives it to each variable shown
    const Dataset& shown = *ws_.dataset();
    service_->setDataset(ws_.dataset());
    datasetPanel_->setDataset(ws_.dataset());
    setWindowTitle(QString("%1 — Strata").arg(title));
    const std::string wanted = !variable.isEmpty() ? variable.toStdString()
                               : update            ? before.variable
                                                   : defaultVariable(shown);
    ViewSpec fitted;
    if (update && wanted == before.variable && fitViewTo(before, shown, fitted, gridFile_.get())) {
        datasetPanel_->setCurrent(QString::fromStdString(fitted.variable));
        if (range) fitted.colouring.range = *range;
        applyView(fitted);
    } else if (!wanted.empty()) {
        datasetPanel_->setCurrent(QString::fromStdString(wanted));
        showVariable(QString::fromStdString(wanted));
    } else {
        showNothing(tr("%1 has no numeric variable to show.").arg(title));
    }
    ws_.forgetHistory();
    updateUndoActions();
    emit datasetOpened(title);
}

} // namespace strata::app
