// The reduction drivers built for AVX2 + FMA, chosen at run time where the processor has them
// (reduce.cpp). Every standard header is included before the target pragma, and everything
// compiled under it lives in namespace isa_avx2, so no code built for AVX2 can be picked by
// the linker for a caller elsewhere.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "cpu/kernels.h"
#include "cpu/reduce_isa.h"
#include "cpu/thread_pool.h"
#include "strata/core/detail/dtype_visit.h"

#if STRATA_CPU_HAVE_AVX2_VARIANT
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#define STRATA_CPU_VARIANT_AVX2 1
namespace strata::detail::cpu::isa_avx2 {
#include "cpu/colormap.inc.h"
#include "cpu/reduce_common.inc.h"
#include "cpu/reduce_extrema.inc.h"
#include "cpu/reduce_moments.inc.h"
#include "cpu/reduce_weighted.inc.h"
} // namespace strata::detail::cpu::isa_avx2
#pragma GCC pop_options
#endif
