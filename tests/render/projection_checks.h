#pragma once
// What tst_projection (the formulas) and tst_reprojection (the resampling) share: random points
// and frames, axes, the nearest-centre lookup the resampling is checked against, and the rows of
// every known projection.
#include <QtTest>
#include <cmath>
#include <cstring>
#include <random>

#include "strata/core/data_array.h"
#include "strata/render/projection.h"

namespace projtest {

using namespace strata;

inline constexpr double kDeg = M_PI / 180;

inline double lonDiff(double a, double b) { return std::fabs(std::remainder(a - b, 360.0)); }

// n random points over the map's extent (a tenth beyond each side), metres.
inline void randomPoints(const Projection& p, std::mt19937_64& rng, int n, std::vector<double>& x,
                         std::vector<double>& y) {
    const MapExtent e = p.extent();
    std::uniform_real_distribution<double> ux(e.x0 - 0.1 * e.width(), e.x1 + 0.1 * e.width()),
        uy(e.y0 - 0.1 * e.height(), e.y1 + 0.1 * e.height());
    x.resize(static_cast<std::size_t>(n));
    y.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        x[static_cast<std::size_t>(i)] = ux(rng);
        y[static_cast<std::size_t>(i)] = uy(rng);
    }
}

// The centres of a regular axis: n values from v0 in steps of dv.
inline std::vector<double> axis(double v0, double dv, int n) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = v0 + dv * i;
    return v;
}

// The index of the centre nearest to v (longitudes compared modulo 360 when `periodic`), or -1
// beyond half a step past the end centres.
inline std::int64_t nearestCentre(const std::vector<double>& c, double v, bool periodic) {
    std::int64_t best = -1;
    double d = 1e300;
    for (std::size_t i = 0; i < c.size(); ++i) {
        const double di = periodic ? lonDiff(v, c[i]) : std::fabs(v - c[i]);
        if (di < d) {
            d = di;
            best = static_cast<std::int64_t>(i);
        }
    }
    const double half = std::fabs(c[1] - c[0]) / 2;
    return d <= half ? best : -1;
}

// Whether a pixel's cell could be either of two: its own-formula and PROJ lon/lat disagree on
// being on the map, or they lie within 1e-6° of a boundary between cells.
inline bool ambiguous(double lonP, double latP, bool ownOk, double lonO, double latO,
                      const std::vector<double>& lon, const std::vector<double>& lat) {
    if (std::isnan(lonP) != !ownOk) return true;
    if (!ownOk) return false;
    auto nearEdge = [](const std::vector<double>& c, double v, bool periodic) {
        for (std::size_t i = 0; i + 1 < c.size(); ++i) {
            const double mid = (c[i] + c[i + 1]) / 2;
            if ((periodic ? lonDiff(v, mid) : std::fabs(v - mid)) < 1e-6) return true;
        }
        const double half = (c[1] - c[0]) / 2;
        for (double end : {c.front() - half, c.back() + half})
            if ((periodic ? lonDiff(v, end) : std::fabs(v - end)) < 1e-6) return true;
        return false;
    };
    return nearEdge(lon, lonO, true) || nearEdge(lat, latO, false) || nearEdge(lon, lonP, true) ||
           nearEdge(lat, latP, false);
}

inline DataArray randomFrame(std::mt19937_64& rng, std::int64_t nlat, std::int64_t nlon, double nanShare) {
    std::uniform_real_distribution<float> v(-50, 50);
    std::bernoulli_distribution nan(nanShare);
    std::vector<float> values(static_cast<std::size_t>(nlat * nlon));
    for (float& f : values) f = nan(rng) ? std::nanf("") : v(rng);
    return DataArray::fromHost("t", {"lat", "lon"}, {nlat, nlon}, values);
}

inline std::vector<std::uint32_t> bits(const DataArray& a) {
    const DataArray h = a.asHost();
    std::vector<std::uint32_t> out(static_cast<std::size_t>(h.size()) * sizeOf(h.dtype()) / 4);
    std::memcpy(out.data(), h.variable().view().data, out.size() * 4);
    return out;
}

inline void projectionRows() {
    QTest::addColumn<QString>("name");
    for (const std::string& n : Projection::knownNames())
        QTest::newRow(n.c_str()) << QString::fromStdString(n);
}

} // namespace projtest
