#include "curvilinear_raster.h"

#include <algorithm>
#include <cmath>

namespace strata::detail {

std::int64_t rasteriseCells(const CurvilinearGrid& g, const std::uint32_t* colours, const ViewTransform& t,
                            const PixelBlock& out) {
    std::int64_t met = 0;
    double X[4], Y[4], cross[4];
    double shifts[3];
    for (std::int64_t k = 0; k < g.cells(); ++k) {
        if (!g.valid(k)) continue;
        const auto at = static_cast<std::size_t>(k * 4);
        // A cell across the edge of a grid that wraps is drawn on both sides.
        const int copies = g.wrapShifts(k, shifts);
        bool counted = false;
        for (int copy = 0; copy < copies; ++copy) {
            double x0 = 1e300, x1 = -1e300, y0 = 1e300, y1 = -1e300;
            for (std::size_t c = 0; c < 4; ++c) {
                // Block pixels: x from the block's left edge, y down from its top edge.
                X[c] = t.pixelX(g.cornerLon[at + c] + shifts[copy]) - out.left;
                Y[c] = out.top - t.pixelY(g.cornerLat[at + c]);
                x0 = std::min(x0, X[c]);
                x1 = std::max(x1, X[c]);
                y0 = std::min(y0, Y[c]);
                y1 = std::max(y1, Y[c]);
            }
            if (x1 < 0 || y1 < 0 || x0 > out.width || y0 > out.height) continue;
            met += !counted;
            counted = true;
            // Rows whose centre (r + 0.5) lies within the cell's span.
            const int r0 = std::max(0, static_cast<int>(std::ceil(y0 - 0.5))),
                      r1 = std::min(out.height - 1, static_cast<int>(std::floor(y1 - 0.5)));
            const std::uint32_t colour = colours[k];
            for (int r = r0; r <= r1; ++r) {
                const double y = r + 0.5;
                int n = 0;
                for (int e = 0; e < 4; ++e) {
                    const int f = (e + 1) % 4;
                    // Upward in window pixels is downward here: the same half-open test as contains().
                    if ((Y[e] < y) != (Y[f] < y))
                        cross[n++] = X[e] + (y - Y[e]) * (X[f] - X[e]) / (Y[f] - Y[e]);
                }
                for (int a = 1; a < n; ++a) // at most four: sorted in place
                    for (int b = a; b > 0 && cross[b] < cross[b - 1]; --b) std::swap(cross[b], cross[b - 1]);
                std::uint32_t* row = out.pixels + static_cast<std::int64_t>(r) * out.stride;
                for (int p = 0; p + 1 < n; p += 2) {
                    // Pixels whose centre c + 0.5 lies in [cross[p], cross[p + 1]).
                    const int c0 = std::max(0, static_cast<int>(std::ceil(cross[p] - 0.5)));
                    const int c1 = std::min(out.width, static_cast<int>(std::ceil(cross[p + 1] - 0.5)));
                    for (int c = c0; c < c1; ++c) row[c] = colour;
                }
            }
        }
    }
    return met;
}

} // namespace strata::detail
