#pragma once
// Area weights for the mean climate users draw most: the global (or regional) mean of a field on
// a latitude–longitude grid, each cell weighted by its area.
#include <string>
#include <vector>

#include "strata/core/data_array.h"

namespace strata {

// The dim of `a` whose index coordinate is a CF latitude, true or a rotated pole's (a grid
// latitude keeps areas): isLatitudeLike (cf_axis.h). Empty when there is none.
std::string latitudeDim(const DataArray& a);

struct AreaWeights {
    DataArray weights;  // on the requested device; dims a subset of the reduced dims
    std::string source; // "cos(lat)", or the cell-measures variable ("cell_area")
};

// The weights of an area-weighted mean of `a` over `dims`: the cell areas its `cell_measures`
// attribute names ("area: cell_area"), when they are a coordinate of `a` over a subset of
// `dims`; else cos(latitude) when `dims` include the latitude dim. Throws ValueError naming
// the variable and saying what is missing when neither applies.
// The same check without the weights: throws that ValueError, or returns.
void checkAreaWeights(const DataArray& a, const std::vector<std::string>& dims);
AreaWeights areaWeights(const DataArray& a, const std::vector<std::string>& dims, Device device,
                        Stream stream);

} // namespace strata
