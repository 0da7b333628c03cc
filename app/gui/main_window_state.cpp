// What the window shows when what it looks at changes: the series dock forgets a series of
// another file or variable, and a scalar variable (no dims) is shown as its value, with the
// colour panel disabled.
#include <QLabel>
#include <QStackedWidget>

#include "colour_panel.h"
#include "dataset_panel.h"
#include "dimension_bar.h"
#include "main_window.h"
#include "series_dock.h"
#include "slice_panel.h"
#include "status_panel.h"
#include "strata/core/format.h"
#include "value_text.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

} // namespace

void MainWindow::clearSeries() {
    ws_.awaitSeries(0); // a series on its way is dropped
    series_->clear();
}

void MainWindow::showScalar(const QString& variablePath, const DataArray& var) {
    QString value;
    try {
        const double v = var.load(Device::host(), Stream::host()).values<double>().at(0);
        value = ValueText::of(var, var)(v);
    } catch (const Error& e) {
        showError(tr("Cannot show %1").arg(variablePath), q(e.what()), false);
        return;
    }
    QString text = QString("<p style='font-size:large'><b>%1</b> = %2</p>")
                       .arg(q(var.name()).toHtmlEscaped(), value.toHtmlEscaped());
    if (auto longName = var.attrs().text("long_name"); longName && !longName->empty())
        text += "<p>" + q(*longName).toHtmlEscaped() + "</p>";
    text += "<p>" + tr("a scalar (%1, no dims)").arg(q(std::string(name(var.dtype())))) + "</p>";
    // The view of the variable shown before stays the window's view (Undo goes back to it);
    // no frame of it is on the screen, nor on its way.
    ws_.awaitFrame(0);
    endTask();
    ws_.clearScreen();
    clearSeries();
    dimBar_->clear();
    slices_->clear();
    status_->clearShown(); // no data of it to load, no frame drawn
    colour_->setEnabled(false);
    colour_->setToolTip(tr("%1 is a scalar: one value, no colours to choose").arg(q(var.name())));
    datasetPanel_->setCurrent(variablePath);
    message_->setText(text);
    stack_->setCurrentWidget(message_);
}

} // namespace strata::app
