#pragma once
// GRIB 2 fields in simple packing (data representation template 5.0) gathered for
// strata/core/simple_unpack.h: their whole messages side by side in one host batch, and where
// each one's packed values and bitmap begin, read from the sections themselves (no ecCodes).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "grib_source.h"
#include "strata/core/simple_unpack.h"

namespace strata::io::detail {

struct GribSimpleBatch {
    std::vector<unsigned char> bytes;
    std::vector<SimplePackedField> fields; // one per field asked, absent where it has no message
};

// The batch of `fields` (each of `points` points), read on the reader's threads; nullopt with
// `why` set when one of them is not what the device decodes: GRIB 1, a packing other than
// simple, more than 32 bits a value, a bitmap defined in an earlier message, rows that run
// alternately backwards, or sections that do not add up (ecCodes then reads it, and names what
// is wrong). Throws NetcdfError naming the file and the message when a read fails.
std::optional<GribSimpleBatch> gribSimpleBatch(const GribFiles& files, std::span<const GribField> fields,
                                               std::int64_t points, std::string& why);

} // namespace strata::io::detail
