#pragma once
// Many GRIB files as one dataset: each file indexed (grib_index.h), their messages pooled for
// the hypercubes (grib_cube.h) as if the files were one, so that files split by date or by step
// join along `time` and `step`. Files join only where they agree: a parameter of a level type and
// step type on the same grid(s) in each, and no field (parameter, level, member, date, step) in
// two files.
#include <memory>
#include <string>
#include <vector>

#include "grib_index.h"
#include "grib_source.h"
#include "strata/io/netcdf.h"

namespace strata::io::detail {

struct GribSet {
    std::shared_ptr<GribFiles> files; // those with a message that reads, in the order given
    GribIndex index;                  // their messages, file after file; spans name their file
};

// Indexes `paths` (one or more). A file none of whose messages reads is left out with a note, as
// are damaged messages; NetcdfError naming the file when no file has one. Throws FileSetError
// (multifile.h) when the files disagree, naming for each file outside the largest group that
// agrees the file it clashes with and how (a parameter's grid differs, or both hold one field).
GribSet indexGribFiles(const std::vector<std::string>& paths, OpenNotes& notes);

} // namespace strata::io::detail
