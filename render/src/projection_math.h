#pragma once
// The map projections' own formulas, compiled for the host and for CUDA devices alike: the
// inverse (map metres to longitude/latitude) the resampling kernel runs for each output pixel,
// the forward used for the map's extent and the graticule, and the lookup of a longitude and
// latitude in the source grid's cell edges. Each projection is on a sphere of radius R, exactly
// as the PROJ string of projection.cpp defines it for PROJ (tst_projection checks the two
// agree). No PROJ, no CUDA headers: plain arithmetic on a trivially copyable parameter block.
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define STRATA_HD __host__ __device__ __forceinline__
#else
#define STRATA_HD inline
#endif

namespace strata::detail {

enum class ProjKind : int {
    PlateCarree,
    Robinson,
    Mollweide,
    NorthPolarStereo,
    SouthPolarStereo,
    LambertConformal
};

inline constexpr int kRobinsonIntervals = 18; // 5° each, from the equator to the pole
// Where PROJ's Robinson inverse puts the pole: y / R = 1.3523. Its table's last cubic reaches
// 0.46 m further; a point in that band is off the map for both inverses.
inline constexpr double kRobinsonPoleY = 1.3523;

struct ProjParams {
    ProjKind kind = ProjKind::PlateCarree;
    double R = 6371000;       // the sphere's radius, metres
    double lon0 = 0;          // central longitude, radians
    double latLo = -M_PI / 2; // latitudes drawn, radians (the polar and conic maps stop short)
    double latHi = M_PI / 2;
    double n = 0, F = 0, rho0 = 0; // Lambert conformal: cone constant, F and ρ0 over R
    // Robinson: on interval i (latitude 5i° to 5i + 5°, t degrees above 5i°), x / (R λ) and
    // y / R as cubics c0 + c1 t + c2 t² + c3 t³ (fitted to PROJ's own forward in projection.cpp).
    double robX[kRobinsonIntervals][4] = {};
    double robY[kRobinsonIntervals][4] = {};
};

STRATA_HD double cubic(const double* c, double t) { return c[0] + t * (c[1] + t * (c[2] + t * c[3])); }
STRATA_HD double cubicSlope(const double* c, double t) { return c[1] + t * (2 * c[2] + t * 3 * c[3]); }

// Longitude (radians) from the central meridian, wrapped into [-π, π].
STRATA_HD double wrapPi(double a) {
    a = std::fmod(a + M_PI, 2 * M_PI);
    if (a < 0) a += 2 * M_PI;
    return a - M_PI;
}

// Map metres (x, y) to (lon, lat) in radians; lon is lon0 + [-π, π]. False where (x, y) is off
// the map: beyond the globe's outline, or at latitudes the map does not draw.
STRATA_HD bool projInverse(const ProjParams& p, double x, double y, double& lon, double& lat) {
    const double X = x / p.R, Y = y / p.R;
    double dl = 0;
    lat = 0; // each case sets it; a compiler that cannot see every kind covered sees it set

    switch (p.kind) {
    case ProjKind::PlateCarree:
        if (!(std::fabs(X) <= M_PI && std::fabs(Y) <= M_PI / 2)) return false;
        dl = X;
        lat = Y;
        break;
    case ProjKind::Robinson: {
        const double ay = std::fabs(Y);
        const int last = kRobinsonIntervals - 1;
        if (!(ay < kRobinsonPoleY)) return false;
        int i = 0; // the interval whose span of y holds ay (y grows with latitude)
        while (i < last && ay > cubic(p.robY[i + 1], 0.0)) ++i;
        const double* c = p.robY[i];
        const double y0 = cubic(c, 0.0), y1 = cubic(c, 5.0);
        double t = y1 > y0 ? 5 * (ay - y0) / (y1 - y0) : 0; // Newton from the chord's guess
        for (int k = 0; k < 8; ++k) {
            const double step = (cubic(c, t) - ay) / cubicSlope(c, t);
            t -= step;
            if (std::fabs(step) < 1e-13) break;
        }
        lat = (5.0 * i + t) * (M_PI / 180);
        if (Y < 0) lat = -lat;
        dl = X / cubic(p.robX[i], t);
        if (!(std::fabs(dl) <= M_PI)) return false;
        break;
    }
    case ProjKind::Mollweide: {
        const double s = Y / M_SQRT2;
        if (!(std::fabs(s) <= 1)) return false;
        const double theta = std::asin(s), c = std::cos(theta);
        const double cx = 2 * M_SQRT2 / M_PI;
        dl = c > 0 ? X / (cx * c) : 0;
        if (!(std::fabs(dl) <= M_PI)) return false;
        const double q = (2 * theta + std::sin(2 * theta)) / M_PI;
        lat = std::asin(q > 1 ? 1 : q < -1 ? -1 : q);
        break;
    }
    case ProjKind::NorthPolarStereo:
    case ProjKind::SouthPolarStereo: {
        const double rho = std::hypot(X, Y), c = 2 * std::atan(rho / 2);
        const bool north = p.kind == ProjKind::NorthPolarStereo;
        lat = north ? M_PI / 2 - c : c - M_PI / 2;
        dl = rho > 0 ? (north ? std::atan2(X, -Y) : std::atan2(X, Y)) : 0;
        break;
    }
    case ProjKind::LambertConformal: {
        const double sgn = p.n < 0 ? -1 : 1;
        const double dy = p.rho0 - Y;
        const double rho = sgn * std::hypot(X, dy);
        const double theta = std::atan2(sgn * X, sgn * dy);
        dl = theta / p.n;
        if (!(std::fabs(dl) <= M_PI)) return false;
        if (rho == 0) {
            lat = sgn * M_PI / 2;
        } else {
            lat = 2 * std::atan(std::pow(p.F / rho, 1 / p.n)) - M_PI / 2;
        }
        break;
    }
    }
    if (!(lat >= p.latLo && lat <= p.latHi)) return false;
    lon = p.lon0 + dl;
    return true;
}

// (lon, lat) in radians to map metres; false where the point is not drawn (latitudes beyond
// the map's, the conic's apex side of the pole).
STRATA_HD bool projForward(const ProjParams& p, double lon, double lat, double& x, double& y) {
    if (!(lat >= p.latLo && lat <= p.latHi)) return false;
    const double dl = wrapPi(lon - p.lon0);
    double X = 0, Y = 0;
    switch (p.kind) {
    case ProjKind::PlateCarree:
        X = dl;
        Y = lat;
        break;
    case ProjKind::Robinson: {
        const double deg = std::fabs(lat) * (180 / M_PI);
        int i = static_cast<int>(std::floor(deg / 5));
        if (i >= kRobinsonIntervals) i = kRobinsonIntervals - 1;
        const double t = deg - 5.0 * i;
        X = dl * cubic(p.robX[i], t);
        Y = cubic(p.robY[i], t);
        if (lat < 0) Y = -Y;
        break;
    }
    case ProjKind::Mollweide: {
        // 2θ + sin 2θ = π sin φ, by Newton from θ = φ (exact at the poles).
        const double k = M_PI * std::sin(lat);
        double theta = lat;
        for (int it = 0; it < 30 && std::fabs(std::fabs(lat) - M_PI / 2) > 1e-12; ++it) {
            const double f = 2 * theta + std::sin(2 * theta) - k, d = 2 + 2 * std::cos(2 * theta);
            if (d == 0) break;
            const double step = f / d;
            theta -= step;
            if (std::fabs(step) < 1e-14) break;
        }
        X = 2 * M_SQRT2 / M_PI * dl * std::cos(theta);
        Y = M_SQRT2 * std::sin(theta);
        break;
    }
    case ProjKind::NorthPolarStereo: {
        const double rho = 2 * std::tan(M_PI / 4 - lat / 2);
        X = rho * std::sin(dl);
        Y = -rho * std::cos(dl);
        break;
    }
    case ProjKind::SouthPolarStereo: {
        const double rho = 2 * std::tan(M_PI / 4 + lat / 2);
        X = rho * std::sin(dl);
        Y = rho * std::cos(dl);
        break;
    }
    case ProjKind::LambertConformal: {
        const double rho = p.F / std::pow(std::tan(M_PI / 4 + lat / 2), p.n);
        X = rho * std::sin(p.n * dl);
        Y = p.rho0 - rho * std::cos(p.n * dl);
        break;
    }
    }
    x = X * p.R;
    y = Y * p.R;
    return std::isfinite(x) && std::isfinite(y);
}

// The cell of `edges` (n + 1 values, ascending or descending) holding v, as cellIndex() finds
// it (a value on an inner edge belongs to the next cell in the edges' order); -1 outside.
STRATA_HD std::int64_t findCell(const double* edges, std::int64_t n, double v) {
    const bool desc = edges[n] < edges[0];
    const double lo = desc ? edges[n] : edges[0], hi = desc ? edges[0] : edges[n];
    if (!(v >= lo && v <= hi)) return -1;
    std::int64_t a = 0, b = n - 1;
    while (a < b) {
        const std::int64_t m = (a + b + 1) / 2;
        if (desc ? edges[m] >= v : edges[m] <= v)
            a = m;
        else
            b = m - 1;
    }
    return a;
}

// Where the source grid's cells are: longitude edges (degrees, any span: a point is looked up
// at the multiple of 360° that brings it above the lowest edge) and latitude edges.
struct SourceEdges {
    const double* lon = nullptr;
    std::int64_t nlon = 0;
    const double* lat = nullptr;
    std::int64_t nlat = 0;
};

// The source cell (row = latitude cell, column = longitude cell) at (lon, lat) in radians;
// false outside the grid.
STRATA_HD bool sourceCell(const SourceEdges& s, double lon, double lat, std::int64_t& row,
                          std::int64_t& col) {
    const double lonDeg = lon * (180 / M_PI), latDeg = lat * (180 / M_PI);
    const double lo = s.lon[0] < s.lon[s.nlon] ? s.lon[0] : s.lon[s.nlon];
    double v = std::fmod(lonDeg - lo, 360.0);
    if (v < 0) v += 360;
    col = findCell(s.lon, s.nlon, lo + v);
    row = findCell(s.lat, s.nlat, latDeg);
    return col >= 0 && row >= 0;
}

// The output image's pixels: `width` × `height` over [x0, x1] × [y0, y1] map metres, row 0 at
// the bottom (y0), each pixel sampled at its centre.
struct MapPixels {
    double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
    std::int64_t width = 0, height = 0;
    STRATA_HD double x(std::int64_t i) const {
        return x0 + (static_cast<double>(i) + 0.5) * (x1 - x0) / width;
    }
    STRATA_HD double y(std::int64_t j) const {
        return y0 + (static_cast<double>(j) + 0.5) * (y1 - y0) / height;
    }
};

} // namespace strata::detail
