#pragma once
// Decoding one stored Zarr chunk (or shard) into its values: the byte codecs undone in reverse
// (blosc, zstd, zlib, gzip, lz4, crc32c, delta, fixedscaleoffset, shuffle, astype/quantize),
// then the byte order and the dim order, and inner chunks placed for a shard. Thread-safe.
// A codec that would produce more bytes than the chunk holds is refused before it runs out.
#include <optional>
#include <string>
#include <vector>

#include "zarr_meta.h"
#include "zarr_store.h"

namespace strata::io::detail {

// The values of a chunk of `shape`: C order, this machine's byte order, exactly
// product(shape) * sizeOf(dtype) bytes. `fill` (empty or sizeOf(dtype) bytes) fills a shard's
// missing inner chunks. Throws NetcdfError beginning with `context` ("store: variable 'sst':
// chunk 'sst/0.1'") for damaged or hostile data, and for unsupported codecs.
Bytes decodeChunk(const ZarrCodecs& codecs, Bytes stored, const std::vector<std::int64_t>& shape, DType dtype,
                  const std::vector<unsigned char>& fill, const std::string& context);

// decodeChunk straight into `out` (exactly `bytes` bytes, a whole chunk's values), for chains
// that need no buffer between the store's bytes and the values: no codec, or one compressor,
// in C order. False (nothing written) for other chains.
bool decodeChunkInto(const ZarrCodecs& codecs, const Bytes& stored, std::uint64_t bytes, DType dtype,
                     void* out, const std::string& context);

// The name of a codec in the chain Strata cannot decode, if any ("bz2").
std::optional<std::string> unsupportedCodec(const ZarrCodecs& codecs);

// Words for -v: "blosc", "zstd + crc32c", "sharding (zstd)", "none".
std::string describeCodecs(const ZarrCodecs& codecs);

// The CRC-32C (Castagnoli) of `n` bytes.
std::uint32_t crc32c(const unsigned char* data, std::size_t n);

} // namespace strata::io::detail
