#include "direct_read.h"

#include <algorithm>
#include <cstring>

#include "io_pool.h"
#include "strata/core/error.h"

namespace strata::io::detail {
namespace {

constexpr std::uint64_t kShortRun = std::uint64_t(64) << 10; // shorter runs read through netCDF-C
constexpr std::uint64_t kPiece = std::uint64_t(4) << 20;     // the most one task reads at once
constexpr std::uint64_t kKeepBuffers = std::uint64_t(64) << 20;

void swapBytes(void* data, std::uint64_t bytes, int elemSize) {
    switch (elemSize) {
    case 2:
        for (auto *p = static_cast<std::uint16_t*>(data), *e = p + bytes / 2; p < e; ++p)
            *p = __builtin_bswap16(*p);
        break;
    case 4:
        for (auto *p = static_cast<std::uint32_t*>(data), *e = p + bytes / 4; p < e; ++p)
            *p = __builtin_bswap32(*p);
        break;
    case 8:
        for (auto *p = static_cast<std::uint64_t*>(data), *e = p + bytes / 8; p < e; ++p)
            *p = __builtin_bswap64(*p);
        break;
    default:
        break;
    }
}

void fillWith(void* out, std::uint64_t elements, const std::vector<unsigned char>& fill) {
    auto* o = static_cast<unsigned char*>(out);
    const std::size_t e = fill.size();
    if (std::all_of(fill.begin(), fill.end(), [](unsigned char c) { return c == 0; })) {
        std::memset(o, 0, std::size_t(elements) * e);
        return;
    }
    for (std::uint64_t i = 0; i < elements; ++i) std::memcpy(o + i * e, fill.data(), e);
}

// A contiguous layout's box as runs of bytes: `runs` of `runBytes` each; run r's file offset
// and its place in `out`.
struct Runs {
    std::uint64_t runs = 0, runBytes = 0;
    int k = 0; // runs vary along dims [0, k); dims from k on are inside a run
    std::vector<std::int64_t> start, count, shape;
    std::uint64_t elemSize = 1, outerStride = 0, base = 0;

    std::uint64_t fileOffset(std::uint64_t r) const {
        // Decompose r over count[0..k) in C order.
        std::uint64_t off = base, inner = elemSize;
        std::vector<std::uint64_t> stride(shape.size());
        for (int i = int(shape.size()) - 1; i >= 1; --i) {
            stride[std::size_t(i)] = inner;
            inner *= std::uint64_t(shape[std::size_t(i)]);
        }
        if (!shape.empty()) stride[0] = outerStride;
        for (int i = k - 1; i >= 0; --i) {
            const std::uint64_t c = std::uint64_t(count[std::size_t(i)]);
            const std::uint64_t at = r % c;
            r /= c;
            off += (std::uint64_t(start[std::size_t(i)]) + at) * stride[std::size_t(i)];
        }
        for (int i = k; i < int(shape.size()); ++i)
            off += std::uint64_t(start[std::size_t(i)]) * stride[std::size_t(i)];
        return off;
    }
};

Runs runsOf(const DirectLayout& l, std::span<const std::int64_t> start, std::span<const std::int64_t> count) {
    Runs r;
    const int n = int(l.shape.size());
    r.start.assign(start.begin(), start.end());
    r.count.assign(count.begin(), count.end());
    r.shape = l.shape;
    r.elemSize = std::uint64_t(l.elemSize);
    r.outerStride = l.outerStride;
    r.base = l.base;
    // Dims from k on form one run: all but the first of them are whole; dim 0 joins only when
    // records lie back to back.
    std::uint64_t rest = std::uint64_t(l.elemSize);
    for (int i = 1; i < n; ++i) rest *= std::uint64_t(l.shape[std::size_t(i)]);
    int k = n;
    r.runBytes = std::uint64_t(l.elemSize);
    while (k > 0) {
        const int d = k - 1;
        if (d == 0 && l.outerStride != rest) break;
        r.runBytes *= std::uint64_t(count[std::size_t(d)]);
        k = d;
        if (count[std::size_t(d)] != l.shape[std::size_t(d)]) break;
    }
    r.k = k;
    r.runs = 1;
    for (int i = 0; i < k; ++i) r.runs *= std::uint64_t(count[std::size_t(i)]);
    return r;
}

// Per-thread buffers, trimmed after a large chunk so that idle threads do not hold memory.
struct ThreadBuffers {
    std::vector<unsigned char> stored, chunk, scratch;
    void trim() {
        for (auto* v : {&stored, &chunk, &scratch})
            if (v->capacity() > kKeepBuffers) std::vector<unsigned char>().swap(*v);
    }
};
ThreadBuffers& buffers() {
    thread_local ThreadBuffers b;
    return b;
}

ChunkGrid gridOf(const DirectLayout& l, std::span<const std::int64_t> start,
                 std::span<const std::int64_t> count, bool shuffled) {
    ChunkGrid g;
    g.ndim = int(l.shape.size());
    for (int i = 0; i < g.ndim; ++i) {
        g.origin[i] = start[std::size_t(i)];
        g.shape[i] = count[std::size_t(i)];
        g.chunk[i] = l.chunk[std::size_t(i)];
    }
    g.elemSize = l.elemSize;
    g.shuffled = shuffled;
    g.swap = l.swap;
    return g;
}

// The chunk of the selection numbered `i` (C order): its lattice index and its place in
// l.chunks.
std::uint64_t chunkAt(const DirectLayout& l, const ChunkSelection& sel, std::uint64_t i,
                      std::int64_t* first) {
    const int n = int(l.shape.size());
    std::uint64_t flat = 0;
    std::int64_t idx[kMaxDims] = {};
    for (int d = n - 1; d >= 0; --d) {
        const std::uint64_t span = std::uint64_t(sel.last[std::size_t(d)] - sel.first[std::size_t(d)] + 1);
        idx[std::size_t(d)] = sel.first[std::size_t(d)] + std::int64_t(i % span);
        i /= span;
    }
    for (int d = 0; d < n; ++d) {
        flat = flat * std::uint64_t(l.lattice[std::size_t(d)]) + std::uint64_t(idx[std::size_t(d)]);
        first[d] = idx[std::size_t(d)] * l.chunk[std::size_t(d)];
    }
    return flat;
}

} // namespace

bool directReadPays(const DirectLayout& l, std::span<const std::int64_t> start,
                    std::span<const std::int64_t> count) {
    if (l.kind == DirectLayout::Kind::Chunked) return true;
    if (l.kind != DirectLayout::Kind::Contiguous) return false;
    if (!l.stored) return true;
    return runsOf(l, start, count).runBytes >= kShortRun;
}

void directRead(const DirectLayout& l, std::span<const std::int64_t> start,
                std::span<const std::int64_t> count, void* out, const std::string& what) {
    std::uint64_t elements = 1;
    for (std::int64_t c : count) elements *= std::uint64_t(c);
    if (elements == 0) return;
    if (l.kind == DirectLayout::Kind::Contiguous) {
        if (!l.stored) {
            fillWith(out, elements, l.fill);
            return;
        }
        const Runs r = runsOf(l, start, count);
        // Long runs are cut into pieces so that every thread has work.
        const std::uint64_t total = r.runs * r.runBytes;
        const std::uint64_t piece =
            std::max<std::uint64_t>(std::uint64_t(l.elemSize) << 12,
                                    std::min(kPiece, total / std::uint64_t(4 * ioThreads()) + 1)) /
            std::uint64_t(l.elemSize) * std::uint64_t(l.elemSize);
        const std::uint64_t perRun = (r.runBytes + piece - 1) / piece;
        ioParallel(std::size_t(r.runs * perRun), [&](std::size_t task) {
            const std::uint64_t run = task / perRun, part = task % perRun;
            const std::uint64_t skip = part * piece, bytes = std::min(piece, r.runBytes - skip);
            char* dst = static_cast<char*>(out) + run * r.runBytes + skip;
            l.file->read(r.fileOffset(run) + skip, bytes, dst, what);
            if (l.swap) swapBytes(dst, bytes, l.elemSize);
        });
        return;
    }
    STRATA_EXPECTS(l.kind == DirectLayout::Kind::Chunked, NetcdfError, what + ": not read in parallel");
    const ChunkSelection sel = selectChunks(l, start, count);
    const ChunkGrid grid = gridOf(l, start, count, false);
    const std::uint64_t chunkBytes = l.chunkBytes();
    ioParallel(std::size_t(sel.total), [&](std::size_t i) {
        ChunkRef ref;
        const StoredChunk& s = l.chunks[std::size_t(chunkAt(l, sel, i, ref.start))];
        ThreadBuffers& b = buffers();
        if (s.address != StoredChunk::kNone) {
            b.stored.resize(std::size_t(s.bytes));
            b.chunk.resize(std::size_t(chunkBytes));
            l.file->read(s.address, s.bytes, b.stored.data(), what);
            undoFilters(l.pipeline, s.skipMask, b.stored.data(), s.bytes, b.chunk.data(), chunkBytes, false,
                        b.scratch, what);
            ref.offset = 0;
        }
        static const unsigned char none = 0;
        placeChunks(grid, b.chunk.empty() ? &none : b.chunk.data(), std::span<const ChunkRef>(&ref, 1),
                    l.fill.data(), out, Device::host(), Stream::host(), true);
        b.trim();
    });
}

ChunkSelection selectChunks(const DirectLayout& l, std::span<const std::int64_t> start,
                            std::span<const std::int64_t> count) {
    ChunkSelection sel;
    const int n = int(l.shape.size());
    sel.total = 1;
    for (int d = 0; d < n; ++d) {
        const std::size_t i = std::size_t(d);
        if (count[i] == 0) {
            sel.total = 0;
            return sel;
        }
        sel.first.push_back(start[i] / l.chunk[i]);
        sel.last.push_back((start[i] + count[i] - 1) / l.chunk[i]);
        sel.total *= std::uint64_t(sel.last.back() - sel.first.back() + 1);
    }
    std::int64_t first[kMaxDims];
    for (std::uint64_t i = 0; i < sel.total; ++i)
        if (l.chunks[std::size_t(chunkAt(l, sel, i, first))].address != StoredChunk::kNone) ++sel.stored;
    return sel;
}

std::vector<ChunkRef> inflateChunks(const DirectLayout& l, const ChunkSelection& sel, void* batch,
                                    std::uint64_t batchBytes, const std::string& what) {
    const std::uint64_t chunkBytes = l.chunkBytes();
    STRATA_EXPECTS(sel.stored <= batchBytes / std::max<std::uint64_t>(chunkBytes, 1), NetcdfError,
                   what + ": " + std::to_string(sel.stored) + " chunks do not fit a batch of " +
                       std::to_string(batchBytes) + " bytes");
    std::vector<ChunkRef> refs(std::size_t(sel.total));
    std::vector<const StoredChunk*> stored(refs.size());
    std::uint64_t next = 0;
    for (std::uint64_t i = 0; i < sel.total; ++i) {
        const StoredChunk& s = l.chunks[std::size_t(chunkAt(l, sel, i, refs[std::size_t(i)].start))];
        stored[std::size_t(i)] = &s;
        if (s.address != StoredChunk::kNone) refs[std::size_t(i)].offset = chunkBytes * next++;
    }
    ioParallel(refs.size(), [&](std::size_t i) {
        const StoredChunk& s = *stored[i];
        if (s.address == StoredChunk::kNone) return;
        ThreadBuffers& b = buffers();
        b.stored.resize(std::size_t(s.bytes));
        l.file->read(s.address, s.bytes, b.stored.data(), what);
        undoFilters(l.pipeline, s.skipMask, b.stored.data(), s.bytes,
                    static_cast<unsigned char*>(batch) + refs[i].offset, chunkBytes, l.deferShuffle,
                    b.scratch, what);
        b.trim();
    });
    return refs;
}

} // namespace strata::io::detail
