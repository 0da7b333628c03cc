#pragma once
// VtkGlWidget: the Qt 6 ↔ VTK bridge (Debian's VTK 9.1 has no Qt 6 module). A QOpenGLWidget
// that owns the GL context and drives a vtkGenericOpenGLRenderWindow rendering into the
// widget's framebuffer (VTK's own context off), with VTK's GL state pushed and popped around
// it, sizes in device pixels, and GL objects released when the context goes away.
#include <QOpenGLWidget>

class vtkGenericOpenGLRenderWindow;

namespace strata {

class VtkGlWidget : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkGlWidget(QWidget* parent = nullptr);
    ~VtkGlWidget() override;

    vtkGenericOpenGLRenderWindow* renderWindow() const;
    // The GL surface format VTK needs (OpenGL 3.2 core, RGBA8, depth); set it on the widget
    // before it is shown (the constructor does).
    static QSurfaceFormat defaultFormat();

protected:
    // For subclasses, called with the context current: after VTK's GL set-up, before each
    // render (upload textures here), and before the context's GL objects go.
    virtual void initializeScene() {}
    virtual void prepareRender(int widthPixels, int heightPixels, double devicePixelRatio) = 0;
    virtual void releaseScene() {}
    // Call from the subclass destructor: releases GL objects while the subclass still exists.
    void releaseGl();

    void initializeGL() override;
    void resizeGL(int w, int h) override;
    void paintGL() override;

private:
    struct Impl;
    Impl* impl_;
};

} // namespace strata
