#pragma once
// Frames with known content for the image tests, and reading the colour a render gave a cell.
#include <QImage>
#include <cmath>
#include <vector>

#include "strata/render/colormaps.h"
#include "strata/render/image_settings.h"
#include "strata/render/view_layout.h"

namespace test {

using namespace strata;

inline Coordinate axis(const std::string& name, std::vector<double> v, const char* units,
                       const char* longName) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {static_cast<std::int64_t>(v.size())};
    c.values = std::move(v);
    c.attrs.set({"units", DType::Char, std::string(units)});
    c.attrs.set({"long_name", DType::Char, std::string(longName)});
    return c;
}

// f(lon, lat) = cos(lat) · sin(2 lon) on a 2.5° grid (144 × 73), latitude ascending or not;
// optionally NaN where 90 <= lon < 150 and 0 <= lat < 30.
inline double analytic(double lon, double lat) {
    const double d = M_PI / 180;
    return std::cos(lat * d) * std::sin(2 * lon * d);
}
inline bool inNanBlock(double lon, double lat) { return lon >= 90 && lon < 150 && lat >= 0 && lat < 30; }

inline DataArray lonLatFrame(bool latAscending, bool withNan) {
    std::vector<double> lon, lat;
    for (int i = 0; i < 144; ++i) lon.push_back(2.5 * i);
    for (int j = 0; j < 73; ++j) lat.push_back(latAscending ? -90 + 2.5 * j : 90 - 2.5 * j);
    std::vector<float> v;
    for (double la : lat)
        for (double lo : lon)
            v.push_back(withNan && inNanBlock(lo, la) ? NAN : static_cast<float>(analytic(lo, la)));
    Coordinates cs;
    cs.set(axis("lat", lat, "degrees_north", "latitude"));
    cs.set(axis("lon", lon, "degrees_east", "longitude"));
    DataArray a = DataArray::fromHost("f", {"lat", "lon"}, {73, 144}, v, cs);
    Variable var = a.variable();
    var.attrs().set({"long_name", DType::Char, std::string("analytic field")});
    var.attrs().set({"units", DType::Char, std::string("1")});
    return DataArray("f", var, cs);
}

// The LUT entry the colour map gives `v` (from ops.h's definition, computed here).
inline Rgba8 expectedColour(const std::vector<Rgba8>& table, double v, double vmin, double vmax, Rgba8 nan) {
    if (std::isnan(v)) return nan;
    const double t = (v - vmin) / (vmax - vmin);
    const long n = static_cast<long>(table.size());
    long i = static_cast<long>(std::floor(t * static_cast<double>(n)));
    i = std::clamp(i, 0L, n - 1);
    return table[static_cast<std::size_t>(i)];
}

// The colour at window pixel (px, py) (origin bottom left) of a render.
inline Rgba8 colourAt(const QImage& img, double px, double py) {
    const QRgb c =
        img.pixel(static_cast<int>(std::floor(px)), img.height() - 1 - static_cast<int>(std::floor(py)));
    return {static_cast<std::uint8_t>(qRed(c)), static_cast<std::uint8_t>(qGreen(c)),
            static_cast<std::uint8_t>(qBlue(c)), 255};
}

inline QString str(const Rgba8& c) { return QString("(%1, %2, %3)").arg(c.r).arg(c.g).arg(c.b); }

} // namespace test

namespace strata {
// How QCOMPARE prints a plot or bar rectangle (found by argument-dependent lookup).
inline char* toString(const PixelRect& r) {
    return qstrdup(QString("x %1…%2, y %3…%4").arg(r.x0).arg(r.x1).arg(r.y0).arg(r.y1).toUtf8().constData());
}
} // namespace strata
