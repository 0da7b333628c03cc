// The window's side of a HEALPix pyramid (healpix_pyramid.h, pyramid_view.h): a variable of the
// pyramid is asked for at the zoom whose cells fit the image view's pixels, and asked again when
// zooming, panning or resizing changes that zoom; the zoom no longer drawn leaves the device.
// Exports and series follow the zoom on the screen.
#include "main_window.h"

namespace strata::app {
namespace {

// The plot's pixels (device pixels), or the view's whole size before its first paint.
std::pair<int, int> plotPixels(const ImageView& image) {
    const PixelRect& plot = image.layout().plot;
    if (plot.width() >= 1 && plot.height() >= 1) return {int(plot.width()), int(plot.height())};
    const qreal r = image.devicePixelRatioF();
    return {std::max(1, int(image.width() * r)), std::max(1, int(image.height() * r))};
}

} // namespace

const healpix::Pyramid* MainWindow::pyramid() const {
    const std::shared_ptr<const Dataset>& ds = ws_.dataset();
    if (pyramidFor_.lock() != ds) {
        pyramidFor_ = ds;
        pyramid_ = ds ? pyramidOfDataset(*ds) : std::nullopt;
    }
    return pyramid_ ? &*pyramid_ : nullptr;
}

ZoomedView MainWindow::atZoom(const ViewSpec& spec) {
    const auto [width, height] = plotPixels(*image_);
    ZoomedView z = atPyramidZoom(pyramid(), spec, width, height, shownZoom_);
    askedZoom_ = z.zoom;
    if (z.zoom < 0) return z;
    // Only the zoom drawn stays on the device: the one asked for before goes.
    if (!askedLevel_.empty() && askedLevel_ != z.spec.variable) service_->release(askedLevel_);
    askedLevel_ = z.spec.variable;
    return z;
}

ViewSpec MainWindow::atShownZoom(const ViewSpec& spec) const {
    const healpix::Pyramid* p = pyramid();
    if (!p || shownZoom_ < 0 || !p->has(spec.variable) || !p->level(shownZoom_)) return spec;
    ViewSpec s = spec;
    s.variable = p->pathOf(spec.variable, *p->level(shownZoom_));
    return s;
}

void MainWindow::followZoom() {
    if (askedZoom_ < 0 || !ws_.dataset()) return;
    const auto [width, height] = plotPixels(*image_);
    const ZoomedView z = atPyramidZoom(pyramid(), view(), width, height, shownZoom_);
    if (z.zoom >= 0 && z.zoom != askedZoom_) requestFrame(view(), {}, 0);
}

} // namespace strata::app
