// thinnedForDrawing: a long series cut down to what a plot can show, peaks and gaps kept.
#include <algorithm>
#include <cmath>

#include "strata/render/line_plot.h"

namespace strata {

LineSeries thinnedForDrawing(LineSeries s, std::size_t maxPoints) {
    const std::size_t n = s.y.size();
    if (n <= maxPoints || maxPoints < 4) return s;
    const std::size_t bins = maxPoints / 2, width = (n + bins - 1) / bins;
    std::vector<double> x, y;
    x.reserve(maxPoints + bins);
    y.reserve(maxPoints + bins);
    for (std::size_t first = 0; first < n; first += width) {
        const std::size_t last = std::min(n, first + width);
        std::size_t lo = n, hi = n, gap = n;
        for (std::size_t i = first; i < last; ++i) {
            if (std::isnan(s.y[i])) {
                if (gap == n) gap = i;
                continue;
            }
            if (lo == n || s.y[i] < s.y[lo]) lo = i;
            if (hi == n || s.y[i] > s.y[hi]) hi = i;
        }
        std::vector<std::size_t> keep;
        for (std::size_t i : {lo, hi, gap})
            if (i != n && std::find(keep.begin(), keep.end(), i) == keep.end()) keep.push_back(i);
        std::sort(keep.begin(), keep.end());
        for (std::size_t i : keep) {
            x.push_back(s.x[i]);
            y.push_back(s.y[i]);
        }
    }
    s.x = std::move(x);
    s.y = std::move(y);
    return s;
}

} // namespace strata
