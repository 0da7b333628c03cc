#include "grib_mapping.h"

#include <algorithm>
#include <cmath>

#include "strata/core/error.h"
#include "strata/io/grid_mapping.h"

namespace strata::io::detail {
namespace {

Attribute text(const char* name, const std::string& value) {
    Attribute a;
    a.name = name;
    a.type = DType::Char;
    a.value = value;
    return a;
}

Attribute numbers(const char* name, std::vector<double> values) {
    Attribute a;
    a.name = name;
    a.type = DType::Float64;
    a.value = std::move(values);
    return a;
}

std::optional<double> key(codes_handle* h, const char* name) {
    double v = 0;
    if (!codes_is_defined(h, name) || codes_get_double(h, name, &v) != 0) return std::nullopt;
    return v;
}

// The figure of the earth (GRIB 2 code table 3.2; GRIB 1's sphere), as CF's attributes.
void earth(codes_handle* h, Attributes& out) {
    const double oblate = key(h, "earthIsOblate").value_or(0);
    if (!oblate) {
        out.set(numbers("earth_radius", {key(h, "radius").value_or(6367470.0)}));
        return;
    }
    const auto a = key(h, "earthMajorAxisInMetres"), b = key(h, "earthMinorAxisInMetres");
    const long shape = long(key(h, "shapeOfTheEarth").value_or(5));
    if ((shape == 3 || shape == 7) && a && b && *a > 0 && *b > 0) {
        const double scale = shape == 3 ? 1000.0 : 1.0; // shape 3 gives kilometres
        out.set(numbers("semi_major_axis", {*a * scale}));
        out.set(numbers("semi_minor_axis", {*b * scale}));
    } else if (shape == 2) { // IAU 1965
        out.set(numbers("semi_major_axis", {6378160.0}));
        out.set(numbers("inverse_flattening", {297.0}));
    } else if (shape == 4) { // GRS 80
        out.set(numbers("semi_major_axis", {6378137.0}));
        out.set(numbers("inverse_flattening", {298.257222101}));
    } else { // WGS 84 (5), and the oblate ones not told apart here
        out.set(numbers("semi_major_axis", {6378137.0}));
        out.set(numbers("inverse_flattening", {298.257223563}));
    }
}

double wrap180(double lon) {
    lon = std::fmod(lon, 360.0);
    if (lon > 180) lon -= 360;
    if (lon <= -180) lon += 360;
    return lon;
}

} // namespace

std::optional<GribMapping> gribMapping(codes_handle* h, const std::string& gridType, long ni, long nj,
                                       const std::vector<double>& lat, const std::vector<double>& lon,
                                       std::string& problem) {
    GribMapping m;
    Attributes& a = m.mapping;
    const bool rotated = gridType == "rotated_ll";
    if (rotated) {
        a.set(text("grid_mapping_name", "rotated_latitude_longitude"));
        a.set(
            numbers("grid_north_pole_latitude", {-key(h, "latitudeOfSouthernPoleInDegrees").value_or(-90)}));
        a.set(numbers("grid_north_pole_longitude",
                      {wrap180(key(h, "longitudeOfSouthernPoleInDegrees").value_or(0) + 180)}));
        if (const double turn = key(h, "angleOfRotationInDegrees").value_or(0); turn != 0)
            a.set(numbers("north_pole_grid_longitude", {turn}));
    } else if (gridType == "lambert") {
        const double lat1 = key(h, "Latin1InDegrees").value_or(0),
                     lat2 = key(h, "Latin2InDegrees").value_or(lat1);
        a.set(text("grid_mapping_name", "lambert_conformal_conic"));
        a.set(numbers("standard_parallel",
                      lat1 == lat2 ? std::vector<double>{lat1} : std::vector<double>{lat1, lat2}));
        a.set(numbers("longitude_of_central_meridian", {wrap180(key(h, "LoVInDegrees").value_or(0))}));
        a.set(numbers("latitude_of_projection_origin", {lat1}));
    } else if (gridType == "polar_stereographic") {
        const long centre = long(key(h, "projectionCentreFlag").value_or(0));
        a.set(text("grid_mapping_name", "polar_stereographic"));
        a.set(numbers("latitude_of_projection_origin", {(centre & 128) ? -90.0 : 90.0}));
        a.set(numbers("straight_vertical_longitude_from_pole",
                      {wrap180(key(h, "orientationOfTheGridInDegrees").value_or(0))}));
        a.set(numbers("standard_parallel", {key(h, "LaDInDegrees").value_or((centre & 128) ? -60.0 : 60.0)}));
    } else {
        return std::nullopt;
    }
    if (!rotated) earth(h, a);
    try {
        const Unprojection proj(projDefinition(a));
        const std::size_t n = std::size_t(ni) * std::size_t(nj);
        if (ni < 2 || nj < 2 || lat.size() != n || lon.size() != n) return std::nullopt;
        std::vector<double> px(n), py(n);
        for (std::size_t k = 0; k < n; ++k) {
            const auto p = proj.forward(lon[k], lat[k]);
            px[k] = p.lon;
            py[k] = p.lat;
        }
        m.x.assign(std::size_t(ni), 0.0);
        m.y.assign(std::size_t(nj), 0.0);
        for (long j = 0; j < nj; ++j)
            for (long i = 0; i < ni; ++i) {
                m.x[std::size_t(i)] += px[std::size_t(j * ni + i)] / double(nj);
                m.y[std::size_t(j)] += py[std::size_t(j * ni + i)] / double(ni);
            }
        // Every point on the lattice within a hundredth of a cell.
        const double cell = std::min(std::abs(m.x[1] - m.x[0]), std::abs(m.y[1] - m.y[0]));
        double worst = std::isfinite(cell) && cell > 0 ? 0.0 : HUGE_VAL;
        for (long j = 0; j < nj && std::isfinite(worst); ++j)
            for (long i = 0; i < ni; ++i) {
                const std::size_t k = std::size_t(j * ni + i);
                const double off =
                    std::max(std::abs(px[k] - m.x[std::size_t(i)]), std::abs(py[k] - m.y[std::size_t(j)]));
                worst = std::isfinite(off) ? std::max(worst, off) : HUGE_VAL;
            }
        if (!(worst <= 0.01 * cell)) {
            problem = "its points do not lie on one lattice of the " +
                      a.text("grid_mapping_name").value_or("") + " projection its keys describe (off by " +
                      std::to_string(worst / cell) + " of a cell); kept with 2-D latitude and longitude only";
            return std::nullopt;
        }
    } catch (const Error& e) {
        problem = std::string("its grid mapping cannot be used: ") + e.what();
        return std::nullopt;
    }
    if (rotated) {
        m.xAttrs.set(text("standard_name", "grid_longitude"));
        m.xAttrs.set(text("long_name", "longitude in rotated pole grid"));
        m.xAttrs.set(text("units", "degrees"));
        m.yAttrs.set(text("standard_name", "grid_latitude"));
        m.yAttrs.set(text("long_name", "latitude in rotated pole grid"));
        m.yAttrs.set(text("units", "degrees"));
    } else {
        m.xAttrs.set(text("standard_name", "projection_x_coordinate"));
        m.xAttrs.set(text("long_name", "x coordinate of projection"));
        m.xAttrs.set(text("units", "m"));
        m.yAttrs.set(text("standard_name", "projection_y_coordinate"));
        m.yAttrs.set(text("long_name", "y coordinate of projection"));
        m.yAttrs.set(text("units", "m"));
    }
    m.xAttrs.set(text("axis", "X"));
    m.yAttrs.set(text("axis", "Y"));
    return m;
}

} // namespace strata::io::detail
