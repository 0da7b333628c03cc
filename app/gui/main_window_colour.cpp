// The window's colour state: a colouring belongs to one variable of one file (a fixed range
// means nothing for another variable), remembered in the settings by file and variable, so that
// a variable shows its own colours again, and one never seen starts from the defaults.
#include "main_window.h"
#include "strata/render/colour_range.h"

namespace strata::app {

Colouring MainWindow::colouringFor(const std::string& variable) const {
    const auto& ds = ws_.dataset();
    if (!ds) return {};
    if (ds->path.empty() && ws_.memoryRange()) { // strata.show(..., vmin=, vmax=)
        Colouring c;
        c.range = *ws_.memoryRange();
        return c;
    }
    if (std::optional<Colouring> own = settings_.colouring(*ds, variable)) return *own;
    Colouring c;
    if (carried_ && carried_->variable == variable) { // what the user chose in the file before
        c.colormap = carried_->colouring.colormap;
        c.reversed = carried_->colouring.reversed;
        const Variable* v = ds->findVariable(variable);
        const std::string units = v ? v->attrs().text("units").value_or("") : std::string();
        if (carried_->colouring.range.mode == RangeMode::Fixed && !units.empty() && units == carried_->units)
            c.range = carried_->colouring.range; // a fixed range means the same only in the same units
    }
    return c;
}

MinMax MainWindow::shownColourRange() const {
    const OnScreen& s = ws_.screen();
    if (s.frame.ndim() == 0) return {0, 1};
    try {
        return frameColourRange(view().colouring.range, s.frame, s.variableRange, s.frameRange);
    } catch (const Error&) {
        return {0, 1};
    }
}

} // namespace strata::app
