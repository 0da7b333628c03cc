#pragma once
// What the window's map tests check pictures by: places on the sphere as unit vectors, the map
// image's pixels, and a walk over a plate carrée map of cells comparing each pixel's colour with
// what its place allows.
#include <QImage>
#include <QString>
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <vector>

#include "render/render_fixtures.h"
#include "strata/render/projection.h"
#include "strata/render/view_layout.h"

namespace test::maps {

using strata::PixelRect;
using strata::Projection;
using strata::Rgba8;
using strata::ViewTransform;
using strata::ViewWindow;

// A longitude/latitude (degrees) as a unit vector: the chord between two such points orders
// them as their great-circle distance does.
using Unit = std::array<double, 3>;
inline Unit unitVector(double lon, double lat) {
    const double l = lon * M_PI / 180, b = lat * M_PI / 180;
    return {std::cos(b) * std::cos(l), std::cos(b) * std::sin(l), std::sin(b)};
}
inline double chord(const Unit& a, const Unit& b) {
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
}
// The map image a small grid is resampled into is 720 pixels across (image_content.cpp: 4/3 of a
// pixel a column of cells, or twice the square root of a count of sphere cells, but 720 to
// 1920): stage IV's 87 columns, a HEALPix nside 16 and an MPAS mesh of 162 cells alike. As many
// down as its aspect gives, over the map window the view shows unzoomed.
constexpr double kMapPixelsAcross = 720;

// Whether the plate carrée graticule (every 30° of longitude and latitude) passes within about a
// pixel of view pixel (i, j): its ink is drawn over the cells there.
inline bool nearGraticule(const ViewTransform& t, int i, int j) {
    std::vector<double> x{t.dataX(i - 1), t.dataX(i + 2)}, y{t.dataY(j - 1), t.dataY(j + 2)};
    Projection::byName("PlateCarree").inverse(x, y);
    const auto crosses = [](double a, double b) { return std::floor(a / 30) != std::floor(b / 30); };
    return crosses(x[0], x[1]) || crosses(y[0], y[1]);
}

// A plate carrée map of cells in `img` (device pixels) checked at every 5th pixel of the plot,
// 2 pixels inside it and away from the graticule: `want(lon, lat)` gives the colours allowed for
// the map pixel under each view pixel's centre (degrees). `t`: the view's plot and its window,
// unzoomed; the map image kMapPixelsAcross pixels across.
struct CellsCheck {
    long checked = 0, wrong = 0;
    QString first;
    bool ok() const { return checked > 2500 && wrong * 200 <= checked; }
    QString what() const {
        return QString("%1 of %2 pixels wrong; first %3").arg(wrong).arg(checked).arg(first);
    }
};
inline CellsCheck checkCellsMap(const QImage& img, const ViewTransform& t,
                                const std::function<std::vector<Rgba8>(double, double)>& want) {
    const ViewWindow& window = t.window();
    const double across = window.x1 - window.x0, down = window.y1 - window.y0;
    const double dx = across / kMapPixelsAcross, dy = down / std::lround(kMapPixelsAcross * down / across);
    const PixelRect& plot = t.plot();
    CellsCheck c;
    for (int j = int(std::ceil(plot.y0 + 2)); j + 0.5 < plot.y1 - 2; j += 5)
        for (int i = int(std::ceil(plot.x0 + 2)); i + 0.5 < plot.x1 - 2; i += 5) {
            if (nearGraticule(t, i, j)) continue;
            std::vector<double> x{window.x0 + (std::floor((t.dataX(i + 0.5) - window.x0) / dx) + 0.5) * dx},
                y{window.y0 + (std::floor((t.dataY(j + 0.5) - window.y0) / dy) + 0.5) * dy};
            Projection::byName("PlateCarree").inverse(x, y);
            const std::vector<Rgba8> allowed = want(x[0], y[0]);
            const Rgba8 got = test::colourAt(img, i + 0.5, j + 0.5);
            ++c.checked;
            if (std::find(allowed.begin(), allowed.end(), got) != allowed.end()) continue;
            if (c.wrong++ == 0)
                c.first = QString("pixel (%1, %2) at lon %3 lat %4: %5, want %6")
                              .arg(i)
                              .arg(j)
                              .arg(x[0])
                              .arg(y[0])
                              .arg(test::str(got), test::str(allowed.at(0)));
        }
    return c;
}

} // namespace test::maps
