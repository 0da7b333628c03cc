#pragma once
// unpackSimple's two backends (strata/core/simple_unpack.h), inputs checked by it.
#include <cstdint>
#include <span>
#include <vector>

#include "strata/core/simple_unpack.h"

namespace strata::detail {

// ecCodes' power of ten: 10^-d (or 10^d for negative d) by repeated division (multiplication).
inline double simpleDecimalFactor(int decimalScale) {
    double f = 1.0;
    for (int k = 0; k < decimalScale; ++k) f /= 10.0;
    for (int k = 0; k > decimalScale; --k) f *= 10.0;
    return f;
}

// 2^e, exact in double for the exponents GRIB's 16 bits can hold within double's range.
inline double simpleBinaryFactor(int binaryScale) {
    double f = 1.0;
    for (int k = 0; k < binaryScale; ++k) f *= 2.0;
    for (int k = 0; k > binaryScale; --k) f /= 2.0;
    return f;
}

void unpackSimpleCpu(const unsigned char* batch, std::span<const SimplePackedField> fields,
                     std::int64_t points, float* out);

#if STRATA_HAVE_CUDA
// `ranks`: for each field with a bitmap, from its `rankAt` on, the present points before each
// 32-point word of its bitmap.
void unpackSimpleCuda(std::span<const unsigned char> batch, std::span<const SimplePackedField> fields,
                      std::span<const std::int64_t> rankAt, std::span<const std::uint32_t> ranks,
                      std::int64_t points, float* out, Stream stream);
#endif

} // namespace strata::detail
