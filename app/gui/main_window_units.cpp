// The window's display units: the variable shown in other units than it is stored in
// (computeFrame converts each frame on its device), with the colour range kept per units.
#include <QStatusBar>

#include "colour_panel.h"
#include "main_window.h"
#include "strata/core/units.h"
#include "units_button.h"

namespace strata::app {
namespace {
QString q(const std::string& s) { return QString::fromStdString(s); }
} // namespace

std::string MainWindow::shownUnits() const {
    if (!view().units.empty()) return view().units;
    return ws_.variable().attrs().text("units").value_or("");
}

void MainWindow::showUnits() {
    const std::string stored =
        ws_.dataset() ? ws_.variable().attrs().text("units").value_or("") : std::string();
    colour_->unitsButton()->show(stored, view().units);
}

void MainWindow::setDisplayUnits(const QString& units) {
    if (!ws_.dataset() || view().variable.empty()) return;
    const std::string stored = ws_.variable().attrs().text("units").value_or("");
    std::string to = units.trimmed().toStdString();
    if (to == stored) to.clear();
    if (to == view().units) return;
    UnitConversion c;
    if (!to.empty()) {
        try {
            c = unitConversion(stored, to);
        } catch (const Error& e) {
            showError(tr("Cannot show %1 in %2").arg(q(view().variable), q(to)), q(e.what()), true);
            showUnits(); // the button names the units still shown
            return;
        }
    }
    ViewSpec next = view();
    const std::string from = shownUnits();
    const std::string shown = to.empty() ? stored : to;
    rangesByUnits_[{next.file, next.variable, from}] = next.colouring.range;
    if (auto kept = rangesByUnits_.find({next.file, next.variable, shown}); kept != rangesByUnits_.end()) {
        next.colouring.range = kept->second;
    } else if (next.colouring.range.mode == RangeMode::Fixed) {
        ColourRange& r = next.colouring.range;
        if (const auto converted = rangeInUnits({r.fixedMin, r.fixedMax}, from, shown)) {
            r.fixedMin = converted->first;
            r.fixedMax = converted->second;
        }
    }
    next.units = to;
    applyView(next);
    if (!c.assumption.empty())
        statusBar()->showMessage(tr("%1 in %2: %3").arg(q(next.variable), q(to), q(c.assumption)), 10000);
}

} // namespace strata::app
