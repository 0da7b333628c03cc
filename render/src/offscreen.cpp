#include "offscreen.h"

#include <cstdlib>
#include <cstring>

#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkPointData.h>
#include <vtkRenderWindow.h>
#include <vtkUnsignedCharArray.h>
#include <vtkWindowToImageFilter.h>

#include "strata/core/error.h"

namespace strata::detail {

OffscreenWindow::OffscreenWindow(int width, int height) {
    const char* display = std::getenv("DISPLAY");
    STRATA_EXPECTS(display && *display, Error,
                   "drawing offscreen needs an X display (DISPLAY is not set): run under xvfb-run");
    STRATA_EXPECTS(width > 0 && height > 0 && width <= 16384 && height <= 16384, ValueError,
                   "cannot draw an image of " + std::to_string(width) + " x " + std::to_string(height) +
                       " pixels");
    vtkSmartPointer<vtkRenderWindow> w = vtkSmartPointer<vtkRenderWindow>::New();
    window_ = vtkOpenGLRenderWindow::SafeDownCast(w);
    STRATA_EXPECTS(window_, Error, "VTK did not make an OpenGL render window");
    window_->SetOffScreenRendering(1);
    window_->SetMultiSamples(0);
    window_->SetSize(width, height);
    window_->Initialize();
    STRATA_EXPECTS(window_->SupportsOpenGL(), Error, "the offscreen window has no usable OpenGL 3.2 context");
}

OffscreenWindow::~OffscreenWindow() {
    if (window_) window_->Finalize();
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
