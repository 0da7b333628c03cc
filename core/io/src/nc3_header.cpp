#include "nc3_header.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <vector>

namespace strata::io::detail {
namespace {

constexpr std::uint64_t kMaxName = 256;     // NC_MAX_NAME: netCDF-C's name buffers hold this much
constexpr std::uint64_t kMaxVarDims = 1024; // NC_MAX_VAR_DIMS
constexpr std::uint64_t kTagDimension = 10, kTagVariable = 11, kTagAttribute = 12;

struct NeedMore {}; // the bytes read so far end before the header does
struct Damaged {
    std::string why;
};

std::string printable(const std::string& raw) {
    std::string out;
    for (unsigned char c : raw.substr(0, 64)) out += (c < 0x20 || c == 0x7f) ? '?' : char(c);
    return raw.size() > 64 ? out + "..." : out;
}

std::uint64_t typeSize(std::uint64_t t, int version) {
    if (version != 5 && t > 6) return 0; // ubyte .. uint64 exist in CDF-5 only
    switch (t) {
    case 1:
    case 2:
    case 7:
        return 1; // byte, char, ubyte
    case 3:
    case 8:
        return 2; // short, ushort
    case 4:
    case 5:
    case 9:
        return 4; // int, float, uint
    case 6:
    case 10:
    case 11:
        return 8; // double, int64, uint64
    default:
        return 0;
    }
}

// A big-endian reader over the header bytes read so far, bounded by the file's size.
class Reader {
public:
    Reader(const std::vector<unsigned char>& bytes, std::uint64_t fileSize, int version)
        : b_(bytes), fileSize_(fileSize), version_(version) {}
    std::uint64_t pos() const { return pos_; }
    int version() const { return version_; }
    int countWidth() const { return version_ == 5 ? 8 : 4; }

    void need(std::uint64_t n, const std::string& what) {
        if (n > fileSize_ - pos_)
            throw Damaged{"the header ends inside " + what + " (the file has only " +
                          std::to_string(fileSize_) + " bytes)"};
        if (n > b_.size() - pos_) throw NeedMore{};
    }
    std::uint64_t uint(int bytes, const std::string& what) {
        need(std::uint64_t(bytes), what);
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v = (v << 8) | b_[pos_++];
        return v;
    }
    std::uint64_t count(const std::string& what) { return uint(countWidth(), what); } // NON_NEG
    std::uint64_t offset(const std::string& what) { return uint(version_ == 1 ? 4 : 8, what); }
    void skip(std::uint64_t bytes, const std::string& what) {
        const std::uint64_t padded = bytes + (4 - bytes % 4) % 4;
        if (padded < bytes) throw Damaged{what + " is impossibly long"};
        need(padded, what);
        pos_ += padded;
    }
    std::string name(const std::string& what) {
        const std::uint64_t len = count("the name of " + what);
        if (len > kMaxName)
            throw Damaged{what + " has a name of " + std::to_string(len) + " bytes (at most " +
                          std::to_string(kMaxName) + " are allowed)"};
        need(len, "the name of " + what);
        std::string text(reinterpret_cast<const char*>(b_.data() + pos_), std::size_t(len));
        skip(len, "the name of " + what);
        return printable(text);
    }
    // `n` items of at least `each` bytes must fit in the rest of the file.
    void fits(std::uint64_t n, std::uint64_t each, const std::string& what) {
        if (n > (fileSize_ - pos_) / each)
            throw Damaged{"the header declares " + std::to_string(n) + " " + what + ", more than the " +
                          std::to_string(fileSize_ - pos_) + " bytes left in the file can hold"};
    }
    // A list's tag: ABSENT (0, with a zero count) or the expected one; returns the count.
    std::uint64_t list(std::uint64_t tag, const std::string& what) {
        const std::uint64_t t = uint(4, "the " + what + " list");
        const std::uint64_t n = count("the " + what + " list");
        if (t != 0 && t != tag)
            throw Damaged{"the " + what + " list has tag " + std::to_string(t) + " (expected " +
                          std::to_string(tag) + ")"};
        if (t == 0 && n != 0)
            throw Damaged{"the " + what + " list is marked absent but counts " + std::to_string(n) +
                          " entries"};
        return n;
    }

private:
    const std::vector<unsigned char>& b_;
    std::uint64_t fileSize_;
    int version_;
    std::uint64_t pos_ = 0;
};

void readAttributes(Reader& r, const std::string& owner) {
    const int w = r.countWidth();
    const std::uint64_t n = r.list(kTagAttribute, "attribute");
    r.fits(n, std::uint64_t(w) + 4 + std::uint64_t(w), "attributes of " + owner);
    for (std::uint64_t i = 0; i < n; ++i) {
        const std::string name = r.name("attribute " + std::to_string(i) + " of " + owner);
        const std::string what = "attribute '" + name + "' of " + owner;
        const std::uint64_t code = r.uint(4, what);
        const std::uint64_t size = typeSize(code, r.version());
        if (size == 0) throw Damaged{what + " has an unknown type code " + std::to_string(code)};
        const std::uint64_t len = r.count(what);
        r.fits(len, size, "values for " + what);
        r.skip(len * size, "the values of " + what);
    }
}

struct Var {
    std::string name;
    std::uint64_t begin = 0, bytes = 1;
    bool record = false;
    int typeSize = 0;
};

bool mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

// Parses and checks the header in `bytes` (a prefix of a file of `fileSize` bytes).
ClassicHeader parse(const std::vector<unsigned char>& bytes, std::uint64_t fileSize) {
    const int version = bytes[3];
    Reader r(bytes, fileSize, version);
    const int w = r.countWidth();
    r.uint(4, "the magic number");
    const std::uint64_t numrecs = r.count("the number of records");
    const bool streaming = numrecs == (version == 5 ? ~std::uint64_t(0) : 0xFFFFFFFFu);

    const std::uint64_t ndims = r.list(kTagDimension, "dimension");
    r.fits(ndims, 2 * std::uint64_t(w), "dimensions");
    std::vector<std::uint64_t> dimLength;
    std::vector<std::string> dimName;
    std::string unlimited;
    for (std::uint64_t i = 0; i < ndims; ++i) {
        dimName.push_back(r.name("dimension " + std::to_string(i)));
        dimLength.push_back(r.count("the length of dimension '" + dimName.back() + "'"));
        if (dimLength.back() == 0) {
            if (!unlimited.empty())
                throw Damaged{"dimensions '" + unlimited + "' and '" + dimName.back() +
                              "' are both unlimited (a netCDF-3 file has at most one)"};
            unlimited = dimName.back();
        }
    }
    readAttributes(r, "the file");

    std::vector<Var> vars;
    const std::uint64_t nvars = r.list(kTagVariable, "variable");
    r.fits(nvars, 3 * std::uint64_t(w) + 8 + std::uint64_t(w) + 4, "variables");
    for (std::uint64_t i = 0; i < nvars; ++i) {
        Var v;
        v.name = r.name("variable " + std::to_string(i));
        const std::string what = "variable '" + v.name + "'";
        const std::uint64_t rank = r.count("the rank of " + what);
        if (rank > kMaxVarDims)
            throw Damaged{what + " declares " + std::to_string(rank) + " dimensions (at most " +
                          std::to_string(kMaxVarDims) + " are allowed)"};
        r.fits(rank, std::uint64_t(w), "dimension ids of " + what);
        std::string shape; // "(a = 1099511627776, b = 1073741824)", for an overflow
        bool overflows = false;
        for (std::uint64_t d = 0; d < rank; ++d) {
            const std::uint64_t id = r.count("the dimensions of " + what);
            if (id >= ndims)
                throw Damaged{what + " uses dimension id " + std::to_string(id) +
                              ", but the header declares " + std::to_string(ndims) + " dimensions"};
            if (dimLength[id] == 0 && d > 0)
                throw Damaged{what + " uses the unlimited dimension '" + dimName[id] + "' in position " +
                              std::to_string(d + 1) + " (it must be the first)"};
            shape += (d ? ", " : "(") + dimName[id] + " = " + std::to_string(dimLength[id]);
            if (dimLength[id] == 0)
                v.record = true;
            else
                overflows = overflows || !mul(v.bytes, dimLength[id], v.bytes);
        }
        readAttributes(r, what);
        const std::uint64_t code = r.uint(4, "the type of " + what);
        const std::uint64_t size = typeSize(code, version);
        if (size == 0) throw Damaged{what + " has an unknown type code " + std::to_string(code)};
        r.uint(version == 5 ? 8 : 4, "the size of " + what); // vsize: not trusted (it saturates)
        v.begin = r.offset("the offset of " + what);
        v.typeSize = int(size);
        overflows = overflows || !mul(v.bytes, size, v.bytes);
        if (overflows) throw Damaged{what + ": its declared size in bytes " + shape + ") overflows 64 bits"};
        vars.push_back(std::move(v));
    }
    const std::uint64_t headerEnd = r.pos();

    ClassicHeader out;
    std::uint64_t recordSize = 0, records = 0;
    for (const Var& v : vars) {
        if (v.bytes > 0 && v.begin < headerEnd)
            throw Damaged{"variable '" + v.name + "' starts at byte " + std::to_string(v.begin) +
                          ", inside the header (which ends at byte " + std::to_string(headerEnd) + ")"};
        if (v.record) {
            records += 1;
            if (__builtin_add_overflow(recordSize, (v.bytes + 3) / 4 * 4, &recordSize))
                throw Damaged{"its records are larger than 2^64 bytes"};
        }
    }
    if (records == 1) // a single record variable is not padded
        for (const Var& v : vars)
            if (v.record) recordSize = v.bytes;

    std::uint64_t extent = headerEnd;
    const Var* last = nullptr;
    for (const Var& v : vars) {
        std::uint64_t end = v.begin;
        if (v.record) {
            if (streaming || numrecs == 0) continue;
            std::uint64_t before = 0;
            if (!mul(numrecs - 1, recordSize, before) || __builtin_add_overflow(end, before, &end))
                return out;
        }
        if (__builtin_add_overflow(end, v.bytes, &end)) return out;
        if (v.bytes > 0 && end > extent) {
            extent = end;
            last = &v;
        }
    }
    out.extent = extent;
    for (const Var& v : vars) out.variables.push_back({v.begin, v.bytes, v.record, v.typeSize});
    out.recordStride = recordSize;
    out.records = numrecs;
    out.streaming = streaming;
    if (extent <= fileSize) return out;
    for (const Var& v : vars)
        if (v.bytes > 0 && v.begin >= fileSize) {
            out.truncation = "the file is truncated or its header is damaged: variable '" + v.name +
                             "' starts at byte " + std::to_string(v.begin) + ", past the end of the file (" +
                             std::to_string(fileSize) + " bytes)";
            return out;
        }
    out.truncation = "the file is truncated (it has " + std::to_string(fileSize) +
                     " bytes, its header describes " + std::to_string(extent) +
                     (last ? ": variable '" + last->name + "' ends there)" : ")");
    return out;
}

} // namespace

bool isClassicMagic(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[4] = {};
    in.read(head, 4);
    return in.gcount() == 4 && head[0] == 'C' && head[1] == 'D' && head[2] == 'F' &&
           (head[3] == 1 || head[3] == 2 || head[3] == 5);
}

ClassicHeader checkClassicHeader(const std::string& path) {
    std::error_code ec;
    const std::uint64_t fileSize = std::filesystem::file_size(path, ec);
    std::ifstream in(path, std::ios::binary);
    if (ec || !in || fileSize < 4) return {};
    // Headers are usually a few kB; read more only when the part read does not hold it all.
    constexpr std::uint64_t kMaxHeader = std::uint64_t(256) << 20;
    std::vector<unsigned char> bytes;
    for (std::uint64_t want = std::uint64_t(64) << 10;; want *= 16) {
        want = std::min({want, fileSize, kMaxHeader});
        const std::size_t have = bytes.size();
        bytes.resize(std::size_t(want));
        in.read(reinterpret_cast<char*>(bytes.data() + have), std::streamsize(want - have));
        bytes.resize(have + std::size_t(in.gcount()));
        if (bytes.size() < want) return {}; // the file changed under us: no verdict
        try {
            return parse(bytes, fileSize);
        } catch (const NeedMore&) {
            if (want == fileSize || want == kMaxHeader) return {}; // cannot happen / too large to check
        } catch (const Damaged& d) {
            ClassicHeader out;
            out.problem = d.why;
            return out;
        }
    }
}

} // namespace strata::io::detail
