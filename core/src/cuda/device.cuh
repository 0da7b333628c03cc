#pragma once
// Device-side basics shared by the kernels: NaN tests that are free for integers, typed
// stores of a result into an output of any numeric dtype, warp shuffles of small structs.
#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "strata/core/dtype.h"

namespace strata::cuda {

using i64 = std::int64_t;

template <class T> __device__ __forceinline__ bool isNan(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return v != v;
    else
        return false;
}

template <class T> __device__ __forceinline__ bool isFinite(T v) {
    if constexpr (std::is_same_v<T, float>)
        return fabsf(v) < INFINITY;
    else if constexpr (std::is_same_v<T, double>)
        return fabs(v) < INFINITY;
    else
        return true;
}

template <class T> __host__ __device__ constexpr T lowestOf() {
    if constexpr (std::is_floating_point_v<T>)
        return -INFINITY;
    else if constexpr (std::is_signed_v<T>)
        return T(T(1) << (sizeof(T) * 8 - 1));
    else
        return T(0);
}
template <class T> __host__ __device__ constexpr T highestOf() {
    if constexpr (std::is_floating_point_v<T>)
        return INFINITY;
    else if constexpr (std::is_signed_v<T>)
        return T(~(std::make_unsigned_t<T>(1) << (sizeof(T) * 8 - 1)));
    else
        return T(~T(0));
}

// out[i] = v converted to `type`.
template <class V> __device__ void storeAs(void* out, DType type, i64 i, V v) {
    switch (type) {
    case DType::Int8:
        static_cast<std::int8_t*>(out)[i] = static_cast<std::int8_t>(v);
        break;
    case DType::UInt8:
        static_cast<std::uint8_t*>(out)[i] = static_cast<std::uint8_t>(v);
        break;
    case DType::Int16:
        static_cast<std::int16_t*>(out)[i] = static_cast<std::int16_t>(v);
        break;
    case DType::UInt16:
        static_cast<std::uint16_t*>(out)[i] = static_cast<std::uint16_t>(v);
        break;
    case DType::Int32:
        static_cast<std::int32_t*>(out)[i] = static_cast<std::int32_t>(v);
        break;
    case DType::UInt32:
        static_cast<std::uint32_t*>(out)[i] = static_cast<std::uint32_t>(v);
        break;
    case DType::Int64:
        static_cast<std::int64_t*>(out)[i] = static_cast<std::int64_t>(v);
        break;
    case DType::UInt64:
        static_cast<std::uint64_t*>(out)[i] = static_cast<std::uint64_t>(v);
        break;
    case DType::Float32:
        static_cast<float*>(out)[i] = static_cast<float>(v);
        break;
    default:
        static_cast<double*>(out)[i] = static_cast<double>(v);
        break;
    }
}

// p[i] of a runtime dtype, as double (for rare paths: weights of odd types, generic loads).
__device__ inline double loadAsDouble(const void* p, DType type, i64 i) {
    switch (type) {
    case DType::Int8:
        return static_cast<const std::int8_t*>(p)[i];
    case DType::UInt8:
        return static_cast<const std::uint8_t*>(p)[i];
    case DType::Int16:
        return static_cast<const std::int16_t*>(p)[i];
    case DType::UInt16:
        return static_cast<const std::uint16_t*>(p)[i];
    case DType::Int32:
        return static_cast<const std::int32_t*>(p)[i];
    case DType::UInt32:
        return static_cast<const std::uint32_t*>(p)[i];
    case DType::Int64:
        return double(static_cast<const std::int64_t*>(p)[i]);
    case DType::UInt64:
        return double(static_cast<const std::uint64_t*>(p)[i]);
    case DType::Float32:
        return static_cast<const float*>(p)[i];
    default:
        return static_cast<const double*>(p)[i];
    }
}

// A struct moved `delta` lanes down the warp, word by word.
template <class S> __device__ __forceinline__ S shuffleDown(const S& s, int delta) {
    constexpr int kWords = int((sizeof(S) + 3) / 4);
    unsigned words[kWords] = {};
    memcpy(words, &s, sizeof(S));
#pragma unroll
    for (int i = 0; i < kWords; ++i) words[i] = __shfl_down_sync(0xffffffffu, words[i], delta);
    S r;
    memcpy(&r, words, sizeof(S));
    return r;
}

// Lane 0 ends with the merge of all 32 lanes' accumulators (merged in a fixed order).
template <class Acc> __device__ __forceinline__ void warpMerge(Acc& acc) {
#pragma unroll
    for (int delta = 16; delta > 0; delta >>= 1) acc.merge(shuffleDown(acc, delta));
}

// Thread 0 ends with the merge of the block's accumulators (blockDim.x a multiple of 32,
// at most 1024). Every thread of the block must call it.
template <class Acc> __device__ void blockMerge(Acc& acc) {
    __shared__ alignas(16) unsigned char raw[32 * sizeof(Acc)];
    Acc* slots = reinterpret_cast<Acc*>(raw);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    warpMerge(acc);
    if (lane == 0) slots[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        const int warps = int(blockDim.x >> 5);
        acc = lane < warps ? slots[lane] : Acc{};
        warpMerge(acc);
    }
}

} // namespace strata::cuda
