#pragma once
// A map pixel's value from a mesh's node values (issue 37's node data): Σ wₖ v[nodeₖ] over the
// pixel's K (node, weight) pairs, the nodes -1 past the face's and all -1 off the mesh (NaN).
// One code for the host and the kernel (cuda/reproject.cu), each step a fused multiply-add, so
// the two give the same bits. A node whose value is NaN makes the pixel NaN (one NaN, the same
// bits on both).
#include <math.h>

#include <cstdint>

#ifndef STRATA_HD
#ifdef __CUDACC__
#define STRATA_HD __host__ __device__ __forceinline__
#else
#define STRATA_HD inline
#endif
#endif

namespace strata::detail {

STRATA_HD float fusedMultiplyAdd(float a, float b, float c) { return fmaf(a, b, c); }
STRATA_HD double fusedMultiplyAdd(double a, double b, double c) { return fma(a, b, c); }

template <class T>
STRATA_HD T interpolateNodes(const T* src, std::int64_t stride, const std::int32_t* nodes,
                             const float* weights, int k) {
    if (nodes[0] < 0) return T(NAN); // NAN: a float, widened exactly for double
    T sum = 0;
    for (int j = 0; j < k && nodes[j] >= 0; ++j)
        sum = fusedMultiplyAdd(T(weights[j]), src[std::int64_t(nodes[j]) * stride], sum);
    // A NaN as one NaN: the host's fma passes a NaN operand's bits on, CUDA's gives its own
    // (0x7fffffff), and the two images would differ in their missing pixels' bits.
    return sum == sum ? sum : T(NAN);
}

} // namespace strata::detail
