#pragma once
// HEALPix (Górski et al. 2005, ApJ 622, 759): the sphere in 12 base cells, each cut into
// nside × nside, all of equal area. A cell is numbered in one of two orders:
// - ring: row by row of equal latitude, from the north pole, each row eastwards from lon 0;
// - nest: base cell by base cell, each quadtree-numbered (the index's bits interleave the
//   cell's two coordinates within its base cell), so that a coarser level is the index >> 2.
//
// The functions below are written once for the host and the device (under nvcc they are
// __host__ __device__): a pixel's cell is found the same way on both. Longitudes and latitudes
// are in degrees; cells are numbered from 0; nside up to 2^29 (indices in 64 bits).
#include <cmath>
#include <cstdint>
#include <string>

#if defined(__CUDACC__)
#define STRATA_HEALPIX_HD __host__ __device__ inline
#else
#define STRATA_HEALPIX_HD inline
#endif

namespace strata::healpix {

enum class Order { Nest, Ring };

constexpr std::int64_t kMaxNside = std::int64_t(1) << 29;

STRATA_HEALPIX_HD std::int64_t cellCount(std::int64_t nside) { return 12 * nside * nside; }

// Why `nside` cannot number cells in `order` ("nside 12 is not a power of two, as nest needs"),
// or empty when it can: 1 ≤ nside ≤ 2^29, a power of two for nest.
std::string nsideProblem(std::int64_t nside, Order order);

// The refinement level (log2 nside) of a power of two.
STRATA_HEALPIX_HD int levelOf(std::int64_t nside) {
    int level = 0;
    while ((std::int64_t(1) << level) < nside) ++level;
    return level;
}

namespace detail {

constexpr double kPi = 3.14159265358979323846;

// x's bits spread to the even bits of the result (x < 2^31), and back.
STRATA_HEALPIX_HD std::uint64_t spreadBits(std::uint64_t x) {
    x &= 0xffffffffu;
    x = (x | (x << 16)) & 0x0000ffff0000ffffull;
    x = (x | (x << 8)) & 0x00ff00ff00ff00ffull;
    x = (x | (x << 4)) & 0x0f0f0f0f0f0f0f0full;
    x = (x | (x << 2)) & 0x3333333333333333ull;
    x = (x | (x << 1)) & 0x5555555555555555ull;
    return x;
}
STRATA_HEALPIX_HD std::uint64_t compressBits(std::uint64_t x) {
    x &= 0x5555555555555555ull;
    x = (x | (x >> 1)) & 0x3333333333333333ull;
    x = (x | (x >> 2)) & 0x0f0f0f0f0f0f0f0full;
    x = (x | (x >> 4)) & 0x00ff00ff00ff00ffull;
    x = (x | (x >> 8)) & 0x0000ffff0000ffffull;
    x = (x | (x >> 16)) & 0x00000000ffffffffull;
    return x;
}

STRATA_HEALPIX_HD std::int64_t floorMod(std::int64_t a, std::int64_t m) {
    const std::int64_t r = a % m;
    return r < 0 ? r + m : r;
}

// The integer square root of n ≥ 0 (floor), exact for all 64-bit n used here.
STRATA_HEALPIX_HD std::int64_t isqrt(std::int64_t n) {
    std::int64_t r = std::int64_t(std::sqrt(double(n)));
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return r;
}

// The base cells' row (in units of nside, counted from the north pole: 2 for the northern
// four, 3 for the equatorial, 4 for the southern) and their first column (in half cells).
STRATA_HEALPIX_HD int baseRow(int face) { return 2 + face / 4; }
STRATA_HEALPIX_HD int baseColumn(int face) {
    const int col[12] = {1, 3, 5, 7, 0, 2, 4, 6, 1, 3, 5, 7};
    return col[face];
}

// Where a point lies, as healpy works it out from (lon, lat) (so that a point on a cell's edge
// falls on the same side): the colatitude θ in radians, z = cos θ, sin θ where it is more
// accurate than √(1 - z²) (within 0.01 rad of a pole), and lon/90° in [0, 4).
struct Point {
    double z, sinTheta, t;
    bool nearPole;
};
STRATA_HEALPIX_HD Point pointOf(double lonDeg, double latDeg) {
    const double theta = (90.0 - latDeg) * (kPi / 180), phi = lonDeg * (kPi / 180);
    const double twoPi = 6.283185307179586476925286766559005768394;
    double wrapped = std::fmod(phi, twoPi);
    if (wrapped < 0) {
        wrapped += twoPi;
        if (wrapped == twoPi) wrapped = 0;
    }
    const bool nearPole = theta < 0.01 || theta > 3.14159 - 0.01;
    return {std::cos(theta), nearPole ? std::sin(theta) : 0.0, wrapped * 0.6366197723675813430755350534900574,
            nearPole};
}

} // namespace detail

// The cell (in `order`) holding the point at `lonDeg`, `latDeg`. A latitude outside
// [-90, 90] or a NaN gives -1.
STRATA_HEALPIX_HD std::int64_t cellOf(std::int64_t nside, Order order, double lonDeg, double latDeg) {
    using namespace detail;
    if (!(latDeg >= -90.0 && latDeg <= 90.0) || !(lonDeg == lonDeg) || std::isinf(lonDeg)) return -1;
    const Point p = pointOf(lonDeg, latDeg);
    const double za = std::fabs(p.z);
    if (za <= 2.0 / 3.0) { // the equatorial belt: two families of lines cross at the cells' corners
        const double a = double(nside) * (0.5 + p.t), b = double(nside) * p.z * 0.75;
        const std::int64_t up = std::int64_t(a - b), down = std::int64_t(a + b);
        if (order == Order::Ring) {
            const std::int64_t row = nside + 1 + up - down; // from z = 2/3, in [1, 2 nside + 1]
            const std::int64_t shift = 1 - (row & 1);
            const std::int64_t column = floorMod((up + down - nside + shift + 1) / 2, 4 * nside);
            return 2 * nside * (nside - 1) + (row - 1) * 4 * nside + column;
        }
        const int level = levelOf(nside);
        const std::int64_t fu = up >> level, fd = down >> level;
        const int face = int(fu == fd ? (fu | 4) : (fu < fd ? fu : fd + 8));
        const std::int64_t ix = down & (nside - 1), iy = nside - (up & (nside - 1)) - 1;
        return std::int64_t(face) * nside * nside +
               std::int64_t(spreadBits(std::uint64_t(ix)) | (spreadBits(std::uint64_t(iy)) << 1));
    }
    // The polar caps: rows of 4, 8, 12, ... cells from the pole.
    std::int64_t quarter = std::int64_t(p.t);
    if (quarter >= 4) quarter = 3;
    const double tp = p.t - double(quarter);
    const double rows = p.nearPole ? double(nside) * p.sinTheta / std::sqrt((1.0 + za) / 3.0)
                                   : double(nside) * std::sqrt(3.0 * (1.0 - za)); // rows to the pole
    std::int64_t up = std::int64_t(tp * rows), down = std::int64_t((1.0 - tp) * rows);
    if (order == Order::Ring) {
        const std::int64_t row = up + down + 1; // from the nearer pole
        const std::int64_t column = floorMod(std::int64_t(p.t * double(row)), 4 * row);
        return p.z > 0 ? 2 * row * (row - 1) + column : cellCount(nside) - 2 * row * (row + 1) + column;
    }
    if (up >= nside) up = nside - 1;
    if (down >= nside) down = nside - 1;
    const int face = int(p.z >= 0 ? quarter : quarter + 8);
    const std::int64_t ix = p.z >= 0 ? nside - down - 1 : up, iy = p.z >= 0 ? nside - up - 1 : down;
    return std::int64_t(face) * nside * nside +
           std::int64_t(spreadBits(std::uint64_t(ix)) | (spreadBits(std::uint64_t(iy)) << 1));
}

// The ring index of the nest cell `cell`.
STRATA_HEALPIX_HD std::int64_t nestToRing(std::int64_t nside, std::int64_t cell) {
    using namespace detail;
    const std::int64_t perFace = nside * nside;
    const int face = int(cell / perFace);
    const std::uint64_t within = std::uint64_t(cell - std::int64_t(face) * perFace);
    const std::int64_t ix = std::int64_t(compressBits(within)), iy = std::int64_t(compressBits(within >> 1));
    const std::int64_t row = std::int64_t(baseRow(face)) * nside - ix - iy - 1; // from the north pole
    std::int64_t inRow, before, shift = 0;
    if (row < nside) {
        inRow = row;
        before = 2 * inRow * (inRow - 1);
    } else if (row > 3 * nside) {
        inRow = 4 * nside - row;
        before = cellCount(nside) - 2 * (inRow + 1) * inRow;
    } else {
        inRow = nside;
        before = 2 * nside * (nside - 1) + (row - nside) * 4 * nside;
        shift = (row - nside) & 1;
    }
    std::int64_t column = (std::int64_t(baseColumn(face)) * inRow + ix - iy + 1 + shift) / 2;
    if (column > 4 * nside) column -= 4 * nside;
    if (column < 1) column += 4 * nside;
    return before + column - 1;
}

// The centre of the ring cell `cell`: its longitude in [0, 360) and latitude, in degrees.
STRATA_HEALPIX_HD void ringCentre(std::int64_t nside, std::int64_t cell, double& lonDeg, double& latDeg) {
    using namespace detail;
    const std::int64_t cap = 2 * nside * (nside - 1), all = cellCount(nside);
    double z, lon;
    if (cell < cap) { // north cap
        const std::int64_t row = (1 + isqrt(1 + 2 * cell)) >> 1;
        const std::int64_t column = cell + 1 - 2 * row * (row - 1);
        z = 1.0 - double(row * row) / (3.0 * double(nside * nside));
        lon = (double(column) - 0.5) * 90.0 / double(row);
    } else if (cell < all - cap) {
        const std::int64_t k = cell - cap, row = k / (4 * nside) + nside;
        const std::int64_t column = k - 4 * nside * (row - nside) + 1;
        const double odd = ((row + nside) & 1) ? 1.0 : 0.5;
        z = double(2 * nside - row) * 2.0 / (3.0 * double(nside));
        lon = (double(column) - odd) * 180.0 / double(2 * nside);
    } else { // south cap
        const std::int64_t k = all - cell, row = (1 + isqrt(2 * k - 1)) >> 1;
        const std::int64_t column = 4 * row + 1 - (k - 2 * row * (row - 1));
        z = -1.0 + double(row * row) / (3.0 * double(nside * nside));
        lon = (double(column) - 0.5) * 90.0 / double(row);
    }
    latDeg = std::asin(z < -1 ? -1 : z > 1 ? 1 : z) * (180.0 / kPi);
    lonDeg = lon;
}

// The centre of `cell` in `order`.
STRATA_HEALPIX_HD void centreOf(std::int64_t nside, Order order, std::int64_t cell, double& lonDeg,
                                double& latDeg) {
    ringCentre(nside, order == Order::Ring ? cell : nestToRing(nside, cell), lonDeg, latDeg);
}

} // namespace strata::healpix
