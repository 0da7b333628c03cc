#pragma once
// Writing HDF5 files from tests through the HDF5 C API: layouts and filters netCDF-C does not
// write, chunks written as raw stored bytes, and byte patches to a file's chunk index.
#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <initializer_list>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace h5test {

inline void ok(bool good, const std::string& what) {
    if (!good) throw std::runtime_error("HDF5: " + what + " failed");
}

// Owns one HDF5 identifier.
class Id {
public:
    Id(hid_t id, herr_t (*close)(hid_t), const char* what) : id_(id), close_(close) { ok(id >= 0, what); }
    ~Id() { close_(id_); }
    Id(const Id&) = delete;
    Id& operator=(const Id&) = delete;
    operator hid_t() const { return id_; }

private:
    hid_t id_;
    herr_t (*close_)(hid_t);
};

using Setup = std::function<void(hid_t dcpl)>;
using Bytes = std::vector<unsigned char>;

// Writes `path` holding one dataset `name` of int32 (or float32 when `values` are floats) with
// shape `dims`, its creation properties set by `setup`, holding `values` (none: nothing written).
template <class T>
void writeDataset(const std::string& path, const char* name, const std::vector<hsize_t>& dims,
                  const Setup& setup, const std::vector<T>& values) {
    static_assert(sizeof(T) == 4);
    const hid_t type = std::is_floating_point_v<T> ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT32;
    Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
    ok(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0, "H5Pset_fclose_degree");
    Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "H5Fcreate");
    Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose, "H5Screate_simple");
    Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "H5Pcreate");
    setup(dcpl);
    Id set(H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose, "H5Dcreate2");
    if (!values.empty())
        ok(H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()) >= 0, "H5Dwrite");
}

// A float32 dataset `name` chunked as `chunk` with deflate on (and what `setup` adds), whose
// chunks are written as the stored bytes given, with their filter mask (0: deflate applied;
// 1: skipped, stored as they are). Chunks not given are never written.
struct RawChunk {
    std::vector<hsize_t> offset;
    Bytes stored;
    std::uint32_t filterMask = 0;
};
inline void writeRawChunks(const std::string& path, const char* name, const std::vector<hsize_t>& dims,
                           const std::vector<hsize_t>& chunk, const std::vector<RawChunk>& chunks,
                           const Setup& setup = {}, hid_t fileType = H5T_NATIVE_FLOAT) {
    Id fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose, "H5Pcreate");
    ok(H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG) >= 0, "H5Pset_fclose_degree");
    Id file(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl), H5Fclose, "H5Fcreate");
    Id space(H5Screate_simple(int(dims.size()), dims.data(), nullptr), H5Sclose, "H5Screate_simple");
    Id dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose, "H5Pcreate");
    ok(H5Pset_chunk(dcpl, int(chunk.size()), chunk.data()) >= 0, "H5Pset_chunk");
    ok(H5Pset_deflate(dcpl, 6) >= 0, "H5Pset_deflate");
    if (setup) setup(dcpl);
    Id set(H5Dcreate2(file, name, fileType, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), H5Dclose, "H5Dcreate2");
    for (const RawChunk& c : chunks)
        ok(H5Dwrite_chunk(set, H5P_DEFAULT, c.filterMask, c.offset.data(), c.stored.size(),
                          c.stored.data()) >= 0,
           "H5Dwrite_chunk");
}

// Where the chunk at `offset` (in elements) of dataset `name` is stored.
struct StoredChunk {
    std::uint64_t address = 0;
    std::uint64_t size = 0;
};
inline StoredChunk storedChunk(const std::string& path, const char* name,
                               const std::vector<hsize_t>& offset) {
    Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "H5Fopen");
    Id set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, "H5Dopen2");
    unsigned mask = 0;
    haddr_t address = 0;
    hsize_t size = 0;
    ok(H5Dget_chunk_info_by_coord(set, offset.data(), &mask, &address, &size) >= 0,
       "H5Dget_chunk_info_by_coord");
    return {address, size};
}

// How many chunks of dataset `name` are stored, and how many its shape has.
struct ChunkCount {
    hsize_t stored = 0, total = 1;
};
inline ChunkCount chunkCount(const std::string& path, const char* name) {
    Id file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose, "H5Fopen");
    Id set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose, "H5Dopen2");
    Id space(H5Dget_space(set), H5Sclose, "H5Dget_space");
    Id dcpl(H5Dget_create_plist(set), H5Pclose, "H5Dget_create_plist");
    hsize_t dims[H5S_MAX_RANK], chunk[H5S_MAX_RANK];
    const int rank = H5Sget_simple_extent_dims(space, dims, nullptr);
    ok(rank >= 0 && H5Pget_chunk(dcpl, rank, chunk) == rank, "H5Pget_chunk");
    ChunkCount n;
    for (int i = 0; i < rank; ++i) n.total *= (dims[i] + chunk[i] - 1) / chunk[i];
    ok(H5Dget_num_chunks(set, space, &n.stored) >= 0, "H5Dget_num_chunks");
    return n;
}

inline Bytes readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(in), {});
}
inline void writeBytes(const std::string& path, const Bytes& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    ok(bool(out), "writing " + path);
}

// `value`'s `n` low bytes, little-endian (HDF5's order for addresses and sizes).
inline Bytes littleEndian(std::uint64_t value, int n) {
    Bytes b(std::size_t(n), 0);
    for (int i = 0; i < n; ++i) b[std::size_t(i)] = static_cast<unsigned char>(value >> (8 * i));
    return b;
}
inline Bytes join(std::initializer_list<Bytes> parts) {
    Bytes all;
    for (const Bytes& p : parts) all.insert(all.end(), p.begin(), p.end());
    return all;
}

// Every place where `pattern` starts in `bytes`.
inline std::vector<std::size_t> find(const Bytes& bytes, const Bytes& pattern) {
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i + pattern.size() <= bytes.size(); ++i)
        if (std::memcmp(bytes.data() + i, pattern.data(), pattern.size()) == 0) at.push_back(i);
    return at;
}

} // namespace h5test
