#include "strata/render/image_export.h"

#include "image_scene.h"
#include "offscreen.h"
#include "strata/core/error.h"

namespace strata {

QImage renderImage(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels, double scale) {
    detail::OffscreenWindow off(pixels.width(), pixels.height());
    QImage image;
    {
        detail::ImageScene scene;
        scene.setSettings(settings);
        scene.setFrame(frame);
        scene.attach(off.window());
        off.makeCurrent();
        try {
            scene.prepare(pixels.width(), pixels.height(), scale);
            off.render();
            image = off.grab();
        } catch (...) {
            off.makeCurrent();
            scene.releaseGl();
            throw;
        }
        off.makeCurrent();
        scene.releaseGl(); // GL objects die with their context current
        off.window()->ReleaseGraphicsResources(off.window());
    }
    return image;
}

void exportPng(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels, const QString& path,
               double scale) {
    QImage image = renderImage(frame, settings, pixels, scale);
    STRATA_EXPECTS(image.save(path, "PNG"), IoError, "could not write the PNG file " + path.toStdString());
}

} // namespace strata
