#include "strata/render/vtk_gl_widget.h"

#include <QOpenGLContext>
#include <QSurfaceFormat>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>

#include <GL/gl.h>

namespace strata {

struct VtkGlWidget::Impl {
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkCallbackCommand> onEvent;
    bool glReady = false;
};

QSurfaceFormat VtkGlWidget::defaultFormat() {
    QSurfaceFormat f;
    f.setRenderableType(QSurfaceFormat::OpenGL);
    f.setVersion(3, 2);
    f.setProfile(QSurfaceFormat::CoreProfile);
    f.setRedBufferSize(8);
    f.setGreenBufferSize(8);
    f.setBlueBufferSize(8);
    f.setAlphaBufferSize(8);
    f.setDepthBufferSize(24);
    f.setStencilBufferSize(0);
    f.setSamples(0);
    f.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    return f;
}

VtkGlWidget::VtkGlWidget(QWidget* parent) : QOpenGLWidget(parent), impl_(new Impl) {
    setFormat(defaultFormat());
    auto* w = impl_->window.Get();
    w->SetOwnContext(false);              // the widget owns the context
    w->SetFrameBlitModeToBlitToCurrent(); // VTK blits into the framebuffer bound when it renders
    w->SetReadyForRendering(false);       // only inside paintGL
    w->SetForceMaximumHardwareLineWidth(1);
    // VTK asks through events whether and where it may draw; the widget answers.
    impl_->onEvent->SetClientData(this);
    impl_->onEvent->SetCallback([](vtkObject*, unsigned long event, void* client, void* data) {
        auto* self = static_cast<VtkGlWidget*>(client);
        switch (event) {
        case vtkCommand::WindowMakeCurrentEvent:
            if (QOpenGLContext::currentContext() != self->context()) self->makeCurrent();
            break;
        case vtkCommand::WindowIsCurrentEvent:
            *static_cast<bool*>(data) =
                self->context() && QOpenGLContext::currentContext() == self->context();
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
    delete impl_;
}

vtkGenericOpenGLRenderWindow* VtkGlWidget::renderWindow() const { return impl_->window.Get(); }

void VtkGlWidget::releaseGl() {
    if (!impl_->glReady) return;
    const bool wasCurrent = QOpenGLContext::currentContext() == context();
    if (!wasCurrent) makeCurrent();
    releaseScene();
    impl_->window->ReleaseGraphicsResources(impl_->window);
    impl_->glReady = false;
    if (!wasCurrent) doneCurrent();
}

void VtkGlWidget::initializeGL() {
    // A new context (first show, or a move to another top-level window): VTK starts afresh.
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

void VtkGlWidget::resizeGL(int w, int h) {
    const double dpr = devicePixelRatioF();
    impl_->window->SetSize(static_cast<int>(w * dpr + 0.5), static_cast<int>(h * dpr + 0.5));
}

void VtkGlWidget::paintGL() {
    auto* w = impl_->window.Get();
    const double dpr = devicePixelRatioF();
    const int pw = static_cast<int>(width() * dpr + 0.5), ph = static_cast<int>(height() * dpr + 0.5);
    if (w->GetSize()[0] != pw || w->GetSize()[1] != ph) w->SetSize(pw, ph);
    vtkOpenGLState* state = w->GetState();
    state->Reset(); // Qt changed GL state behind VTK's cache
    state->Push();
    state->vtkglDepthFunc(GL_LEQUAL); // Qt leaves GL_LESS; VTK expects LEQUAL
    prepareRender(pw, ph, dpr);
    w->SetReadyForRendering(true);
    w->Render();
    w->SetReadyForRendering(false);
    state->Pop();
    // Qt composes the widget with its alpha: make every pixel opaque (blending text and lines
    // leaves alpha below one), as VTK's own Qt adapter does.
    GLboolean mask[4];
    GLfloat clear[4];
    glGetBooleanv(GL_COLOR_WRITEMASK, mask);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
    const GLboolean scissor = glIsEnabled(GL_SCISSOR_TEST);
    if (scissor) glDisable(GL_SCISSOR_TEST);
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_TRUE);
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glColorMask(mask[0], mask[1], mask[2], mask[3]);
    glClearColor(clear[0], clear[1], clear[2], clear[3]);
    if (scissor) glEnable(GL_SCISSOR_TEST);
}

} // namespace strata
