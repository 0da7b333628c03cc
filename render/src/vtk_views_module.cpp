// The module libstrata_vtkviews.so: the views that draw through VTK, made through the one
// entry point strata_vtk_views() (see strata/render/vtk_views.h).
#include <QWindow>
#include <vtkGenericOpenGLRenderWindow.h>

#include "image_scene.h"
#include "line_plot_scene.h"
#include "offscreen.h"
#include "strata/core/startup_trace.h"
#include "strata/render/line_plot.h"
#include "strata/render/vtk_gl_widget.h"
#include "strata/render/vtk_views.h"

namespace strata::detail {
namespace {

// A native GL window over the whole image view drawing its ImageScene. Its mouse and wheel
// events are not its own: ignored here, they go on to the view.
class GlImageSurfaceImpl final : public VtkGlWidget, public GlImageSurface {
public:
    GlImageSurfaceImpl(QWidget* parent, ViewHooks hooks) : VtkGlWidget(parent), hooks_(std::move(hooks)) {
        setMouseTracking(true);
        scene_.attach(renderWindow());
        connect(this, &VtkGlWidget::frameSwapped, this, [this] { hooks_.presented(); });
    }
    ~GlImageSurfaceImpl() override {
        releaseGl();
        scene_.detach();
    }

    QWidget* widget() override { return this; }
    void setFrame(ImageFrame frame) override { scene_.setFrame(std::move(frame)); }
    void clearFrame() override { scene_.clearFrame(); }
    void setSettings(const ImageViewSettings& settings) override { scene_.setSettings(settings); }
    const ImageContent& content() const override { return scene_.content(); }
    const ViewLayout& layout() const override { return scene_.layout(); }
    FramePathInfo path() const override { return scene_.path(); }
    MinMax range() const override { return scene_.range(); }
    int annotationGroupsRebuilt() const override { return scene_.annotationGroupsRebuilt(); }
    int annotationLabelsDrawn() const override { return scene_.annotationLabelsDrawn(); }
    bool frameCopied() const override { return scene_.frameCopied(); }
    bool colouredAhead() const override { return scene_.colouredAhead(); }
    Pick pick(double px, double py) const override { return scene_.pick(px, py); }
    void requestRender() override { VtkGlWidget::requestRender(); }
    QImage grabFramebuffer() override { return VtkGlWidget::grabFramebuffer(); }
    QWindow* glWindow() const override { return VtkGlWidget::glWindow(); }

protected:
    void prepareRender(int w, int h, double dpr) override {
        try {
            scene_.prepare(w, h, dpr);
        } catch (const std::exception& e) { // one boundary: the draw fails, the app goes on
            scene_.clearFrame();
            scene_.prepare(w, h, dpr);
            hooks_.prepared(&e);
            return;
        }
        hooks_.prepared(nullptr);
    }
    void releaseScene() override { scene_.releaseGl(); }
    // The startup trace's first paint is the first one with a frame, not the empty window's.
    void renderIssued() override {
        if (scene_.content().hasFrame()) startup::mark(startup::Milestone::Painted);
    }

private:
    ViewHooks hooks_;
    ImageScene scene_;
};

class LinePlotSurfaceImpl final : public VtkGlWidget, public LinePlotSurface {
public:
    LinePlotSurfaceImpl(QWidget* parent, ViewHooks hooks) : VtkGlWidget(parent), hooks_(std::move(hooks)) {
        scene_.attach(renderWindow());
        connect(this, &VtkGlWidget::frameSwapped, this, [this] { hooks_.presented(); });
    }
    ~LinePlotSurfaceImpl() override {
        releaseGl();
        scene_.detach();
    }

    QWidget* widget() override { return this; }
    void setSeries(const LineSeries& series) override {
        scene_.setSeries(series);
        requestRender();
    }
    void setMarker(std::optional<double> x) override {
        scene_.setMarker(x);
        requestRender();
    }
    PlotXAxis xAxis() const override { return scene_.xAxis(glWindow()->devicePixelRatio()); }
    QImage grabFramebuffer() override { return VtkGlWidget::grabFramebuffer(); }
    QWindow* glWindow() const override { return VtkGlWidget::glWindow(); }

protected:
    void prepareRender(int, int, double dpr) override { scene_.prepare(dpr); }

private:
    ViewHooks hooks_;
    LinePlotScene scene_;
};

// One offscreen GL window and one scene drawing picture after picture of one size: what the
// GL driver builds for the first (shaders, textures, glyphs) serves the rest, as in the window.
class ImageRendererImpl final : public ImageRenderer {
public:
    ImageRendererImpl(QSize pixels, double scale)
        : pixels_(pixels), scale_(scale), off_(pixels.width(), pixels.height()) {
        scene_.attach(off_.window());
    }
    ~ImageRendererImpl() override {
        off_.makeCurrent();
        scene_.releaseGl(); // GL objects die with their context current
        off_.window()->ReleaseGraphicsResources(off_.window());
        scene_.detach();
    }
    ImageRendererImpl(const ImageRendererImpl&) = delete;
    ImageRendererImpl& operator=(const ImageRendererImpl&) = delete;

    QImage render(const ImageFrame& frame, const ImageViewSettings& settings) override {
        off_.makeCurrent();
        scene_.setSettings(settings);
        scene_.setFrame(frame);
        scene_.prepare(pixels_.width(), pixels_.height(), scale_);
        off_.render();
        return off_.grab();
    }

private:
    QSize pixels_;
    double scale_;
    OffscreenWindow off_;
    ImageScene scene_;
};

class Views final : public VtkViews {
public:
    std::unique_ptr<GlImageSurface> makeImageSurface(QWidget* parent, ViewHooks hooks) const override {
        return std::make_unique<GlImageSurfaceImpl>(parent, std::move(hooks));
    }
    std::unique_ptr<LinePlotSurface> makeLinePlot(QWidget* parent, ViewHooks hooks) const override {
        return std::make_unique<LinePlotSurfaceImpl>(parent, std::move(hooks));
    }

    std::unique_ptr<ImageRenderer> makeImageRenderer(QSize pixels, double scale) const override {
        return std::make_unique<ImageRendererImpl>(pixels, scale);
    }

    QImage renderLinePlot(const LineSeries& series, QSize pixels, double scale) const override {
        OffscreenWindow off(pixels.width(), pixels.height());
        QImage image;
        {
            LinePlotScene scene;
            scene.setSeries(series);
            scene.attach(off.window());
            off.makeCurrent();
            scene.prepare(scale);
            off.render();
            image = off.grab();
            off.window()->ReleaseGraphicsResources(off.window());
        }
        return image;
    }
};

} // namespace
} // namespace strata::detail

extern "C" __attribute__((visibility("default"))) const strata::VtkViews* strata_vtk_views() {
    static const strata::detail::Views views;
    return &views;
}
