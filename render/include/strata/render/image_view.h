#pragma once
// ImageView: the on-screen view of a 2-D frame — the frame on its coordinates, axes, colour
// bar and title; wheel to zoom about the cursor, drag to pan, double-click to reset; hovering
// reports the cell under the cursor. What it shows is the plain ImageViewSettings state.
#include <QImage>
#include <memory>

#include "strata/render/frame_texture.h"
#include "strata/render/image_settings.h"
#include "strata/render/vtk_gl_widget.h"

namespace strata {
namespace detail {
class ImageScene;
}

class ImageView : public VtkGlWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);
    ~ImageView() override;

    void setFrame(ImageFrame frame); // throws ValueError for a frame that is not 2-D
    void clearFrame();
    void setSettings(const ImageViewSettings& settings); // throws ValueError for an unknown map
    const ImageViewSettings& settings() const;
    void resetView(); // the whole frame again

    // Which path the last frame took to the screen and why; the colour range it was drawn with.
    FramePathInfo framePath() const;
    MinMax colourRange() const;
    // The last error met while drawing (empty when none): drawing never throws into Qt.
    QString lastError() const { return lastError_; }
    // How many of the annotation groups (axes, colour bar, title) the last paint made afresh;
    // a step through time should remake only what it changes.
    int annotationGroupsRebuilt() const;
    // True when the last paint copied the frame's texture onto whole pixels (a regular grid,
    // not zoomed) rather than drawing it as a textured mesh.
    bool frameCopied() const;
    // True when the last frame uploaded was the one colour-mapped ahead (ImageFrame::coloured).
    bool colouredAhead() const;

    // The cell under a point in widget coordinates (logical pixels, origin top left), as
    // of the last paint.
    Pick pickAt(QPointF widgetPosition) const;
    // What the view shows now (settings, zoom and pan included), drawn offscreen at
    // `pixels`, fonts and margins scaled with the ratio to the widget's size.
    QImage renderImage(QSize pixels) const;

signals:
    void cellHovered(const strata::Pick& pick);
    void cellClicked(const strata::Pick& pick); // a press and release without a drag between
    void settingsChanged(const strata::ImageViewSettings& settings); // zoom and pan
    void framePathChanged(const strata::FramePathInfo& path);
    void drawError(const QString& message);

protected:
    void prepareRender(int widthPixels, int heightPixels, double devicePixelRatio) override;
    void releaseScene() override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;

private:
    QPointF toPixels(QPointF widgetPosition) const; // device pixels, origin bottom left
    void setWindow(const ViewWindow& w);

    std::unique_ptr<detail::ImageScene> scene_;
    FramePath lastPath_ = FramePath::None;
    QString lastError_;
    bool dragging_ = false;
    QPointF dragFrom_;
    QPointF pressedAt_;
};

} // namespace strata
