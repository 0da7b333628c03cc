// GRIB's simple packing decoded on the device (strata/core/simple_unpack.h): one thread a
// point, its packed integer found through its bitmap word's rank.
#include <cmath>
#include <vector>

#include "cuda/device.cuh"
#include "cuda/launch.h"
#include "simple_unpack_backend.h"

namespace strata::detail {
namespace {

using cuda::i64;

struct FieldArgs {
    unsigned long long data = 0, dataBytes = 0;
    long long bitmap = -1, rankAt = -1;
    double reference = 0, e = 1, d = 1;
    int bits = 0;
    bool absent = false;
};

__device__ unsigned int bitsAt(const unsigned char* data, const unsigned char* end, unsigned long long at,
                               int bits) {
    const unsigned char* p = data + (at >> 3);
    unsigned long long v = 0;
    for (int k = 0; k < 5; ++k) v = (v << 8) | (p + k < end ? p[k] : 0);
    const int shift = 40 - int(at & 7) - bits;
    return static_cast<unsigned int>((v >> shift) & ((1ull << bits) - 1));
}

__global__ void __launch_bounds__(256)
    unpackKernel(const unsigned char* batch, const FieldArgs* fields, const unsigned int* ranks, i64 points,
                 i64 n, float* out) {
    for (i64 idx = i64(blockIdx.x) * blockDim.x + threadIdx.x; idx < n; idx += i64(gridDim.x) * blockDim.x) {
        const FieldArgs& f = fields[idx / points];
        const i64 i = idx % points;
        if (f.absent) {
            out[idx] = NAN;
            continue;
        }
        unsigned long long k = static_cast<unsigned long long>(i); // the point's packed value
        if (f.bitmap >= 0) {
            const unsigned char* b = batch + f.bitmap;
            unsigned int word = 0;
            for (int q = 0; q < 4; ++q) {
                const i64 byte = (i >> 5) * 4 + q;
                word = (word << 8) | (byte < (points + 7) / 8 ? b[byte] : 0u);
            }
            const int bit = int(i & 31);
            if (!((word >> (31 - bit)) & 1u)) {
                out[idx] = NAN;
                continue;
            }
            k = ranks[f.rankAt + (i >> 5)] + (bit == 0 ? 0 : __popc(word >> (32 - bit)));
        }
        if (f.bits == 0) {
            out[idx] = float(f.reference);
            continue;
        }
        const double x = double(bitsAt(batch + f.data, batch + f.data + f.dataBytes, k * f.bits, f.bits));
        // Rounded as the host rounds it: no fused multiply-add.
        out[idx] = float(__dmul_rn(__dadd_rn(__dmul_rn(x, f.e), f.reference), f.d));
    }
}

} // namespace

void unpackSimpleCuda(std::span<const unsigned char> batch, std::span<const SimplePackedField> fields,
                      std::span<const std::int64_t> rankAt, std::span<const std::uint32_t> ranks,
                      std::int64_t points, float* out, Stream stream) {
    cuda::DeviceGuard guard(stream);
    std::vector<FieldArgs> args(fields.size());
    for (std::size_t f = 0; f < fields.size(); ++f) {
        const SimplePackedField& s = fields[f];
        args[f] = {s.data,
                   s.dataBytes,
                   s.bitmap,
                   rankAt[f],
                   s.reference,
                   simpleBinaryFactor(s.binaryScale),
                   simpleDecimalFactor(s.decimalScale),
                   s.bits,
                   s.absent};
    }
    const Device device = stream.device();
    cuda::Scratch onDevice(batch.size() + 8, stream);
    cuda::Scratch table(args.size() * sizeof(FieldArgs), stream);
    cuda::Scratch rankTable(std::max<std::size_t>(1, ranks.size()) * sizeof(std::uint32_t), stream);
    copyBytes(onDevice.as<unsigned char>(), device, batch.data(), Device::host(), batch.size(), stream);
    copyBytes(table.as<FieldArgs>(), device, args.data(), Device::host(), args.size() * sizeof(FieldArgs),
              stream);
    if (!ranks.empty())
        copyBytes(rankTable.as<std::uint32_t>(), device, ranks.data(), Device::host(),
                  ranks.size() * sizeof(std::uint32_t), stream);
    const i64 n = i64(fields.size()) * points;
    const int blocks = int(std::min<i64>(cuda::ceilDiv(n, 256), i64(cuda::multiprocessors()) * 32));
    unpackKernel<<<blocks, 256, 0, cuda::streamOf(stream)>>>(
        onDevice.as<unsigned char>(), table.as<FieldArgs>(), rankTable.as<unsigned int>(), points, n, out);
    STRATA_CUDA_CHECK_LAUNCH("unpackKernel");
    // The batch and the tables are host memory that dies on return (the batch the caller's, perhaps
    // pinned, then copied asynchronously): the copies must be done before.
    stream.synchronize();
}

} // namespace strata::detail
