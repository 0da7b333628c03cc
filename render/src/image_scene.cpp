#include "image_scene.h"

#include <vtkCamera.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include "strata/core/error.h"
#include "strata/render/colormaps.h"
#include "strata/render/frame_labels.h"

namespace strata::detail {
namespace {

// Whether two axes with the same edges get the same ticks, labels and title.
bool drawsAlike(const AxisGrid& a, const AxisGrid& b) {
    auto units = [](const AxisGrid& g) {
        return g.coordinate ? g.coordinate->attrs.text("units").value_or("") : std::string();
    };
    auto calendar = [](const AxisGrid& g) { return g.time ? static_cast<int>(g.time->calendar) : -1; };
    return a.dim == b.dim && a.title == b.title && a.fromIndices == b.fromIndices && units(a) == units(b) &&
           calendar(a) == calendar(b);
}

} // namespace

ImageScene::ImageScene() {
    back_->SetBackground(1, 1, 1);
    back_->SetBackgroundAlpha(1);
    back_->SetLayer(0);
    back_->InteractiveOff();
    plot_->SetBackground(0.82, 0.82, 0.82); // outside the frame, when panned past its edge
    plot_->SetBackgroundAlpha(1);
    plot_->SetLayer(1);
    plot_->SetPreserveColorBuffer(0);
    plot_->SetPreserveDepthBuffer(0);
    frameActor_.attach(plot_);
    vtkCamera* cam = plot_->GetActiveCamera();
    cam->ParallelProjectionOn();
    cam->SetViewUp(0, 1, 0);
}

ImageScene::~ImageScene() {
    annotations_.clear();
    detach();
}

void ImageScene::attach(vtkOpenGLRenderWindow* window) {
    if (window_ == window) return;
    detach();
    window_ = window;
    // No multisampling: the frame is drawn cell-aligned and the annotations are axis-aligned
    // lines and text, so it buys nothing here, and under a software rasteriser (Mesa's
    // llvmpipe) VTK's default of 8 samples tripled the cost of drawing a full-size frame.
    window_->SetMultiSamples(0);
    window_->SetNumberOfLayers(2);
    window_->AddRenderer(back_);
    window_->AddRenderer(plot_);
}

void ImageScene::detach() {
    if (!window_) return;
    window_->RemoveRenderer(back_);
    window_->RemoveRenderer(plot_);
    window_ = nullptr;
}

void ImageScene::setFrame(ImageFrame frame) {
    STRATA_EXPECTS(frame.frame.ndim() == 2, ValueError,
                   "the image view shows 2-D frames; '" + frame.frame.name() + "' has " +
                       std::to_string(frame.frame.ndim()) + " dims");
    AxisGrid y = axisGrid(frame.frame, 0), x = axisGrid(frame.frame, 1);
    const bool sameGrid = frame_ && x.edges == x_.edges && y.edges == y_.edges;
    if (!frame_ || !sameGrid || !drawsAlike(x, x_) || !drawsAlike(y, y_)) ++gridVersion_;
    frame_ = std::move(frame);
    x_ = std::move(x);
    y_ = std::move(y);
    // The grids point into the frame's coordinates: take them from the stored copy.
    x_.coordinate = x_.fromIndices ? nullptr : frame_->frame.coords().find(x_.dim);
    y_.coordinate = y_.fromIndices ? nullptr : frame_->frame.coords().find(y_.dim);
    if (!sameGrid) frameActor_.setGrid(x_, y_);
    textureDirty_ = true;
}

void ImageScene::clearFrame() {
    frame_.reset();
    textureDirty_ = true;
}

void ImageScene::setSettings(const ImageViewSettings& s) {
    if (s.colormap != settings_.colormap || s.reversed != settings_.reversed ||
        !(s.range == settings_.range) || !(s.nanColour == settings_.nanColour) ||
        s.allowInterop != settings_.allowInterop) {
        (void)colormapTable(s.colormap); // throws for an unknown map before anything changes
        textureDirty_ = true;
    }
    settings_ = s;
}

ViewWindow ImageScene::fullExtent() const { return frame_ ? fullWindow(x_, y_) : ViewWindow{}; }

ViewWindow ImageScene::window() const {
    if (settings_.window && settings_.window->x1 > settings_.window->x0 &&
        settings_.window->y1 > settings_.window->y0)
        return *settings_.window;
    return fullExtent();
}

const FramePathInfo& ImageScene::path() const {
    static const FramePathInfo none;
    return texture_ ? texture_->path() : none;
}

void ImageScene::updateTexture() {
    const DataArray& f = frame_->frame;
    const std::string key = settings_.colormap + (settings_.reversed ? "_r@" : "@") + f.device().toString();
    if (key != lutKey_) {
        table_ = colormapTable(settings_.colormap, settings_.reversed);
        lut_ = colormapLut(table_, f.device(), defaultStream(f.device()));
        lutKey_ = key;
    }
    if (!texture_ || textureAllowsInterop_ != settings_.allowInterop) {
        if (texture_) texture_->release();
        texture_ = std::make_unique<FrameTexture>(FrameTexture::Options{settings_.allowInterop});
        textureAllowsInterop_ = settings_.allowInterop;
    }
    const ColouredFrame* ahead = frame_->coloured.get();
    if (ahead && colouredFor(*ahead, settings_, f)) { // coloured off the GUI thread: upload only
        range_ = ahead->range;
        texture_->updateRgba(ahead->rgba);
        colouredAhead_ = true;
    } else {
        range_ = frameColourRange(settings_.range, f, frame_->variableRange);
        texture_->update(f, lut_, range_.first, range_.second, nullptr, settings_.nanColour);
        colouredAhead_ = false;
    }
    textureDirty_ = false;
}

void ImageScene::prepare(int width, int height, double scale) {
    const ViewWindow w = window();
    const bool keep = frame_ ? keepsAspect(settings_.aspect, x_, y_) : true;
    // Unzoomed, a regular grid may snap to whole pixels per cell.
    CellCounts cells;
    if (frame_ && frameActor_.regular() && w == fullExtent()) cells = {x_.size(), y_.size()};
    layout_ = computeLayout(width, height, scale, w, keep, cells);
    if (!frame_) {
        annotations_.clear();
        frameActor_.setTexture(0, 0, 0, nullptr);
        plot_->SetViewport(0, 0, 0, 0);
        return;
    }
    if (textureDirty_) updateTexture();
    frameActor_.setTexture(texture_->texture(), texture_->width(), texture_->height(), window_);

    const PixelRect& p = layout_.plot;
    plot_->SetViewport(p.x0 / width, p.y0 / height, p.x1 / width, p.y1 / height);
    vtkCamera* cam = plot_->GetActiveCamera();
    cam->SetFocalPoint(p.width() / 2, p.height() / 2, 0);
    cam->SetPosition(p.width() / 2, p.height() / 2, 10);
    cam->SetParallelScale(p.height() / 2);
    cam->SetClippingRange(1, 100);
    frameActor_.place(ViewTransform(p, w));
    // The background behind a frame that fills the plot is never seen: a clear of the plot
    // costs as much as the copy itself under a software GL.
    plot_->SetErase(!frameActor_.coversPlot());

    AnnotationContent c;
    c.layout = layout_;
    c.window = w;
    c.x = &x_;
    c.y = &y_;
    c.gridVersion = gridVersion_;
    c.table = table_;
    c.range = range_;
    c.title = frame_->title.empty() ? frameTitle(frame_->frame) : frame_->title;
    c.barTitle = frame_->frame.attrs().text("units").value_or("");
    annotations_.build(back_, c);
}

void ImageScene::releaseGl() {
    frameActor_.releaseGraphics();
    if (texture_) texture_->release();
    texture_.reset();
    textureDirty_ = true;
}

Pick ImageScene::pick(double px, double py) const {
    if (!frame_) return {};
    return pickCell(ViewTransform(layout_.plot, window()), x_, y_, px, py);
}

} // namespace strata::detail
