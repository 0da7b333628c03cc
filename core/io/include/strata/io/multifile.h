#pragma once
// Many netCDF files as one Dataset, combined along their record dim (the unlimited dim, else
// the CF time dim), as xarray's open_mfdataset(combine="by_coords") does, checked more strictly
// and opened lazily: only metadata at open, read in child processes several at once.
#include <string>
#include <vector>

#include "strata/core/cancel.h"
#include "strata/core/dataset.h"
#include "strata/core/error.h"
#include "strata/io/netcdf.h"

namespace strata::io {

// The files named by command-line arguments: a file, or a Zarr store (local or over HTTP), as it
// is; another directory → its *.nc files;
// a glob ("dir/*.nc", quoted so that Strata expands it) → the files matching it. Sorted by
// name within each argument, duplicates dropped. Throws ValueError naming an argument that
// matches nothing (or a directory without .nc files).
std::vector<std::string> expandPaths(const std::vector<std::string>& args);
// The files `args` name more than once (a path given twice, or matched by a path and a glob),
// each once, in the order met: expandPaths keeps one of each, and a user is told.
std::vector<std::string> repeatedPaths(const std::vector<std::string>& args);

struct MultiOpenOptions {
    int workers = 0;           // child processes reading metadata at once; 0: one per core (at least 2)
    int timeoutMs = 10000;     // a child still reading one file after this is stopped, the file named
    std::size_t openFiles = 0; // member files kept open at once; 0: STRATA_OPEN_FILES or a default
    CancelToken cancel;        // openPaths: stops the open (CancelledError), its reads over HTTP at once
};

// Files of a set that open together as one dataset.
struct FileGroup {
    std::vector<std::string> files; // in the order given
    std::string along;              // the record dim they combine along; empty: one file without one
};

// Files that do not form one dataset: the groups that each do (the largest first), and for each
// file outside the first group, why it cannot join it.
struct FileGrouping {
    std::vector<FileGroup> groups;
    std::vector<std::string> conflicts;
};

// openMultiDataset's error for files that do not form one dataset: the message names every
// conflict; the grouping says which files could be opened together instead.
class FileSetError : public ValueError {
public:
    FileSetError(const std::string& message, FileGrouping grouping, std::string where = {})
        : ValueError(message, std::move(where)), grouping_(std::move(grouping)) {}
    const FileGrouping& grouping() const noexcept { return grouping_; }

private:
    FileGrouping grouping_;
};

// Opens `paths` as one Dataset (`files` lists them in record order; `path` is the first).
// Members are ordered by their first record coordinate value (not by name); every other dim
// must match in length and coordinate values (within 1e-6 relative), and members must not share a
// record; else FileSetError, naming for each file that cannot join the largest group of files
// that agree the other file and what differs. Time coordinates in different units are decoded onto the first
// member's units; different calendars are refused. A variable in only some members is read from
// those alone, along its own record dim "<record>_<variable>" (a note says so). Attributes come
// from the first member. A member that cannot be opened is left out with a note naming it;
// NetcdfError when none can be. One path opens as a set of one.
Dataset openMultiDataset(const std::vector<std::string>& paths, OpenNotes& notes,
                         const MultiOpenOptions& options = {});

// The way to open what a user named (command-line arguments, files picked or dropped):
// expandPaths, then one file through openDatasetIsolated, several through openMultiDataset.
// Throws CancelledError once options.cancel is cancelled, however far the open has gone.
Dataset openPaths(const std::vector<std::string>& args, OpenNotes& notes,
                  const MultiOpenOptions& options = {});

// "File set: tas_*.nc (480 files)" and the files, one a line (the first and last few of many),
// for --info.
std::string fileSetSummary(const std::vector<std::string>& files);

// "tas_*.nc (480 files)": the names' common start and end around a *, and the count; the file
// name alone for one file.
std::string fileSetLabel(const std::vector<std::string>& files);
// "tas_*.nc": fileSetLabel without the count.
std::string fileSetPattern(const std::vector<std::string>& files);

} // namespace strata::io

namespace strata {
using io::expandPaths;
using io::FileSetError;
using io::fileSetLabel;
using io::MultiOpenOptions;
using io::openMultiDataset;
using io::openPaths;
} // namespace strata
