#pragma once
// VtkGlWidget: the Qt 6 ↔ VTK bridge (Debian's VTK 9.1 has no Qt 6 module). A widget that
// holds a native GL window of its own (a QOpenGLWindow in QWidget::createWindowContainer, as
// VTK's QVTKOpenGLWindow does) and drives a vtkGenericOpenGLRenderWindow rendering into it
// (VTK's own context off), with VTK's GL state pushed and popped around it, sizes in device
// pixels, and GL objects released when the context goes away.
//
// Why a native window and not a QOpenGLWidget: a QOpenGLWidget makes Qt compose the whole
// top-level window through GL at every repaint of any widget in it; under a software GL
// (Mesa's llvmpipe) that cost 43-58 ms per composition of a 2240 x 1150 window, three times
// per step. A native GL window is swapped on its own (about 1.4 ms there) and the widgets
// around it are flushed as plain raster.
//
// Mouse, wheel and key events that reach the GL window are handed to this widget, so that
// subclasses and tests see them as ordinary widget events at the same positions.
#include <QImage>
#include <QSurfaceFormat>
#include <QWidget>

class QOpenGLContext;
class QWindow;
class vtkGenericOpenGLRenderWindow;

namespace strata {

class VtkGlWidget : public QWidget {
    Q_OBJECT
public:
    explicit VtkGlWidget(QWidget* parent = nullptr);
    ~VtkGlWidget() override;

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    // The GL surface format VTK needs (OpenGL 3.2 core, RGBA8, depth, no multisampling).
    static QSurfaceFormat defaultFormat();

    // Asks for a new frame: prepareRender and VTK's render run at the GL window's next update
    // (requests before it are merged into one).
    void requestRender();
    // Renders now into an offscreen framebuffer of the window's size and reads it back (for
    // tests and screenshots); a null image before the GL window has a context.
    QImage grabFramebuffer();
    // The native GL window (for tests that need to know it is exposed) and its context.
    QWindow* glWindow() const;
    QOpenGLContext* context() const;

signals:
    // After each frame has been swapped onto the screen.
    void frameSwapped();

protected:
    // For subclasses, called with the context current: after VTK's GL set-up, before each
    // render (upload textures here), and before the context's GL objects go.
    virtual void initializeScene() {}
    virtual void prepareRender(int widthPixels, int heightPixels, double devicePixelRatio) = 0;
    virtual void renderIssued() {} // after each render's GL calls (glFinish'ed only when traced)
    virtual void releaseScene() {}
    // Call from the subclass destructor: releases GL objects while the subclass still exists.
    void releaseGl();
    // A new size is drawn at once: a native child window made smaller gets no expose event.
    void resizeEvent(QResizeEvent* e) override;

private:
    class GlWindow;
    struct Impl;
    void initializeGl();
    void paintGl();
    QSize pixelSize() const; // the GL window in device pixels
    Impl* impl_;
};

} // namespace strata
