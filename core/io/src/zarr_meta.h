#pragma once
// A Zarr array's metadata (v2 .zarray + .zattrs, or a v3 zarr.json), parsed and checked: what
// the chunk decoder and the reader need, with nothing of the JSON left over. Every problem is
// a NetcdfError whose message begins with the context given ("store: variable 'sst'").
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/attributes.h"
#include "strata/core/dtype.h"

namespace strata::io::detail {

// One bytes→bytes step of a chunk's encoding (v2 filters and compressor, v3 bytes→bytes codecs).
struct ZarrByteCodec {
    enum class Kind { Blosc, Zstd, Zlib, Gzip, Lz4, Crc32c, Delta, FixedScaleOffset, Shuffle, AsType };
    Kind kind = Kind::Zlib;
    std::string name; // as the store spells it, for messages
    // Typed filters: the decoded values' type and the encoded ones' (numpy strings parsed).
    DType dtype = DType::UInt8, astype = DType::UInt8;
    bool dtypeBig = false, astypeBig = false;
    double scale = 1, offset = 0; // fixedscaleoffset
    int elementSize = 1;          // shuffle
};

struct ZarrCodecs;

// The sharding codec (v3 sharding_indexed): inner chunks of `chunk` shape, each encoded by
// `inner`; an index of (offset, nbytes) pairs encoded by `index`, at the start or the end.
struct ZarrShard {
    std::vector<std::int64_t> chunk;
    std::shared_ptr<const ZarrCodecs> inner, index;
    bool indexAtStart = false;
};

// How a chunk's values became bytes: reorder (transpose or F order), serialise in one byte
// order (or shard), then the byte codecs, in that order.
struct ZarrCodecs {
    std::vector<int> order; // stored dim i is chunk dim order[i]; empty: C order
    bool bigEndian = false;
    std::shared_ptr<const ZarrShard> shard; // set: the array→bytes codec is sharding_indexed
    std::vector<ZarrByteCodec> bytes;       // in encoding order
};

struct ZarrArrayMeta {
    int format = 2;
    std::vector<std::int64_t> shape, chunk;
    DType dtype = DType::Float32;
    std::optional<std::string> unsupportedType; // a dtype Strata does not read ("<c8", "|S4")
    std::vector<unsigned char> fill;            // sizeOf(dtype) bytes, this machine's order; empty: none
    std::optional<double> fillNumber;           // the fill value as a number, for _FillValue
    ZarrCodecs codecs;
    // Chunk keys: prefix + index parts joined by separator ("0.0", "c/0/0"); "0" or "c" for 0-d.
    std::string keyPrefix;
    char separator = '.';
    std::vector<std::string> dims; // from _ARRAY_DIMENSIONS / dimension_names; empty entries unnamed
    Attributes attrs;
    std::uint64_t chunkBytes() const; // one decoded chunk
};

// Chunks larger than this (decoded) are refused: a store declaring more is damaged or hostile.
constexpr std::uint64_t kMaxChunkBytes = std::uint64_t(1) << 31;
// Metadata documents larger than this are refused.
constexpr std::uint64_t kMaxMetadataBytes = std::uint64_t(256) << 20;

// Parses JSON text as Zarr writes it (bare NaN, Infinity and -Infinity are accepted).
// Throws NetcdfError "<context>: malformed JSON (...)".
struct JsonDoc;
std::shared_ptr<const JsonDoc> parseJson(const std::string& text, const std::string& context);

// v2: .zarray (required) and .zattrs (may be null).
ZarrArrayMeta parseArrayV2(const JsonDoc& zarray, const JsonDoc* zattrs, const std::string& context);
// v3: an array's zarr.json.
ZarrArrayMeta parseArrayV3(const JsonDoc& zarrJson, const std::string& context);
// The attributes of a group (.zattrs, or zarr.json's "attributes").
Attributes parseAttributes(const JsonDoc* doc, const std::string& context);

} // namespace strata::io::detail
