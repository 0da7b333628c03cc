// The window's side of residency: where the shown variable's data is (status bar, with Cancel
// while it loads), where every variable is (the dataset panel's Where column), and the budget
// (Settings ▸ Memory Budget…, kept in the settings; STRATA_RESIDENT_BUDGET when set wins), which
// the status bar follows at once.
#include <QInputDialog>
#include <QStatusBar>

#include "dataset_panel.h"
#include "main_window.h"
#include "status_panel.h"
#include "strata/core/memory_budget.h"
#include "strata/core/runtime.h"
#include "strata/core/settings.h"

namespace strata::app {
namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

std::size_t availableFor(Device d) { return d.isHost() ? hostAvailableMemory() : deviceFreeMemory(d); }

} // namespace

void MainWindow::buildResidency() {
    // Applied when the budget is decided (the first load): the device is not asked here.
    service_->setSavedBudget(settings_.residentBudget().toStdString());
}

void MainWindow::onResidencyChanged(const QString& variable) {
    const ResidencyStatus s = service_->residency(variable.toStdString());
    datasetPanel_->setResidency(variable, s.state == Residence::None ? QString() : q(s.describe()),
                                q(s.reason));
    // A HEALPix pyramid's variable loads as the zoom asked for.
    if (variable.toStdString() != view().variable &&
        (askedZoom_ < 0 || variable.toStdString() != askedLevel_))
        return;
    showTask(); // a frame waiting for this load says how far it is
    status_->setResidency(tr("Data: %1").arg(q(s.describe())),
                          s.reason.empty() ? tr("Budget %1").arg(q(formatBytes(service_->residentBudget())))
                                           : q(s.reason),
                          s.state == Residence::Loading);
    if (s.state == Residence::Resident) updateDeviceLabel(); // the memory Strata holds changed
}

void MainWindow::chooseResidentBudget() {
    const Device device = computeDevice();
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Memory budget"),
        tr("Memory for variables kept whole on %1 (%2 free now):\n"
           "a size such as 8G or 512M, or a share of the free memory such as 60%")
            .arg(q(device.isHost() ? std::string("the host") : device.toString()),
                 q(formatBytes(availableFor(device)))),
        QLineEdit::Normal,
        settings_.residentBudget().isEmpty() ? QStringLiteral("60%") : settings_.residentBudget(), &ok);
    if (!ok) return;
    const auto bytes = parseResidentBudget(text.trimmed().toStdString(), availableFor(device));
    if (!bytes) {
        showError(tr("Memory budget"), tr("'%1' is neither a size (8G, 512M) nor a share (60%)").arg(text),
                  true);
        return;
    }
    settings_.setResidentBudget(text.trimmed());
    service_->setResidentBudget(*bytes);
    statusBar()->showMessage(tr("Memory budget: %1").arg(q(formatBytes(*bytes))), 4000);
    if (!ws_.screen().view) return;
    // The shown variable's word follows the new budget, and its frame is computed again: a
    // variable streamed for want of room loads now if it fits.
    onResidencyChanged(q(view().variable));
    requestFrame(view(), {}, 0);
}

} // namespace strata::app
