#pragma once
// ImageView: the on-screen view of a 2-D frame — the frame on its coordinates, axes, colour
// bar and title; wheel to zoom about the cursor, drag to pan, double-click to reset; hovering
// reports the cell under the cursor (and shows a title shortened to fit whole); a click (one
// that is not half of a double-click) reports it. What it shows is the plain ImageViewSettings
// state.
//
// Two ways to the screen, chosen per frame: a frame on a device goes through GL (CUDA-GL
// interop where the GPU allows: no byte crosses to the host), in a native GL window of the
// view's own, made by the VTK views module (strata/render/vtk_views.h), loaded with the first
// such frame; a frame on the host is painted straight into the window with Qt's
// raster engine, with no GL and no VTK at all (no upload to a GL that may run in software, and
// no GL driver, shader compile or VTK load before the first frame). ImagePresentation::Gl sends
// host frames through GL too. Both lay the view out, pick and zoom alike. When the module
// cannot be loaded, frames are painted with the raster engine and drawError says why.
#include <QImage>
#include <QWidget>
#include <cstdint>
#include <memory>

#include "strata/render/frame_texture.h"
#include "strata/render/image_settings.h"

class QTimer;
class QWindow;

namespace strata {
namespace detail {
class RasterScene;
class ImageContent;
} // namespace detail
class GlImageSurface;

enum class ImagePresentation {
    Auto, // host frames painted with the raster engine, device frames through GL
    Gl,   // every frame through GL (host frames uploaded into a texture)
};

class ImageView : public QWidget {
    Q_OBJECT
public:
    explicit ImageView(QWidget* parent = nullptr);
    ~ImageView() override;

    void setPresentation(ImagePresentation p); // takes effect at the next frame
    // Makes the GL surface now (hidden) rather than at the first device frame: the VTK views'
    // module loaded, the GL context made. For a window that expects a device frame and has time
    // while the first is computed (the CUDA driver's start).
    void prepareGl();
    ImagePresentation presentation() const { return presentation_; }
    bool drawsWithGl() const { return gl_; } // the current frame goes through GL

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
    // Through GL: how many of the annotation groups (axes, colour bar, title) the last paint
    // made afresh (a step through time should remake only what it changes). Raster: -1 (it
    // paints them each time, well under a millisecond).
    int annotationGroupsRebuilt() const;
    // Through GL: how many text labels the last paint drew afresh; a rebuilt group moves the
    // labels it had that read the same (their text is not drawn again). Raster: -1.
    int annotationLabelsDrawn() const;
    // True when the last paint copied the frame onto whole pixels (a regular grid, not zoomed)
    // rather than drawing it as a textured mesh (GL) or looking each pixel's cell up (raster).
    bool frameCopied() const;
    // True when the last frame drawn was the one colour-mapped ahead (ImageFrame::coloured).
    bool colouredAhead() const;
    // The coastlines the last paint drew: "GSHHG 2.3.7 high (0.2 km), /usr/share/gmt-gshhg
    // (gmt-gshhg-high)"; empty when it drew none.
    QString coastlinesDrawn() const;
    // Why coastlines are not drawn, or are drawn coarser than asked (a file that cannot be read);
    // empty when nothing is wrong.
    QString coastlinesProblem() const;

    // The cell under a point in widget coordinates (logical pixels, origin top left), as
    // of the last paint.
    Pick pickAt(QPointF widgetPosition) const;
    // Where the plot and the colour bar lie, as of the last paint (device pixels, origin bottom
    // left), and the data window the plot shows (map metres on a map): what tests place pixels by.
    const ViewLayout& layout() const;
    ViewWindow window() const;
    // What the view shows now (settings, zoom and pan included), drawn offscreen at
    // `pixels`, fonts and margins scaled with the ratio to the widget's size.
    QImage renderImage(QSize pixels) const;
    // What is on the screen now, in device pixels (drawn anew; null before the GL window has a
    // context).
    QImage grabImage();
    // Asks for a new frame at the next update (requests before it are merged into one).
    void requestRender();
    // The GL window frames are drawn in (for tests that need it exposed); null while raster.
    QWindow* glWindow() const;
    // A click waits the double-click interval before cellClicked: a second click in it makes a
    // double-click (a zoom reset), and the first one is dropped.
    bool clickPending() const;
    // The whole title when `widgetPosition` is on the title's line and the title is shortened
    // there to fit the view (hovering there shows it as a tooltip); else empty.
    QString titleToolTipAt(QPointF widgetPosition) const;
    // Particles (settings().vectors Particles) move a step each display frame, about 60 a second,
    // while the view is shown with a frame and they are not paused; settings().particleTime
    // counts the steps (the view's own clock: setSettings does not set it).
    void setParticlesPaused(bool paused);
    bool particlesPaused() const { return particlesPaused_; }
    bool particlesMoving() const; // the clock runs

signals:
    void cellHovered(const strata::Pick& pick);
    // A press and release without a drag between, not followed by a double-click.
    void cellClicked(const strata::Pick& pick);
    // The user zoomed, panned or reset the view (settings.window); not sent for setSettings.
    void settingsChanged(const strata::ImageViewSettings& settings);
    void framePathChanged(const strata::FramePathInfo& path);
    void drawError(const QString& message);
    // After each frame has reached the window system (GL swapped, or the raster flushed).
    void presented();

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void mouseDoubleClickEvent(QMouseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void hideEvent(QHideEvent* e) override;

private:
    void useGl(bool gl);
    void glPrepared(const std::exception* e); // after each GL prepare
    void drawFailed(const std::exception& e); // forgets the frame, reports the error
    void notePath();
    const detail::ImageContent& content() const;
    QPointF toPixels(QPointF widgetPosition) const; // device pixels, origin bottom left
    void setWindow(const ViewWindow& w);
    void updateParticleClock(); // runs exactly while particles should move
    void particleTick();        // a step: the scenes' settings with the next particleTime

    ImagePresentation presentation_ = ImagePresentation::Auto;
    bool gl_ = false;
    std::unique_ptr<detail::RasterScene> raster_;
    std::unique_ptr<GlImageSurface> surface_; // GL, made when first needed
    QString glUnavailable_;                   // why it cannot be made (once tried)
    FramePath lastPath_ = FramePath::None;
    QString lastError_;
    bool dragging_ = false;
    QPointF dragFrom_;
    QPointF pressedAt_;
    QTimer* clickTimer_;
    Pick pendingClick_;
    bool inDoubleClick_ = false; // its release is no click
    bool titleTipShown_ = false;
    QTimer* particleTimer_;
    bool particlesPaused_ = false;
    std::uint64_t particleTime_ = 0;
};

} // namespace strata
