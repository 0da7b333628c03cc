// Isolines: marching squares on the frame's device (contourSegmentsCpu / contourSegmentsCuda),
// then the segments joined into polylines on the host by the links between their ends.
#include <algorithm>
#include <string>

#include "backend.h"
#include "ops_common.h"
#include "strata/core/contour.h"
#include "strata/core/error.h"

namespace strata {

ContourSegments contourSegments(const DataArray& frame, const std::vector<double>& levels) {
    STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                   "contours need a 2-D frame; '" + frame.name() + "' has " + std::to_string(frame.ndim()) +
                       " dims");
    STRATA_EXPECTS(levels.size() <= 32767, ValueError,
                   "contours: " + std::to_string(levels.size()) + " levels; at most 32767 are drawn");
    for (std::size_t k = 1; k < levels.size(); ++k)
        STRATA_EXPECTS(levels[k] > levels[k - 1], ValueError, "contours: the levels must be increasing");
    const Stream stream = detail::streamOf(frame);
    const ArrayView v = detail::checkedView(frame, "contours", stream);
    if (frame.device().isHost()) return detail::contourSegmentsCpu(v, levels);
#if STRATA_HAVE_CUDA
    return detail::contourSegmentsCuda(v, levels, stream);
#else
    STRATA_FAIL(ValueError, "contours: CUDA data, but the CUDA backend is not built");
#endif
}

std::vector<Isoline> joinSegments(const ContourSegments& s, const std::vector<double>& levels) {
    std::vector<Isoline> out;
    const std::size_t n = s.size();
    std::vector<bool> used(n, false);
    auto point = [&](std::size_t seg, int end, std::vector<double>& xy) {
        xy.push_back(s.xy[4 * seg + 2 * std::size_t(end)]);
        xy.push_back(s.xy[4 * seg + 2 * std::size_t(end) + 1]);
    };
    // From end `start` of segment s0, through each segment's other end into the next one,
    // until an end meets nothing (an open line) or the walk comes back to s0 (a closed one).
    auto walk = [&](std::size_t s0, int start) {
        Isoline line;
        line.level = levels[std::size_t(s.level[s0])];
        point(s0, start, line.xy);
        std::size_t seg = s0;
        int exit = 1 - start;
        for (;;) {
            used[seg] = true;
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
    for (std::size_t g = 0; g < n; ++g)
        if (!used[g] && (s.link[2 * g] < 0 || s.link[2 * g + 1] < 0)) walk(g, s.link[2 * g] < 0 ? 0 : 1);
    for (std::size_t g = 0; g < n; ++g)
        if (!used[g]) walk(g, 0);
    return out;
}

std::vector<Isoline> isolines(const DataArray& frame, std::vector<double> levels) {
    std::sort(levels.begin(), levels.end());
    levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
    return joinSegments(contourSegments(frame, levels), levels);
}

} // namespace strata
