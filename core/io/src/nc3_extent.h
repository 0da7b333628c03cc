#pragma once
// netCDF-C opens a truncated netCDF-3 file and reads zeros past its end. This reads the
// classic (CDF-1, CDF-2, CDF-5) header itself to find how many bytes the data need.
#include <cstdint>
#include <optional>
#include <string>

namespace strata::io::detail {

// The size the file's header says the file must have at least: the end of its last variable
// (record variables over all records). nullopt when the header cannot be read here (then
// netCDF-C's own checks stand). No netCDF call.
std::optional<std::uint64_t> classicDataExtent(const std::string& path);

} // namespace strata::io::detail
