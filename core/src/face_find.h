#pragma once
// One point's face, as FaceLocator (face_locator.h) finds it: written once for the host (find,
// findAll) and the device (cuda/face_locator.cu's kernel), so that both give the same face bit
// for bit, ties on shared edges included. Same bits need the same operations in the same order:
// no library sin or cos (the host's and CUDA's differ in the last bit), and no multiply-add
// fused by the compiler (face_locator.cpp is built with -ffp-contract=off and
// cuda/face_locator.cu with -fmad=false; core/CMakeLists.txt says so).
#include <cmath>
#include <cstdint>

#include "host_device.h"

namespace strata::mesh::detail {

constexpr double kRad = 3.14159265358979323846 / 180;
constexpr double kInside = 1e-14; // how far outside an edge (as a sine) still counts as on it

// std::remainder(x, 360), exactly: x itself where it is in [-180, 180] already (most longitudes
// are), without the library's exact division.
STRATA_HOST_DEVICE inline double remainder360(double x) {
    return x >= -180 && x <= 180 ? x : std::remainder(x, 360.0);
}

// x modulo 360 in [0, 360), exactly as remainder360(x) moved up by 360 where it is below 0:
// x itself where it is in [0, 360) already ((x - 360) + 360 is x there, with no rounding).
STRATA_HOST_DEVICE inline double modulo360(double x) {
    if (x >= 0 && x < 360) return x;
    const double r = std::remainder(x, 360.0);
    return r < 0 ? r + 360 : r;
}

// The locator's tables, in host or device memory; owns nothing.
struct FaceTables {
    const double* xyz = nullptr;             // nodes × 3: each node's unit vector
    const std::int64_t* faceNodes = nullptr; // faces × maxNodes, -1 pads
    const std::int8_t* sign = nullptr;       // each face's winding: 1 or -1 (0: no area)
    const std::int64_t* binStart = nullptr;  // nx × ny + 1 offsets into binFaces; null: no bins
    const std::uint32_t* binFaces = nullptr; // each bin's faces, in order
    int maxNodes = 0, nx = 0, ny = 0;
    double latMin = 0, dLat = 1, lonStart = -180, dLon = 360;
    bool allLon = true; // the bins go round the whole circle of longitude
};

// The coefficients of FreeBSD msun's k_sin.c and k_cos.c: sin and cos within an ulp on
// [-π/4, π/4].
constexpr double kS1 = -1.66666666666666324348e-01, kS2 = 8.33333333332248946124e-03,
                 kS3 = -1.98412698298579493134e-04, kS4 = 2.75573137070700676789e-06,
                 kS5 = -2.50507602534068634195e-08, kS6 = 1.58969099521155010221e-10;
constexpr double kC1 = 4.16666666666666019037e-02, kC2 = -1.38888888888741095749e-03,
                 kC3 = 2.48015872894767294178e-05, kC4 = -2.75573143513906633035e-07,
                 kC5 = 2.08757232129817482790e-09, kC6 = -1.13596475577881948265e-11;

// sin and cos of `deg` degrees: reduced exactly to [-45°, 45°], then msun's kernels. Exact at
// multiples of 90°; NaN for an angle not finite.
STRATA_HOST_DEVICE inline void sinCosDeg(double deg, double& s, double& c) {
    const double d = remainder360(deg);        // exact, in [-180, 180]
    const double q = std::floor(d / 90 + 0.5); // the quadrant, -2..2
    const double x = (d - 90 * q) * kRad;      // d - 90 q is exact
    const double z = x * x, w = z * z;
    const double sr = kS2 + z * (kS3 + z * kS4) + z * w * (kS5 + z * kS6);
    const double sx = x + z * x * (kS1 + z * sr);
    const double cr = z * (kC1 + z * (kC2 + z * kC3)) + w * w * (kC4 + z * (kC5 + z * kC6));
    const double hz = 0.5 * z, one = 1 - hz;
    const double cx = one + (((1 - one) - hz) + z * cr);
    const int quadrant = std::isfinite(q) ? (int(q) + 4) % 4 : 0; // NaN in, NaN out
    s = quadrant == 0 ? sx : quadrant == 1 ? cx : quadrant == 2 ? -sx : -cx;
    c = quadrant == 0 ? cx : quadrant == 1 ? -sx : quadrant == 2 ? -cx : sx;
}

STRATA_HOST_DEVICE inline void unitVector(double lonDeg, double latDeg, double* p) {
    double sLat, cLat, sLon, cLon;
    sinCosDeg(latDeg, sLat, cLat);
    sinCosDeg(lonDeg, sLon, cLon);
    p[0] = cLat * cLon;
    p[1] = cLat * sLon;
    p[2] = sLat;
}

STRATA_HOST_DEVICE inline void cross(const double* a, const double* b, double* c) {
    c[0] = a[1] * b[2] - a[2] * b[1];
    c[1] = a[2] * b[0] - a[0] * b[2];
    c[2] = a[0] * b[1] - a[1] * b[0];
}

STRATA_HOST_DEVICE inline double dot(const double* a, const double* b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

// Whether the unit vector p is inside `face`: on the inner side of every great-circle edge.
STRATA_HOST_DEVICE inline bool insideFace(const FaceTables& t, std::int64_t face, const double* p) {
    const std::int64_t* row = t.faceNodes + face * t.maxNodes;
    int n = 0;
    while (n < t.maxNodes && row[n] >= 0) ++n;
    const double s = t.sign[face];
    for (int k = 0; k < n; ++k) {
        double e[3];
        cross(t.xyz + 3 * row[k], t.xyz + 3 * row[(k + 1) % n], e);
        if (s * dot(e, p) < -kInside) return false;
    }
    return s != 0 && n >= 3;
}

// The face holding (lonDeg, latDeg), any longitude: the first of its bin's faces that holds it;
// -1 outside every face, or for a point not finite or past a pole.
STRATA_HOST_DEVICE inline std::int64_t findFace(const FaceTables& t, double lonDeg, double latDeg) {
    if (!std::isfinite(lonDeg) || !std::isfinite(latDeg) || std::fabs(latDeg) > 90 || !t.binStart) return -1;
    const double r = std::floor((latDeg - t.latMin) / t.dLat);
    if (r < 0 || r > t.ny) return -1;
    double c = std::floor(modulo360(lonDeg - t.lonStart) / t.dLon);
    if (c >= t.nx) c = t.allLon ? t.nx - 1 : -1; // rounding at 360, or east of the faces
    if (c < 0) return -1;
    const std::int64_t bin = std::int64_t(r < t.ny - 1 ? r : t.ny - 1) * t.nx + std::int64_t(c);
    double p[3];
    unitVector(lonDeg, latDeg, p);
    for (std::int64_t i = t.binStart[bin]; i < t.binStart[bin + 1]; ++i)
        if (insideFace(t, t.binFaces[i], p)) return t.binFaces[i];
    return -1;
}

} // namespace strata::mesh::detail
