// Chunk placement on the device: one kernel over a 2-D grid, x the boxes (where a chunk meets
// the region), y blocks of a box's elements. Consecutive threads take consecutive elements of
// a box in C order, so a warp reads each shuffled byte plane (or the plain chunk) and writes
// dst along rows: both coalesced. A box's linear index is split into its multi-index by
// multiply-shift division by invariant integers, worked out on the host per box.
#include <algorithm>
#include <bit>
#include <cstring>
#include <vector>

#include "backend.h"
#include "cuda/launch.h"

namespace strata::detail {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;

// n / d for every u32 n as (umulhi(n, magic) + n) >> shift, with shift = ceil(log2 d) and
// magic = floor(2^32 (2^shift - d) / d) + 1 (Granlund and Montgomery's round-up method).
struct Divisor {
    u32 d = 1, magic = 1, shift = 0;
};

Divisor divisorOf(u32 d) {
    Divisor v;
    v.d = d;
    v.shift = u32(std::bit_width(d - 1));
    v.magic = u32(((u64(1) << 32) * ((u64(1) << v.shift) - d)) / d + 1);
    return v;
}

__device__ __forceinline__ u32 divide(u32 n, const Divisor& v) {
    return u32((u64(__umulhi(n, v.magic)) + n) >> v.shift);
}

struct Box {
    u64 offset = 0; // bytes into the batch, or ChunkRef::kNotStored
    i64 dstFirst = 0;
    u32 srcFirst = 0;
    u32 size = 0;           // elements in the box (fewer than 2^32: a chunk's are)
    Divisor dims[kMaxDims]; // the box's extents; dims[0] is never divided by
};

struct PlaceArgs {
    int ndim = 1;
    u32 chunkSize = 1;
    u32 srcStrides[kMaxDims] = {};
    i64 dstStrides[kMaxDims] = {};
    bool shuffled = false, swap = false;
    bool aligned = false; // batch, dst and every offset are multiples of the element size
    u64 fill = 0;         // the fill value's bytes, first byte lowest (host and device are little-endian)
    const unsigned char* batch = nullptr;
    unsigned char* dst = nullptr;
};

template <class T> __device__ __forceinline__ T reversed(T v) {
    T r = 0;
#pragma unroll
    for (int k = 0; k < int(sizeof(T)); ++k) {
        r = T((r << 8) | (v & 0xff));
        v = T(v >> 8);
    }
    return r;
}

template <class T> __device__ __forceinline__ T load(const unsigned char* p, bool aligned) {
    if (aligned) return *reinterpret_cast<const T*>(p);
    T v = 0;
#pragma unroll
    for (int k = 0; k < int(sizeof(T)); ++k) v |= T(T(p[k]) << (8 * k));
    return v;
}

template <class T> __device__ __forceinline__ void store(unsigned char* p, T v, bool aligned) {
    if (aligned) {
        *reinterpret_cast<T*>(p) = v;
        return;
    }
#pragma unroll
    for (int k = 0; k < int(sizeof(T)); ++k) p[k] = (unsigned char)(v >> (8 * k));
}

// T: an unsigned integer of the element's size; only its bytes matter.
template <class T> __global__ void __launch_bounds__(256) placeKernel(const PlaceArgs a, const Box* boxes) {
    constexpr int E = int(sizeof(T));
    const Box& box = boxes[blockIdx.x];
    const u32 size = box.size, srcFirst = box.srcFirst;
    const i64 dstFirst = box.dstFirst;
    const bool stored = box.offset != ChunkRef::kNotStored;
    const unsigned char* chunk = a.batch + (stored ? box.offset : 0);
    Divisor dims[kMaxDims];
#pragma unroll
    for (int k = 1; k < kMaxDims; ++k)
        if (k < a.ndim) dims[k] = box.dims[k];

    const u64 step = u64(gridDim.y) * blockDim.x;
    for (u64 j = u64(blockIdx.y) * blockDim.x + threadIdx.x; j < size; j += step) {
        u32 rest = u32(j), s = srcFirst;
        i64 d = dstFirst;
#pragma unroll
        for (int k = kMaxDims - 1; k > 0; --k) {
            if (k >= a.ndim) continue;
            const u32 q = divide(rest, dims[k]);
            const u32 r = rest - q * dims[k].d;
            s += r * a.srcStrides[k];
            d += i64(r) * a.dstStrides[k];
            rest = q;
        }
        s += rest * a.srcStrides[0];
        d += i64(rest) * a.dstStrides[0];

        T v;
        if (!stored) {
            v = T(a.fill);
        } else if (a.shuffled) {
            v = 0;
#pragma unroll
            for (int k = 0; k < E; ++k) {
                const int at = a.swap ? E - 1 - k : k;
                v |= T(T(chunk[u64(k) * a.chunkSize + s]) << (8 * at));
            }
        } else {
            v = load<T>(chunk + u64(s) * E, a.aligned);
            if (a.swap) v = reversed(v);
        }
        store(a.dst + u64(d) * E, v, a.aligned);
    }
}

} // namespace

void placeChunksCuda(const PlaceProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    PlaceArgs a;
    a.ndim = p.ndim;
    a.chunkSize = u32(p.chunkSize);
    for (int k = 0; k < p.ndim; ++k) {
        a.srcStrides[k] = u32(p.srcStrides[k]);
        a.dstStrides[k] = p.dstStrides[k];
    }
    a.shuffled = p.shuffled;
    a.swap = p.swap;
    a.batch = static_cast<const unsigned char*>(p.batch);
    a.dst = static_cast<unsigned char*>(p.dst);
    if (p.fill) std::memcpy(&a.fill, p.fill, std::size_t(p.elemSize));
    const auto fits = [&](u64 v) { return v % u64(p.elemSize) == 0; };
    a.aligned = fits(reinterpret_cast<u64>(p.batch)) && fits(reinterpret_cast<u64>(p.dst));

    std::vector<Box> boxes(p.boxes.size());
    u32 largest = 0;
    for (std::size_t i = 0; i < boxes.size(); ++i) {
        const ChunkBox& c = p.boxes[i];
        Box& b = boxes[i];
        b.offset = c.offset;
        b.dstFirst = c.dstFirst;
        b.srcFirst = u32(c.srcFirst);
        u64 size = 1;
        for (int k = 0; k < p.ndim; ++k) {
            b.dims[k] = divisorOf(u32(c.count[k]));
            size *= u64(c.count[k]);
        }
        b.size = u32(size);
        largest = std::max(largest, b.size);
        if (c.offset != ChunkRef::kNotStored) a.aligned = a.aligned && fits(c.offset);
    }

    const cudaStream_t s = cuda::streamOf(stream);
    // Freed on the stream after the kernel; the pageable source is staged before the copy
    // call returns, so `boxes` may go when this does.
    cuda::Scratch onDevice(boxes.size() * sizeof(Box), stream);
    STRATA_CUDA_TRY(cudaMemcpyAsync(onDevice.as<Box>(), boxes.data(), boxes.size() * sizeof(Box),
                                    cudaMemcpyHostToDevice, s));
    const int threads = int(std::clamp<i64>(cuda::roundUp(largest, 32), 32, 256));
    const i64 perBox = std::min<i64>(cuda::ceilDiv(largest, i64(threads) * 4), 65535);
    constexpr i64 kMaxGridX = 2147483647;
    for (i64 first = 0; first < i64(boxes.size()); first += kMaxGridX) {
        const dim3 grid(unsigned(std::min<i64>(kMaxGridX, i64(boxes.size()) - first)), unsigned(perBox));
        const Box* slice = onDevice.as<Box>() + first;
        switch (p.elemSize) {
        case 1:
            placeKernel<std::uint8_t><<<grid, threads, 0, s>>>(a, slice);
            break;
        case 2:
            placeKernel<std::uint16_t><<<grid, threads, 0, s>>>(a, slice);
            break;
        case 4:
            placeKernel<std::uint32_t><<<grid, threads, 0, s>>>(a, slice);
            break;
        default:
            placeKernel<std::uint64_t><<<grid, threads, 0, s>>>(a, slice);
            break;
        }
        STRATA_CUDA_CHECK_LAUNCH("placeKernel");
    }
}

} // namespace strata::detail
