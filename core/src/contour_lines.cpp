// Isolines: marching squares on the frame's device (contourSegmentsCpu / contourSegmentsCuda),
// then the segments joined into polylines on the host by the links between their ends.
#include <algorithm>
#include <iterator>
#include <string>

#include "backend.h"
#include "cpu/thread_pool.h"
#include "ops_common.h"
#include "strata/core/contour.h"
#include "strata/core/error.h"

namespace strata {

ContourSegments contourSegments(const DataArray& frame, const std::vector<double>& levels, bool wrapX) {
    STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                   "contours need a 2-D frame; '" + frame.name() + "' has " + std::to_string(frame.ndim()) +
                       " dims");
    STRATA_EXPECTS(levels.size() <= 32767, ValueError,
                   "contours: " + std::to_string(levels.size()) + " levels; at most 32767 are drawn");
    for (std::size_t k = 1; k < levels.size(); ++k)
        STRATA_EXPECTS(levels[k] > levels[k - 1], ValueError, "contours: the levels must be increasing");
    const Stream stream = detail::streamOf(frame);
    const ArrayView v = detail::checkedView(frame, "contours", stream);
    wrapX = wrapX && frame.shape()[1] >= 2;
    if (frame.device().isHost()) return detail::contourSegmentsCpu(v, levels, wrapX);
#if STRATA_HAVE_CUDA
    return detail::contourSegmentsCuda(v, levels, wrapX, stream);
#else
    STRATA_FAIL(ValueError, "contours: CUDA data, but the CUDA backend is not built");
#endif
}

std::vector<Isoline> joinSegments(const ContourSegments& s, const std::vector<double>& levels) {
    const std::size_t n = s.size();
    // Each level's segments, in order: the levels are joined apart (in parallel), and their
    // lines put together in the levels' order, so the result does not depend on the threads.
    std::vector<std::size_t> start(levels.size() + 1, 0);
    for (std::size_t g = 0; g < n; ++g) ++start[std::size_t(s.level[g]) + 1];
    for (std::size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
    std::vector<std::uint32_t> byLevel(n);
    {
        std::vector<std::size_t> at(start.begin(), start.end() - 1);
        for (std::size_t g = 0; g < n; ++g) byLevel[at[std::size_t(s.level[g])]++] = std::uint32_t(g);
    }
    std::vector<std::uint8_t> used(n, 0); // each level's entries are its own: no two threads share one
    std::vector<std::vector<Isoline>> lines(levels.size());
    auto point = [&](std::size_t seg, int end, std::vector<double>& xy) {
        xy.push_back(s.xy[4 * seg + 2 * std::size_t(end)]);
        xy.push_back(s.xy[4 * seg + 2 * std::size_t(end) + 1]);
    };
    // From end `first` of segment s0, through each segment's other end into the next one,
    // until an end meets nothing (an open line) or the walk comes back to s0 (a closed one).
    auto walk = [&](std::size_t s0, int first, std::vector<Isoline>& out) {
        Isoline line;
        line.level = levels[std::size_t(s.level[s0])];
        point(s0, first, line.xy);
        std::size_t seg = s0;
        int exit = 1 - first;
        for (;;) {
            used[seg] = 1;
            point(seg, exit, line.xy);
            const std::int32_t next = s.link[2 * seg + std::size_t(exit)];
            if (next < 0) break;
            const std::size_t t = std::size_t(next) / 2;
            if (t == s0) {
                line.closed = true;
                break;
            }
            if (used[t]) break; // not reached with links that agree both ways
            seg = t;
            exit = 1 - next % 2;
        }
        out.push_back(std::move(line));
    };
    detail::cpu::forEachChunk(std::int64_t(levels.size()), [&](std::int64_t k) {
        std::vector<Isoline>& out = lines[std::size_t(k)];
        const std::uint32_t* first = byLevel.data() + start[std::size_t(k)];
        const std::uint32_t* last = byLevel.data() + start[std::size_t(k) + 1];
        for (const std::uint32_t* p = first; p != last; ++p) // open lines first, from an end
            if (!used[*p] && (s.link[2 * *p] < 0 || s.link[2 * *p + 1] < 0))
                walk(*p, s.link[2 * *p] < 0 ? 0 : 1, out);
        for (const std::uint32_t* p = first; p != last; ++p) // then the closed ones
            if (!used[*p]) walk(*p, 0, out);
    });
    std::vector<Isoline> out;
    for (auto& l : lines) std::move(l.begin(), l.end(), std::back_inserter(out));
    return out;
}

std::vector<Isoline> isolines(const DataArray& frame, std::vector<double> levels, bool wrapX) {
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return joinSegments(contourSegments(frame, levels, wrapX), levels);
}

} // namespace strata
