#pragma once
// Index space (x the column, y the row, a cell's centre at each whole x and y, as isolines and
// vector samples have it) to an axis's values and a curvilinear grid's longitude and latitude,
// and an axis's values back to index space.
#include <vector>

#include "strata/render/curvilinear_grid.h"
#include "strata/render/grid_geometry.h"

namespace strata::detail {

// Index space to an axis's values: between the cells' centres (and on past the last one, a
// step further, for the cells of a whole turn that reach over to the first column).
double along(const std::vector<double>& centres, double at);
// An axis's value `v` in index space (the inverse of along, between the first and last
// centres); false outside them.
bool indexAlong(const std::vector<double>& centres, double v, double& at);
// Evenly spaced longitudes that make a whole turn (n steps of 360° / n): contoured with their
// last column's cells reaching over to the first, so that lines cross the seam unbroken.
bool wholeTurn(const AxisGrid& x, const AxisGrid& y);
// A curvilinear grid's longitude and latitude at index point (x column, y row): bilinear
// between the four centres around it, longitudes unwrapped about the first.
void lonLatAt(const CurvilinearGrid& g, double x, double y, double& lon, double& lat);

} // namespace strata::detail
