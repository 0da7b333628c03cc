// decodeCf(): masking and unpacking of CF-packed values, on the host or a device.
#include "decode.h"

#include "backend.h"
#include "strata/core/error.h"

namespace strata::detail {

Buffer decodeCf(const ArrayView& packed, const CfEncoding& enc, Device device, Stream stream) {
    STRATA_EXPECTS(enc.problem.empty(), DecodeError, enc.problem);
    STRATA_EXPECTS(packed.dtype == enc.packed, ValueError,
                   "decodeCf: the values are " + std::string(name(packed.dtype)) + " but the encoding says " +
                       std::string(name(enc.packed)));
    STRATA_EXPECTS(isNumeric(enc.packed) && isNumeric(enc.decoded), DecodeError,
                   "CF decoding needs numeric types, got " + std::string(name(enc.packed)) + " → " +
                       std::string(name(enc.decoded)));
    const bool masked = !enc.fillValues.empty() || enc.validMin || enc.validMax;
    STRATA_EXPECTS(!masked || isFloating(enc.decoded), DecodeError,
                   "masked values need a floating decoded type, got " + std::string(name(enc.decoded)));
    const std::int64_t n = packed.size();
    Buffer out(static_cast<std::size_t>(n) * sizeOf(enc.decoded), device,
               device.isHost() ? Stream::host() : stream);
    if (n == 0) return out;
    if (device.isHost()) {
        decodeCfCpu(packed, enc, out.data());
    } else {
#if STRATA_HAVE_CUDA
        decodeCfCuda(packed, enc, out.data(), stream);
#else
        STRATA_FAIL(ValueError, "decodeCf: CUDA device, but the CUDA backend is not built");
#endif
    }
    return out;
}

} // namespace strata::detail
