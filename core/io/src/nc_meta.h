#pragma once
// Small readers of netCDF metadata. Callers hold netcdfMutex().
#include <optional>
#include <string>

#include "strata/core/attributes.h"
#include "strata/core/dtype.h"

namespace strata::io::detail {

// The DType of a netCDF atomic type; nullopt for user-defined types (compound, vlen, ...).
std::optional<DType> dtypeOfNc(int ncType);
// "classic", "64-bit offset", "CDF-5", "netCDF-4", "netCDF-4 classic model".
std::string formatName(int ncFormat);
// The attributes of a variable (or NC_GLOBAL); `context` prefixes error messages.
Attributes readAttributes(int ncid, int varid, const std::string& context);
// A group's full path ("/" for the root, "/a/b") and a variable's label within it.
std::string groupPath(int ncid);
std::string variableLabel(const std::string& group, const std::string& name);

} // namespace strata::io::detail
