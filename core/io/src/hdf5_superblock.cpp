#include "hdf5_superblock.h"

#include <cstring>
#include <fstream>

namespace strata::io::detail {
namespace {

constexpr char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};

// Little-endian unsigned of `n` bytes at `p` (n is 2, 4 or 8).
std::uint64_t little(const unsigned char* p, int n) {
    std::uint64_t v = 0;
    for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

std::optional<std::uint64_t> fromSuperblock(const unsigned char* s, std::size_t have, std::uint64_t at) {
    const int version = s[8];
    int offsets = 0;
    std::size_t addresses = 0; // where the base address starts
    if (version == 0 || version == 1) {
        offsets = s[13];
        addresses = version == 0 ? 24 : 28;
    } else if (version == 2 || version == 3) {
        offsets = s[9];
        addresses = 12;
    } else {
        return std::nullopt;
    }
    if (offsets != 2 && offsets != 4 && offsets != 8) return std::nullopt;
    // base address, then (v0/1) free-space address or (v2/3) extension address, then end of file.
    const std::size_t eofAt = addresses + 2 * std::size_t(offsets);
    if (eofAt + std::size_t(offsets) > have) return std::nullopt;
    const std::uint64_t undefined =
        offsets == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * offsets)) - 1;
    std::uint64_t base = little(s + addresses, offsets);
    const std::uint64_t eof = little(s + eofAt, offsets);
    if (eof == undefined) return std::nullopt;
    if (base == undefined) base = at;
    std::uint64_t size = 0;
    if (__builtin_add_overflow(base, eof, &size)) return std::nullopt;
    return size;
}

} // namespace

std::optional<std::uint64_t> hdf5RecordedSize(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::nullopt;
    // The superblock sits at 0, 512, 1024, 2048, ... (after a user block).
    for (std::uint64_t at = 0; at <= (std::uint64_t(1) << 20); at = at ? at * 2 : 512) {
        in.clear();
        in.seekg(std::streamoff(at));
        unsigned char s[96] = {};
        in.read(reinterpret_cast<char*>(s), sizeof s);
        const auto have = static_cast<std::size_t>(in.gcount());
        if (have < 8) return std::nullopt;
        if (std::memcmp(s, kSignature, 8) == 0) return have > 9 ? fromSuperblock(s, have, at) : std::nullopt;
    }
    return std::nullopt;
}

} // namespace strata::io::detail
