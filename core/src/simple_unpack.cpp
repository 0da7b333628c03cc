// unpackSimple(): GRIB's simple packing decoded on the host or a device.
#include "strata/core/simple_unpack.h"

#include <bit>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "simple_unpack_backend.h"
#include "strata/core/error.h"

namespace strata {
namespace detail {
namespace {

bool bitSet(const unsigned char* bitmap, std::int64_t i) { return (bitmap[i >> 3] >> (7 - (i & 7))) & 1; }

// The integer of `bits` bits (1 to 32) at bit `at` of `data`, which holds at least 5 bytes from
// its byte, or fewer only where those bits end sooner (read as zeros past `end`).
std::uint32_t bitsAt(const unsigned char* data, const unsigned char* end, std::uint64_t at, int bits) {
    const unsigned char* p = data + (at >> 3);
    std::uint64_t v = 0;
    for (int k = 0; k < 5; ++k) v = (v << 8) | (p + k < end ? p[k] : 0);
    const int shift = 40 - int(at & 7) - bits;
    return std::uint32_t((v >> shift) & ((std::uint64_t(1) << bits) - 1));
}

} // namespace

void unpackSimpleCpu(const unsigned char* batch, std::span<const SimplePackedField> fields,
                     std::int64_t points, float* out) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (std::size_t f = 0; f < fields.size(); ++f) {
        const SimplePackedField& s = fields[f];
        float* o = out + std::int64_t(f) * points;
        if (s.absent) {
            std::fill(o, o + points, nan);
            continue;
        }
        const double e = simpleBinaryFactor(s.binaryScale), d = simpleDecimalFactor(s.decimalScale);
        const unsigned char* data = batch + s.data;
        const unsigned char* end = data + s.dataBytes;
        const unsigned char* bitmap = s.bitmap >= 0 ? batch + s.bitmap : nullptr;
        std::uint64_t k = 0; // present points so far
        for (std::int64_t i = 0; i < points; ++i) {
            if (bitmap && !bitSet(bitmap, i)) {
                o[i] = nan;
                continue;
            }
            const double x = s.bits == 0 ? 0.0 : double(bitsAt(data, end, k * std::uint64_t(s.bits), s.bits));
            o[i] = s.bits == 0 ? float(s.reference) : float((x * e + s.reference) * d);
            ++k;
        }
    }
}

} // namespace detail

Buffer unpackSimple(std::span<const unsigned char> batch, std::span<const SimplePackedField> fields,
                    std::int64_t points, Device device, Stream stream) {
    STRATA_EXPECTS(points >= 0, ValueError, "unpackSimple: a negative number of points");
    std::vector<std::int64_t> rankAt(fields.size(), -1);
    std::vector<std::uint32_t> ranks; // the CUDA kernel's: present points before each bitmap word
    const std::uint64_t bitmapBytes = std::uint64_t(points + 7) / 8;
    for (std::size_t f = 0; f < fields.size(); ++f) {
        const SimplePackedField& s = fields[f];
        if (s.absent) continue;
        const std::string which = "unpackSimple: field " + std::to_string(f);
        STRATA_EXPECTS(s.bits >= 0 && s.bits <= 32, ValueError,
                       which + " has " + std::to_string(s.bits) + " bits a value (0 to 32 are decoded)");
        STRATA_EXPECTS(s.data <= batch.size() && s.dataBytes <= batch.size() - s.data, ValueError,
                       which + ": its data lie outside the batch");
        std::uint64_t present = std::uint64_t(points);
        if (s.bitmap >= 0) {
            STRATA_EXPECTS(std::uint64_t(s.bitmap) <= batch.size() &&
                               bitmapBytes <= batch.size() - std::uint64_t(s.bitmap),
                           ValueError, which + ": its bitmap lies outside the batch");
            const unsigned char* b = batch.data() + s.bitmap;
            present = 0;
            if (device.isCuda()) rankAt[f] = std::int64_t(ranks.size());
            for (std::int64_t w = 0; w < (points + 31) / 32; ++w) {
                if (device.isCuda()) ranks.push_back(std::uint32_t(present));
                std::uint32_t word = 0;
                for (int k = 0; k < 4; ++k) {
                    const std::int64_t byte = w * 4 + k;
                    word = (word << 8) | (byte < std::int64_t(bitmapBytes) ? b[byte] : 0u);
                }
                const std::int64_t valid = std::min<std::int64_t>(32, points - w * 32);
                if (valid < 32) word &= ~((std::uint32_t(1) << (32 - valid)) - 1); // bits past the last point
                present += std::uint64_t(std::popcount(word));
            }
        }
        STRATA_EXPECTS(present * std::uint64_t(s.bits) <= s.dataBytes * 8, ValueError,
                       which + ": its data hold " +
                           std::to_string(s.dataBytes * 8 / std::uint64_t(std::max(1, s.bits))) +
                           " values for " + std::to_string(present) + " present points");
    }
    const std::size_t n = fields.size() * std::size_t(points);
    Buffer out(n * sizeof(float), device, device.isHost() ? Stream::host() : stream);
    if (n == 0) return out;
    if (device.isHost()) {
        detail::unpackSimpleCpu(batch.data(), fields, points, static_cast<float*>(out.data()));
    } else {
#if STRATA_HAVE_CUDA
        detail::unpackSimpleCuda(batch, fields, rankAt, ranks, points, static_cast<float*>(out.data()),
                                 stream);
#else
        STRATA_FAIL(ValueError, "unpackSimple: CUDA device, but the CUDA backend is not built");
#endif
    }
    return out;
}

} // namespace strata
