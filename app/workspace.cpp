#include "workspace.h"

#include "view_roles.h"

namespace strata::app {

void Workspace::setDataset(std::shared_ptr<const Dataset> ds, bool keepView) {
    ds_ = std::move(ds);
    screen_ = {};
    wantedFrame_ = wantedSeries_ = 0;
    if (keepView) return;
    var_ = DataArray();
    std::string projection = std::move(view_.projection);
    view_ = ViewSpec();
    view_.projection = std::move(projection);
    history_.clear();
}

ViewChange Workspace::apply(ViewSpec next, bool record) {
    STRATA_EXPECTS(ds_ != nullptr, ValueError, "no dataset is open to show '" + next.variable + "'");
    next.file = ds_->path;
    next.files = ds_->files;
    DataArray var = variableOf(*ds_, next.variable);
    validateView(*ds_, var, next, grid_.get());
    ViewChange c;
    c.before = view_;
    const ViewSpec& b = view_;
    c.variable = next.variable != b.variable || next.file != b.file || next.files != b.files;
    c.roles = c.variable || next.xDim != b.xDim || next.yDim != b.yDim || next.reductions != b.reductions ||
              next.areaWeighted != b.areaWeighted;
    c.frame = !(keyOf(next) == keyOf(b));
    c.colouring = next.colouring != b.colouring;
    c.window = next.window != b.window;
    c.projection = next.projection != b.projection;
    var_ = std::move(var);
    view_ = std::move(next);
    if (record) history_.record(c.before, view_);
    return c;
}

void Workspace::clearView() {
    var_ = DataArray();
    std::string projection = std::move(view_.projection);
    view_ = ViewSpec();
    view_.projection = std::move(projection);
    screen_ = {};
    wantedFrame_ = 0;
}

std::optional<ViewSpec> Workspace::undo() {
    ViewSpec back;
    if (!ds_ || !history_.undo(view_, back)) return std::nullopt;
    return back;
}

std::optional<ViewSpec> Workspace::redo() {
    ViewSpec again;
    if (!ds_ || !history_.redo(view_, again)) return std::nullopt;
    return again;
}

const io::LatLonLocator& Workspace::latLon() {
    STRATA_EXPECTS(ds_ != nullptr, ValueError, "no dataset is open");
    if (!latLon_ || !latLon_->isFor(*ds_, var_)) latLon_ = std::make_shared<io::LatLonLocator>(*ds_, var_);
    return *latLon_;
}

std::string Workspace::undoText() const {
    const ViewSpec* last = history_.last();
    return last ? describeChange(*last, view_) : std::string();
}

std::string Workspace::redoText() const {
    const ViewSpec* next = history_.next();
    return next ? describeChange(view_, *next) : std::string();
}

bool Workspace::undoReturnsTo(const ViewSpec& view) const {
    const ViewSpec* last = history_.last();
    return last && *last == view;
}

} // namespace strata::app
