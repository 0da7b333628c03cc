// contourSegmentsCpu: marching squares on the host, the same three steps as the device's (count
// each cell's segments, give every cell its first segment, write them), then each segment end
// finds the one it meets in the neighbouring cell. Rows of cells are spread over the pool; the
// result is in row-major cell order whatever the threads did.
#include <algorithm>
#include <cmath>
#include <string>

#include "backend.h"
#include "contour_cell.h"
#include "cpu/thread_pool.h"
#include "strata/core/contour.h"
#include "strata/core/detail/dtype_visit.h"
#include "strata/core/error.h"

namespace strata::detail {
namespace {

namespace mc = contour;

template <class T> struct Frame {
    const T* p;
    std::int64_t ny, nx, sy, sx;
    bool wrapX;
    mc::Cell cell(std::int64_t j, std::int64_t i) const {
        const T* q = p + j * sy;
        const std::int64_t a = i * sx, b = mc::nextColumn(i, nx) * sx;
        return {double(q[a]), double(q[b]), double(q[sy + b]), double(q[sy + a])};
    }
};

// Each sample's band: how many levels lie below it (-1 for NaN). A level k crosses a cell when
// some corner is above it and some is not: min band <= k < max band. Levels evenly spaced (as
// auto, a count and a step give them) find their band by one division and a check either side.
template <class T> std::vector<std::int16_t> bandsOf(const Frame<T>& f, const std::vector<double>& levels) {
    const int n = static_cast<int>(levels.size());
    const double first = levels.front(), step = n > 1 ? (levels.back() - first) / (n - 1) : 1;
    bool even = n > 1 && step > 0;
    for (int k = 1; k < n && even; ++k)
        even = std::abs(levels[std::size_t(k)] - (first + k * step)) <= 1e-9 * step;
    std::vector<std::int16_t> bands(std::size_t(f.ny * f.nx));
    cpu::parallelFor(f.ny, std::max<std::int64_t>(1, (1 << 16) / f.nx),
                     [&](std::int64_t j0, std::int64_t j1) {
                         const double* lev = levels.data();
                         for (std::int64_t j = j0; j < j1; ++j)
                             for (std::int64_t i = 0; i < f.nx; ++i) {
                                 const double v = double(f.p[j * f.sy + i * f.sx]);
                                 int k;
                                 if (v != v) {
                                     k = -1;
                                 } else if (even) {
                                     const double at = std::floor((v - first) / step) + 1;
                                     k = at < 0 ? 0 : (at > n ? n : int(at));
                                     while (k > 0 && lev[k - 1] >= v) --k;
                                     while (k < n && lev[k] < v) ++k;
                                 } else {
                                     k = int(std::lower_bound(lev, lev + n, v) - lev);
                                 }
                                 bands[std::size_t(j * f.nx + i)] = std::int16_t(k);
                             }
                     });
    return bands;
}

template <class T> ContourSegments segmentsOf(const Frame<T>& f, const std::vector<double>& levels) {
    ContourSegments out;
    out.ny = f.ny;
    out.nx = f.nx;
    const std::int64_t rows = f.ny - 1, cols = mc::cellColumns(f.nx, f.wrapX);
    const int n = static_cast<int>(levels.size());
    const double* lev = levels.data();
    const std::vector<std::int16_t> bands = bandsOf(f, levels);
    // offsets[c + 1]: the segments of cell c, then their running sum (at most kMaxContourSegments).
    std::vector<std::int32_t> offsets(std::size_t(rows * cols + 1), 0);
    const std::int64_t grain = std::max<std::int64_t>(1, (1 << 16) / cols);
    cpu::parallelFor(rows, grain, [&](std::int64_t j0, std::int64_t j1) {
        for (std::int64_t j = j0; j < j1; ++j) {
            const std::int16_t* b0 = bands.data() + j * f.nx;
            const std::int16_t* b1 = b0 + f.nx;
            std::int32_t* count = offsets.data() + j * cols + 1;
            for (std::int64_t i = 0; i < cols; ++i) {
                const std::int64_t i1 = mc::nextColumn(i, f.nx);
                const int a = b0[i], b = b0[i1], c = b1[i1], d = b1[i];
                const int lo = std::min(std::min(a, b), std::min(c, d)),
                          hi = std::max(std::max(a, b), std::max(c, d));
                count[i] = lo < 0 || lo == hi ? 0 : mc::segmentCount(f.cell(j, i), lev, n);
            }
        }
    });
    std::int64_t running = 0;
    for (std::size_t c = 1; c < offsets.size(); ++c) {
        running += offsets[c];
        STRATA_EXPECTS(running <= kMaxContourSegments, ValueError,
                       "contours: the levels cross the frame more than " +
                           std::to_string(kMaxContourSegments) +
                           " times, more than can be drawn; choose fewer levels");
        offsets[c] = std::int32_t(running);
    }
    const std::int64_t total = offsets.back();
    if (total == 0) return out;
    out.xy.resize(std::size_t(total) * 4);
    out.level.resize(std::size_t(total));
    out.link.resize(std::size_t(total) * 2);
    std::vector<std::uint8_t> sides(std::size_t(total) * 2);
    cpu::parallelFor(rows, grain, [&](std::int64_t j0, std::int64_t j1) {
        for (std::int64_t j = j0; j < j1; ++j)
            for (std::int64_t i = 0; i < cols; ++i) {
                std::int64_t at = offsets[std::size_t(j * cols + i)];
                if (at == offsets[std::size_t(j * cols + i + 1)]) continue;
                const mc::Cell q = f.cell(j, i);
                int first, last;
                mc::crossingLevels(q, lev, n, first, last);
                for (int k = first; k < last; ++k) {
                    std::uint8_t from[2], to[2];
                    const int m = mc::segmentsAt(q, lev[k], from, to);
                    for (int t = 0; t < m; ++t, ++at) {
                        const std::size_t s = std::size_t(at);
                        mc::crossing(q, lev[k], from[t], j, i, out.xy[4 * s], out.xy[4 * s + 1]);
                        mc::crossing(q, lev[k], to[t], j, i, out.xy[4 * s + 2], out.xy[4 * s + 3]);
                        out.level[s] = k;
                        sides[2 * s] = from[t];
                        sides[2 * s + 1] = to[t];
                    }
                }
            }
    });
    cpu::parallelFor(rows, grain, [&](std::int64_t j0, std::int64_t j1) {
        for (std::int64_t j = j0; j < j1; ++j)
            for (std::int64_t i = 0; i < cols; ++i) {
                const std::int64_t c = j * cols + i;
                for (std::int64_t g = offsets[std::size_t(c)]; g < offsets[std::size_t(c + 1)]; ++g)
                    for (int e = 0; e < 2; ++e) {
                        const std::uint8_t side = sides[std::size_t(2 * g + e)];
                        std::int32_t link = -1;
                        std::int64_t nj, ni;
                        if (mc::neighbour(j, i, side, f.ny, f.nx, f.wrapX, nj, ni)) {
                            const std::int64_t nc = nj * cols + ni;
                            const std::uint8_t want = mc::facing(side);
                            for (std::int64_t t = offsets[std::size_t(nc)]; t < offsets[std::size_t(nc + 1)];
                                 ++t) {
                                if (out.level[std::size_t(t)] != out.level[std::size_t(g)]) continue;
                                if (sides[std::size_t(2 * t)] == want) link = std::int32_t(2 * t);
                                if (sides[std::size_t(2 * t + 1)] == want) link = std::int32_t(2 * t + 1);
                            }
                        }
                        out.link[std::size_t(2 * g + e)] = link;
                    }
            }
    });
    return out;
}

} // namespace

ContourSegments contourSegmentsCpu(const ArrayView& frame, const std::vector<double>& levels, bool wrapX) {
    if (frame.shape[0] < 2 || frame.shape[1] < 2 || levels.empty()) {
        ContourSegments none;
        none.ny = frame.shape[0];
        none.nx = frame.shape[1];
        return none;
    }
    return visitNumeric(frame.dtype, [&](auto tag) {
        using T = decltype(tag);
        const Frame<T> f{static_cast<const T*>(frame.data),
                         frame.shape[0],
                         frame.shape[1],
                         frame.strides[0],
                         frame.strides[1],
                         wrapX};
        return segmentsOf(f, levels);
    });
}

} // namespace strata::detail
