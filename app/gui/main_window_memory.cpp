// A Dataset held in memory (from Python's strata.show), shown as a file is: its variables in
// the dataset panel, the variable asked for with its default view. A newer Dataset of the same
// shape keeps the view (roles, indices, colours); nothing of it is remembered in the settings.
#include <QLabel>
#include <QStackedWidget>

#include "dataset_panel.h"
#include "dimension_bar.h"
#include "main_window.h"
#include "slice_panel.h"

namespace strata::app {

void MainWindow::showDataset(std::shared_ptr<const Dataset> ds, const QString& title, const QString& variable,
                             std::optional<ColourRange> range) {
    const ViewSpec before = spec_;
    if (range) memoryRange_ = range; // colouringFor gives it to each variable shown
    const bool update = ds_ && ds_->path.empty() && !before.variable.empty();
    clearSeries();
    shownSpec_.reset();
    ds_ = std::move(ds);
    service_->setDataset(ds_);
    datasetPanel_->setDataset(ds_);
    setWindowTitle(QString("%1 — Strata").arg(title));
    const std::string wanted = !variable.isEmpty() ? variable.toStdString()
                               : update            ? before.variable
                                                   : defaultVariable(*ds_);
    ViewSpec fitted;
    if (update && wanted == before.variable && fitViewTo(before, *ds_, fitted)) {
        datasetPanel_->setCurrent(QString::fromStdString(fitted.variable));
        var_ = variableOf(*ds_, fitted.variable);
        if (range) fitted.colouring.range = *range;
        applyView(fitted);
    } else if (!wanted.empty()) {
        datasetPanel_->setCurrent(QString::fromStdString(wanted));
        showVariable(QString::fromStdString(wanted));
    } else {
        stack_->setCurrentWidget(message_);
        message_->setText(tr("%1 has no numeric variable to show.").arg(title));
        dimBar_->clear();
        slices_->clear();
        spec_ = ViewSpec();
        var_ = DataArray();
        shown_ = DataArray();
    }
    history_.clear();
    updateUndoActions();
    emit datasetOpened(title);
}

} // namespace strata::app
