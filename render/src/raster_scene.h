#pragma once
// RasterScene: the image view drawn with Qt's raster engine, for frames on the host. The
// frame, colour-mapped (off the GUI thread when the frame service did it ahead), is resampled
// onto the plot's pixels by nearest cell — a lookup of each pixel column's and row's cell,
// so irregular grids, descending axes, zoom and pan need no other path — and the axes,
// colour bar and title are painted around it from the annotation plan the GL scene draws.
//
// Why: a frame on the host handed to GL is uploaded, drawn and read back into the window,
// which under a software GL (Mesa's llvmpipe on a machine without a GPU) costs 10-15 ms per
// step; painted into the window's raster backing store it costs about 1 ms.
#include <QImage>
#include <memory>
#include <vector>

#include "image_content.h"
#include "strata/render/frame_texture.h"

class QPainter;

namespace strata::detail {

class RasterScene {
public:
    // Throws ValueError for a frame that is not 2-D or not on the host.
    void setFrame(ImageFrame frame);
    void clearFrame();
    void setSettings(const ImageViewSettings& settings); // throws ValueError for an unknown map
    const ImageContent& content() const { return content_; }

    // Draws the view for a target of width × height device pixels (`scale` device pixels per
    // logical pixel) with `painter` in device pixels, origin top left. Colour-maps the frame
    // first when it was not done ahead with these settings (throws what colourFrame throws).
    void paint(QPainter& painter, int width, int height, double scale);
    // The same into a new image.
    QImage image(int width, int height, double scale);

    const ViewLayout& layout() const { return layout_; }
    Pick pick(double px, double py) const { return content_.pick(layout_, px, py); }
    const FramePathInfo& path() const { return path_; }
    MinMax range() const { return coloured_ ? coloured_->range : MinMax{0, 1}; }
    bool colouredAhead() const { return colouredAhead_; }
    // True when the last paint copied whole rows of the frame (one pixel per cell, unzoomed
    // or panned by whole cells) rather than looking each pixel's cell up.
    bool frameCopied() const { return copied_; }

private:
    void colour();
    QRect plotPixels() const; // the plot's whole pixels, origin top left
    void paintFrame(QPainter& painter);
    void paintCoast(QPainter& painter, const AnnotationPlan& plan) const; // over the frame
    void paintFill(QPainter& painter, const ColourBarFill& fill) const;   // the colour bar's colours
    void paintInk(QPainter& painter, const InkGroup& ink, double lineWidth) const;

    ImageContent content_;
    std::shared_ptr<const ColouredFrame> coloured_;
    bool colourDirty_ = true, colouredAhead_ = false, copied_ = false;
    std::vector<Rgba8> table_;
    ViewLayout layout_;
    QImage plotImage_; // the plot's pixels, reused from paint to paint
    std::vector<std::int64_t> columns_, rows_;
    FramePathInfo path_;
};

} // namespace strata::detail
