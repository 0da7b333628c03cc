#include "strata/render/image_export.h"

#include "image_content.h"
#include "strata/core/error.h"
#include "strata/render/vtk_views.h"

namespace strata {

QImage renderImage(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels, double scale) {
    return makeImageRenderer(pixels, scale)->render(frame, settings);
}

std::unique_ptr<ImageRenderer> makeImageRenderer(QSize pixels, double scale) {
    return vtkViews().makeImageRenderer(pixels, scale);
}

std::string coastlinesDrawn(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels,
                            double scale) {
    detail::ImageContent content; // as the scenes lay it out, without drawing
    content.setSettings(settings);
    content.setFrame(frame);
    const ViewLayout layout = content.layoutFor(pixels.width(), pixels.height(), scale);
    (void)content.annotations(layout, {}, {0, 1});
    return content.coastDrawn().description;
}

std::string contoursProblem(const ImageFrame& frame, const ImageViewSettings& settings) {
    detail::ImageContent content;
    content.setSettings(settings);
    content.setFrame(frame);
    return content.contourProblem();
}

std::string vectorsProblem(const ImageFrame& frame, const ImageViewSettings& settings) {
    detail::ImageContent content;
    content.setSettings(settings);
    content.setFrame(frame);
    return content.vectorProblem();
}

void exportPng(const ImageFrame& frame, const ImageViewSettings& settings, QSize pixels, const QString& path,
               double scale) {
    QImage image = renderImage(frame, settings, pixels, scale);
    STRATA_EXPECTS(image.save(path, "PNG"), IoError, "could not write the PNG file " + path.toStdString());
}

} // namespace strata
