#include <vtkGenericOpenGLRenderWindow.h>

#include "line_plot_scene.h"
#include "strata/render/line_plot.h"

namespace strata {

LinePlotView::LinePlotView(QWidget* parent)
    : VtkGlWidget(parent), scene_(std::make_unique<detail::LinePlotScene>()) {
    setMinimumSize(200, 150);
    scene_->attach(renderWindow());
}

LinePlotView::~LinePlotView() {
    releaseGl();
    scene_->detach();
}

void LinePlotView::setSeries(LineSeries series) {
    scene_->setSeries(std::move(series));
    requestRender();
}

const LineSeries& LinePlotView::series() const { return scene_->series(); }

void LinePlotView::prepareRender(int, int, double dpr) { scene_->prepare(dpr); }

} // namespace strata
