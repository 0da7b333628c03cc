#pragma once
// Titles for what a view shows: the variable (long_name and units) and the slice it is at.
#include <string>
#include <utility>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/ops.h"

namespace strata {

// "air temperature [K]": long_name (else standard_name, else the name) and the units.
std::string variableTitle(const DataArray& a);

// The value of a scalar coordinate as a title shows it, in its axis's format (value_format.h):
// the date to the axis's resolution ("2005-01-16"), latitude and longitude with a hemisphere
// ("0.93°N", "84.753°S"), other numbers with the axis's decimals and units ("850 hPa").
std::string sliceValueLabel(const Coordinate& c);

// "time = 2005-01-16, level = 850 hPa" from the array's scalar coordinates (those a single-index
// isel left behind), with decoded dates for time coordinates; empty when there are none.
std::string sliceDescription(const DataArray& a);

// "mean over lon, max over time": the reductions that made a frame, in the order applied; with
// `areaWeighted`, the means are one "area-weighted mean over lat, lon" (see FrameSpec). Without,
// a mean over `latitude` (the latitude dim, when there is one) says it is
// "mean over lat (unweighted)": high-latitude cells count as much as equatorial ones.
std::string reductionDescription(const std::vector<std::pair<std::string, ReduceOp>>& reductions,
                                 bool areaWeighted = false, const std::string& latitude = {});

// The view's title: variableTitle, then the slice description (and the reductions) after two
// spaces.
std::string frameTitle(const DataArray& a);
std::string frameTitle(const DataArray& a, const std::vector<std::pair<std::string, ReduceOp>>& reductions,
                       bool areaWeighted = false, const std::string& latitude = {});

} // namespace strata
