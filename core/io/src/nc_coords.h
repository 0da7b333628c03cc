#pragma once
// Coordinates decoded at open: values to host doubles (masked → NaN, unpacked), dates for
// "<unit> since <date>" units.
#include <optional>
#include <string>

#include "strata/core/coordinate.h"
#include "strata/core/variable.h"
#include "strata/io/netcdf.h"

namespace strata::io::detail {

// Reads the whole of lazy `v` and decodes it as coordinate `name`. Problems with its
// attributes or dates go to Coordinate::problem (prefixed with `context`, "file.nc: variable
// 't'") and to `notes`; nullopt, with a note, for text variables and ones too large to keep
// on the host. Read failures throw NetcdfError.
std::optional<Coordinate> decodeCoordinate(const std::string& name, const Variable& v,
                                           const std::string& context, OpenNotes& notes);

// The names of `ds`'s coordinates, as CF and xarray take them, in order and each once: index
// coordinates (1-D, named after their dim), those named by a variable's `coordinates`, then the
// cell areas a `cell_measures` names ("area: cell_area") that `ds` holds.
std::vector<std::string> coordinateNames(const Dataset& ds);

// Decodes the masking and packing of `enc` on host doubles, in place.
void decodeOnHost(std::vector<double>& values, const CfEncoding& enc);

} // namespace strata::io::detail
