#include "zarr_source.h"

#include <algorithm>
#include <cstring>

#include "io_pool.h"
#include "nc_source.h"
#include "strata/core/error.h"
#include "zarr_codec.h"

namespace strata::io::detail {
namespace {

// Along one dim: a chunk the read meets and the read's positions j in [first, last] inside it.
struct Span {
    std::int64_t chunk, first, last;
};

std::int64_t ceilDiv(std::int64_t a, std::int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

} // namespace

ZarrSource::ZarrSource(std::shared_ptr<const ZarrStore> store, std::string path, std::string label,
                       ZarrArrayMeta meta)
    : store_(std::move(store)), path_(std::move(path)), label_(std::move(label)), meta_(std::move(meta)) {}

std::string ZarrSource::describe() const { return store_->name() + ": variable '" + label_ + "'"; }

std::string ZarrSource::readPath() const {
    std::uint64_t chunks = 1;
    for (std::size_t i = 0; i < meta_.shape.size(); ++i)
        chunks *= std::uint64_t(ceilDiv(meta_.shape[i], meta_.chunk[i]));
    return "parallel: Zarr v" + std::to_string(meta_.format) + ", " + std::to_string(chunks) + " chunks, " +
           describeCodecs(meta_.codecs);
}

std::size_t ZarrSource::parallelReadBytes() const {
    return std::max<std::size_t>(std::size_t(meta_.chunkBytes()), std::size_t(4) << 20) *
           std::size_t(ioThreads());
}

std::string ZarrSource::chunkKey(std::span<const std::int64_t> index) const {
    std::string key;
    key.reserve(path_.size() + 8 * (index.size() + 1));
    key.append(path_);
    if (!path_.empty()) key.push_back('/');
    key.append(meta_.keyPrefix);
    bool first = meta_.keyPrefix.empty();
    for (std::int64_t i : index) {
        if (!first) key.push_back(meta_.separator);
        key.append(std::to_string(i));
        first = false;
    }
    if (first) key.push_back('0'); // a v2 0-d array's one chunk
    return key;
}

void ZarrSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                      std::span<const std::int64_t> stride, void* out) const {
    const std::size_t nd = meta_.shape.size();
    STRATA_EXPECTS(start.size() == nd && count.size() == nd && stride.size() == nd, NetcdfError,
                   describe() + ": a read needs " + std::to_string(nd) + " starts, counts and strides");
    STRATA_EXPECTS(!meta_.unsupportedType, NetcdfError,
                   describe() + ": its dtype " + meta_.unsupportedType.value_or("") +
                       " is not read by Strata");
    if (auto u = unsupportedCodec(meta_.codecs))
        STRATA_FAIL(NetcdfError,
                    describe() + ": codec '" + *u +
                        "' is not supported (Strata decodes blosc, zstd, zlib, gzip, lz4, crc32c, "
                        "delta, fixedscaleoffset, shuffle, astype, quantize, bitround and sharding)");
    std::uint64_t elements = 1;
    std::vector<std::vector<Span>> spans(nd);
    for (std::size_t i = 0; i < nd; ++i) {
        const std::int64_t s = start[i], c = count[i], k = stride[i], len = meta_.shape[i],
                           ch = meta_.chunk[i];
        checkReadAlong(describe(), i, s, c, k, len);
        if (c == 0) return;
        elements *= std::uint64_t(c);
        const std::int64_t lastIndex = s + (c - 1) * k;
        for (std::int64_t q = s / ch; q <= lastIndex / ch; ++q) {
            const std::int64_t lo = std::max<std::int64_t>(0, ceilDiv(q * ch - s, k));
            const std::int64_t hi = std::min<std::int64_t>(c - 1, (std::min(q * ch + ch, len) - 1 - s) / k);
            if (lo <= hi) spans[i].push_back({q, lo, hi});
            if (k > ch && hi < c - 1) q = std::max(q, (s + (hi + 1) * k) / ch - 1); // skip chunks in between
        }
    }
    STRATA_EXPECTS(out != nullptr, NetcdfError, describe() + ": read into a null buffer");
    const std::size_t elem = sizeOf(meta_.dtype);
    std::uint64_t tasks = 1;
    for (const auto& s : spans) tasks *= s.size();
    std::vector<std::uint64_t> dstStride(nd, 1);
    for (std::size_t i = nd; i-- > 1;) dstStride[i - 1] = dstStride[i] * std::uint64_t(count[i]);
    const std::uint64_t maxStored =
        std::min<std::uint64_t>(2 * kMaxChunkBytes, 2 * meta_.chunkBytes() + (1u << 20));
    auto* dst = static_cast<unsigned char*>(out);

    ioParallel(std::size_t(tasks), [&](std::size_t t) {
        std::vector<const Span*> at(nd);
        std::vector<std::int64_t> index(nd);
        for (std::size_t i = nd; i-- > 0;) {
            at[i] = &spans[i][t % spans[i].size()];
            t /= spans[i].size();
            index[i] = at[i]->chunk;
        }
        const std::string key = chunkKey(index);
        std::optional<Bytes> stored = store_->get(key, maxStored);
        if (stored) decoded_.fetch_add(1, std::memory_order_relaxed);
        // A whole chunk whose place in the destination is one run (it spans the read along every
        // dim but the first): decoded straight there.
        bool whole = stored && nd > 0;
        std::uint64_t at0 = 0;
        for (std::size_t i = 0; whole && i < nd; ++i) {
            whole = stride[i] == 1 && start[i] + at[i]->first == at[i]->chunk * meta_.chunk[i] &&
                    at[i]->last - at[i]->first + 1 == meta_.chunk[i] &&
                    (i == 0 || count[i] == meta_.chunk[i]);
            at0 += std::uint64_t(at[i]->first) * dstStride[i];
        }
        if (whole && decodeChunkInto(meta_.codecs, *stored, meta_.chunkBytes(), meta_.dtype, dst + at0 * elem,
                                     describe() + ": chunk '" + key + "'"))
            return;
        Bytes values;
        if (stored)
            values = decodeChunk(meta_.codecs, std::move(*stored), meta_.chunk, meta_.dtype, meta_.fill,
                                 describe() + ": chunk '" + key + "'");
        // Chunk-local strides (C order) of the decoded values.
        std::vector<std::uint64_t> srcStride(nd, 1);
        for (std::size_t i = nd; i-- > 1;) srcStride[i - 1] = srcStride[i] * std::uint64_t(meta_.chunk[i]);
        auto place = [&](unsigned char* to, std::uint64_t from, std::uint64_t n, std::int64_t step) {
            if (!stored) {
                for (std::uint64_t e = 0; e < n; ++e, to += elem) {
                    if (meta_.fill.size() == elem)
                        std::memcpy(to, meta_.fill.data(), elem);
                    else
                        std::memset(to, 0, elem);
                }
            } else if (step == 1) {
                std::memcpy(to, &values[from * elem], n * elem);
            } else {
                for (std::uint64_t e = 0; e < n; ++e, to += elem, from += std::uint64_t(step))
                    std::memcpy(to, &values[from * elem], elem);
            }
        };
        if (nd == 0) {
            place(dst, 0, 1, 1);
            return;
        }
        // Every row (the last dim) of the chunk's part of the read.
        std::vector<std::int64_t> j(nd);
        for (std::size_t i = 0; i < nd; ++i) j[i] = at[i]->first;
        const std::size_t last = nd - 1;
        const std::uint64_t rowLength = std::uint64_t(at[last]->last - at[last]->first + 1);
        for (;;) {
            std::uint64_t to = 0, from = 0;
            for (std::size_t i = 0; i < nd; ++i) {
                to += std::uint64_t(j[i]) * dstStride[i];
                from +=
                    std::uint64_t(start[i] + j[i] * stride[i] - at[i]->chunk * meta_.chunk[i]) * srcStride[i];
            }
            place(dst + to * elem, from, rowLength, stride[last]);
            std::size_t d = last;
            while (d-- > 0) {
                if (++j[d] <= at[d]->last) break;
                j[d] = at[d]->first;
            }
            if (d == std::size_t(-1)) break;
        }
    });
    countRead(elements * elem);
}

} // namespace strata::io::detail
