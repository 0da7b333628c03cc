#include "nc3_extent.h"

#include <fstream>
#include <vector>

namespace strata::io::detail {
namespace {

// A bounds-checked big-endian reader over the header bytes; any overrun sets failed().
class Reader {
public:
    Reader(const std::vector<unsigned char>& bytes, int version) : b_(bytes), version_(version) {}
    bool failed() const { return failed_; }
    std::uint64_t uint(int bytes) {
        if (failed_ || pos_ + bytes > b_.size()) {
            failed_ = true;
            return 0;
        }
        std::uint64_t v = 0;
        for (int i = 0; i < bytes; ++i) v = (v << 8) | b_[pos_++];
        return v;
    }
    std::uint64_t count() { return uint(version_ == 5 ? 8 : 4); }  // NON_NEG: element counts
    std::uint64_t offset() { return uint(version_ == 1 ? 4 : 8); } // a variable's begin
    void skip(std::uint64_t bytes) {
        const std::uint64_t padded = (bytes + 3) / 4 * 4;
        if (failed_ || padded > b_.size() - pos_)
            failed_ = true;
        else
            pos_ += padded;
    }
    void skipName() { skip(count()); }
    void fail() { failed_ = true; }

private:
    const std::vector<unsigned char>& b_;
    int version_;
    std::size_t pos_ = 0;
    bool failed_ = false;
};

std::uint64_t typeSize(std::uint64_t t) {
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

void skipAttributes(Reader& r) {
    r.uint(4); // NC_ATTRIBUTE or ABSENT
    const std::uint64_t n = r.count();
    for (std::uint64_t i = 0; i < n && !r.failed(); ++i) {
        r.skipName();
        const std::uint64_t size = typeSize(r.uint(4));
        const std::uint64_t len = r.count();
        if (size == 0 || len > (std::uint64_t(1) << 40)) return r.fail();
        r.skip(len * size);
    }
}

bool mul(std::uint64_t a, std::uint64_t b, std::uint64_t& out) { return !__builtin_mul_overflow(a, b, &out); }

// Parses the header in `bytes`; nullopt when it is not all there or not understood.
std::optional<std::uint64_t> parseExtent(const std::vector<unsigned char>& bytes) {
    if (bytes.size() < 4 || bytes[0] != 'C' || bytes[1] != 'D' || bytes[2] != 'F') return std::nullopt;
    const int version = bytes[3];
    if (version != 1 && version != 2 && version != 5) return std::nullopt;

    Reader r(bytes, version);
    r.uint(4); // the magic
    const std::uint64_t numrecs = r.count();
    const bool streaming = numrecs == (version == 5 ? ~std::uint64_t(0) : 0xFFFFFFFFu);

    r.uint(4); // NC_DIMENSION or ABSENT
    const std::uint64_t ndims = r.count();
    if (ndims > (std::uint64_t(1) << 20)) return std::nullopt;
    std::vector<std::uint64_t> dimLength;
    for (std::uint64_t i = 0; i < ndims && !r.failed(); ++i) {
        r.skipName();
        dimLength.push_back(r.count());
    }
    skipAttributes(r);

    struct Var {
        std::uint64_t begin, bytes;
        bool record;
    };
    std::vector<Var> vars;
    r.uint(4); // NC_VARIABLE or ABSENT
    const std::uint64_t nvars = r.count();
    if (nvars > (std::uint64_t(1) << 24)) return std::nullopt;
    for (std::uint64_t i = 0; i < nvars && !r.failed(); ++i) {
        r.skipName();
        const std::uint64_t rank = r.count();
        if (rank > 1024) return std::nullopt;
        Var v{0, 1, false};
        for (std::uint64_t d = 0; d < rank && !r.failed(); ++d) {
            const std::uint64_t id = r.count();
            if (id >= dimLength.size()) return std::nullopt;
            if (d == 0 && dimLength[id] == 0)
                v.record = true; // the unlimited dim
            else if (!mul(v.bytes, dimLength[id], v.bytes))
                return std::nullopt;
        }
        skipAttributes(r);
        const std::uint64_t size = typeSize(r.uint(4));
        r.count(); // vsize as written (not trusted: it saturates for large variables)
        v.begin = r.offset();
        if (size == 0 || !mul(v.bytes, size, v.bytes)) return std::nullopt;
        vars.push_back(v);
    }
    if (r.failed()) return std::nullopt;

    std::uint64_t recordSize = 0, records = 0;
    for (const Var& v : vars)
        if (v.record) {
            records += 1;
            recordSize += (v.bytes + 3) / 4 * 4;
        }
    if (records == 1) // a single record variable is not padded
        for (const Var& v : vars)
            if (v.record) recordSize = v.bytes;

    std::uint64_t extent = 0;
    for (const Var& v : vars) {
        std::uint64_t end = v.begin;
        if (v.record) {
            if (streaming || numrecs == 0) continue;
            std::uint64_t before = 0;
            if (!mul(numrecs - 1, recordSize, before) || __builtin_add_overflow(end, before, &end))
                return std::nullopt;
        }
        if (__builtin_add_overflow(end, v.bytes, &end)) return std::nullopt;
        if (v.bytes > 0 && end > extent) extent = end;
    }
    return extent;
}

} // namespace

std::optional<std::uint64_t> classicDataExtent(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    // Headers are usually a few kB; read more only when the one read does not hold it all.
    std::vector<unsigned char> bytes;
    for (std::size_t want = std::size_t(64) << 10; want <= (std::size_t(64) << 20); want *= 16) {
        const std::size_t have = bytes.size();
        bytes.resize(want);
        in.read(reinterpret_cast<char*>(bytes.data() + have), std::streamsize(want - have));
        bytes.resize(have + std::size_t(in.gcount()));
        if (auto extent = parseExtent(bytes)) return extent;
        if (bytes.size() < want) return std::nullopt; // the whole file was read
    }
    return std::nullopt;
}

} // namespace strata::io::detail
