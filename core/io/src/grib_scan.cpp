#include "grib_scan.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "strata/io/grib.h"

namespace strata::io::detail {
namespace {

constexpr char kMagic[4] = {'G', 'R', 'I', 'B'};
constexpr char kEnd[4] = {'7', '7', '7', '7'};
constexpr std::uint64_t kSearchBlock = std::uint64_t(1) << 16;

std::uint64_t bigEndian(const unsigned char* p, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}

// The offset of the next "GRIB" at or after `from`, or the file's size when there is none.
std::uint64_t findMagic(const RawFile& file, std::uint64_t from, const std::string& what) {
    std::vector<char> block;
    while (from + 4 <= file.size()) {
        const std::uint64_t n = std::min<std::uint64_t>(kSearchBlock + 3, file.size() - from);
        block.resize(n);
        file.read(from, n, block.data(), what);
        const auto it = std::search(block.begin(), block.end(), kMagic, kMagic + 4);
        if (it != block.end()) return from + std::uint64_t(it - block.begin());
        if (n < kSearchBlock + 3) break;
        from += kSearchBlock; // the last 3 bytes are searched again with the next block
    }
    return file.size();
}

std::string at(int number, std::uint64_t offset) {
    return "message " + std::to_string(number) + " (at byte " + std::to_string(offset) + ")";
}

// Why a message whose length does not end at "7777" is damaged: the next message begins inside
// it, right after a "7777" (its length is wrong), or without one (it was cut short).
std::string misfit(const RawFile& file, std::uint64_t pos, std::uint64_t length, const std::string& what) {
    const std::string says = "its header says " + std::to_string(length) + " bytes";
    const std::uint64_t next = findMagic(file, pos + 4, what);
    if (next >= pos + length || next < pos + 8)
        return "bad length: " + says + ", and no '7777' ends the message there";
    char before[4] = {};
    file.read(next - 4, 4, before, what);
    if (std::memcmp(before, kEnd, 4) == 0)
        return "bad length: " + says + ", but it ends ('7777') after " + std::to_string(next - pos);
    return "truncated: " + says + ", but the next message starts " + std::to_string(next - pos) +
           " bytes in, before its end";
}

} // namespace

bool startsLikeGrib(const char* head, std::size_t n) { return n >= 4 && std::memcmp(head, kMagic, 4) == 0; }

GribScan scanGribMessages(const RawFile& file, const std::string& what) {
    GribScan out;
    const std::uint64_t size = file.size();
    std::uint64_t pos = findMagic(file, 0, what);
    if (pos > 0 && pos < size)
        out.problems.emplace_back(0, std::to_string(pos) + " bytes before the first message were skipped");
    while (pos < size) {
        const int number = ++out.found;
        unsigned char head[16] = {};
        const std::uint64_t avail = std::min<std::uint64_t>(16, size - pos);
        file.read(pos, avail, head, what);
        const int edition = avail >= 8 ? head[7] : -1;
        std::uint64_t length = 0;
        std::string problem;
        if (avail < 16) {
            problem = "truncated: the file ends " + std::to_string(avail) + " bytes into its header";
        } else if (edition == 1) {
            length = bigEndian(head + 4, 3);
        } else if (edition == 2) {
            length = bigEndian(head + 8, 8);
        } else {
            problem = "GRIB edition " + std::to_string(edition) + " is not read (1 and 2 are)";
        }
        if (problem.empty() && length < 16 + 4)
            problem =
                "bad length: its header says " + std::to_string(length) + " bytes, too short for a message";
        if (problem.empty() && length > size - pos)
            problem = findMagic(file, pos + 4, what) < size
                          ? misfit(file, pos, length, what)
                          : "truncated: its header says " + std::to_string(length) +
                                " bytes, the file holds " + std::to_string(size - pos) + " from its start";
        if (problem.empty()) {
            char tail[4] = {};
            file.read(pos + length - 4, 4, tail, what);
            if (std::memcmp(tail, kEnd, 4) != 0) problem = misfit(file, pos, length, what);
        }
        if (problem.empty()) {
            out.messages.push_back({number, pos, length, edition});
            // Bytes up to the next "GRIB" (zeros to a block's end, often) are padding.
            pos = findMagic(file, pos + length, what);
            continue;
        }
        out.problems.emplace_back(number, at(number, pos) + ": " + problem + "; skipped");
        pos = findMagic(file, pos + 4, what); // the next message, if any, is read as usual
    }
    return out;
}

} // namespace strata::io::detail

namespace strata::io {

bool looksLikeGrib(const std::string& path) {
    try {
        std::ifstream in(path, std::ios::binary);
        if (!in) return false;
        char head[4] = {};
        in.read(head, sizeof head);
        if (detail::startsLikeGrib(head, std::size_t(in.gcount()))) return true;
        std::string ext = std::filesystem::path(path).extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        const bool named =
            ext == ".grib" || ext == ".grib1" || ext == ".grib2" || ext == ".grb" || ext == ".grb2";
        return named && !looksLikeNetcdf(path);
    } catch (...) {
        return false;
    }
}

} // namespace strata::io
