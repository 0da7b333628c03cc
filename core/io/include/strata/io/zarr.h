#pragma once
// Reading Zarr stores (v2 and v3, local directories) into a strata::Dataset, by Strata's own
// reader (netCDF-C's NCZarr is never used: it returns wrong values for compressed stores).
// The Dataset is the netCDF reader's: CF decoding, times, groups, residency and export are
// the same. openDataset (netcdf.h) comes here for a path that looksLikeZarr.
#include <string>

#include "strata/core/dataset.h"
#include "strata/io/netcdf.h"

namespace strata::io {

// True when `path` is a directory holding .zgroup, .zarray, .zmetadata or zarr.json, or an
// http(s) URL whose path ends in ".zarr" (other URLs, OPeNDAP's, go to netCDF-C). Never throws.
bool looksLikeZarr(const std::string& path);

// Opens the store read-only: groups (consolidated .zmetadata when present, else the
// directories), arrays as lazy variables (dims from _ARRAY_DIMENSIONS or dimension_names),
// attributes, coordinates. Throws NetcdfError naming the store, the variable and the problem
// (malformed JSON, impossible shapes, keys that leave the store). Arrays of types Strata does
// not read (strings, complex) are skipped with a note; an array whose codec is not supported
// opens, and reading it throws an error naming the codec.
// An http(s) URL is read through libcurl (see core/io/src/zarr_http.h): its groups and arrays
// come from consolidated metadata (.zmetadata, or zarr.json's consolidated_metadata); a
// missing chunk (404) reads as the fill value; STRATA_HTTP_TOKEN, when set, is sent as a
// bearer token and never shown; STRATA_HTTP_TIMEOUT (seconds) bounds a stalled transfer. The
// current thread's CancelToken (CancelScope) aborts its transfers: they throw CancelledError.
Dataset openZarr(const std::string& path, OpenNotes& notes);

} // namespace strata::io

namespace strata {
using io::looksLikeZarr;
using io::openZarr;
} // namespace strata
