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
    return settings_.colouring(*ds, variable).value_or(Colouring{});
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
