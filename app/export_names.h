#pragma once
// Names for exports: a file name that says what the view holds ("tas_2005-01-16"), and the
// extension added when a name lacks it.
#include <string>
#include <utility>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/ops.h"

namespace strata::app {

// The variable, then each value a slice left (in its axis's format, value_format.h) and each
// reduction: "tas_2005-01-16", "HGT_1000_mean-lat", "tas_mean-time". Only letters, digits and
// ".-+_" survive ("0.93°N" → "0.93N", "2001-12-31 23:00" → "2001-12-31-2300").
std::string exportBaseName(const DataArray& frame,
                           const std::vector<std::pair<std::string, ReduceOp>>& reductions);

// `path`, with "." + `extension` added when its file name has no extension ("january" →
// "january.png"); a name with one is kept as typed.
std::string withExtension(const std::string& path, const std::string& extension);

} // namespace strata::app
