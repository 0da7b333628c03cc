#pragma once
// The reduction drivers and the colour-map loop, compiled once per instruction-set variant
// (reduce_isa_*.cpp). Each variant lives in its own namespace, so no inline function or template instance is
// shared between code built for different instruction sets.
#include "cpu/reduce_plan.h"

// The AVX2 variant needs GCC's target pragma (x86-64 only).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define STRATA_CPU_HAVE_AVX2_VARIANT 1
#else
#define STRATA_CPU_HAVE_AVX2_VARIANT 0
#endif

namespace strata::detail::cpu {

#define STRATA_CPU_VARIANT_DECLS                                                                             \
    void reduceMoments(const ReduceProblem& p, const ReducePlan& plan);                                      \
    void reduceExtrema(const ReduceProblem& p, const ReducePlan& plan);                                      \
    /* p.weights: float64 */                                                                                 \
    void reduceWeighted(const ReduceProblem& p, const ReducePlan& plan);                                     \
    void colormapImpl(const ColormapProblem& p);

namespace isa_base {
STRATA_CPU_VARIANT_DECLS
}
namespace isa_avx2 {
STRATA_CPU_VARIANT_DECLS
}

// True when the AVX2 variant is built in and this processor runs it (and STRATA_CPU_ISA is
// not "base").
bool useAvx2();

} // namespace strata::detail::cpu
