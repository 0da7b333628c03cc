#pragma once
// Which variables of a file lie on a HEALPix grid, as the file says it in one of the three
// forms in use (issue 37):
// - CF 1.13: a grid mapping with grid_mapping_name = "healpix", its refinement_level and
//   indexing_scheme ("nested" or "ring"), the cells' indices in a coordinate whose
//   standard_name is healpix_index;
// - easygems / nextGEMS: a grid mapping (usually `crs`) with healpix_nside and healpix_order
//   ("nest" or "ring"), often with grid_mapping_name = "healpix" too (read as this form when it
//   has no refinement_level);
// - xdggs: a coordinate `cell_ids` with grid_name = "healpix", level and indexing_scheme.
// A variable on the whole sky has 12 nside² cells along its cell dim, in order; a subset names
// its cells in that coordinate.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/dataset.h"
#include "strata/core/healpix.h"

namespace strata::healpix {

struct Grid {
    std::int64_t nside = 0;
    Order order = Order::Nest;
    std::string dim;                 // the cell dim of the variable
    std::vector<std::int64_t> cells; // the cell at each index along dim; empty: the whole sky
    std::string form;                // how the file said it: "CF healpix", "healpix_nside", "xdggs"
};

// The grid `var` of `ds` lies on; nullopt when the file says none. Throws ValueError naming
// the file, the variable and the problem when what it says cannot be: an nside that is not a
// power of two for nest (or outside 1 to 2^29), an unknown order, cell indices that repeat,
// are not whole numbers or lie outside the sky, or a cell count that matches no grid.
std::optional<Grid> gridOf(const Dataset& ds, const DataArray& var);

} // namespace strata::healpix
