#include "chunk_filters.h"

#include <libdeflate.h>

#include <cstring>
#include <memory>

#include "strata/core/error.h"

namespace strata::io::detail {
namespace {

struct Decompressor {
    libdeflate_decompressor* d = libdeflate_alloc_decompressor();
    ~Decompressor() { libdeflate_free_decompressor(d); }
};

libdeflate_decompressor* decompressor() {
    thread_local Decompressor one;
    return one.d;
}

const char* nameOf(FilterKind k) {
    switch (k) {
    case FilterKind::Deflate:
        return "deflate";
    case FilterKind::Shuffle:
        return "shuffle";
    case FilterKind::Fletcher32:
        return "fletcher32";
    }
    return "?";
}

} // namespace

std::uint64_t FilterPipeline::maxStoredBytes(std::uint64_t chunkBytes) const {
    std::uint64_t most = chunkBytes;
    for (FilterKind k : filters) {
        if (k == FilterKind::Deflate) most += most / 8 + 1024; // stored blocks cost 5 bytes per 64 KiB
        if (k == FilterKind::Fletcher32) most += 4;
    }
    return most;
}

std::string FilterPipeline::describe() const {
    std::string out;
    // Named in reading order: deflate first for the usual shuffle-then-deflate pipeline.
    for (auto it = filters.rbegin(); it != filters.rend(); ++it)
        out += (out.empty() ? "" : " + ") + std::string(nameOf(*it));
    return out.empty() ? "no filters" : out;
}

std::uint32_t fletcher32(const unsigned char* data, std::uint64_t bytes) {
    std::uint32_t a = 0, b = 0;
    std::uint64_t words = bytes / 2;
    while (words > 0) {
        // 360 words at most between folds keep both sums inside 32 bits.
        std::uint64_t run = words < 360 ? words : 360;
        words -= run;
        for (; run > 0; --run, data += 2) {
            a += (std::uint32_t(data[0]) << 8) | data[1];
            b += a;
        }
        a = (a & 0xffff) + (a >> 16);
        b = (b & 0xffff) + (b >> 16);
    }
    if (bytes % 2) {
        a += std::uint32_t(data[0]) << 8;
        b += a;
        a = (a & 0xffff) + (a >> 16);
        b = (b & 0xffff) + (b >> 16);
    }
    a = (a & 0xffff) + (a >> 16);
    b = (b & 0xffff) + (b >> 16);
    return (b << 16) | a;
}

void unshuffle(const unsigned char* in, unsigned char* out, std::uint64_t bytes, int element) {
    if (element <= 1) {
        std::memcpy(out, in, bytes);
        return;
    }
    const std::uint64_t n = bytes / std::uint64_t(element);
    for (int k = 0; k < element; ++k) {
        const unsigned char* plane = in + std::uint64_t(k) * n;
        unsigned char* o = out + k;
        for (std::uint64_t i = 0; i < n; ++i) o[i * std::uint64_t(element)] = plane[i];
    }
    const std::uint64_t whole = n * std::uint64_t(element);
    std::memcpy(out + whole, in + whole, bytes - whole);
}

void undoFilters(const FilterPipeline& pipeline, std::uint32_t skipMask, const unsigned char* stored,
                 std::uint64_t storedBytes, unsigned char* out, std::uint64_t chunkBytes, bool keepShuffle,
                 std::vector<unsigned char>& scratch, const std::string& what) {
    const auto& f = pipeline.filters;
    const int n = int(f.size());
    // The size of the data before filter i was applied on writing: the chunk plus a checksum
    // for each fletcher32 applied before it.
    std::vector<std::uint64_t> before(std::size_t(n) + 1, chunkBytes);
    for (int i = 0; i < n; ++i)
        before[std::size_t(i) + 1] =
            before[std::size_t(i)] +
            (f[std::size_t(i)] == FilterKind::Fletcher32 && !(skipMask >> i & 1u) ? 4 : 0);
    STRATA_EXPECTS(storedBytes <= pipeline.maxStoredBytes(chunkBytes), NetcdfError,
                   what + ": a stored chunk of " + std::to_string(storedBytes) +
                       " bytes is larger than a chunk of " + std::to_string(chunkBytes) +
                       " bytes can be with " + pipeline.describe() + " (the chunk index is damaged)");

    // Undo from the last filter applied to the first, ping-ponging between `scratch` halves and
    // `out`: the final step writes into `out`.
    scratch.resize(std::size_t(2 * pipeline.maxStoredBytes(chunkBytes)));
    unsigned char* bufs[2] = {scratch.data(), scratch.data() + scratch.size() / 2};
    const unsigned char* cur = stored;
    std::uint64_t curBytes = storedBytes;
    int which = 0;
    int last = 0; // the first filter (in writing order) that is undone here
    if (keepShuffle && pipeline.shuffleLast()) last = 1;
    // Which undone step is the final one (writes to `out`).
    int finalStep = -1;
    for (int i = last; i < n; ++i)
        if (!(skipMask >> i & 1u)) {
            finalStep = i;
            break;
        }
    for (int i = n - 1; i >= last; --i) {
        if (skipMask >> i & 1u) continue;
        const std::uint64_t want = before[std::size_t(i)];
        unsigned char* dst = i == finalStep ? out : bufs[which];
        switch (f[std::size_t(i)]) {
        case FilterKind::Deflate: {
            std::size_t got = 0;
            const libdeflate_result r = libdeflate_zlib_decompress(decompressor(), cur, std::size_t(curBytes),
                                                                   dst, std::size_t(want), &got);
            STRATA_EXPECTS(r != LIBDEFLATE_INSUFFICIENT_SPACE, NetcdfError,
                           what + ": a chunk inflates past its size of " + std::to_string(want) +
                               " bytes (damaged, or made to exhaust memory)");
            STRATA_EXPECTS(r == LIBDEFLATE_SUCCESS, NetcdfError,
                           what + ": a chunk's deflate stream is damaged (" + std::to_string(curBytes) +
                               " bytes stored)");
            STRATA_EXPECTS(got == want, NetcdfError,
                           what + ": a chunk inflates to " + std::to_string(got) + " bytes, not the " +
                               std::to_string(want) + " it must hold");
            break;
        }
        case FilterKind::Shuffle:
            STRATA_EXPECTS(curBytes == want, NetcdfError,
                           what + ": a shuffled chunk holds " + std::to_string(curBytes) + " bytes, not " +
                               std::to_string(want));
            unshuffle(cur, dst, curBytes, pipeline.shuffleElement);
            break;
        case FilterKind::Fletcher32: {
            STRATA_EXPECTS(curBytes == want + 4, NetcdfError,
                           what + ": a checksummed chunk holds " + std::to_string(curBytes) + " bytes, not " +
                               std::to_string(want + 4));
            const unsigned char* c = cur + want;
            const std::uint32_t stored32 = std::uint32_t(c[0]) | std::uint32_t(c[1]) << 8 |
                                           std::uint32_t(c[2]) << 16 | std::uint32_t(c[3]) << 24;
            const std::uint32_t sum = fletcher32(cur, want);
            // Files from HDF5 before 1.6.3 hold the sum with the bytes of each half swapped.
            const std::uint32_t old = ((sum & 0x00ff00ffu) << 8) | ((sum & 0xff00ff00u) >> 8);
            STRATA_EXPECTS(stored32 == sum || stored32 == old, NetcdfError,
                           what + ": a chunk fails its Fletcher-32 checksum (the file is damaged)");
            if (dst != cur) std::memmove(dst, cur, std::size_t(want));
            break;
        }
        }
        cur = dst;
        curBytes = want;
        which ^= 1;
    }
    if (finalStep < 0) { // nothing to undo here: the stored bytes are the chunk
        STRATA_EXPECTS(storedBytes == chunkBytes, NetcdfError,
                       what + ": an unfiltered chunk holds " + std::to_string(storedBytes) + " bytes, not " +
                           std::to_string(chunkBytes));
        std::memcpy(out, stored, std::size_t(chunkBytes));
    }
}

} // namespace strata::io::detail
