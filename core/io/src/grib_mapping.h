#pragma once
// A projected GRIB grid as a CF grid mapping: the mapping's parameters from the message's keys,
// and the grid's 1-D x and y, found by projecting ecCodes' own latitude and longitude of every
// point and kept only when they fall on one regular lattice (so that a parameter read wrongly
// shows as a note, never as a misplaced map).
#include <eccodes.h>

#include <optional>
#include <string>
#include <vector>

#include "strata/core/attributes.h"

namespace strata::io::detail {

struct GribMapping {
    Attributes mapping;       // grid_mapping_name and its CF parameters
    std::vector<double> x, y; // along a row and down a column: metres, or a rotated pole's degrees
    Attributes xAttrs, yAttrs;
};

// The mapping of a rotated_ll, lambert or polar_stereographic grid of ni x nj points whose
// latitudes and longitudes ecCodes gave (`lat`, `lon`, row by row). nullopt for other grids, or
// with `problem` set when the lattice does not fit (or PROJ refuses the mapping).
std::optional<GribMapping> gribMapping(codes_handle* h, const std::string& gridType, long ni, long nj,
                                       const std::vector<double>& lat, const std::vector<double>& lon,
                                       std::string& problem);

} // namespace strata::io::detail
