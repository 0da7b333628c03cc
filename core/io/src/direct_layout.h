#pragma once
// Where a variable's stored bytes lie in its file, for the parallel reader: one block or
// records at a fixed stride (netCDF-3, contiguous netCDF-4), or a chunk index with its filter
// pipeline (chunked netCDF-4). Built once per variable from the netCDF-3 header or HDF5's own
// description; everything taken from the file is checked against the file's size.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chunk_filters.h"
#include "raw_file.h"
#include "strata/core/dtype.h"

namespace strata::io::detail {

struct StoredChunk {
    static constexpr std::uint64_t kNone = ~std::uint64_t(0);
    std::uint64_t address = kNone; // kNone: never written
    std::uint64_t bytes = 0;
    std::uint32_t skipMask = 0; // filters not applied to this chunk
};

struct DirectLayout {
    enum class Kind { NetcdfC, Contiguous, Chunked };
    Kind kind = Kind::NetcdfC;
    std::string reason;                  // NetcdfC: why ("szip filter"); else how, in words
    std::shared_ptr<const RawFile> file; // not NetcdfC
    std::vector<std::int64_t> shape;     // the variable's shape
    int elemSize = 1;
    bool swap = false;               // the file's byte order is not this machine's
    std::vector<unsigned char> fill; // elemSize bytes in this machine's order

    // Contiguous: element (i0, rest) lies at base + i0 * outerStride + flat(rest) * elemSize;
    // without storage (never written) every element is the fill value.
    bool stored = true;
    std::uint64_t base = 0;
    std::uint64_t outerStride = 0;

    // Chunked: chunks in C order over the lattice (ceil(shape / chunk) per dim).
    std::vector<std::int64_t> chunk;
    std::vector<std::int64_t> lattice;
    std::vector<StoredChunk> chunks;
    FilterPipeline pipeline;
    bool deferShuffle = false; // every stored chunk is shuffled last: a GPU may unshuffle
    std::uint64_t chunkBytes() const;
};

// The layout of the netCDF-3 variable `varId` of the file at `path` (its header read again),
// or Kind::NetcdfC with the reason. `what` names the variable for messages.
DirectLayout classicLayout(const std::string& path, int varId, const std::vector<std::int64_t>& shape,
                           DType stored, const std::string& what);

// The layout of the netCDF-4 variable (groupId, varId) through HDF5. The caller holds
// netcdfMutex() (HDF5 is not thread-safe).
DirectLayout hdf5Layout(const std::string& path, int groupId, int varId,
                        const std::vector<std::int64_t>& shape, DType stored, const std::string& what);

} // namespace strata::io::detail
