// placeChunks(): checks the grid and the refs, turns each chunk that meets the region into the
// box where the two meet, and hands the boxes to the host or the device.
#include "strata/core/chunks.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "backend.h"
#include "strata/core/error.h"

namespace strata {
namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
// HDF5 stores a chunk in fewer than 2^32 bytes; the kernels index within a chunk in 32 bits.
constexpr std::int64_t kMaxChunkBytes = (std::int64_t(1) << 32) - 1;

std::string str(std::int64_t v) { return std::to_string(v); }

void checkGrid(const ChunkGrid& g) {
    STRATA_EXPECTS(g.ndim >= 0 && g.ndim <= kMaxDims, ValueError,
                   "placeChunks: " + str(g.ndim) + " dims (0 to " + str(kMaxDims) + " allowed)");
    STRATA_EXPECTS(g.elemSize == 1 || g.elemSize == 2 || g.elemSize == 4 || g.elemSize == 8, ValueError,
                   "placeChunks: elements of " + str(g.elemSize) + " bytes (1, 2, 4 or 8 allowed)");
    std::int64_t chunkBytes = g.elemSize, regionBytes = g.elemSize;
    for (int d = 0; d < g.ndim; ++d) {
        const std::string dim = " of dim " + str(d);
        STRATA_EXPECTS(g.chunk[d] >= 1, ValueError, "placeChunks: chunk length " + str(g.chunk[d]) + dim);
        STRATA_EXPECTS(g.shape[d] >= 0, ValueError, "placeChunks: region length " + str(g.shape[d]) + dim);
        STRATA_EXPECTS(g.origin[d] >= 0 && g.origin[d] <= kInt64Max - g.shape[d], ValueError,
                       "placeChunks: region start " + str(g.origin[d]) + dim);
        STRATA_EXPECTS(g.chunk[d] <= kMaxChunkBytes / chunkBytes, ValueError,
                       "placeChunks: a chunk of 4 GiB or more");
        chunkBytes *= g.chunk[d];
        STRATA_EXPECTS(g.shape[d] == 0 || regionBytes <= kInt64Max / g.shape[d], ValueError,
                       "placeChunks: a region too large to address");
        regionBytes *= g.shape[d];
    }
}

void checkRef(const ChunkGrid& g, const ChunkRef& r) {
    for (int d = 0; d < g.ndim; ++d)
        STRATA_EXPECTS(r.start[d] >= 0 && r.start[d] % g.chunk[d] == 0 &&
                           r.start[d] <= kInt64Max - g.chunk[d],
                       ValueError,
                       "placeChunks: a chunk starts at " + str(r.start[d]) + " in dim " + str(d) +
                           ", which is not a multiple (>= 0) of the chunk length " + str(g.chunk[d]));
}

// The box where chunk `r` meets the region; false when they do not meet.
bool boxOf(const ChunkGrid& g, const detail::PlaceProblem& p, const ChunkRef& r, detail::ChunkBox& box) {
    box.offset = r.offset;
    box.count[0] = 1; // a scalar
    for (int d = 0; d < g.ndim; ++d) {
        const std::int64_t lo = std::max(r.start[d], g.origin[d]);
        const std::int64_t hi = std::min(r.start[d] + g.chunk[d], g.origin[d] + g.shape[d]);
        if (lo >= hi) return false;
        box.count[d] = hi - lo;
        box.srcFirst += (lo - r.start[d]) * p.srcStrides[d];
        box.dstFirst += (lo - g.origin[d]) * p.dstStrides[d];
    }
    return true;
}

// Merges dim d + 1 into dim d wherever every box spans the whole chunk and the whole region
// along d + 1 (chunk and region alike there): a box's rows then run on contiguously in both,
// so there are fewer and longer runs to copy and fewer dims to walk.
void mergeDims(detail::PlaceProblem& p, std::vector<detail::ChunkBox>& boxes, const ChunkGrid& g) {
    std::int64_t chunk[kMaxDims], region[kMaxDims];
    std::copy(g.chunk, g.chunk + kMaxDims, chunk);
    std::copy(g.shape, g.shape + kMaxDims, region);
    for (int d = p.ndim - 2; d >= 0; --d) {
        const std::int64_t inner = chunk[d + 1];
        const bool whole =
            inner == region[d + 1] &&
            std::all_of(boxes.begin(), boxes.end(), [&](const auto& b) { return b.count[d + 1] == inner; });
        if (!whole) continue;
        const auto drop = [&](std::int64_t* a) { std::copy(a + d + 2, a + kMaxDims, a + d + 1); };
        chunk[d] *= inner;
        region[d] *= region[d + 1];
        drop(chunk);
        drop(region);
        p.srcStrides[d] = p.srcStrides[d + 1];
        p.dstStrides[d] = p.dstStrides[d + 1];
        drop(p.srcStrides);
        drop(p.dstStrides);
        for (auto& b : boxes) {
            b.count[d] *= inner;
            drop(b.count);
        }
        --p.ndim;
    }
}

} // namespace

void placeChunks(const ChunkGrid& grid, const void* batch, std::span<const ChunkRef> refs, const void* fill,
                 void* dst, Device device, Stream stream, bool onThisThread) {
    checkGrid(grid);
    STRATA_EXPECTS(device.isHost() || stream.device() == device, ValueError,
                   "placeChunks: the data is on " + device.toString() + " but the stream is for " +
                       stream.device().toString());

    detail::PlaceProblem p;
    p.ndim = std::max(grid.ndim, 1);
    p.elemSize = grid.elemSize;
    p.shuffled = grid.shuffled && grid.elemSize > 1; // one byte: nothing to move
    p.swap = grid.swap && grid.elemSize > 1;
    p.batch = batch;
    p.fill = fill;
    p.dst = dst;
    p.serial = onThisThread;
    p.srcStrides[0] = p.dstStrides[0] = 1;
    for (int d = grid.ndim - 1; d >= 0; --d) {
        p.srcStrides[d] = d == grid.ndim - 1 ? 1 : p.srcStrides[d + 1] * grid.chunk[d + 1];
        p.dstStrides[d] = d == grid.ndim - 1 ? 1 : p.dstStrides[d + 1] * grid.shape[d + 1];
    }
    p.chunkSize = grid.ndim == 0 ? 1 : p.srcStrides[0] * grid.chunk[0];

    std::vector<detail::ChunkBox> boxes;
    boxes.reserve(refs.size());
    bool needsBatch = false, needsFill = false;
    for (const ChunkRef& r : refs) {
        checkRef(grid, r);
        detail::ChunkBox box;
        if (!boxOf(grid, p, r, box)) continue;
        const bool stored = box.offset != ChunkRef::kNotStored;
        needsBatch |= stored;
        needsFill |= !stored;
        boxes.push_back(box);
    }
    if (boxes.empty()) return;
    STRATA_EXPECTS(dst, ValueError, "placeChunks: no destination");
    STRATA_EXPECTS(batch || !needsBatch, ValueError, "placeChunks: stored chunks but no batch");
    STRATA_EXPECTS(fill || !needsFill, ValueError, "placeChunks: chunks not stored but no fill value");
    mergeDims(p, boxes, grid);
    p.boxes = boxes;

    if (device.isHost()) {
        detail::placeChunksCpu(p);
    } else {
#if STRATA_HAVE_CUDA
        detail::placeChunksCuda(p, stream);
#else
        STRATA_FAIL(ValueError, "placeChunks: CUDA data, but the CUDA backend is not built");
#endif
    }
}

} // namespace strata
