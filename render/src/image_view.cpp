#include "strata/render/image_view.h"

#include <QApplication>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <QWindow>
#include <cmath>
#include <utility>

#include "annotation_plan.h"
#include "raster_scene.h"
#include "strata/core/error.h"
#include "strata/core/startup_trace.h"
#include "strata/render/image_export.h"
#include "strata/render/vtk_views.h"

namespace strata {

ImageView::ImageView(QWidget* parent)
    : QWidget(parent), raster_(std::make_unique<detail::RasterScene>()), clickTimer_(new QTimer(this)),
      particleTimer_(new QTimer(this)) {
    setMouseTracking(true);
    clickTimer_->setSingleShot(true);
    connect(clickTimer_, &QTimer::timeout, this, [this] { emit cellClicked(pendingClick_); });
    particleTimer_->setInterval(16); // about the display's rate
    particleTimer_->setTimerType(Qt::PreciseTimer);
    connect(particleTimer_, &QTimer::timeout, this, &ImageView::particleTick);
    setMinimumSize(200, 150);
    setAttribute(Qt::WA_OpaquePaintEvent); // the raster paint covers every pixel
}

ImageView::~ImageView() = default;

void ImageView::setPresentation(ImagePresentation p) { presentation_ = p; }

void ImageView::prepareGl() {
    if (surface_ || !glUnavailable_.isEmpty()) return;
    try { // from here on setSettings keeps both alike
        ViewHooks hooks;
        hooks.prepared = [this](const std::exception* e) { glPrepared(e); };
        hooks.presented = [this] { emit presented(); };
        surface_ = vtkViews().makeImageSurface(this, std::move(hooks));
        surface_->setSettings(raster_->content().settings());
        surface_->widget()->setMouseTracking(true);
        surface_->widget()->setGeometry(rect());
        surface_->widget()->setVisible(false);
        surface_->glWindow()->create(); // its native window, ready before it is shown
    } catch (const std::exception& e) { // no GL views: the raster engine paints every frame
        surface_.reset();
        glUnavailable_ = QString::fromStdString(e.what());
        lastError_ = glUnavailable_;
        emit drawError(glUnavailable_);
    }
}

void ImageView::useGl(bool gl) {
    if (gl) prepareGl();
    gl = gl && surface_;
    if (gl == gl_) return;
    gl_ = gl;
    // The other scene lets its frame go: a view holds one frame.
    if (gl)
        raster_->clearFrame();
    else
        surface_->clearFrame();
    surface_->widget()->setVisible(gl);
}

void ImageView::glPrepared(const std::exception* e) {
    if (e)
        drawFailed(*e);
    else
        lastError_.clear();
    notePath();
}

void ImageView::setFrame(ImageFrame frame) {
    useGl(presentation_ == ImagePresentation::Gl || !frame.frame.device().isHost());
    if (gl_)
        surface_->setFrame(std::move(frame));
    else
        raster_->setFrame(std::move(frame));
    requestRender();
    updateParticleClock();
}

void ImageView::clearFrame() {
    raster_->clearFrame();
    if (surface_) surface_->clearFrame();
    requestRender();
    updateParticleClock();
}

void ImageView::setSettings(const ImageViewSettings& settings) {
    ImageViewSettings s = settings;
    s.particleTime = particleTime_;
    raster_->setSettings(s); // throws for an unknown map before anything changes
    if (surface_) surface_->setSettings(s);
    requestRender();
    updateParticleClock();
}

void ImageView::setParticlesPaused(bool paused) {
    particlesPaused_ = paused;
    updateParticleClock();
}

bool ImageView::particlesMoving() const { return particleTimer_->isActive(); }

void ImageView::updateParticleClock() {
    const bool run = !particlesPaused_ && isVisible() && content().hasFrame() &&
                     content().settings().vectors == VectorStyle::Particles;
    if (run && !particleTimer_->isActive())
        particleTimer_->start();
    else if (!run)
        particleTimer_->stop();
}

void ImageView::particleTick() {
    ++particleTime_;
    setSettings(settings()); // with the new time
}

void ImageView::showEvent(QShowEvent*) { updateParticleClock(); }
void ImageView::hideEvent(QHideEvent*) { updateParticleClock(); }

const detail::ImageContent& ImageView::content() const {
    return gl_ ? surface_->content() : raster_->content();
}
const ViewLayout& ImageView::layout() const { return gl_ ? surface_->layout() : raster_->layout(); }
ViewWindow ImageView::window() const { return content().window(); }
const ImageViewSettings& ImageView::settings() const { return content().settings(); }

void ImageView::resetView() { setWindow({}); }

FramePathInfo ImageView::framePath() const { return gl_ ? surface_->path() : raster_->path(); }
MinMax ImageView::colourRange() const { return gl_ ? surface_->range() : raster_->range(); }
QString ImageView::coastlinesDrawn() const {
    return QString::fromStdString(content().coastDrawn().description);
}
QString ImageView::coastlinesProblem() const { return QString::fromStdString(content().coastProblem()); }
int ImageView::annotationGroupsRebuilt() const { return gl_ ? surface_->annotationGroupsRebuilt() : -1; }
int ImageView::annotationLabelsDrawn() const { return gl_ ? surface_->annotationLabelsDrawn() : -1; }
bool ImageView::frameCopied() const { return gl_ ? surface_->frameCopied() : raster_->frameCopied(); }
bool ImageView::colouredAhead() const { return gl_ ? surface_->colouredAhead() : raster_->colouredAhead(); }
QWindow* ImageView::glWindow() const { return gl_ ? surface_->glWindow() : nullptr; }
bool ImageView::clickPending() const { return clickTimer_->isActive(); }

void ImageView::requestRender() {
    if (gl_)
        surface_->requestRender();
    else
        update();
}

void ImageView::drawFailed(const std::exception& e) {
    lastError_ = QString::fromStdString(e.what());
    emit drawError(lastError_);
}

void ImageView::notePath() {
    const FramePathInfo p = framePath();
    if (p.path != lastPath_) {
        lastPath_ = p.path;
        emit framePathChanged(p);
    }
}

void ImageView::paintEvent(QPaintEvent*) {
    if (gl_) return; // the GL window covers the view
    const double dpr = devicePixelRatioF();
    const int w = static_cast<int>(std::lround(width() * dpr)),
              h = static_cast<int>(std::lround(height() * dpr));
    QPainter painter(this);
    painter.scale(1 / dpr, 1 / dpr); // the scene paints in device pixels
    try {
        raster_->paint(painter, w, h, dpr);
        lastError_.clear();
    } catch (const std::exception& e) { // one boundary: the draw fails, the app goes on
        raster_->clearFrame();
        raster_->paint(painter, w, h, dpr);
        drawFailed(e);
    }
    notePath();
    if (raster_->content().hasFrame()) startup::mark(startup::Milestone::Painted);
    // The window's backing store is flushed to the screen when this paint returns: say so
    // after it.
    QMetaObject::invokeMethod(this, &ImageView::presented, Qt::QueuedConnection);
}

void ImageView::resizeEvent(QResizeEvent*) {
    if (surface_) surface_->widget()->setGeometry(rect());
}

QImage ImageView::grabImage() {
    if (gl_) return surface_->grabFramebuffer();
    const double dpr = devicePixelRatioF();
    QImage shot = raster_->image(static_cast<int>(std::lround(width() * dpr)),
                                 static_cast<int>(std::lround(height() * dpr)), dpr);
    shot.setDevicePixelRatio(dpr);
    return shot;
}

QPointF ImageView::toPixels(QPointF p) const {
    const double dpr = devicePixelRatioF();
    return {p.x() * dpr, (height() - p.y()) * dpr};
}

Pick ImageView::pickAt(QPointF widgetPosition) const {
    QPointF px = toPixels(widgetPosition);
    return gl_ ? surface_->pick(px.x(), px.y()) : raster_->pick(px.x(), px.y());
}

QImage ImageView::renderImage(QSize pixels) const {
    STRATA_EXPECTS(content().hasFrame(), ValueError, "the image view has no frame to export");
    const double scale = width() > 0 ? static_cast<double>(pixels.width()) / width() : 1.0;
    if (!gl_) { // what the screen shows, painted again at the export's size
        detail::RasterScene copy = *raster_;
        return copy.image(pixels.width(), pixels.height(), scale);
    }
    ImageViewSettings s = content().settings();
    s.window = content().window();
    return strata::renderImage(*content().frame(), s, pixels, scale);
}

void ImageView::setWindow(const ViewWindow& w) {
    ImageViewSettings s = settings();
    if (w == ViewWindow{})
        s.window.reset();
    else
        s.window = w;
    setSettings(s);
    emit settingsChanged(s);
}

void ImageView::wheelEvent(QWheelEvent* e) {
    if (!content().hasFrame()) return;
    const double steps = e->angleDelta().y() / 120.0;
    if (steps == 0) return;
    const QPointF px = toPixels(e->position());
    const ViewTransform t(layout().plot, content().window());
    setWindow(zoomed(content().window(), std::pow(1.25, steps), t.dataX(px.x()), t.dataY(px.y())));
    e->accept();
}

void ImageView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton) {
        inDoubleClick_ = false; // a new click (a double-click's own press comes as the double-click)
        dragging_ = true;
        dragFrom_ = pressedAt_ = e->position();
    }
}

void ImageView::mouseMoveEvent(QMouseEvent* e) {
    if (dragging_ && content().hasFrame()) {
        const QPointF a = toPixels(dragFrom_), b = toPixels(e->position());
        const ViewTransform t(layout().plot, content().window());
        const double dx = t.dataX(a.x()) - t.dataX(b.x()), dy = t.dataY(a.y()) - t.dataY(b.y());
        dragFrom_ = e->position();
        setWindow(panned(content().window(), dx, dy));
    }
    emit cellHovered(pickAt(e->position()));
    // A shortened title, whole, while the mouse is on it (the GL window hands its moves here,
    // not its tooltip events).
    const QString tip = dragging_ ? QString() : titleToolTipAt(e->position());
    if (!tip.isEmpty())
        QToolTip::showText(e->globalPosition().toPoint(), tip, this);
    else if (titleTipShown_)
        QToolTip::hideText();
    titleTipShown_ = !tip.isEmpty();
}

QString ImageView::titleToolTipAt(QPointF p) const {
    if (!content().hasFrame()) return {};
    const QString title = QString::fromStdString(content().title());
    // As the annotation plan lays it out (logical pixels): 12 below the top, shortened to the
    // width less 8 a side.
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPixelSize(static_cast<int>(std::lround(detail::kTitleSize)));
    const QFontMetricsF m(font);
    if (title.isEmpty() || p.y() < 0 || p.y() > 12 + m.height() + 4) return {};
    return m.horizontalAdvance(title) > width() - 16 ? title : QString();
}

void ImageView::mouseReleaseEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    dragging_ = false;
    if (std::exchange(inDoubleClick_, false)) return;
    if ((e->position() - pressedAt_).manhattanLength() < QApplication::startDragDistance()) {
        pendingClick_ = pickAt(e->position());
        clickTimer_->start(QApplication::doubleClickInterval());
    }
}

void ImageView::mouseDoubleClickEvent(QMouseEvent* e) {
    if (e->button() != Qt::LeftButton) return;
    clickTimer_->stop(); // the first click of the two was no click
    inDoubleClick_ = true;
    resetView();
}

} // namespace strata
