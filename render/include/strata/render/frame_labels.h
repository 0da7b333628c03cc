#pragma once
// Titles for what a view shows: the variable (long_name and units) and the slice it is at.
#include <string>
#include <vector>

#include "strata/core/data_array.h"

namespace strata {

// "air temperature [K]": long_name (else standard_name, else the name) and the units.
std::string variableTitle(const DataArray& a);

// "time = 2005-01-16, level = 850" from the array's scalar coordinates (those a single-index
// isel left behind), with decoded dates for time coordinates; empty when there are none.
std::string sliceDescription(const DataArray& a);

// The view's title: variableTitle, then the slice description after two spaces.
std::string frameTitle(const DataArray& a);

} // namespace strata
