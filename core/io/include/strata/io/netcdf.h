#pragma once
#include <cstdint>
// Reading netCDF files (netCDF-3 classic, 64-bit offset, CDF-5, netCDF-4/HDF5) into a
// strata::Dataset: metadata and coordinates at open, variables lazily, hyperslab by hyperslab.
#include <cstddef>
#include <string>
#include <vector>

#include "strata/core/dataset.h"

namespace strata::io {

// What openDataset did not take as it is, for a log or a status line: variables skipped
// (user-defined netCDF-4 types), coordinates whose values or dates could not be decoded, CF
// attributes ignored in decoding (a NaN _FillValue on shorts).
struct OpenNotes {
    std::vector<std::string> lines; // each names the file and the variable
    // What a user is told however quiet the caller (the command line without --verbose): a
    // file named twice and read once.
    std::vector<std::string> warnings;
};

// Opens `path` read-only (the file is never written) and reads its dims, attributes,
// variables (lazy: data are read on load), coordinates (decoded to host doubles, time
// coordinates to dates) and groups. Numeric variables are lazy; char and string variables are
// kept as metadata (their dtype says so). Throws NetcdfError naming the file and the problem
// (missing, not netCDF, truncated, damaged header, sizes that overflow).
Dataset openDataset(const std::string& path);
Dataset openDataset(const std::string& path, OpenNotes& notes);

// Opening files that may be hostile. netCDF-C and HDF5 crash or loop on some damaged files
// (tests/data/bad/README.md lists what the fuzzer found); no check of ours foresees them all.
// checkInChildProcess opens `path` in a child process (fork), reads its metadata, its small
// variables whole and the first value of the others there, and reports how that went: whatever
// the child meets, this process goes on. Data read later, beyond those, are read here. POSIX
// only; the child touches neither CUDA nor Qt.
struct IsolatedCheck {
    int timeoutMs = 10000;                         // a child still reading after this is killed
    std::size_t readBytes = std::size_t(16) << 20; // variables read whole in the child, in all
};
// Returns when the file opened in the child. Throws the error openDataset gave there (its type
// and message), or NetcdfError naming the file when the child crashed ("netCDF-C or HDF5
// crashed while reading it (signal 11, Segmentation fault)"), died, or ran past the timeout.
void checkInChildProcess(const std::string& path, const IsolatedCheck& options = {});
// Starts checkInChildProcess's child for the file at `path` and returns at once, so that the check
// runs while the caller does other work (the window is built). A later checkInChildProcess of the
// same file, unchanged (inode, size and modification time), waits for that child's answer instead
// of starting another; a check of any other file first ends it. Never throws: where the child
// cannot start, the check proper starts its own and says why.
void beginCheckInChildProcess(const std::string& path, const IsolatedCheck& options = {});
// The checking processes started so far by this process.
int checkProcessesStarted();
// checkInChildProcess, then openDataset here: the way to open a file the user picked.
Dataset openDatasetIsolated(const std::string& path, OpenNotes& notes, const IsolatedCheck& options = {});

// True when the file starts like a netCDF-3 (CDF1/2/5) or HDF5 file. Reads a few bytes; no
// netCDF call; never throws.
bool looksLikeNetcdf(const std::string& path);

// Hyperslab reads of variables' data made in this process so far (and the bytes they returned),
// across files and threads: what tests and benchmarks use to prove a view is served from memory.
struct ReadCounters {
    std::uint64_t reads = 0;
    std::uint64_t bytes = 0;
};
ReadCounters readCounters();

// How variables' data are read. Parallel (the default): Strata's own reader wherever the
// layout allows (netCDF-3 and contiguous netCDF-4 by byte offset; chunked netCDF-4 with
// deflate, shuffle and fletcher32 inflated on a thread pool), netCDF-C for everything else.
// NetcdfC: netCDF-C's own read for everything. Process-wide, for tests and benchmarks; the
// environment variable STRATA_READ=netcdf-c chooses NetcdfC at start.
enum class ReadMode { Parallel, NetcdfC };
void setReadMode(ReadMode mode);
ReadMode readMode();

// The chunk shape variable `v` of a file just opened is stored in (a netCDF-4 variable's
// chunking, a Zarr array's chunks), in its dims' order: where a reader of regions (a Dask
// chunk each) cuts it best. Empty when it is contiguous, loaded or not from a file.
std::vector<std::int64_t> storedChunkShape(const Variable& v);

// The netCDF-C library's version text, for an About box.
std::string netcdfLibraryVersion();

} // namespace strata::io

namespace strata {
using io::beginCheckInChildProcess;
using io::checkInChildProcess;
using io::checkProcessesStarted;
using io::IsolatedCheck;
using io::looksLikeNetcdf;
using io::openDataset;
using io::openDatasetIsolated;
using io::OpenNotes;
} // namespace strata
