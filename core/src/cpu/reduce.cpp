// reduceCpu and weightedMeanCpu: simplify the problem, pick the instruction-set variant, run.
#include <vector>

#include "backend.h"
#include "cpu/reduce_isa.h"
#include "cpu/reduce_plan.h"
#include "strata/core/detail/dtype_visit.h"
#include "strata/core/settings.h"

namespace strata::detail {
namespace cpu {

bool useAvx2() {
#if STRATA_CPU_HAVE_AVX2_VARIANT
    static const bool yes = [] {
        if (settings::cpuIsa() == settings::CpuIsa::Base) return false;
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return yes;
#else
    return false;
#endif
}

namespace {

// A float64 copy of the weights holding only their distinct values: dims with stride 0 stay
// broadcast, the others get C-order strides over the copy.
ArrayView compactWeights(const ArrayView& w, std::vector<double>& storage) {
    ArrayView out = w;
    out.dtype = DType::Float64;
    std::int64_t count = 1;
    for (int d = w.ndim - 1; d >= 0; --d) {
        if (w.strides[d] == 0 || w.shape[d] <= 1) {
            out.strides[d] = 0;
            continue;
        }
        out.strides[d] = count;
        count *= w.shape[d];
    }
    storage.assign(static_cast<std::size_t>(count), 0.0);
    out.data = storage.data();
    if (w.size() == 0) return out;
    visitNumeric(w.dtype, [&](auto tag) {
        using W = decltype(tag);
        const W* src = static_cast<const W*>(w.data);
        // Only the dims that are not broadcast.
        Odometer od;
        for (int d = 0; d < w.ndim; ++d) {
            if (out.strides[d] == 0) continue;
            od.len[od.n] = w.shape[d];
            od.s0[od.n] = w.strides[d];
            od.s1[od.n] = out.strides[d];
            ++od.n;
        }
        for (std::int64_t i = 0; i < count; ++i, od.next())
            storage[static_cast<std::size_t>(od.off1)] = static_cast<double>(src[od.off0]);
    });
    return out;
}

} // namespace
} // namespace cpu

void reduceCpu(const ReduceProblem& p) {
    const cpu::ReducePlan plan = cpu::makePlan(p, false);
    if (plan.outCount == 0) return;
    const bool extrema = p.op == ReduceOp::Min || p.op == ReduceOp::Max || p.op == ReduceOp::ArgMin ||
                         p.op == ReduceOp::ArgMax;
#if STRATA_CPU_HAVE_AVX2_VARIANT
    if (cpu::useAvx2()) {
        if (extrema)
            cpu::isa_avx2::reduceExtrema(p, plan);
        else
            cpu::isa_avx2::reduceMoments(p, plan);
        return;
    }
#endif
    if (extrema)
        cpu::isa_base::reduceExtrema(p, plan);
    else
        cpu::isa_base::reduceMoments(p, plan);
}

void weightedMeanCpu(const ReduceProblem& p) {
    ReduceProblem q = p;
    std::vector<double> storage;
    q.weights = cpu::compactWeights(p.weights, storage);
    const cpu::ReducePlan plan = cpu::makePlan(q, true);
    if (plan.outCount == 0) return;
#if STRATA_CPU_HAVE_AVX2_VARIANT
    if (cpu::useAvx2()) {
        cpu::isa_avx2::reduceWeighted(q, plan);
        return;
    }
#endif
    cpu::isa_base::reduceWeighted(q, plan);
}

} // namespace strata::detail
