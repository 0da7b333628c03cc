#pragma once
// The geometry FaceLocator (face_locator.h) builds on, beside face_find.h's vectors: the lon/lat
// box that holds a spherical polygon whose edges are great-circle arcs.
#include <algorithm>
#include <cmath>
#include <cstdint>

#include "face_find.h"

namespace strata::mesh::detail {

// A face's box: latitudes latLo..latHi, longitudes lonLo..lonHi unwrapped (lonHi - lonLo may
// pass 180 for a face across the antimeridian; allLon for a face around a pole).
struct Box {
    double latLo, latHi, lonLo, lonHi;
    bool allLon;
};

// The box of the polygon whose n corners are `corner(k)` (unit vectors) at lon[k], lat[k]
// degrees: the corners' range, widened where an edge bulges towards a pole, and every longitude
// where the polygon winds around a pole (which pole, the caller finds out).
template <class Corner, class LonLat> Box boxOf(int n, Corner corner, LonLat lonLat) {
    Box b{90, -90, 0, 0, false};
    double first = 0, prev = 0, acc = 0, turn = 0;
    bool any = false;
    for (int k = 0; k <= n; ++k) {
        double lon = 0, lat = 0;
        lonLat(k % n, lon, lat);
        if (k < n) {
            b.latLo = std::min(b.latLo, lat);
            b.latHi = std::max(b.latHi, lat);
            // the edge to the next corner: its highest and lowest points, where inside the arc
            const double* a = corner(k);
            const double* e = corner((k + 1) % n);
            double m[3];
            cross(a, e, m);
            const double len = std::sqrt(dot(m, m));
            if (len > 1e-15) {
                for (double& x : m) x /= len;
                double q[3] = {-m[2] * m[0], -m[2] * m[1], 1 - m[2] * m[2]};
                const double ql = std::sqrt(dot(q, q));
                if (ql > 1e-15) {
                    for (double& x : q) x /= ql;
                    for (int s : {1, -1}) {
                        const double p[3] = {s * q[0], s * q[1], s * q[2]};
                        double u[3], v[3];
                        cross(a, p, u);
                        cross(p, e, v);
                        if (dot(u, m) >= 0 && dot(v, m) >= 0) {
                            const double z = std::asin(std::clamp(p[2], -1.0, 1.0)) / kRad;
                            b.latLo = std::min(b.latLo, z);
                            b.latHi = std::max(b.latHi, z);
                        }
                    }
                }
            }
        }
        if (std::abs(lat) >= 90 - 1e-9 && k < n) continue; // a corner on a pole has no longitude
        if (k == n && !any) break;
        if (!any) {
            first = prev = acc = lon;
            b.lonLo = b.lonHi = lon;
            any = true;
            continue;
        }
        if (k == n) lon = first;
        double d = remainder360(lon - prev);
        acc += d;
        turn += d;
        prev = lon;
        if (k < n) {
            b.lonLo = std::min(b.lonLo, acc);
            b.lonHi = std::max(b.lonHi, acc);
        }
    }
    if (!any || std::abs(turn) > 180 || b.lonHi - b.lonLo >= 360) b.allLon = true;
    return b;
}

} // namespace strata::mesh::detail
