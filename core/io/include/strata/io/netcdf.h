#pragma once
// Reading netCDF files (netCDF-3 classic, 64-bit offset, CDF-5, netCDF-4/HDF5) into a
// strata::Dataset: metadata and coordinates at open, variables lazily, hyperslab by hyperslab.
#include <string>
#include <vector>

#include "strata/core/dataset.h"

namespace strata::io {

// What openDataset did not take as it is, for a log or a status line: variables skipped
// (user-defined netCDF-4 types), coordinates whose values or dates could not be decoded.
struct OpenNotes {
    std::vector<std::string> lines; // each names the file and the variable
};

// Opens `path` read-only (the file is never written) and reads its dims, attributes,
// variables (lazy: data are read on load), coordinates (decoded to host doubles, time
// coordinates to dates) and groups. Numeric variables are lazy; char and string variables are
// kept as metadata (their dtype says so). Throws NetcdfError naming the file and the problem
// (missing, not netCDF, truncated, damaged header, sizes that overflow).
Dataset openDataset(const std::string& path);
Dataset openDataset(const std::string& path, OpenNotes& notes);

// True when the file starts like a netCDF-3 (CDF1/2/5) or HDF5 file. Reads a few bytes; no
// netCDF call; never throws.
bool looksLikeNetcdf(const std::string& path);

// The netCDF-C library's version text, for an About box.
std::string netcdfLibraryVersion();

} // namespace strata::io

namespace strata {
using io::looksLikeNetcdf;
using io::openDataset;
using io::OpenNotes;
} // namespace strata
