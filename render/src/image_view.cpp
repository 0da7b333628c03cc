#include "strata/render/image_view.h"

#include <QApplication>
#include <QMouseEvent>
#include <QWheelEvent>
#include <cmath>
#include <vtkGenericOpenGLRenderWindow.h>

#include "image_scene.h"
#include "strata/core/error.h"
#include "strata/render/image_export.h"

namespace strata {

ImageView::ImageView(QWidget* parent) : VtkGlWidget(parent), scene_(std::make_unique<detail::ImageScene>()) {
    setMouseTracking(true);
    setMinimumSize(200, 150);
    scene_->attach(renderWindow());
}

ImageView::~ImageView() {
    releaseGl();
    scene_->detach();
}

void ImageView::setFrame(ImageFrame frame) {
    scene_->setFrame(std::move(frame));
    requestRender();
}

void ImageView::clearFrame() {
    scene_->clearFrame();
    requestRender();
}

void ImageView::setSettings(const ImageViewSettings& settings) {
    scene_->setSettings(settings);
    requestRender();
}

const ImageViewSettings& ImageView::settings() const { return scene_->settings(); }

void ImageView::resetView() { setWindow({}); }

FramePathInfo ImageView::framePath() const { return scene_->path(); }
MinMax ImageView::colourRange() const { return scene_->range(); }
int ImageView::annotationGroupsRebuilt() const { return scene_->annotationGroupsRebuilt(); }
bool ImageView::frameCopied() const { return scene_->frameCopied(); }
bool ImageView::colouredAhead() const { return scene_->colouredAhead(); }

void ImageView::prepareRender(int w, int h, double dpr) {
    try {
        scene_->prepare(w, h, dpr);
        lastError_.clear();
    } catch (const std::exception& e) { // one boundary: the draw fails, the app goes on
        lastError_ = QString::fromStdString(e.what());
        scene_->clearFrame();
        scene_->prepare(w, h, dpr);
        emit drawError(lastError_);
    }
    if (scene_->path().path != lastPath_) {
        lastPath_ = scene_->path().path;
        emit framePathChanged(scene_->path());
    }
}

void ImageView::releaseScene() { scene_->releaseGl(); }

QPointF ImageView::toPixels(QPointF p) const {
    const double dpr = devicePixelRatioF();
    return {p.x() * dpr, (height() - p.y()) * dpr};
}

Pick ImageView::pickAt(QPointF widgetPosition) const {
    QPointF px = toPixels(widgetPosition);
    return scene_->pick(px.x(), px.y());
}

QImage ImageView::renderImage(QSize pixels) const {
    ImageViewSettings s = scene_->settings();
    s.window = scene_->window();
    const double scale = width() > 0 ? static_cast<double>(pixels.width()) / width() : 1.0;
    const detail::ImageScene& sc = *scene_;
    STRATA_EXPECTS(sc.frame(), ValueError, "the image view has no frame to export");
    return strata::renderImage(*sc.frame(), s, pixels, scale);
}

void ImageView::setWindow(const ViewWindow& w) {
    ImageViewSettings s = scene_->settings();
    if (w == ViewWindow{})
        s.window.reset();
    else
        s.window = w;
    scene_->setSettings(s);
    requestRender();
    emit settingsChanged(s);
}

void ImageView::wheelEvent(QWheelEvent* e) {
    if (!scene_->hasFrame()) return;
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    const QPointF px = toPixels(e->position());
    const ViewTransform t(scene_->layout().plot, scene_->window());
    setWindow(zoomed(scene_->window(), std::pow(1.25, steps), t.dataX(px.x()), t.dataY(px.y())));
    e->accept();
}

void ImageView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) {
        dragging_ = true;
        dragFrom_ = pressedAt_ = e->position();
    }
}

void ImageView::mouseMoveEvent(QMouseEvent* e) {
    if (dragging_ && scene_->hasFrame()) {
        const QPointF a = toPixels(dragFrom_), b = toPixels(e->position());
        const ViewTransform t(scene_->layout().plot, scene_->window());
        const double dx = t.dataX(a.x()) - t.dataX(b.x()), dy = t.dataY(a.y()) - t.dataY(b.y());
        dragFrom_ = e->position();
        setWindow(panned(scene_->window(), dx, dy));
    }
    emit cellHovered(pickAt(e->position()));
}

void ImageView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    dragging_ = false;
    if ((e->position() - pressedAt_).manhattanLength() < QApplication::startDragDistance())
        emit cellClicked(pickAt(e->position()));
}

void ImageView::mouseDoubleClickEvent(QMouseEvent*) { resetView(); }

} // namespace strata
