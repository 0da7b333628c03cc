#include "offscreen.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPointData.h>
#include <vtkRenderWindow.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

#include "strata/core/error.h"

// Last: Xlib's macros (None, Status, Bool) must not meet the headers above.
#include <X11/Xlib.h>

namespace strata::detail {
namespace {

// Xvfb resets a connection opened in the instant after another one closed (measured here: 19
// of 300 back-to-back opens, none with 2 ms between them), and VTK aborts the process when its
// own XOpenDisplay fails. So the display is opened here, retried for a moment, and given to VTK.
Display* openDisplay(const char* name) {
    for (int attempt = 0; attempt < 12; ++attempt) {
        if (Display* d = XOpenDisplay(name)) return d;
        std::this_thread::sleep_for(std::chrono::milliseconds(2 + 4 * attempt));
    }
    return nullptr;
}

} // namespace

OffscreenWindow::OffscreenWindow(int width, int height) {
    const char* display = std::getenv("DISPLAY");
    STRATA_EXPECTS(display && *display, Error,
                   "drawing offscreen needs an X display (DISPLAY is not set): run under xvfb-run");
    STRATA_EXPECTS(width > 0 && height > 0 && width <= 16384 && height <= 16384, ValueError,
                   "cannot draw an image of " + std::to_string(width) + " x " + std::to_string(height) +
                       " pixels");
    display_ = openDisplay(display);
    STRATA_EXPECTS(display_, Error,
                   std::string("drawing offscreen: cannot connect to the X display ") + display);
    vtkSmartPointer<vtkRenderWindow> w = vtkSmartPointer<vtkRenderWindow>::New();
    window_ = vtkOpenGLRenderWindow::SafeDownCast(w);
    if (!window_) XCloseDisplay(static_cast<Display*>(display_));
    STRATA_EXPECTS(window_, Error, "VTK did not make an OpenGL render window");
    window_->SetDisplayId(display_); // VTK's, not to close: closed here after the window
    window_->SetOffScreenRendering(1);
    window_->SetMultiSamples(0);
    window_->SetSize(width, height);
    window_->Initialize();
    STRATA_EXPECTS(window_->SupportsOpenGL(), Error, "the offscreen window has no usable OpenGL 3.2 context");
}

OffscreenWindow::~OffscreenWindow() {
    if (window_) window_->Finalize();
    window_ = nullptr; // the window goes before the display it was made on
    if (display_) XCloseDisplay(static_cast<Display*>(display_));
}

void OffscreenWindow::makeCurrent() { window_->MakeCurrent(); }

void OffscreenWindow::render() { window_->Render(); }

QImage OffscreenWindow::grab() {
    vtkNew<vtkWindowToImageFilter> w2i;
    w2i->SetInput(window_);
    w2i->ReadFrontBufferOff();
    w2i->SetInputBufferTypeToRGB();
    w2i->ShouldRerenderOff();
    w2i->Update();
    vtkImageData* img = w2i->GetOutput();
    int dims[3];
    img->GetDimensions(dims);
    auto* data = static_cast<unsigned char*>(img->GetScalarPointer());
    QImage out(dims[0], dims[1], QImage::Format_RGB888);
    for (int y = 0; y < dims[1]; ++y) // VTK's rows start at the bottom
        std::memcpy(out.scanLine(dims[1] - 1 - y), data + static_cast<std::size_t>(y) * dims[0] * 3,
                    static_cast<std::size_t>(dims[0]) * 3);
    return out;
}

} // namespace strata::detail
