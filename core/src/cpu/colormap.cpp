// colormapCpu: picks the instruction-set variant of the loop (colormap.inc.h).
#include "backend.h"
#include "cpu/reduce_isa.h"

namespace strata::detail {

void colormapCpu(const ColormapProblem& p) {
    if (p.frame.size() == 0) return;
#if STRATA_CPU_HAVE_AVX2_VARIANT
    if (cpu::useAvx2()) {
        cpu::isa_avx2::colormapImpl(p);
        return;
    }
#endif
    cpu::isa_base::colormapImpl(p);
}

} // namespace strata::detail
