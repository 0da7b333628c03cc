// The reduction drivers at the baseline instruction set (x86-64: SSE2).
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

#define STRATA_CPU_VARIANT_AVX2 0
namespace strata::detail::cpu::isa_base {
#include "cpu/colormap.inc.h"
#include "cpu/reduce_common.inc.h"
#include "cpu/reduce_extrema.inc.h"
#include "cpu/reduce_moments.inc.h"
#include "cpu/reduce_weighted.inc.h"
} // namespace strata::detail::cpu::isa_base
