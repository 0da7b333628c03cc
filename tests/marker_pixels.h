#pragma once
// The line plot's step marker as a picture shows it (render and window tests alike): its
// orange pixels, and the column it stands in.
#include <QImage>
#include <cstdlib>

#include "strata/render/line_plot.h"

namespace test {

// Pixels of the marker's colour (orange), antialiasing allowed; the series' blue, the text and
// the axes are far from it.
inline bool isMarker(QRgb c) {
    using strata::kMarkerRgb;
    return std::abs(qRed(c) - kMarkerRgb[0]) < 50 && std::abs(qGreen(c) - kMarkerRgb[1]) < 50 &&
           qBlue(c) < kMarkerRgb[2] + 70;
}

// The middle of the columns that hold a vertical run of marker pixels over a third of the
// picture's height, in the picture's pixels (a column's centre at x + 0.5); -1 when none do.
inline double markerColumn(const QImage& img) {
    double sum = 0;
    int n = 0;
    for (int x = 0; x < img.width(); ++x) {
        int count = 0;
        for (int y = 0; y < img.height(); ++y) count += isMarker(img.pixel(x, y));
        if (count > img.height() / 3) {
            sum += x + 0.5;
            ++n;
        }
    }
    return n ? sum / n : -1;
}

} // namespace test
