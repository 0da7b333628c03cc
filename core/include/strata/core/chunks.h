#pragma once
// Placing a chunked variable's stored chunks, once inflated, into a C-order array: undo the
// byte shuffle, swap the byte order where the file's differs from ours, and scatter each
// chunk's elements to where they belong, on the host or a device. This is the step after the
// CPU pool inflates the chunks; on a GPU it runs as a kernel so that the pool only inflates.
#include <cstdint>
#include <span>

#include "strata/core/array_view.h"
#include "strata/core/device.h"
#include "strata/core/stream.h"

namespace strata {

// The destination region and how the chunks are stored. The region is the box
// [origin, origin + shape) of a variable whose chunks have shape `chunk`; `dst` holds it
// contiguous in C order.
struct ChunkGrid {
    int ndim = 0;
    std::int64_t origin[kMaxDims] = {}; // the region's first element in the variable
    std::int64_t shape[kMaxDims] = {};  // the region's shape
    std::int64_t chunk[kMaxDims] = {};  // every chunk's shape (edge chunks are stored whole)
    int elemSize = 4;                   // bytes per element: 1, 2, 4 or 8
    bool shuffled = false;              // bytes stored HDF5-shuffled (byte k of every element together)
    bool swap = false;                  // stored byte order is not this machine's
};

// One chunk: its first element in the variable (a multiple of the chunk shape), and where its
// inflated bytes (product(chunk) * elemSize of them) start in the batch. kNotStored: the chunk
// was never written and reads as the fill value.
struct ChunkRef {
    static constexpr std::uint64_t kNotStored = ~std::uint64_t(0);
    std::int64_t start[kMaxDims] = {};
    std::uint64_t offset = kNotStored;
};

// Writes into `dst` every element of the region that a chunk in `refs` covers: from the batch,
// or `fill` (elemSize bytes, host memory, in this machine's byte order) for chunks not stored.
// Elements no chunk covers are left as they are. `batch` and `dst` are on `device`; `refs`
// and `fill` are host memory. On a GPU the work is queued on `stream` (refs are copied first;
// the caller may reuse them when this returns); on the host it is done when this returns.
// Throws ValueError for a grid that makes no sense (more than kMaxDims dims, chunk lengths < 1,
// a chunk of 4 GiB or more, a negative region, a chunk outside the variable's chunk lattice,
// an element size not 1/2/4/8), and when a chunk that meets the region needs a null `batch`
// or `fill` (both may be null when no chunk needs them). A scalar (ndim 0) is one element.
// On the host the work is spread over the compute pool unless `onThisThread` (a caller that is
// already one of many threads, such as the reader's, placing one chunk each).
void placeChunks(const ChunkGrid& grid, const void* batch, std::span<const ChunkRef> refs, const void* fill,
                 void* dst, Device device, Stream stream, bool onThisThread = false);

} // namespace strata
