#pragma once
// The parallel reader's reads: boxes of a variable (unit strides) from a DirectLayout, on the
// reader's threads (io_pool.h), with every chunk's filters undone and its bytes placed.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "direct_layout.h"
#include "strata/core/chunks.h"

namespace strata::io::detail {

// True when reading the box this way pays: long runs of bytes or chunks. A box made of short
// runs of a contiguous variable (a column of a map) reads better through netCDF-C's buffers.
bool directReadPays(const DirectLayout& l, std::span<const std::int64_t> start,
                    std::span<const std::int64_t> count);

// Reads the box [start, start + count) into `out` (C order, this machine's byte order).
void directRead(const DirectLayout& l, std::span<const std::int64_t> start,
                std::span<const std::int64_t> count, void* out, const std::string& what);

// Chunked layouts: the chunks meeting the box, in C order, and how many of them are stored.
struct ChunkSelection {
    std::vector<std::int64_t> first, last; // chunk lattice indices, inclusive, per dim
    std::uint64_t total = 0, stored = 0;
};
ChunkSelection selectChunks(const DirectLayout& l, std::span<const std::int64_t> start,
                            std::span<const std::int64_t> count);

// Inflates the stored chunks of `sel` into `batch` (chunkBytes() each, packed in order; at
// least sel.stored * chunkBytes() bytes), undoing every filter but a deferred shuffle, and
// returns a ref for every chunk of the selection (kNotStored for the fill).
std::vector<ChunkRef> inflateChunks(const DirectLayout& l, const ChunkSelection& sel, void* batch,
                                    std::uint64_t batchBytes, const std::string& what);

} // namespace strata::io::detail
