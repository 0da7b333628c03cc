#pragma once
// GRIB's simple packing decoded (GRIB 2 data representation template 5.0, GRIB 1's grid
// simple): a field's present points each hold an unsigned integer X of `bits` bits, packed
// one after another, most significant bit first, and decode as (R + X * 2^E) / 10^D, computed
// in double as ecCodes computes it (X * 2^E + R, times 10^-D got by repeated division), so that
// both agree bit for bit, then stored as float32. A bitmap (bit i, most significant first, set:
// point i present) places the k-th packed value at the k-th present point; absent points are NaN.
#include <cstdint>
#include <span>

#include "strata/core/buffer.h"
#include "strata/core/stream.h"

namespace strata {

struct SimplePackedField {
    std::uint64_t data = 0;      // where its packed integers begin in the batch (bytes)
    std::uint64_t dataBytes = 0; // the bytes its data section gives them
    std::int64_t bitmap = -1;    // where its bitmap begins in the batch; -1: every point present
    double reference = 0;        // R
    int binaryScale = 0;         // E
    int decimalScale = 0;        // D
    int bits = 0;                // 0 to 32; 0: every present point is R
    bool absent = false;         // no field at all (no message): every point NaN
};

// Decodes `fields`, each of `points` points, whose bytes lie in `batch` (host memory), into
// float32 on `device` (ordered on `stream`): fields one after another. On a CUDA device the
// batch is copied there and decoded by a kernel (ranks of the bitmaps' words found here first);
// the call returns once the batch has been copied (the stream synchronised: the batch is the
// caller's, free to go after). On the host, by a loop. Throws ValueError naming the field (its index) when
// its bytes lie outside the batch, hold fewer values than its present points, or its bits exceed 32.
Buffer unpackSimple(std::span<const unsigned char> batch, std::span<const SimplePackedField> fields,
                    std::int64_t points, Device device, Stream stream);

} // namespace strata
