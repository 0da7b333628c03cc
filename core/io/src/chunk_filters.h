#pragma once
// Undoing HDF5's deflate, shuffle and fletcher32 filters on one stored chunk, with every size
// bounded by what the chunk must hold: a chunk that inflates past its size, ends early or
// fails its checksum is an error, never an overrun.
#include <cstdint>
#include <string>
#include <vector>

namespace strata::io::detail {

enum class FilterKind { Deflate, Shuffle, Fletcher32 };

// A dataset's filter pipeline in the order HDF5 applied it when writing.
struct FilterPipeline {
    std::vector<FilterKind> filters;
    int shuffleElement = 1; // the shuffle filter's element size

    bool empty() const { return filters.empty(); }
    // The shuffle is the last filter undone on reading (the first applied on writing), so a
    // GPU may undo it while it places the chunk.
    bool shuffleLast() const { return !filters.empty() && filters.front() == FilterKind::Shuffle; }
    // The most bytes a stored chunk of `chunkBytes` may take: deflate output of incompressible
    // data grows a little; each checksum adds 4.
    std::uint64_t maxStoredBytes(std::uint64_t chunkBytes) const;
    std::string describe() const; // "deflate + shuffle + fletcher32"
};

// Undoes the filters of one chunk: `stored` (its bytes in the file, `storedBytes` long) into
// `out`, which holds exactly `chunkBytes`. `skipMask` bit i set: filter i was not applied to
// this chunk (HDF5's per-chunk filter mask). With keepShuffle the shuffle (when shuffleLast())
// is left for the caller. `scratch` is reused between calls. Throws NetcdfError beginning with
// `what` when the chunk is damaged.
void undoFilters(const FilterPipeline& pipeline, std::uint32_t skipMask, const unsigned char* stored,
                 std::uint64_t storedBytes, unsigned char* out, std::uint64_t chunkBytes, bool keepShuffle,
                 std::vector<unsigned char>& scratch, const std::string& what);

// HDF5's Fletcher-32 checksum of `bytes` (16-bit big-endian words, a trailing odd byte padded).
std::uint32_t fletcher32(const unsigned char* data, std::uint64_t bytes);

// Unshuffles `bytes` from `in` to `out` for elements of `element` bytes (a trailing part that
// is not a whole element is copied as it is, as HDF5 does).
void unshuffle(const unsigned char* in, unsigned char* out, std::uint64_t bytes, int element);

} // namespace strata::io::detail
