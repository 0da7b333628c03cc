#pragma once
// Marching squares, one cell at a time, for the host loops and the CUDA kernels alike, so that
// both paths cut the same segments: which levels cross a cell, the segments a level makes in
// it (two in a saddle, joined as the mean of the corners says), where they meet its edges, and
// which neighbour shares an edge.
//
// A cell (j, i) has corners a (j, i), b (j, i+1), c (j+1, i+1), d (j+1, i) and sides bottom
// (a–b), right (b–c), top (d–c) and left (a–d). A corner is above a level when value > level
// (a value at the level is below, as matplotlib has it). A level crosses the cell when its
// corners are not all on one side: min <= level < max.
#include <cstdint>

#include "host_device.h"

namespace strata::detail::contour {

enum Side : std::uint8_t { kBottom = 0, kRight = 1, kTop = 2, kLeft = 3 };

struct Cell {
    double a, b, c, d;
};

// The side across an edge, seen from the neighbouring cell: bottom faces top, left faces right.
STRATA_HOST_DEVICE inline std::uint8_t facing(std::uint8_t side) {
    return static_cast<std::uint8_t>(side ^ 2);
}

// Cells along a row: nx - 1, or nx when the columns wrap (a whole turn of longitude: the last
// column's cells reach over to the first column).
STRATA_HOST_DEVICE inline std::int64_t cellColumns(std::int64_t nx, bool wrapX) {
    return wrapX ? nx : nx - 1;
}

// The column right of column i: i + 1, or 0 past the last when the columns wrap.
STRATA_HOST_DEVICE inline std::int64_t nextColumn(std::int64_t i, std::int64_t nx) {
    return i + 1 == nx ? 0 : i + 1;
}

// The neighbour across `side` of cell (j, i): false at the frame's border (none across the
// seam of columns that wrap).
STRATA_HOST_DEVICE inline bool neighbour(std::int64_t j, std::int64_t i, std::uint8_t side, std::int64_t ny,
                                         std::int64_t nx, bool wrapX, std::int64_t& nj, std::int64_t& ni) {
    const std::int64_t cols = cellColumns(nx, wrapX);
    nj = j + (side == kTop) - (side == kBottom);
    ni = i + (side == kRight) - (side == kLeft);
    if (wrapX) ni = ni < 0 ? cols - 1 : (ni == cols ? 0 : ni);
    return nj >= 0 && ni >= 0 && nj + 1 < ny && ni < cols;
}

// Levels [first, last) cross the cell (levels increasing, n of them); none when a corner is NaN.
STRATA_HOST_DEVICE inline void crossingLevels(const Cell& q, const double* levels, int n, int& first,
                                              int& last) {
    first = last = 0;
    if (q.a != q.a || q.b != q.b || q.c != q.c || q.d != q.d) return;
    const double lo = q.a < q.b ? (q.a < q.c ? (q.a < q.d ? q.a : q.d) : (q.c < q.d ? q.c : q.d))
                                : (q.b < q.c ? (q.b < q.d ? q.b : q.d) : (q.c < q.d ? q.c : q.d));
    const double hi = q.a > q.b ? (q.a > q.c ? (q.a > q.d ? q.a : q.d) : (q.c > q.d ? q.c : q.d))
                                : (q.b > q.c ? (q.b > q.d ? q.b : q.d) : (q.c > q.d ? q.c : q.d));
    // first: the first level at or above lo; last: the first at or above hi.
    int l = 0, h = n;
    while (l < h) {
        const int m = (l + h) / 2;
        if (levels[m] >= lo)
            h = m;
        else
            l = m + 1;
    }
    first = l;
    // Most cells that a level crosses are crossed by one only: walk on from first.
    while (l < n && levels[l] < hi) ++l;
    last = l;
}

// The segments `level` cuts in the cell, as pairs of sides: returns how many (1, or 2 for a
// saddle) and writes their sides to from[] and to[]. Only for a level that crosses the cell.
STRATA_HOST_DEVICE inline int segmentsAt(const Cell& q, double level, std::uint8_t from[2],
                                         std::uint8_t to[2]) {
    const bool A = q.a > level, B = q.b > level, C = q.c > level, D = q.d > level;
    if (A == C && B == D && A != B) { // a saddle: the mean of the corners decides
        const bool centre = (q.a + q.b + q.c + q.d) / 4 > level;
        if (centre == A) { // a and c joined through the middle: b and d cut off
            from[0] = kBottom, to[0] = kRight;
            from[1] = kTop, to[1] = kLeft;
        } else { // b and d joined: a and c cut off
            from[0] = kLeft, to[0] = kBottom;
            from[1] = kRight, to[1] = kTop;
        }
        return 2;
    }
    std::uint8_t crossed[2] = {0, 0};
    int n = 0;
    if (A != B) crossed[n++] = kBottom;
    if (B != C) crossed[n++] = kRight;
    if (C != D && n < 2) crossed[n++] = kTop;
    if (D != A && n < 2) crossed[n++] = kLeft;
    from[0] = crossed[0];
    to[0] = crossed[1];
    return 1;
}

// How many segments the cell holds over all the levels that cross it.
STRATA_HOST_DEVICE inline int segmentCount(const Cell& q, const double* levels, int n) {
    int first, last;
    crossingLevels(q, levels, n, first, last);
    int count = 0;
    for (int k = first; k < last; ++k) {
        const double v = levels[k];
        const bool A = q.a > v, B = q.b > v, C = q.c > v, D = q.d > v;
        count += (A == C && B == D && A != B) ? 2 : 1;
    }
    return count;
}

// Where `level` crosses `side` of cell (j, i), in index space (x the column, y the row):
// linearly between the side's two samples, taken in the same order from either cell.
STRATA_HOST_DEVICE inline void crossing(const Cell& q, double level, std::uint8_t side, std::int64_t j,
                                        std::int64_t i, double& x, double& y) {
    double v0, v1;
    switch (side) {
    case kBottom:
        v0 = q.a, v1 = q.b;
        break;
    case kRight:
        v0 = q.b, v1 = q.c;
        break;
    case kTop:
        v0 = q.d, v1 = q.c;
        break;
    default:
        v0 = q.a, v1 = q.d;
        break;
    }
    double t = (level - v0) / (v1 - v0);
    t = t < 0 ? 0 : (t > 1 ? 1 : t);
    x = double(i) + (side == kRight ? 1.0 : (side == kLeft ? 0.0 : t));
    y = double(j) + (side == kTop ? 1.0 : (side == kBottom ? 0.0 : t));
}

} // namespace strata::detail::contour
