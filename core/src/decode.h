#pragma once
// CF decoding of packed values (mask, then unpack) on the host or a device.
#include "strata/core/array_view.h"
#include "strata/core/buffer.h"
#include "strata/core/cf.h"

namespace strata::detail {
// Decodes contiguous `packed` (enc.packed) into a new buffer of enc.decoded on `device`.
Buffer decodeCf(const ArrayView& packed, const CfEncoding& enc, Device device, Stream stream);
} // namespace strata::detail
