#include "strata/render/vtk_gl_widget.h"
#include "strata/render/paint_trace.h"
#include "strata/render/vtk_views.h"

#include <QApplication>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <QOpenGLWindow>
#include <QResizeEvent>
#include <QSurfaceFormat>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLFramebufferObject.h>
#include <vtkOpenGLState.h>

#include <GL/gl.h>
#include <GL/glext.h>

namespace strata {

struct VtkGlWidget::Impl {
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkCallbackCommand> onEvent;
    GlWindow* glWindow = nullptr;
    QWidget* container = nullptr; // owns glWindow
    bool glReady = false;
};

// The native GL window: its GL callbacks and its input go to the widget that holds it.
class VtkGlWidget::GlWindow : public QOpenGLWindow {
public:
    explicit GlWindow(VtkGlWidget* owner) : QOpenGLWindow(NoPartialUpdate), owner_(owner) {
        setFormat(VtkGlWidget::defaultFormat());
        // The keyboard stays with the widgets: key presses go to the focused widget as usual.
        setFlag(Qt::WindowDoesNotAcceptFocus);
    }

protected:
    void initializeGL() override { owner_->initializeGl(); }
    void paintGL() override { owner_->paintGl(); }

    bool event(QEvent* e) override {
        switch (e->type()) {
        case QEvent::MouseButtonPress:
        case QEvent::MouseButtonRelease:
        case QEvent::MouseButtonDblClick:
        case QEvent::MouseMove: {
            auto* m = static_cast<QMouseEvent*>(e);
            if (e->type() == QEvent::MouseMove && m->buttons() == Qt::NoButton && !owner_->hasMouseTracking())
                return true;
            if (e->type() == QEvent::MouseButtonPress && (owner_->focusPolicy() & Qt::ClickFocus))
                owner_->setFocus(Qt::MouseFocusReason);
            QMouseEvent copy(e->type(), owner_->mapFromGlobal(m->globalPosition()), m->globalPosition(),
                             m->button(), m->buttons(), m->modifiers(), m->pointingDevice());
            QApplication::sendEvent(owner_, &copy);
            return true;
        }
        case QEvent::Wheel: {
            auto* w = static_cast<QWheelEvent*>(e);
            QWheelEvent copy(owner_->mapFromGlobal(w->globalPosition()), w->globalPosition(), w->pixelDelta(),
                             w->angleDelta(), w->buttons(), w->modifiers(), w->phase(), w->inverted(),
                             w->source(), w->pointingDevice());
            QApplication::sendEvent(owner_, &copy);
            return true;
        }
        case QEvent::KeyPress:
        case QEvent::KeyRelease: {
            auto* k = static_cast<QKeyEvent*>(e);
            QKeyEvent copy(k->type(), k->key(), k->modifiers(), k->text(), k->isAutoRepeat(), k->count());
            QApplication::sendEvent(owner_->focusWidget() ? owner_->focusWidget() : owner_, &copy);
            return true;
        }
        default:
            return QOpenGLWindow::event(e);
        }
    }

private:
    VtkGlWidget* owner_;
};

QSurfaceFormat VtkGlWidget::defaultFormat() { return glSurfaceFormat(); }

VtkGlWidget::VtkGlWidget(QWidget* parent) : QWidget(parent), impl_(new Impl) {
    impl_->glWindow = new GlWindow(this);
    impl_->container = QWidget::createWindowContainer(impl_->glWindow, this);
    impl_->container->setFocusPolicy(Qt::NoFocus);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(impl_->container);
    connect(impl_->glWindow, &QOpenGLWindow::frameSwapped, this, &VtkGlWidget::frameSwapped);

    auto* w = impl_->window.Get();
    w->SetOwnContext(false);        // the GL window owns the context
    w->SetReadyForRendering(false); // only inside paintGl
    // VTK's Frame() would copy its render framebuffer's colour and depth into a second
    // framebuffer, then that colour into ours: three full-window passes, each several ms under a
    // software GL. Without swapping VTK leaves the picture in its render framebuffer and
    // paintGl copies the colour once.
    w->SetSwapBuffers(false);
    w->SetForceMaximumHardwareLineWidth(1);
    // VTK asks through events whether and where it may draw; the widget answers.
    impl_->onEvent->SetClientData(this);
    impl_->onEvent->SetCallback([](vtkObject*, unsigned long event, void* client, void* data) {
        auto* self = static_cast<VtkGlWidget*>(client);
        QOpenGLContext* ctx = self->context();
        switch (event) {
        case vtkCommand::WindowMakeCurrentEvent:
            if (ctx && QOpenGLContext::currentContext() != ctx) self->impl_->glWindow->makeCurrent();
            break;
        case vtkCommand::WindowIsCurrentEvent:
            *static_cast<bool*>(data) = ctx && QOpenGLContext::currentContext() == ctx;
            break;
        case vtkCommand::WindowSupportsOpenGLEvent:
            *static_cast<int*>(data) = 1;
            break;
        case vtkCommand::WindowIsDirectEvent:
            *static_cast<int*>(data) = 1;
            break;
        case vtkCommand::WindowFrameEvent: // Qt swaps the buffers
        default:
            break;
        }
    });
    for (auto e : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                   vtkCommand::WindowSupportsOpenGLEvent, vtkCommand::WindowIsDirectEvent,
                   vtkCommand::WindowFrameEvent})
        w->AddObserver(e, impl_->onEvent);
}

VtkGlWidget::~VtkGlWidget() {
    releaseGl();
    delete impl_->container; // and the GL window with its context, while impl_ is still here
    delete impl_;
}

vtkGenericOpenGLRenderWindow* VtkGlWidget::renderWindow() const { return impl_->window.Get(); }
QWindow* VtkGlWidget::glWindow() const { return impl_->glWindow; }
QOpenGLContext* VtkGlWidget::context() const { return impl_->glWindow->context(); }

// Qt delivers the update after its idle timer (5 ms on X11 unless QT_QPA_UPDATE_IDLE_TIME
// says otherwise: the strata executable sets it to 0).
void VtkGlWidget::requestRender() { impl_->glWindow->update(); }

void VtkGlWidget::resizeEvent(QResizeEvent* e) {
    QWidget::resizeEvent(e);
    requestRender();
}

void VtkGlWidget::releaseGl() {
    if (!impl_->glReady) return;
    QOpenGLContext* ctx = context();
    const bool wasCurrent = QOpenGLContext::currentContext() == ctx;
    if (!wasCurrent) impl_->glWindow->makeCurrent();
    releaseScene();
    impl_->window->ReleaseGraphicsResources(impl_->window);
    impl_->glReady = false;
    if (!wasCurrent) impl_->glWindow->doneCurrent();
}

void VtkGlWidget::initializeGl() {
    // A new context: VTK starts afresh.
    if (impl_->glReady) {
        releaseScene();
        impl_->window->ReleaseGraphicsResources(impl_->window);
    }
    connect(
        context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] { releaseGl(); }, Qt::DirectConnection);
    impl_->window->SetIsCurrent(true);
    impl_->window->OpenGLInitContext();
    impl_->glReady = true;
    initializeScene();
}

QSize VtkGlWidget::pixelSize() const {
    const double dpr = impl_->glWindow->devicePixelRatio();
    return {static_cast<int>(impl_->glWindow->width() * dpr + 0.5),
            static_cast<int>(impl_->glWindow->height() * dpr + 0.5)};
}

// Renders into the framebuffer bound now (the window's, or grabFramebuffer's): VTK reads the
// binding when its state cache is reset.
void VtkGlWidget::paintGl() {
    const bool trace = paintTraceOn();
    const std::int64_t began = trace ? monotonicNs() : 0;
    auto* w = impl_->window.Get();
    const double dpr = impl_->glWindow->devicePixelRatio();
    const QSize pixels = pixelSize();
    const int pw = pixels.width(), ph = pixels.height();
    if (pw <= 0 || ph <= 0) return;
    if (w->GetSize()[0] != pw || w->GetSize()[1] != ph) w->SetSize(pw, ph);
    vtkOpenGLState* state = w->GetState();
    state->Reset(); // Qt changed GL state behind VTK's cache
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL); // Qt leaves GL_LESS; VTK expects LEQUAL
    prepareRender(pw, ph, dpr);
    const std::int64_t prepared = trace ? monotonicNs() : 0;
    w->SetReadyForRendering(true);
    w->Render();
    w->SetReadyForRendering(false);
    const std::int64_t rendered = trace ? monotonicNs() : 0;
    if (vtkOpenGLFramebufferObject* rendered = w->GetRenderFramebuffer()) {
        state->PushReadFramebufferBinding();
        rendered->Bind(GL_READ_FRAMEBUFFER);
        rendered->ActivateReadBuffer(0);
        state->vtkglDisable(GL_SCISSOR_TEST);
        state->vtkglBlitFramebuffer(0, 0, pw, ph, 0, 0, pw, ph, GL_COLOR_BUFFER_BIT, GL_NEAREST);
        state->PopReadFramebufferBinding();
    }
    state->Pop();
    if (trace) { // the frame trace splits the paint from the swap: wait for the GPU's draw
        glFinish();
        notePaint({began, prepared, rendered, monotonicNs()});
    }
    renderIssued();
}

QImage VtkGlWidget::grabFramebuffer() {
    if (!impl_->glWindow->isValid() || !impl_->glReady) return {};
    impl_->glWindow->makeCurrent();
    const double dpr = impl_->glWindow->devicePixelRatio();
    QOpenGLFramebufferObject fbo(pixelSize(), QOpenGLFramebufferObject::CombinedDepthStencil);
    fbo.bind();
    paintGl();
    // Text and lines blended by VTK leave alpha below one: the picture is opaque.
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    QImage image = fbo.toImage().convertToFormat(QImage::Format_RGB32);
    fbo.release();
    image.setDevicePixelRatio(dpr);
    return image;
}

} // namespace strata
