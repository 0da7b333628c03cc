#include "direct_layout.h"

#include <hdf5.h>
#include <netcdf.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "nc3_header.h"
#include "strata/core/error.h"

namespace strata::io::detail {
namespace {

constexpr std::uint64_t kMaxChunks = std::uint64_t(1) << 24; // index entries kept per variable

DirectLayout fallback(std::string reason) {
    DirectLayout l;
    l.reason = std::move(reason);
    return l;
}

std::uint64_t product(const std::vector<std::int64_t>& v) {
    std::uint64_t n = 1;
    for (std::int64_t x : v) n *= std::uint64_t(x);
    return n;
}

// Closes an HDF5 identifier when it goes out of scope.
struct Hid {
    hid_t id = H5I_INVALID_HID;
    herr_t (*close)(hid_t) = nullptr;
    Hid(hid_t i, herr_t (*c)(hid_t)) : id(i), close(c) {}
    ~Hid() {
        if (id >= 0) close(id);
    }
    Hid(const Hid&) = delete;
    Hid& operator=(const Hid&) = delete;
    bool ok() const { return id >= 0; }
};

hid_t nativeType(DType t) {
    switch (t) {
    case DType::Int8:
        return H5T_NATIVE_SCHAR;
    case DType::UInt8:
        return H5T_NATIVE_UCHAR;
    case DType::Int16:
        return H5T_NATIVE_SHORT;
    case DType::UInt16:
        return H5T_NATIVE_USHORT;
    case DType::Int32:
        return H5T_NATIVE_INT;
    case DType::UInt32:
        return H5T_NATIVE_UINT;
    case DType::Int64:
        return H5T_NATIVE_LLONG;
    case DType::UInt64:
        return H5T_NATIVE_ULLONG;
    case DType::Float32:
        return H5T_NATIVE_FLOAT;
    case DType::Float64:
        return H5T_NATIVE_DOUBLE;
    default:
        return H5I_INVALID_HID;
    }
}

// Empty when the dataset's stored type is `t` as bytes (possibly byte-swapped); else why not.
std::string typeProblem(hid_t type, DType t, bool& bigEndian) {
    const H5T_class_t cls = H5Tget_class(type);
    const std::size_t size = H5Tget_size(type);
    const H5T_order_t order = H5Tget_order(type);
    bigEndian = order == H5T_ORDER_BE;
    if (order != H5T_ORDER_BE && order != H5T_ORDER_LE && size != 1)
        return "its stored type has an unusual byte order";
    if (size != sizeOf(t) || H5Tget_precision(type) != size * 8 || H5Tget_offset(type) != 0)
        return "its stored type is not a plain " + std::string(name(t));
    if (isFloating(t)) {
        if (cls != H5T_FLOAT) return "its stored type is not a floating-point type";
        const hid_t le = t == DType::Float32 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE;
        const hid_t be = t == DType::Float32 ? H5T_IEEE_F32BE : H5T_IEEE_F64BE;
        if (H5Tequal(type, le) <= 0 && H5Tequal(type, be) <= 0)
            return "its stored type is not IEEE floating point";
        return {};
    }
    if (cls != H5T_INTEGER) return "its stored type is an enum or another non-integer type";
    const bool isSigned = H5Tget_sign(type) == H5T_SGN_2;
    const bool wantSigned = t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
    if (isSigned != wantSigned) return "its stored type's sign differs from the variable's";
    return {};
}

bool hostBigEndian() { return std::endian::native == std::endian::big; }

// Opens the file through HDF5 beside netCDF-C's own open (HDF5 shares one open file between
// them); the close degree must match netCDF-C's, which HDF5 checks.
hid_t openFile(const std::string& path) {
    for (H5F_close_degree_t degree : {H5F_CLOSE_SEMI, H5F_CLOSE_WEAK, H5F_CLOSE_STRONG, H5F_CLOSE_DEFAULT}) {
        Hid fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
        if (!fapl.ok()) return H5I_INVALID_HID;
        H5Pset_fclose_degree(fapl.id, degree);
        hid_t f = H5I_INVALID_HID;
        H5E_BEGIN_TRY { f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.id); }
        H5E_END_TRY;
        if (f >= 0) return f;
    }
    return H5I_INVALID_HID;
}

} // namespace

std::uint64_t DirectLayout::chunkBytes() const { return product(chunk) * std::uint64_t(elemSize); }

DirectLayout classicLayout(const std::string& path, int varId, const std::vector<std::int64_t>& shape,
                           DType stored, const std::string& what) {
    const ClassicHeader h = checkClassicHeader(path);
    if (!h.problem.empty() || !h.truncation.empty() || h.variables.empty())
        return fallback("its header could not be checked");
    if (h.streaming) return fallback("its record count is unknown (written while streaming)");
    if (varId < 0 || std::size_t(varId) >= h.variables.size()) return fallback("its header does not list it");
    const ClassicHeader::Placement& p = h.variables[std::size_t(varId)];
    if (p.typeSize != int(sizeOf(stored))) return fallback("its header's type differs");

    DirectLayout l;
    l.kind = DirectLayout::Kind::Contiguous;
    l.shape = shape;
    l.elemSize = int(sizeOf(stored));
    l.swap = !hostBigEndian() && l.elemSize > 1; // netCDF-3 stores big-endian
    l.base = p.begin;
    std::uint64_t rest = std::uint64_t(l.elemSize);
    for (std::size_t i = 1; i < shape.size(); ++i) rest *= std::uint64_t(shape[i]);
    if (p.record) {
        if (shape.empty() || std::uint64_t(shape[0]) != h.records)
            return fallback("its record count differs");
        if (p.bytes != rest) return fallback("its record size differs from its shape");
        l.outerStride = h.recordStride;
    } else {
        if (p.bytes != product(shape) * std::uint64_t(l.elemSize))
            return fallback("its size differs from its shape");
        l.outerStride = rest;
    }
    l.file = RawFile::open(path, what);
    // The last byte the variable reaches must be in the file.
    const std::uint64_t outer = shape.empty() ? 1 : std::uint64_t(shape[0]);
    if (outer > 0 && rest > 0) {
        const std::uint64_t end = l.base + (outer - 1) * l.outerStride + (shape.empty() ? l.elemSize : rest);
        if (end > l.file->size())
            return fallback("its data end past the end of the file (" + std::to_string(l.file->size()) +
                            " bytes)");
    }
    l.reason = p.record ? "records" : "contiguous";
    return l;
}

DirectLayout hdf5Layout(const std::string& path, int groupId, int varId,
                        const std::vector<std::int64_t>& shape, DType stored, const std::string& what) {
    const hid_t native = nativeType(stored);
    if (native < 0) return fallback("its type is not read here");
    std::size_t len = 0;
    if (nc_inq_grpname_full(groupId, &len, nullptr) != NC_NOERR) return fallback("its group has no path");
    std::string group(len, '\0');
    nc_inq_grpname_full(groupId, &len, group.data());
    char name[NC_MAX_NAME + 1] = {};
    if (nc_inq_varname(groupId, varId, name) != NC_NOERR) return fallback("it has no name");

    Hid file(openFile(path), H5Fclose);
    if (!file.ok()) return fallback("HDF5 could not open the file beside netCDF-C");
    const std::string prefix = group == "/" ? "/" : group + "/";
    hid_t d = H5I_INVALID_HID;
    // A variable named like a dim it is not the coordinate of is stored under a prefix, and the
    // plain name is then the dim's own dataset (no values): the prefixed name comes first.
    for (const std::string& n : {prefix + "_nc4_non_coord_" + name, prefix + name}) {
        H5E_BEGIN_TRY { d = H5Dopen2(file.id, n.c_str(), H5P_DEFAULT); }
        H5E_END_TRY;
        if (d >= 0) break;
    }
    Hid dset(d, H5Dclose);
    if (!dset.ok()) return fallback("its HDF5 dataset was not found");

    Hid space(H5Dget_space(dset.id), H5Sclose);
    Hid type(H5Dget_type(dset.id), H5Tclose);
    Hid dcpl(H5Dget_create_plist(dset.id), H5Pclose);
    if (!space.ok() || !type.ok() || !dcpl.ok()) return fallback("HDF5 could not describe its dataset");
    const int rank = H5Sget_simple_extent_ndims(space.id);
    if (rank != int(shape.size())) return fallback("its dataset's rank differs from its dims");
    std::vector<hsize_t> dims(std::size_t(rank) + 1);
    H5Sget_simple_extent_dims(space.id, dims.data(), nullptr);
    for (int i = 0; i < rank; ++i)
        if (std::int64_t(dims[std::size_t(i)]) != shape[std::size_t(i)])
            return fallback(
                "its dataset is shorter than its dims (an unlimited dim grown by another variable)");

    DirectLayout l;
    l.shape = shape;
    l.elemSize = int(sizeOf(stored));
    bool bigEndian = false;
    if (std::string why = typeProblem(type.id, stored, bigEndian); !why.empty()) return fallback(why);
    l.swap = l.elemSize > 1 && bigEndian != hostBigEndian();

    // The fill value, as HDF5 gives it for chunks never written.
    H5D_fill_value_t fillState = H5D_FILL_VALUE_UNDEFINED;
    H5D_fill_time_t fillTime = H5D_FILL_TIME_IFSET;
    H5Pfill_value_defined(dcpl.id, &fillState);
    H5Pget_fill_time(dcpl.id, &fillTime);
    const bool fillKnown = fillState != H5D_FILL_VALUE_UNDEFINED && fillTime != H5D_FILL_TIME_NEVER;
    l.fill.assign(std::size_t(l.elemSize), 0);
    if (fillKnown && H5Pget_fill_value(dcpl.id, native, l.fill.data()) < 0)
        return fallback("its fill value is unreadable");

    if (H5Pget_external_count(dcpl.id) > 0) return fallback("its data are stored in external files");
    l.file = RawFile::open(path, what);
    const std::uint64_t fileSize = l.file->size();
    const H5D_layout_t layout = H5Pget_layout(dcpl.id);
    if (layout == H5D_COMPACT) return fallback("its dataset uses HDF5's compact layout");
    if (layout == H5D_CONTIGUOUS) {
        l.kind = DirectLayout::Kind::Contiguous;
        std::uint64_t rest = std::uint64_t(l.elemSize);
        for (std::size_t i = 1; i < shape.size(); ++i) rest *= std::uint64_t(shape[i]);
        l.outerStride = rest;
        const std::uint64_t bytes = product(shape) * std::uint64_t(l.elemSize);
        const haddr_t at = H5Dget_offset(dset.id);
        if (at == HADDR_UNDEF) {
            if (H5Dget_storage_size(dset.id) != 0) return fallback("HDF5 gives no offset for its data");
            if (!fillKnown && bytes > 0) return fallback("it was never written and has no fill value");
            l.stored = false;
        } else {
            if (at > fileSize || bytes > fileSize - at)
                return fallback("its data would end past the end of the file (" + std::to_string(fileSize) +
                                " bytes): the file is damaged or truncated");
            l.base = at;
        }
        l.reason = "contiguous";
        return l;
    }
    if (layout != H5D_CHUNKED) return fallback("its dataset uses an HDF5 layout not read here");

    // The filters, in the order they were applied on writing.
    const int nfilters = H5Pget_nfilters(dcpl.id);
    for (int i = 0; i < nfilters; ++i) {
        unsigned flags = 0, config = 0;
        unsigned cd[8] = {};
        std::size_t ncd = 8;
        char fname[64] = {};
        const H5Z_filter_t id =
            H5Pget_filter2(dcpl.id, unsigned(i), &flags, &ncd, cd, sizeof fname, fname, &config);
        if (id == H5Z_FILTER_DEFLATE)
            l.pipeline.filters.push_back(FilterKind::Deflate);
        else if (id == H5Z_FILTER_SHUFFLE) {
            l.pipeline.filters.push_back(FilterKind::Shuffle);
            // HDF5 records the element size when the dataset is created (cd[0]).
            l.pipeline.shuffleElement = ncd >= 1 && cd[0] >= 1 ? int(cd[0]) : l.elemSize;
        } else if (id == H5Z_FILTER_FLETCHER32)
            l.pipeline.filters.push_back(FilterKind::Fletcher32);
        else {
            const char* known = id == H5Z_FILTER_SZIP          ? "szip"
                                : id == H5Z_FILTER_NBIT        ? "nbit"
                                : id == H5Z_FILTER_SCALEOFFSET ? "scaleoffset"
                                : id == 307                    ? "bzip2"
                                : id == 32015                  ? "zstd"
                                : id == 32001                  ? "blosc"
                                                               : nullptr;
            return fallback("filter '" +
                            std::string(known      ? known
                                        : fname[0] ? fname
                                                   : "unknown") +
                            "' (id " + std::to_string(id) + ") is not decoded here");
        }
    }
    if (l.pipeline.filters.size() > 8) return fallback("its filter pipeline is longer than any real file's");

    l.chunk.assign(std::size_t(rank), 1);
    std::vector<hsize_t> cdims(std::size_t(rank) + 1);
    if (H5Pget_chunk(dcpl.id, rank, cdims.data()) != rank) return fallback("its chunk shape is unreadable");
    std::uint64_t chunkCount = 1;
    l.lattice.assign(std::size_t(rank), 1);
    for (int i = 0; i < rank; ++i) {
        const auto c = std::int64_t(cdims[std::size_t(i)]);
        if (c < 1) return fallback("its chunk shape has a zero");
        l.chunk[std::size_t(i)] = c;
        l.lattice[std::size_t(i)] = shape[std::size_t(i)] == 0 ? 0 : (shape[std::size_t(i)] + c - 1) / c;
        chunkCount *= std::uint64_t(l.lattice[std::size_t(i)]);
        if (chunkCount > kMaxChunks)
            return fallback("it has more than " + std::to_string(kMaxChunks) + " chunks");
    }
    const std::uint64_t chunkBytes = l.chunkBytes();
    if (chunkBytes > (std::uint64_t(1) << 32)) return fallback("its chunks are larger than 4 GiB");

    // The chunk index: each chunk's address, stored size and skipped filters, checked.
    l.chunks.resize(std::size_t(chunkCount));
    std::vector<hsize_t> at(std::size_t(rank) + 1, 0);
    std::vector<std::int64_t> idx(std::size_t(rank), 0);
    bool missing = false, shuffleSkipped = false;
    const std::uint64_t most = l.pipeline.maxStoredBytes(chunkBytes);
    for (std::uint64_t c = 0; c < chunkCount; ++c) {
        for (int i = 0; i < rank; ++i)
            at[std::size_t(i)] = hsize_t(idx[std::size_t(i)] * l.chunk[std::size_t(i)]);
        unsigned mask = 0;
        haddr_t addr = HADDR_UNDEF;
        hsize_t size = 0;
        herr_t rc;
        H5E_BEGIN_TRY { rc = H5Dget_chunk_info_by_coord(dset.id, at.data(), &mask, &addr, &size); }
        H5E_END_TRY;
        if (rc < 0) return fallback("HDF5 could not read its chunk index");
        StoredChunk& s = l.chunks[std::size_t(c)];
        if (addr == HADDR_UNDEF || size == 0) {
            missing = true;
        } else {
            STRATA_EXPECTS(addr <= fileSize && size <= fileSize - addr, NetcdfError,
                           what + ": its chunk index is damaged (a chunk of " + std::to_string(size) +
                               " bytes at byte " + std::to_string(addr) + " lies past the end of the file, " +
                               std::to_string(fileSize) + " bytes)");
            STRATA_EXPECTS(size <= most, NetcdfError,
                           what + ": its chunk index is damaged (a chunk stored in " + std::to_string(size) +
                               " bytes, more than a chunk of " + std::to_string(chunkBytes) +
                               " bytes can take)");
            s.address = addr;
            s.bytes = size;
            s.skipMask = mask;
            shuffleSkipped = shuffleSkipped || (l.pipeline.shuffleLast() && (mask & 1u));
        }
        for (int i = rank - 1; i >= 0; --i) { // next chunk, C order
            if (++idx[std::size_t(i)] < l.lattice[std::size_t(i)]) break;
            idx[std::size_t(i)] = 0;
        }
    }
    if (missing && !fillKnown) return fallback("chunks were never written and it has no fill value");

    // Two chunks sharing bytes is never a file HDF5 wrote.
    std::vector<const StoredChunk*> byAddress;
    for (const StoredChunk& s : l.chunks)
        if (s.address != StoredChunk::kNone) byAddress.push_back(&s);
    std::sort(byAddress.begin(), byAddress.end(), [](auto* a, auto* b) { return a->address < b->address; });
    for (std::size_t i = 1; i < byAddress.size(); ++i)
        STRATA_EXPECTS(byAddress[i - 1]->address + byAddress[i - 1]->bytes <= byAddress[i]->address,
                       NetcdfError,
                       what + ": its chunk index is damaged (two chunks overlap at byte " +
                           std::to_string(byAddress[i]->address) + ")");

    l.kind = DirectLayout::Kind::Chunked;
    l.deferShuffle = l.pipeline.shuffleLast() && !shuffleSkipped && l.pipeline.shuffleElement == l.elemSize;
    l.reason = std::to_string(chunkCount) + " chunks, " + l.pipeline.describe();
    return l;
}

} // namespace strata::io::detail
