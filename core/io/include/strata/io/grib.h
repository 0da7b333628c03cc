#pragma once
// Reading GRIB files (editions 1 and 2) into a strata::Dataset through ecCodes, with cfgrib's
// view of them: messages indexed once, split into hypercubes as cfgrib.open_datasets splits them
// (one per level type, step type and grid), cfgrib's names, dims, coordinates and attributes.
// openDataset (netcdf.h) comes here for a path that looksLikeGrib.
#include <string>
#include <vector>

#include "strata/core/dataset.h"
#include "strata/io/netcdf.h"

namespace strata::io {

// True when the file's first bytes are "GRIB", or its name ends in .grib, .grib1, .grib2, .grb
// or .grb2 and it is not netCDF. Never throws.
bool looksLikeGrib(const std::string& path);

// Whether this build reads GRIB (ecCodes was found); openGrib throws NetcdfError otherwise.
bool gribSupported();

// Opens the file read-only. One hypercube is the Dataset itself (as cfgrib.open_dataset gives
// it); several are its groups, each named after its level type and step type
// ("/isobaricInhPa_instant", "/surface_accum"; "_2" after the name for a second grid). In each:
//   dims      number, time, step, <typeOfLevel> (those of more than one value), then latitude,
//             longitude (regular_ll, regular_gg) or y, x (rotated, Lambert, polar stereographic,
//             with 2-D latitude and longitude) or values (reduced_gg, with 1-D latitude and
//             longitude on it, and a UGRID mesh `mesh` of the points' cells, grib_reduced.h);
//   coords    those, the single-valued ones as scalars, and valid_time(time, step);
//   variables cfVarName (t2m, t, tp), float32, lazy: read message by message by ecCodes (GRIB 2
//             simple packing loaded whole onto a GPU: decoded there, strata/core/simple_unpack.h).
// Damaged messages (truncated, a bad length, a packing or grid not read, a grid whose size
// disagrees with its values) are left out with a note in `notes` naming the file, the message's
// number and the problem; the rest of the file reads. A place of a hypercube no message fills
// reads as NaN, with a note. Throws NetcdfError naming the file when no message can be read.
Dataset openGrib(const std::string& path, OpenNotes& notes);

// Opens `paths` (GRIB files) as one Dataset: their messages pooled as if the files were one, so
// that files split by date or by step join along `time` and `step` (Dataset::files lists them).
// A file none of whose messages reads is left out with a note. Throws FileSetError (multifile.h)
// when files disagree: a parameter of a level type and step type on another grid in one file
// than in another, or a field (parameter, level, member, date, step) in two files; the message
// names both files, their messages and the difference.
Dataset openGribFiles(const std::vector<std::string>& paths, OpenNotes& notes);

// checkInChildProcess (netcdf.h) for GRIB files opened together: one child opens them all with
// openGribFiles, given timeoutMs for each file. Files that do not form one dataset pass (the
// open here says how they part); a crash, a hang or another error is thrown as there.
void checkGribFilesInChildProcess(const std::vector<std::string>& paths, const IsolatedCheck& options = {});

// ecCodes' version ("2.28.0"), or "" without GRIB support.
std::string gribLibraryVersion();

} // namespace strata::io

namespace strata {
using io::looksLikeGrib;
using io::openGrib;
using io::openGribFiles;
} // namespace strata
