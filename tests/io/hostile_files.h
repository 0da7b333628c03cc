#pragma once
// Damaged HDF5 files for tst_direct_read, each a float32 "v" of 4×256 in two chunks of 2×256:
// chunks that inflate too far, too little or not at all, a wrong checksum, and chunk indexes
// patched to point past the end of the file, at another chunk, or to claim too many bytes.
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "h5_write.h"

namespace hostiletest {

using h5test::Bytes;

inline Bytes deflate(const Bytes& raw) {
    uLongf size = compressBound(uLong(raw.size()));
    Bytes out(size);
    if (compress2(out.data(), &size, raw.data(), uLong(raw.size()), 6) != Z_OK)
        throw std::runtime_error("compress2 failed");
    out.resize(size);
    return out;
}

enum class Hostile {
    ZipBomb,         // chunk 1 inflates to 100 times its size
    TruncatedStream, // chunk 1's deflate stream cut in half
    ShortStream,     // chunk 1 a whole deflate stream of half a chunk
    Garbage,         // chunk 1 is text, not a deflate stream
    Fletcher32,      // chunk 1 (fletcher32 only) has a data byte flipped
    AddressPastEnd,  // the index puts chunk 1 at 16 TiB
    TruncatedFile,   // the file ends half-way through chunk 1
    Overlap,         // the index puts chunk 1 where chunk 0 is
    SizePastEnd      // the index says chunk 1 is 4 GiB long
};
inline const std::vector<hsize_t> kHostileShape = {4, 256}, kHostileChunk = {2, 256}, kChunk1 = {2, 0};

inline std::vector<float> hostileValues() {
    std::vector<float> v(4 * 256);
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = float(i % 512) * 0.25f; // both chunks alike
    return v;
}

inline Bytes asBytes(const std::vector<float>& v, std::size_t from, std::size_t n) {
    const auto* p = reinterpret_cast<const unsigned char*>(v.data() + from);
    return Bytes(p, p + n * sizeof(float));
}

// Replaces the only occurrence of `from` in the file by `to`.
inline void patchOnce(const std::string& path, const Bytes& from, const Bytes& to) {
    Bytes bytes = h5test::readBytes(path);
    const std::vector<std::size_t> at = h5test::find(bytes, from);
    if (at.size() != 1)
        throw std::runtime_error("the pattern to patch occurs " + std::to_string(at.size()) + " times in " +
                                 path);
    std::copy(to.begin(), to.end(), bytes.begin() + std::ptrdiff_t(at[0]));
    h5test::writeBytes(path, bytes);
}

inline void writeHostile(Hostile kind, const std::string& path) {
    const std::vector<float> values = hostileValues();
    const Bytes chunk0 = asBytes(values, 0, 512), chunk1 = asBytes(values, 512, 512);
    const auto raw = [&](const Bytes& stored1) {
        h5test::writeRawChunks(path, "v", kHostileShape, kHostileChunk,
                               {{{0, 0}, deflate(chunk0)}, {kChunk1, stored1}});
    };
    const auto deflated = [&] {
        h5test::writeDataset(
            path, "v", kHostileShape,
            [](hid_t dcpl) {
                H5Pset_chunk(dcpl, 2, kHostileChunk.data());
                H5Pset_deflate(dcpl, 6);
            },
            values);
    };
    switch (kind) {
    case Hostile::ZipBomb:
        raw(deflate(Bytes(chunk1.size() * 100, 0)));
        break;
    case Hostile::TruncatedStream: {
        const Bytes whole = deflate(chunk1);
        raw(Bytes(whole.begin(), whole.begin() + std::ptrdiff_t(whole.size() / 2)));
        break;
    }
    case Hostile::ShortStream:
        raw(deflate(Bytes(chunk1.begin(), chunk1.begin() + std::ptrdiff_t(chunk1.size() / 2))));
        break;
    case Hostile::Garbage: {
        const std::string text = "not a deflate stream, only text. ";
        Bytes garbage;
        while (garbage.size() < 300) garbage.insert(garbage.end(), text.begin(), text.end());
        raw(garbage);
        break;
    }
    case Hostile::Fletcher32: {
        h5test::writeDataset(
            path, "v", kHostileShape,
            [](hid_t dcpl) {
                H5Pset_chunk(dcpl, 2, kHostileChunk.data());
                H5Pset_fletcher32(dcpl);
            },
            values);
        const h5test::StoredChunk c = h5test::storedChunk(path, "v", kChunk1);
        Bytes bytes = h5test::readBytes(path);
        bytes.at(c.address + 5) ^= 0x40; // a data byte; the checksum stays as it was
        h5test::writeBytes(path, bytes);
        break;
    }
    case Hostile::AddressPastEnd: {
        deflated();
        const h5test::StoredChunk c = h5test::storedChunk(path, "v", kChunk1);
        patchOnce(path, h5test::littleEndian(c.address, 8), h5test::littleEndian(std::uint64_t(1) << 44, 8));
        break;
    }
    case Hostile::TruncatedFile: {
        deflated();
        const h5test::StoredChunk c = h5test::storedChunk(path, "v", kChunk1);
        Bytes bytes = h5test::readBytes(path);
        bytes.resize(std::min<std::size_t>(bytes.size(), c.address + c.size / 2));
        h5test::writeBytes(path, bytes);
        break;
    }
    case Hostile::Overlap: { // chunk 1's address made chunk 0's
        deflated();
        const h5test::StoredChunk c0 = h5test::storedChunk(path, "v", {0, 0});
        const h5test::StoredChunk c1 = h5test::storedChunk(path, "v", kChunk1);
        patchOnce(path, h5test::littleEndian(c1.address, 8), h5test::littleEndian(c0.address, 8));
        break;
    }
    case Hostile::SizePastEnd: { // the v1 B-tree key of chunk 1: size, filter mask, offsets
        deflated();
        const h5test::StoredChunk c = h5test::storedChunk(path, "v", kChunk1);
        using h5test::littleEndian;
        const Bytes key =
            h5test::join({littleEndian(c.size, 4), littleEndian(0, 4), littleEndian(kChunk1[0], 8),
                          littleEndian(kChunk1[1], 8), littleEndian(0, 8)});
        patchOnce(path, key, h5test::join({littleEndian(0xffffff00u, 4), Bytes(key.begin() + 4, key.end())}));
        break;
    }
    }
}

} // namespace hostiletest
