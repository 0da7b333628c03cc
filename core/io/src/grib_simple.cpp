#include "grib_simple.h"

#include <atomic>
#include <cstring>
#include <mutex>

#include "io_pool.h"

namespace strata::io::detail {
namespace {

std::uint64_t bigEndian(const unsigned char* p, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | p[i];
    return v;
}

// GRIB's signed integers: a sign bit, then the magnitude.
int signMagnitude(const unsigned char* p) {
    const int v = int(bigEndian(p, 2));
    return (v & 0x8000) ? -(v & 0x7fff) : v;
}

// Where the message at `m` (of `length` bytes) keeps its simple-packed values; empty `why`
// when it does.
std::string place(const unsigned char* m, std::uint64_t length, std::uint64_t base, std::int64_t points,
                  SimplePackedField& f) {
    if (length < 16 + 4 || m[7] != 2) return "not GRIB 2";
    bool packing = false, bitmapSaid = false;
    std::uint64_t at = 16;
    while (at + 5 <= length - 4) {
        const std::uint64_t size = bigEndian(m + at, 4);
        const int number = m[at + 4];
        if (size < 5 || at + size > length - 4) return "its sections do not add up";
        const unsigned char* s = m + at;
        if (number == 3 && size >= 10 && std::int64_t(bigEndian(s + 6, 4)) != points)
            return "its grid has another number of points";
        if (number == 5) {
            if (size < 21 || bigEndian(s + 9, 2) != 0) return "its packing is not simple";
            float r = 0;
            const std::uint32_t raw = std::uint32_t(bigEndian(s + 11, 4));
            std::memcpy(&r, &raw, 4);
            f.reference = double(r);
            f.binaryScale = signMagnitude(s + 15);
            f.decimalScale = signMagnitude(s + 17);
            f.bits = s[19];
            if (f.bits > 32) return "it has more than 32 bits a value";
            packing = true;
        }
        if (number == 6) {
            if (size < 6) return "its sections do not add up";
            if (s[5] == 0) {
                if (size - 6 < std::uint64_t(points + 7) / 8) return "its bitmap is short";
                f.bitmap = std::int64_t(base + at + 6);
            } else if (s[5] != 255) {
                return "its bitmap is defined elsewhere";
            }
            bitmapSaid = true;
        }
        if (number == 7) {
            if (!packing || !bitmapSaid) return "its sections do not add up";
            f.data = base + at + 5;
            f.dataBytes = size - 5;
            return {};
        }
        at += size;
    }
    return "it has no data section";
}

} // namespace

std::optional<GribSimpleBatch> gribSimpleBatch(const GribFiles& files, std::span<const GribField> fields,
                                               std::int64_t points, std::string& why) {
    GribSimpleBatch b;
    b.fields.resize(fields.size());
    std::vector<std::uint64_t> at(fields.size(), 0);
    std::uint64_t total = 0;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (!fields[i].present) {
            b.fields[i].absent = true;
            continue;
        }
        if (fields[i].alternativeRows) {
            why = "rows run alternately backwards";
            return std::nullopt;
        }
        at[i] = total;
        total += fields[i].span.length;
    }
    b.bytes.resize(total);
    std::mutex whyLock;
    std::atomic<bool> refused{false};
    ioParallel(fields.size(), [&](std::size_t i) {
        if (!fields[i].present || refused) return;
        const GribSpan& s = fields[i].span;
        const std::string& path = files.paths[s.file];
        files.files[s.file]->read(s.offset, s.length, b.bytes.data() + at[i],
                                  path + ": message " + std::to_string(s.number));
        const std::string problem = place(b.bytes.data() + at[i], s.length, at[i], points, b.fields[i]);
        if (!problem.empty()) {
            const std::lock_guard<std::mutex> lock(whyLock);
            if (!refused.exchange(true))
                why = path + ": message " + std::to_string(s.number) + ": " + problem;
        }
    });
    if (refused) return std::nullopt;
    return b;
}

} // namespace strata::io::detail
