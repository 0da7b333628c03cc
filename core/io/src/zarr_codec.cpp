#include "zarr_codec.h"

#include <blosc.h>
#include <libdeflate.h>
#include <lz4.h>
#include <zstd.h>
#include <zstd_errors.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>

#include "strata/core/array_view.h"
#include "strata/core/error.h"
#include "strata/core/memory_budget.h"

namespace strata::io::detail {
namespace {

using K = ZarrByteCodec::Kind;

[[noreturn]] void bad(const std::string& context, const std::string& problem) {
    STRATA_FAIL(NetcdfError, context + ": " + problem);
}

std::string bomb(const std::string& codec, std::uint64_t expected) {
    return codec + ": the data decompress to more than the " + formatBytes(expected) +
           " expected (a damaged or hostile chunk)";
}

template <class T> T load(const unsigned char* p, bool big) {
    T v;
    std::memcpy(&v, p, sizeof v);
    if (big && sizeof v > 1) {
        unsigned char b[sizeof v];
        std::memcpy(b, &v, sizeof v);
        std::reverse(b, b + sizeof v);
        std::memcpy(&v, b, sizeof v);
    }
    return v;
}
template <class T> void store(unsigned char* p, T v, bool big) {
    std::memcpy(p, &v, sizeof v);
    if (big && sizeof v > 1) std::reverse(p, p + sizeof v);
}

void swapBytes(Bytes& data, std::size_t size) {
    if (size < 2) return;
    for (std::size_t i = 0; i + size <= data.size(); i += size) std::reverse(&data[i], &data[i] + size);
}

// A typed filter's decoding: astype values in, dtype values out.
Bytes decodeTyped(const ZarrByteCodec& c, const Bytes& in, const std::string& context) {
    const std::size_t inSize = sizeOf(c.astype), outSize = sizeOf(c.dtype);
    if (in.size() % inSize != 0)
        bad(context, c.name + ": " + std::to_string(in.size()) + " bytes are not whole values");
    const std::size_t n = in.size() / inSize;
    Bytes out(n * outSize);
    visitNumeric(c.astype, [&](auto inTag) {
        using I = decltype(inTag);
        visitNumeric(c.dtype, [&](auto outTag) {
            using O = decltype(outTag);
            if (c.kind == K::Delta) {
                if constexpr (std::is_integral_v<O>) {
                    using U = std::make_unsigned_t<O>; // wraps as numpy's does
                    U sum = 0;
                    for (std::size_t i = 0; i < n; ++i) {
                        sum = U(sum + U(O(load<I>(&in[i * inSize], c.astypeBig))));
                        store<O>(&out[i * outSize], O(sum), c.dtypeBig);
                    }
                } else {
                    O sum = 0;
                    for (std::size_t i = 0; i < n; ++i) {
                        sum = O(sum + O(load<I>(&in[i * inSize], c.astypeBig)));
                        store<O>(&out[i * outSize], sum, c.dtypeBig);
                    }
                }
            } else if (c.kind == K::FixedScaleOffset) {
                if constexpr (std::is_floating_point_v<O>) { // as numpy: in the decoded type
                    const O scale = O(c.scale), offset = O(c.offset);
                    for (std::size_t i = 0; i < n; ++i)
                        store<O>(&out[i * outSize],
                                 O(O(load<I>(&in[i * inSize], c.astypeBig)) / scale) + offset, c.dtypeBig);
                }
            } else { // astype, quantize, bitround: a cast
                for (std::size_t i = 0; i < n; ++i)
                    store<O>(&out[i * outSize], O(load<I>(&in[i * inSize], c.astypeBig)), c.dtypeBig);
            }
        });
    });
    return out;
}

struct DeflateFree {
    void operator()(libdeflate_decompressor* d) const { libdeflate_free_decompressor(d); }
};
struct ZstdFree {
    void operator()(ZSTD_DCtx* d) const { ZSTD_freeDCtx(d); }
};

// Which of the two deflate wrappers a zlib or gzip chunk carries. Its own first bytes decide:
// a gzip stream begins 1f 8b; a zlib stream's first two bytes name method 8 and, read as a
// big-endian number, are a multiple of 31 (RFC 1950). No stream can be both, so a chunk that
// is not in the wrapper its metadata names, and which the other reader would refuse, is read
// through the other wrapper: z5py labels its zlib streams "gzip", and a viewer reads what it
// can. Both wrappers end in a checksum (Adler-32, CRC-32) that libdeflate checks, so damage is
// still found. zarr-python refuses such chunks; raw deflate, with neither wrapper, is refused.
K wrapper(K labelled, const Bytes& in) {
    if (in.size() >= 2 && in[0] == 0x1F && in[1] == 0x8B) return K::Gzip;
    if (in.size() >= 2 && (in[0] & 0x0F) == 8 && (in[0] >> 4) <= 7 && ((in[0] << 8) | in[1]) % 31 == 0)
        return K::Zlib;
    return labelled;
}

bool isCompressor(const ZarrByteCodec& c) {
    return c.kind == K::Blosc || c.kind == K::Zstd || c.kind == K::Zlib || c.kind == K::Gzip ||
           c.kind == K::Lz4;
}

// Decompresses `in` into `out` (room for `limit` bytes); returns the bytes written. Data that
// would exceed `limit` are refused before they are written.
std::size_t decompress(const ZarrByteCodec& c, const Bytes& in, unsigned char* out, std::uint64_t limit,
                       const std::string& context) {
    switch (c.kind) {
    case K::Blosc: {
        // The header gives the buffer's length (cbytes). Bytes after it are not blosc's and are
        // left alone, as c-blosc and numcodecs leave them: z5py stores the whole buffer it
        // compressed into, cbytes plus 16 spare bytes. A chunk shorter than cbytes was cut short.
        if (in.size() < BLOSC_MIN_HEADER_LENGTH)
            bad(context, "blosc: the chunk holds " + std::to_string(in.size()) +
                             " bytes, fewer than a blosc header (truncated)");
        std::size_t nbytes = 0, cbytes = 0, blocksize = 0;
        blosc_cbuffer_sizes(in.data(), &nbytes, &cbytes, &blocksize); // zeros for an unknown version
        if (cbytes > in.size())
            bad(context, "blosc: the chunk holds " + std::to_string(in.size()) + " bytes, fewer than the " +
                             std::to_string(cbytes) + " its header gives (truncated)");
        if (blosc_cbuffer_validate(in.data(), cbytes, &nbytes) < 0)
            bad(context, "blosc: not a valid blosc buffer (damaged)");
        if (nbytes > limit) bad(context, bomb("blosc", limit));
        if (nbytes && blosc_decompress_ctx(in.data(), out, nbytes, 1) != int(nbytes))
            bad(context, "blosc: decompression failed (damaged data)");
        return nbytes;
    }
    case K::Zstd: {
        const unsigned long long size = ZSTD_getFrameContentSize(in.data(), in.size());
        if (size == ZSTD_CONTENTSIZE_ERROR) bad(context, "zstd: not a zstd frame (damaged)");
        if (size != ZSTD_CONTENTSIZE_UNKNOWN && size > limit) bad(context, bomb("zstd", limit));
        thread_local std::unique_ptr<ZSTD_DCtx, ZstdFree> ctx(ZSTD_createDCtx());
        const std::size_t got = ZSTD_decompressDCtx(ctx.get(), out, std::size_t(limit), in.data(), in.size());
        if (ZSTD_isError(got)) {
            if (ZSTD_getErrorCode(got) == ZSTD_error_dstSize_tooSmall) bad(context, bomb("zstd", limit));
            bad(context, std::string("zstd: ") + ZSTD_getErrorName(got) + " (damaged data)");
        }
        return got;
    }
    case K::Zlib:
    case K::Gzip: {
        thread_local std::unique_ptr<libdeflate_decompressor, DeflateFree> d(libdeflate_alloc_decompressor());
        std::size_t got = 0;
        const auto r =
            wrapper(c.kind, in) == K::Zlib
                ? libdeflate_zlib_decompress(d.get(), in.data(), in.size(), out, std::size_t(limit), &got)
                : libdeflate_gzip_decompress(d.get(), in.data(), in.size(), out, std::size_t(limit), &got);
        if (r == LIBDEFLATE_INSUFFICIENT_SPACE) bad(context, bomb(c.name, limit));
        if (r != LIBDEFLATE_SUCCESS) bad(context, c.name + ": damaged compressed data");
        return got;
    }
    case K::Lz4: { // numcodecs: the decoded size (4 bytes, little-endian), then an LZ4 block
        if (in.size() < 4) bad(context, "lz4: the data are shorter than their header");
        const auto size = load<std::uint32_t>(in.data(), false);
        if (size > limit || size > std::uint32_t(LZ4_MAX_INPUT_SIZE)) bad(context, bomb("lz4", limit));
        const int got = LZ4_decompress_safe(reinterpret_cast<const char*>(in.data()) + 4,
                                            reinterpret_cast<char*>(out), int(in.size() - 4), int(size));
        if (got != int(size)) bad(context, "lz4: damaged compressed data");
        return size;
    }
    default:
        bad(context, "codec '" + c.name + "' is not a compressor");
    }
}

// Undoes one byte codec. `expected`: the exact decoded size when known; `cap` bounds it otherwise.
Bytes decodeBytes(const ZarrByteCodec& c, Bytes in, std::optional<std::uint64_t> expected, std::uint64_t cap,
                  const std::string& context) {
    const std::uint64_t limit = expected.value_or(cap);
    auto checkSize = [&](std::uint64_t got) {
        if (expected && got != *expected)
            bad(context, c.name + ": the data decompress to " + std::to_string(got) + " bytes, not the " +
                             std::to_string(*expected) + " the chunk holds");
    };
    if (isCompressor(c)) {
        Bytes out(limit);
        const std::size_t got = decompress(c, in, out.data(), limit, context);
        checkSize(got);
        out.resize(got);
        return out;
    }
    switch (c.kind) {
    case K::Crc32c: {
        if (in.size() < 4) bad(context, "crc32c: the data are shorter than their checksum");
        const std::size_t n = in.size() - 4;
        if (crc32c(in.data(), n) != load<std::uint32_t>(&in[n], false))
            bad(context, "crc32c: the checksum does not match (damaged data)");
        checkSize(n);
        in.resize(n);
        return in;
    }
    case K::Shuffle: {
        const std::size_t e = std::size_t(c.elementSize), n = in.size() / e;
        checkSize(in.size());
        Bytes out(in.size());
        for (std::size_t b = 0; b < e; ++b)
            for (std::size_t i = 0; i < n; ++i) out[i * e + b] = in[b * n + i];
        std::copy(in.begin() + std::ptrdiff_t(n * e), in.end(), out.begin() + std::ptrdiff_t(n * e));
        return out;
    }
    case K::Delta:
    case K::FixedScaleOffset:
    case K::AsType: {
        if (c.dtype == DType::Char) bad(context, "codec '" + c.name + "' is not supported");
        Bytes out = decodeTyped(c, in, context);
        checkSize(out.size());
        return out;
    }
    default: // the compressors, above
        break;
    }
    bad(context, "codec '" + c.name + "' is not supported");
}

// The encoded size after codec `c` given the size before it; nullopt when it depends on the data.
std::optional<std::uint64_t> encodedSize(const ZarrByteCodec& c, std::optional<std::uint64_t> before) {
    if (!before) return std::nullopt;
    switch (c.kind) {
    case K::Crc32c:
        return *before + 4;
    case K::Shuffle:
        return before;
    case K::Delta:
    case K::FixedScaleOffset:
    case K::AsType:
        if (!isNumeric(c.dtype) || !isNumeric(c.astype)) return std::nullopt;
        return *before / sizeOf(c.dtype) * sizeOf(c.astype);
    default:
        return std::nullopt;
    }
}

std::uint64_t product(const std::vector<std::int64_t>& shape) {
    std::uint64_t n = 1;
    for (std::int64_t s : shape) n *= std::uint64_t(s);
    return n;
}

// From the stored dim order (stored dim i is dim order[i]) to C order.
Bytes unpermute(const Bytes& in, const std::vector<std::int64_t>& shape, const std::vector<int>& order,
                std::size_t elem) {
    const std::size_t nd = shape.size();
    std::vector<std::uint64_t> cStride(nd, 1);
    for (std::size_t i = nd; i-- > 1;) cStride[i - 1] = cStride[i] * std::uint64_t(shape[i]);
    std::vector<std::int64_t> sshape(nd);
    std::vector<std::uint64_t> step(nd); // output stride of each stored dim
    for (std::size_t i = 0; i < nd; ++i)
        sshape[i] = shape[std::size_t(order[i])], step[i] = cStride[std::size_t(order[i])];
    Bytes out(in.size());
    std::vector<std::int64_t> idx(nd, 0);
    const std::uint64_t n = product(shape);
    std::uint64_t at = 0;
    for (std::uint64_t k = 0; k < n; ++k) {
        std::memcpy(&out[at * elem], &in[k * elem], elem);
        for (std::size_t d = nd; d-- > 0;) { // next stored index, in C order
            at += step[d];
            if (++idx[d] < sshape[d]) break;
            at -= step[d] * std::uint64_t(sshape[d]);
            idx[d] = 0;
        }
    }
    return out;
}

Bytes decodeShard(const ZarrShard& s, const Bytes& data, const std::vector<std::int64_t>& shape, DType dtype,
                  const std::vector<unsigned char>& fill, const std::string& context);

} // namespace

std::uint32_t crc32c(const unsigned char* data, std::size_t n) {
    static const auto table = [] {
        std::array<std::uint32_t, 256> t{};
        for (std::uint32_t i = 0; i < 256; ++i) {
            std::uint32_t c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
            t[i] = c;
        }
        return t;
    }();
    std::uint32_t c = ~0u;
    for (std::size_t i = 0; i < n; ++i) c = table[(c ^ data[i]) & 0xFF] ^ (c >> 8);
    return ~c;
}

std::optional<std::string> unsupportedCodec(const ZarrCodecs& codecs) {
    for (const ZarrByteCodec& b : codecs.bytes)
        if (b.kind == K::AsType && b.dtype == DType::Char) return b.name;
    if (codecs.shard) {
        if (auto u = unsupportedCodec(*codecs.shard->inner)) return u;
        if (auto u = unsupportedCodec(*codecs.shard->index)) return u;
    }
    return std::nullopt;
}

std::string describeCodecs(const ZarrCodecs& codecs) {
    std::string s;
    for (const ZarrByteCodec& b : codecs.bytes) s += (s.empty() ? "" : " + ") + b.name;
    if (codecs.shard)
        s = "sharding (" + describeCodecs(*codecs.shard->inner) + ")" + (s.empty() ? "" : " + " + s);
    return s.empty() ? "none" : s;
}

Bytes decodeChunk(const ZarrCodecs& codecs, Bytes stored, const std::vector<std::int64_t>& shape, DType dtype,
                  const std::vector<unsigned char>& fill, const std::string& context) {
    if (auto u = unsupportedCodec(codecs)) bad(context, "codec '" + *u + "' is not supported");
    const std::size_t elem = sizeOf(dtype);
    const std::uint64_t bytes = product(shape) * elem;
    // Sizes before each byte codec, in encoding order (unknown after a compressor).
    std::vector<std::optional<std::uint64_t>> sizes{codecs.shard ? std::nullopt : std::optional(bytes)};
    for (const ZarrByteCodec& c : codecs.bytes) sizes.push_back(encodedSize(c, sizes.back()));
    // Where a size is unknown (a shard; a compressor after a compressor), what a chunk may grow to.
    const std::uint64_t cap =
        std::min<std::uint64_t>(kMaxChunkBytes * 2, bytes * 2 + (std::uint64_t(1) << 20));
    for (std::size_t k = codecs.bytes.size(); k-- > 0;)
        stored = decodeBytes(codecs.bytes[k], std::move(stored), sizes[k], cap, context);
    if (codecs.shard) return decodeShard(*codecs.shard, stored, shape, dtype, fill, context);
    if (stored.size() != bytes)
        bad(context, "the chunk holds " + std::to_string(stored.size()) + " bytes, not the " +
                         std::to_string(bytes) + " its shape and type need");
    if (codecs.bigEndian) swapBytes(stored, elem);
    if (!codecs.order.empty()) stored = unpermute(stored, shape, codecs.order, elem);
    return stored;
}

bool decodeChunkInto(const ZarrCodecs& codecs, const Bytes& stored, std::uint64_t bytes, DType dtype,
                     void* out, const std::string& context) {
    if (codecs.shard || !codecs.order.empty() || codecs.bytes.size() > 1 ||
        (codecs.bytes.size() == 1 && !isCompressor(codecs.bytes[0])))
        return false;
    auto* to = static_cast<unsigned char*>(out);
    std::size_t got = stored.size();
    if (codecs.bytes.empty()) {
        if (got == bytes) std::memcpy(to, stored.data(), got);
    } else {
        got = decompress(codecs.bytes[0], stored, to, bytes, context);
    }
    if (got != bytes)
        bad(context, "the chunk holds " + std::to_string(got) + " bytes, not the " + std::to_string(bytes) +
                         " its shape and type need");
    const std::size_t elem = sizeOf(dtype);
    if (codecs.bigEndian && elem > 1)
        for (std::size_t i = 0; i < bytes; i += elem) std::reverse(to + i, to + i + elem);
    return true;
}

namespace {

Bytes decodeShard(const ZarrShard& s, const Bytes& data, const std::vector<std::int64_t>& shape, DType dtype,
                  const std::vector<unsigned char>& fill, const std::string& context) {
    const std::size_t nd = shape.size(), elem = sizeOf(dtype);
    if (nd == 0 || nd > std::size_t(kMaxDims)) bad(context, "a shard needs 1 to 8 dims");
    std::vector<std::int64_t> grid(nd), indexShape(nd + 1, 2);
    for (std::size_t i = 0; i < nd; ++i) indexShape[i] = grid[i] = shape[i] / s.chunk[i];
    const std::uint64_t chunks = product(grid);
    std::uint64_t indexBytes = chunks * 16;
    for (const ZarrByteCodec& b : s.index->bytes) indexBytes += b.kind == K::Crc32c ? 4 : 0;
    if (data.size() < indexBytes)
        bad(context, "the shard holds " + std::to_string(data.size()) + " bytes, less than its index of " +
                         std::to_string(indexBytes));
    const auto indexAt = s.indexAtStart ? data.begin() : data.end() - std::ptrdiff_t(indexBytes);
    const Bytes indexRaw(indexAt, indexAt + std::ptrdiff_t(indexBytes));
    const Bytes index =
        decodeChunk(*s.index, indexRaw, indexShape, DType::UInt64, {}, context + ": shard index");
    Bytes out(product(shape) * elem);
    if (fill.size() == elem)
        for (std::size_t i = 0; i < out.size(); i += elem) std::memcpy(&out[i], fill.data(), elem);
    std::vector<std::uint64_t> outStride(nd, 1);
    for (std::size_t i = nd; i-- > 1;) outStride[i - 1] = outStride[i] * std::uint64_t(shape[i]);
    std::vector<std::int64_t> at(nd, 0); // the inner chunk's position in the grid
    for (std::uint64_t k = 0; k < chunks; ++k) {
        std::uint64_t offset, nbytes;
        std::memcpy(&offset, &index[k * 16], 8);
        std::memcpy(&nbytes, &index[k * 16 + 8], 8);
        const std::string where = context + ": inner chunk " + std::to_string(k);
        if (offset != ~std::uint64_t(0) || nbytes != ~std::uint64_t(0)) {
            if (offset > data.size() || nbytes > data.size() - offset)
                bad(where, "its index entry (offset " + std::to_string(offset) + ", " +
                               std::to_string(nbytes) + " bytes) lies outside the shard of " +
                               std::to_string(data.size()) + " bytes");
            Bytes raw(data.begin() + std::ptrdiff_t(offset), data.begin() + std::ptrdiff_t(offset + nbytes));
            const Bytes values = decodeChunk(*s.inner, std::move(raw), s.chunk, dtype, fill, where);
            // Rows of the inner chunk's last dim into the shard.
            const std::size_t row = std::size_t(s.chunk[nd - 1]) * elem;
            const std::uint64_t rows = product(s.chunk) / std::uint64_t(s.chunk[nd - 1]);
            std::vector<std::int64_t> r(nd, 0);
            for (std::uint64_t q = 0; q < rows; ++q) {
                std::uint64_t dst = 0;
                for (std::size_t i = 0; i < nd; ++i)
                    dst += std::uint64_t(at[i] * s.chunk[i] + r[i]) * outStride[i];
                std::memcpy(&out[dst * elem], &values[q * row], row);
                for (std::size_t d = nd - 1; d-- > 0;) {
                    if (++r[d] < s.chunk[d]) break;
                    r[d] = 0;
                }
            }
        }
        for (std::size_t d = nd; d-- > 0;) {
            if (++at[d] < grid[d]) break;
            at[d] = 0;
        }
    }
    return out;
}

} // namespace
} // namespace strata::io::detail
