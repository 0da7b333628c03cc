#pragma once
// A HEALPix frame drawn as a map (issue 37): each pixel of the image is inverse-projected with
// the projection's own formulas (projection_math.h), its cell found (healpix::cellOf, nest or
// ring) and the frame's value for that cell gathered. The cost follows the pixels, not the
// cells: a 12.6 M-cell zoom 10 costs what a zoom 2 does. On the host the rows are shared among
// the CPU's threads; on a CUDA device one thread draws a pixel, reading the device frame and
// writing a device image (nothing crosses to the host).
#include <memory>
#include <mutex>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/healpix_grid.h"
#include "strata/core/stream.h"
#include "strata/render/projection.h"

namespace strata {
namespace detail {
struct HealpixMapProblem;
}

class HealpixMap {
public:
    // Throws ValueError for an image without pixels or an extent without area, and for a grid
    // whose subset names a cell twice.
    HealpixMap(Projection projection, healpix::Grid grid, MapExtent extent, int width, int height);
    ~HealpixMap();
    HealpixMap(const HealpixMap&) = delete;
    HealpixMap& operator=(const HealpixMap&) = delete;

    // `frame`: the values along the grid's cell dim (1-D; 4- or 8-byte cells), on the host or
    // a device. The image (y, x), row 0 at the bottom (y0), on the frame's device: each pixel
    // its cell's value, or `fill` (its low bytes) off the map and on cells the frame does not
    // hold. Throws ValueError for a frame that is not 1-D along the grid's dim of its size.
    DataArray apply(const DataArray& frame, std::uint64_t fill, Stream stream) const;

    const MapExtent& extent() const { return extent_; }

private:
    Projection projection_;
    healpix::Grid grid_;
    MapExtent extent_;
    int width_, height_;
    std::vector<std::int64_t> sorted_, positions_; // a subset's cells in order, and where each is
    // The host's map from pixel to the frame's index (-1: the fill), made at the first host frame.
    const std::vector<std::int64_t>& hostIndex(const detail::HealpixMapProblem& p) const;
    mutable std::mutex hostIndexMutex_;
    mutable std::vector<std::int64_t> hostIndex_;
    struct DeviceTables;
    mutable std::unique_ptr<DeviceTables> device_;
};

} // namespace strata
