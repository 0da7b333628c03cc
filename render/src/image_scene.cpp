#include "image_scene.h"

#include <vtkCamera.h>
#include <vtkOpenGLRenderWindow.h>
#include <vtkRenderer.h>

#include "strata/core/error.h"
#include "strata/render/colormaps.h"

namespace strata::detail {
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
    overlay_->SetLayer(2); // drawn after the plot's pass, which ends with the frame's copy
    overlay_->InteractiveOff();
    margins_->SetLayer(2); // after the overlay (added after it), over the whole window
    margins_->InteractiveOff();
    frameActor_.attach(plot_);
    curvActor_.attach(plot_);
    vtkCamera* cam = plot_->GetActiveCamera();
    cam->ParallelProjectionOn();
    cam->SetViewUp(0, 1, 0);
}

ImageScene::~ImageScene() {
    annotations_.clear();
    curvActor_.detach();
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
    window_->SetNumberOfLayers(3);
    window_->AddRenderer(back_);
    window_->AddRenderer(plot_);
    window_->AddRenderer(overlay_);
    window_->AddRenderer(margins_);
}

void ImageScene::detach() {
    if (!window_) return;
    window_->RemoveRenderer(back_);
    window_->RemoveRenderer(plot_);
    window_->RemoveRenderer(overlay_);
    window_->RemoveRenderer(margins_);
    window_ = nullptr;
}

void ImageScene::setFrame(ImageFrame frame) {
    content_.setFrame(std::move(frame));
    textureDirty_ = true;
}

void ImageScene::clearFrame() {
    content_.clearFrame();
    textureDirty_ = true;
}

void ImageScene::setSettings(const ImageViewSettings& s) {
    const bool reproject = s.projection != content_.settings().projection;
    if (content_.setSettings(s)) textureDirty_ = true;
    if (reproject && content_.hasFrame()) frameActor_.setGrid(content_.xGrid(), content_.yGrid());
}

const FramePathInfo& ImageScene::path() const {
    static const FramePathInfo none;
    return texture_ ? texture_->path() : none;
}

void ImageScene::updateTexture() {
    const ImageFrame& frame = *content_.frame();
    const ImageViewSettings& settings = content_.settings();
    const Colouring& colouring = settings.colouring;
    const DataArray& f = frame.frame;
    const std::optional<ContourSpec> bands = fillBands(settings);
    // The look-up table: the map's, or (filled contours) banded at the levels in the frame's
    // range, made again when those change.
    auto useTable = [&](MinMax range) {
        std::string key = colouring.colormap + (colouring.reversed ? "_r@" : "@") + f.device().toString();
        std::vector<double> levels;
        if (bands) {
            levels = contourLevels(*bands, range.first, range.second);
            key += " bands";
            for (double l : levels) key += " " + std::to_string(l);
            key += " in " + std::to_string(range.first) + " " + std::to_string(range.second);
        }
        if (key == lutKey_) return;
        table_ = colormapTable(colouring.colormap, colouring.reversed);
        if (bands) table_ = bandedTable(table_, range, levels);
        lut_ = colormapLut(table_, f.device(), defaultStream(f.device()));
        lutKey_ = key;
    };
    if (!texture_ || textureAllowsInterop_ != settings.allowInterop) {
        if (texture_) texture_->release();
        texture_ = std::make_unique<FrameTexture>(FrameTexture::Options{settings.allowInterop});
        textureAllowsInterop_ = settings.allowInterop;
    }
    const ColouredFrame* ahead = frame.coloured.get();
    if (const Reprojection* map = content_.map()) {
        // A map: the frame's colours resampled into it (white off the map); on the device by
        // the kernel, straight into the texture's buffer on the interop path.
        colouredAhead_ = ahead && !bands && !map->interpolates() && colouredFor(*ahead, colouring, f);
        if (colouredAhead_) {
            range_ = ahead->range;
            useTable(range_);
            texture_->updateRgba(map->apply(ahead->rgba, kWhitePixel, Stream::host()),
                                 ahead->order == PixelOrder::Bgra);
        } else {
            range_ = frameColourRange(colouring.range, f, frame.variableRange, frame.frameRange);
            useTable(range_);
            texture_->updateProjected(f, lut_, range_.first, range_.second, colouring.offScale(), *map,
                                      kWhitePixel);
        }
    } else if (ahead && !bands &&
               colouredFor(*ahead, colouring, f)) { // coloured off the GUI thread: upload only
        range_ = ahead->range;
        useTable(range_);
        texture_->updateRgba(ahead->rgba, ahead->order == PixelOrder::Bgra);
        colouredAhead_ = true;
    } else {
        range_ = frameColourRange(colouring.range, f, frame.variableRange, frame.frameRange);
        useTable(range_);
        texture_->update(f, lut_, range_.first, range_.second, nullptr, colouring.offScale());
        colouredAhead_ = false;
    }
    textureDirty_ = false;
}

void ImageScene::prepare(int width, int height, double scale) {
    const ViewWindow w = content_.window();
    layout_ = content_.layoutFor(width, height, scale);
    if (!content_.hasFrame()) {
        annotations_.clear();
        frameActor_.setTexture(0, 0, 0, nullptr);
        curvActor_.setTexture(0, nullptr);
        plot_->SetViewport(0, 0, 0, 0);
        overlay_->SetViewport(0, 0, 0, 0);
        return;
    }
    if (textureDirty_) updateTexture();
    const CurvilinearGrid* curv = content_.curvilinear();
    if (builtCells_ != content_.cellsVersion()) { // the cells changed: the mesh in use is made again
        if (curv)
            curvActor_.setGrid(*curv);
        else
            frameActor_.setGrid(content_.xGrid(), content_.yGrid());
        builtCells_ = content_.cellsVersion();
    }
    frameActor_.setTexture(curv ? 0 : texture_->texture(), texture_->width(), texture_->height(), window_);
    curvActor_.setTexture(curv ? texture_->texture() : 0, window_);

    const PixelRect& p = layout_.plot;
    plot_->SetViewport(p.x0 / width, p.y0 / height, p.x1 / width, p.y1 / height);
    overlay_->SetViewport(p.x0 / width, p.y0 / height, p.x1 / width, p.y1 / height);
    vtkCamera* cam = plot_->GetActiveCamera();
    cam->SetFocalPoint(p.width() / 2, p.height() / 2, 0);
    cam->SetPosition(p.width() / 2, p.height() / 2, 10);
    cam->SetParallelScale(p.height() / 2);
    cam->SetClippingRange(1, 100);
    frameActor_.place(ViewTransform(p, w));
    curvActor_.place(ViewTransform(p, w));
    // The background behind a frame that fills the plot is never seen: a clear of the plot
    // costs as much as the copy itself under a software GL.
    plot_->SetErase(!frameActor_.coversPlot());

    annotations_.build(back_, overlay_, margins_,
                       planAnnotations(content_.annotations(layout_, table_, range_)));
}

void ImageScene::releaseGl() {
    frameActor_.releaseGraphics();
    curvActor_.releaseGraphics();
    if (texture_) texture_->release();
    texture_.reset();
    textureDirty_ = true;
}

} // namespace strata::detail
