#pragma once
// The VTK views, loaded on first use. Everything that draws through VTK (the image view's GL
// path for device frames, the line plot, PNG export) lives in a module of its own,
// libstrata_vtkviews.so beside the executable, which the executable does not link: a window
// that starts on a host frame (painted with Qt's raster engine) never maps VTK or its
// dependencies. vtkViews() loads the module the first time a view or an export needs it.
//
// The module holds no copy of Strata's own libraries: its references to strata_core,
// strata_render_base and strata_render resolve, when it is loaded, to the one copy in the
// program that loads it (linked whole and its symbols exported: strata_host_vtk_views in
// render/CMakeLists.txt). So the transfer counters, the CPU pool and residency stay one.
#include <QImage>
#include <QSize>
#include <QStringList>
#include <QSurfaceFormat>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "strata/render/frame_texture.h"
#include "strata/render/image_export.h"
#include "strata/render/image_settings.h"
#include "strata/render/view_layout.h"

class QWidget;
class QWindow;

namespace strata {

struct LineSeries;
struct PlotXAxis;
namespace detail {
class ImageContent;
}

// The GL surface format the VTK views need (OpenGL 3.2 core, RGBA8, depth, no multisampling):
// set it as the application's default before the QApplication is made.
QSurfaceFormat glSurfaceFormat();

// What a module's view tells the widget that holds it.
struct ViewHooks {
    // After each prepare of a frame: null when it went through, else the error (the frame
    // was dropped and the view drawn empty).
    std::function<void(const std::exception*)> prepared;
    std::function<void()> presented; // after each frame has been swapped onto the screen
};

// An ImageView's way to the screen through GL: a native GL window over the whole view.
class GlImageSurface {
public:
    virtual ~GlImageSurface() = default;
    virtual QWidget* widget() = 0; // a child of the view, deleted with this object
    virtual void setFrame(ImageFrame frame) = 0;
    virtual void clearFrame() = 0;
    virtual void setSettings(const ImageViewSettings& settings) = 0;
    virtual const detail::ImageContent& content() const = 0;
    virtual const ViewLayout& layout() const = 0;
    virtual FramePathInfo path() const = 0;
    virtual MinMax range() const = 0;
    virtual int annotationGroupsRebuilt() const = 0;
    virtual int annotationLabelsDrawn() const = 0;
    virtual bool frameCopied() const = 0;
    virtual bool colouredAhead() const = 0;
    virtual Pick pick(double px, double py) const = 0;
    virtual void requestRender() = 0;
    virtual QImage grabFramebuffer() = 0;
    virtual QWindow* glWindow() const = 0;
};

// A line plot drawn through VTK in a native GL window.
class LinePlotSurface {
public:
    virtual ~LinePlotSurface() = default;
    virtual QWidget* widget() = 0; // a child of the parent given, deleted with this object
    virtual void setSeries(const LineSeries& series) = 0;
    virtual void setMarker(std::optional<double> x) = 0; // the series' marker alone
    virtual PlotXAxis xAxis() const = 0;                 // as last drawn, in the widget's pixels
    virtual QImage grabFramebuffer() = 0;
    virtual QWindow* glWindow() const = 0;
};

// The module's one entry point returns this; its functions throw as the views they make.
class VtkViews {
public:
    virtual ~VtkViews() = default;
    virtual std::unique_ptr<GlImageSurface> makeImageSurface(QWidget* parent, ViewHooks hooks) const = 0;
    virtual std::unique_ptr<LinePlotSurface> makeLinePlot(QWidget* parent, ViewHooks hooks) const = 0;
    virtual std::unique_ptr<ImageRenderer> makeImageRenderer(QSize pixels, double scale) const = 0;
    virtual QImage renderLinePlot(const LineSeries& series, QSize pixels, double scale) const = 0;
};

// The module, loaded at the first call (from $STRATA_VTKVIEWS when set, else beside the
// executable, else where the build put it). Throws Error saying why when it cannot be
// loaded; later calls throw the same without trying again.
const VtkViews& vtkViews();

// Another module of Strata's loaded on first use (the movie encoders, libstrata_movie.so): where
// to look for the file `name`, in order: beside the VTK views module STRATA_VTKVIEWS names,
// beside the executable, then `built` (where the build put it).
QStringList modulePlaces(const QString& name, const QString& built);
// The first of `places` that loads and has `entry`: its entry point's address (the module is
// never unloaded); else null, with what was tried and why it failed added to `tried`.
void* loadModuleEntry(const QStringList& places, const char* entry, std::string& tried);

} // namespace strata

// The module's entry point (the one symbol the loader looks up).
extern "C" const strata::VtkViews* strata_vtk_views();
