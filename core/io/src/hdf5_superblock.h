#pragma once
// The end-of-file address an HDF5 (netCDF-4) file's superblock records: a file shorter than
// that was cut short. HDF5 then only says "HDF error"; this lets the message say "truncated".
#include <cstdint>
#include <optional>
#include <string>

namespace strata::io::detail {

// The size the superblock says the file has (its base address plus its end-of-file address),
// or nullopt when there is no readable superblock (versions 0 to 3 are read). No HDF5 call.
std::optional<std::uint64_t> hdf5RecordedSize(const std::string& path);

} // namespace strata::io::detail
