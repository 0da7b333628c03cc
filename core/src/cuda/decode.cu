// CF decoding on the device: packed values are masked (_FillValue / missing_value, valid
// range) to NaN, then unpacked as packed · scale + offset in double (multiply and add
// rounded separately, as on the CPU), and stored in the decoded type.
#include <cmath>

#include "backend.h"
#include "cuda/device.cuh"
#include "cuda/launch.h"

namespace strata::detail {
namespace {

using cuda::i64;

constexpr int kMaxFill = 16;

struct DecodeArgs {
    const void* packed = nullptr;
    void* out = nullptr;
    DType outType = DType::Float32;
    i64 n = 0;
    int nFill = 0;
    double fill[kMaxFill] = {};
    bool hasMin = false, hasMax = false, scaled = false;
    bool maskable = true; // floating decoded type (integers cannot hold NaN: left unmasked)
    double vmin = 0, vmax = 0, scale = 1, offset = 0;
};

template <class P> __global__ void __launch_bounds__(256) decodeKernel(const DecodeArgs a) {
    const P* in = static_cast<const P*>(a.packed);
    for (i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x; i < a.n; i += i64(gridDim.x) * blockDim.x) {
        const double d = double(in[i]);
        bool masked = false;
        for (int f = 0; f < a.nFill; ++f) masked |= d == a.fill[f];
        if (a.hasMin) masked |= d < a.vmin;
        if (a.hasMax) masked |= d > a.vmax;
        double r = a.scaled ? __dadd_rn(__dmul_rn(d, a.scale), a.offset) : d;
        if (masked && a.maskable) r = NAN;
        if (a.outType == DType::Float32)
            static_cast<float*>(a.out)[i] = float(r);
        else if (a.outType == DType::Float64)
            static_cast<double*>(a.out)[i] = r;
        else
            cuda::storeAs(a.out, a.outType, i, r);
    }
}

} // namespace

void decodeCfCuda(const ArrayView& packed, const CfEncoding& enc, void* out, Stream stream) {
    cuda::DeviceGuard guard(stream);
    STRATA_EXPECTS(int(enc.fillValues.size()) <= kMaxFill, DecodeError,
                   "more than " + std::to_string(kMaxFill) + " fill values");
    STRATA_EXPECTS(isNumeric(enc.decoded), DecodeError, "decoded type must be numeric");
    DecodeArgs a;
    a.packed = packed.data;
    a.out = out;
    a.outType = enc.decoded;
    a.n = packed.size();
    a.nFill = int(enc.fillValues.size());
    // A fill value is compared as the packed type holds it (a float variable's fill given as
    // a double attribute still matches its float values), as on the CPU.
    for (int i = 0; i < a.nFill; ++i)
        a.fill[i] = enc.packed == DType::Float32 ? double(float(enc.fillValues[i])) : enc.fillValues[i];
    a.maskable = isFloating(enc.decoded);
    a.hasMin = enc.validMin.has_value();
    a.hasMax = enc.validMax.has_value();
    a.vmin = enc.validMin.value_or(0);
    a.vmax = enc.validMax.value_or(0);
    a.scaled = enc.scaled;
    a.scale = enc.scale;
    a.offset = enc.offset;
    if (a.n == 0) return;
    const i64 blocks = std::min<i64>(cuda::ceilDiv(a.n, 256 * 4), i64(cuda::multiprocessors()) * 16);
    const cudaStream_t s = cuda::streamOf(stream);
    visitNumeric(enc.packed, [&](auto tag) {
        using P = decltype(tag);
        decodeKernel<P><<<unsigned(blocks), 256, 0, s>>>(a);
        STRATA_CUDA_CHECK_LAUNCH("decodeKernel");
    });
}

} // namespace strata::detail
