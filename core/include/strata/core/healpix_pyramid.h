#pragma once
// A HEALPix pyramid (issue 37): a dataset's variables at several zooms (refinement levels, nside
// 2^zoom), as km-scale model output is published: one Zarr store per zoom ("…_z7.zarr"), or one
// group per zoom in a store. It opens as one Dataset whose groups are the zooms ("/z7") and whose
// root holds the coarsest zoom's variables, so that each variable is listed once; a view's frames
// are computed from the zoom whose cells match the screen footprint of a pixel (levelFor), and
// only that zoom is loaded onto the device.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/dataset.h"
#include "strata/core/healpix.h"

namespace strata::healpix {

struct PyramidLevel {
    int zoom = 0; // log2(nside)
    std::int64_t nside = 0;
    std::string group; // the group's path in the dataset ("/z7")
};

struct Pyramid {
    std::vector<PyramidLevel> levels;   // coarsest first, one per zoom
    std::vector<std::string> variables; // data variables on the grid at every zoom (the coarsest's order)
    Order order = Order::Nest;
    std::string dim; // the cell dim (the coarsest zoom's grid's)

    bool has(const std::string& variable) const;
    // The coarsest level whose cells are no wider than `pixelRadians` (the angle one pixel of
    // the screen spans on the sphere), else the finest; the finest too for a footprint that is
    // not a positive number (not known).
    const PyramidLevel& levelFor(double pixelRadians) const;
    const PyramidLevel* level(int zoom) const; // null when the pyramid has no such zoom
    // The variable at `level` as the window names a group's variable: "/z7/tas".
    std::string pathOf(const std::string& variable, const PyramidLevel& level) const;
    // "HEALPix pyramid, zoom 0–10 (nside 1–1024), nest".
    std::string describe() const;
};

// The width of a cell of `nside`: the square root of its solid angle, sqrt(π/3) / nside radians.
double cellWidth(std::int64_t nside);

// The pyramid `root`'s groups make: two groups or more (the root's own children) whose data
// variables lie on HEALPix grids (healpix_grid.h, any form) of different nsides in one order,
// with at least one variable in all of them. nullopt otherwise, also when a group's grid cannot
// be (gridOf's error is for the view that shows it).
std::optional<Pyramid> pyramidOf(const Dataset& root);

// The zooms' datasets (each opened from its own store, in any order) as one pyramid Dataset:
// each a group "/z{zoom}" (its own groups beneath it), the root the coarsest zoom's dims,
// variables, coordinates and attributes; the root's path is `path`, or the coarsest's when empty. Throws
// ValueError naming the store and the problem when a dataset lies on no HEALPix grid, two have one nside,
// their orders differ, or they share no variable.
Dataset combinePyramid(std::vector<Dataset> levels, const std::string& path);

// A store whose groups are the zooms: its root takes the coarsest zoom's dims, variables,
// coordinates and attributes when it holds none of the pyramid's variables (it is left as it is
// otherwise, and when its groups make no pyramid). The pyramid when it was changed.
std::optional<Pyramid> rootPyramid(Dataset& ds);

// The nside of the HEALPix grid `ds`'s data variables lie on (the first one's), nullopt when
// none lies on one or a grid it says cannot be: whether a store can be a pyramid's zoom.
std::optional<std::int64_t> nsideOf(const Dataset& ds);

} // namespace strata::healpix
