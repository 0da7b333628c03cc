// planSlabs: the slabs of a whole-variable load, cut at the source's chunk boundaries.
#include "strata/core/load_plan.h"

#include <algorithm>

namespace strata {

std::vector<SlabRows> planSlabs(std::int64_t rows, std::size_t rowBytes, std::size_t budget,
                                std::int64_t sourceStart, std::int64_t step, std::int64_t chunkRows) {
    std::vector<SlabRows> plan;
    if (rows <= 0) return plan;
    const std::int64_t fit =
        std::max<std::int64_t>(1, std::int64_t(budget / std::max<std::size_t>(rowBytes, 1)));
    if (chunkRows <= 0 || step != 1) {
        for (std::int64_t r = 0; r < rows; r += fit) plan.push_back({r, std::min(fit, rows - r)});
        return plan;
    }
    // Source rows [sourceStart, sourceStart + rows), in pieces that end at chunk boundaries.
    const std::int64_t end = sourceStart + rows;
    if (chunkRows <= fit) {
        const std::int64_t perSlab = (fit / chunkRows) * chunkRows;
        for (std::int64_t s = sourceStart; s < end;) {
            const std::int64_t next = std::min(end, (s / chunkRows) * chunkRows + perSlab);
            plan.push_back({s - sourceStart, next - s});
            s = next;
        }
        return plan;
    }
    for (std::int64_t s = sourceStart; s < end;) {
        const std::int64_t chunkEnd = std::min(end, (s / chunkRows + 1) * chunkRows);
        const std::int64_t n = chunkEnd - s, pieces = (n + fit - 1) / fit;
        for (std::int64_t p = 0; p < pieces; ++p) { // near-equal: sizes differ by at most one
            const std::int64_t a = s + n * p / pieces, b = s + n * (p + 1) / pieces;
            plan.push_back({a - sourceStart, b - a});
        }
        s = chunkEnd;
    }
    return plan;
}

std::int64_t largestSlab(const std::vector<SlabRows>& plan) {
    std::int64_t m = 0;
    for (const SlabRows& s : plan) m = std::max(m, s.count);
    return m;
}

} // namespace strata
