#pragma once
// An offscreen VTK render window of a given size (VTK's X window, never mapped) and the
// read-back of what it drew, for PNG export and image tests.
#include <QImage>
#include <vtkSmartPointer.h>

#include <vtkOpenGLRenderWindow.h>

namespace strata::detail {

class OffscreenWindow {
public:
    // Throws Error when there is no X display to draw through.
    OffscreenWindow(int width, int height);
    ~OffscreenWindow();
    OffscreenWindow(const OffscreenWindow&) = delete;
    OffscreenWindow& operator=(const OffscreenWindow&) = delete;
    vtkOpenGLRenderWindow* window() const { return window_; }
    void makeCurrent();
    void render();
    QImage grab(); // the last render, RGB, top row first

private:
    void* display_ = nullptr; // the X display (Display*) the window draws through, owned here
    vtkSmartPointer<vtkOpenGLRenderWindow> window_;
};

} // namespace strata::detail
