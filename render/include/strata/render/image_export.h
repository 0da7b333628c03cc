#pragma once
// PNG export of the image view: the same scene as on screen (frame, axes, colour bar, title),
// rendered offscreen at a requested size. Needs an X display (Debian's VTK draws only through
// X): under a batch job, run inside xvfb-run.
#include <QImage>
#include <QSize>
#include <QString>
#include <memory>
#include <string>

#include "strata/render/image_settings.h"

namespace strata {

// Renders `frame` as the image view would with `settings` into an image of `pixels`;
// `scale` multiplies fonts, margins and line widths (2 for a picture twice the on-screen
// size). Throws Error when no GL window can be made (no display) or the frame is not 2-D.
QImage renderImage(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels,
                   double scale = 1);

// Pictures of one size drawn one after another (a movie's frames) in one offscreen GL window:
// what the GL driver builds for the first (shaders, textures, glyphs) serves the rest, so each
// later picture costs its drawing alone. Throws as renderImage.
class ImageRenderer {
public:
    virtual ~ImageRenderer() = default;
    virtual QImage render(const ImageFrame& frame, const ImageViewSettings& settings) = 0;
};
std::unique_ptr<ImageRenderer> makeImageRenderer(QSize pixels, double scale = 1);

// The coastlines renderImage draws for the same arguments: "GSHHG 2.3.7 crude (25 km),
// /usr/share/gmt-gshhg (gmt-gshhg-low)"; empty when none (off, not a map or a lon/lat frame, or
// none can be read: coastlineProblem() says why).
std::string coastlinesDrawn(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels,
                            double scale = 1);
// Why the contours settings.contours asks for are not drawn over the frame (a projection, a GPU
// frame); empty when they are. Nothing is computed.
std::string contoursProblem(const ImageFrame& frame, const ImageViewSettings& settings);
// Why the vectors settings.vectors asks for are not drawn (no pair, a pair on another grid);
// empty when they are. Nothing is computed.
std::string vectorsProblem(const ImageFrame& frame, const ImageViewSettings& settings);

// renderImage written to `path` as PNG; throws IoError naming the path when that fails.
void exportPng(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels, const QString& path,
               double scale = 1);

} // namespace strata
