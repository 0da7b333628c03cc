#pragma once
// A curvilinear grid's cells filled as polygons into a block of 32-bit pixels (the raster
// painter's plot image): a pixel takes the colour of the cell that holds its centre, by the
// same even–odd rule as CurvilinearGrid::contains, so that drawing and picking agree.
#include <cstdint>

#include "strata/render/curvilinear_grid.h"
#include "strata/render/view_layout.h"

namespace strata::detail {

// Where to draw: `width` × `height` pixels whose top-left pixel is window pixel column `left`
// and whose top row lies just below window pixel y = `top` (origin bottom left), rows top down,
// `stride` pixels apart.
struct PixelBlock {
    std::uint32_t* pixels = nullptr;
    int width = 0, height = 0;
    std::int64_t stride = 0;
    double left = 0, top = 0;
};

// Fills each valid cell of `grid` with colours[cell] (one 32-bit pixel per cell, row-major in
// the grid's order) through `t` (x longitude, y latitude). Pixels no cell covers are left as
// they were. Returns how many cells met the block.
std::int64_t rasteriseCells(const CurvilinearGrid& grid, const std::uint32_t* colours, const ViewTransform& t,
                            const PixelBlock& out);

} // namespace strata::detail
