#pragma once
// The seam between the HEALPix cells' pixel index (sphere_cells.cpp) and its device backend
// (cuda/healpix_map.cu).
#include <cstdint>

#include "projection_math.h"
#include "strata/core/healpix.h"

namespace strata::detail {

struct HealpixMapProblem {
    ProjParams params;
    MapPixels pixels;
    std::int64_t nside = 1;
    healpix::Order order = healpix::Order::Nest;
    // A subset: its cells in ascending order and each one's index in the frame (n of them);
    // null for the whole sky (the frame's index is the cell).
    const std::int64_t* sorted = nullptr;
    const std::int64_t* positions = nullptr;
    std::int64_t n = 0;
    void* stream = nullptr; // cudaStream_t
};

// The frame's index holding the value of the pixel at map metres (x, y), or -1 (off the map, or
// a cell the subset does not hold). For the host and the device alike.
STRATA_HD std::int64_t healpixIndexAt(const HealpixMapProblem& p, double x, double y) {
    double lon = 0, lat = 0;
    if (!projInverse(p.params, x, y, lon, lat)) return -1;
    const std::int64_t cell = healpix::cellOf(p.nside, p.order, lon * (180 / M_PI), lat * (180 / M_PI));
    if (cell < 0 || !p.sorted) return cell;
    std::int64_t a = 0, b = p.n; // the first sorted cell ≥ cell
    while (a < b) {
        const std::int64_t m = a + (b - a) / 2;
        if (p.sorted[m] < cell)
            a = m + 1;
        else
            b = m;
    }
    return a < p.n && p.sorted[a] == cell ? p.positions[a] : -1;
}

// Each pixel's index (healpixIndexAt) into `out` (width × height on the device), row 0 at the
// bottom, on the problem's stream (asynchronous). Throws CudaError when the launch fails; Error
// where CUDA was not compiled in.
void healpixIndexCuda(const HealpixMapProblem& p, std::int64_t* out);

} // namespace strata::detail
