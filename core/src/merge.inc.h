// The element of one streamed-reduction merge step, for the CPU loop and the CUDA kernel alike.
// Included by core/src/cpu/merge.cpp and core/src/cuda/merge.cu with STRATA_HD defined.
#pragma once
#include <cmath>
#include <cstdint>

#include "backend.h"

namespace strata::detail {

STRATA_HD inline double mergeLoad(const void* p, DType t, std::int64_t i) {
    switch (t) {
    case DType::Float32:
        return static_cast<const float*>(p)[i];
    case DType::Int64:
        return double(static_cast<const std::int64_t*>(p)[i]);
    default:
        return static_cast<const double*>(p)[i];
    }
}

STRATA_HD inline void mergeStore(void* p, DType t, std::int64_t i, double v) {
    switch (t) {
    case DType::Float32:
        static_cast<float*>(p)[i] = float(v);
        break;
    case DType::Int64:
        static_cast<std::int64_t*>(p)[i] = std::int64_t(v);
        break;
    default:
        static_cast<double*>(p)[i] = v;
    }
}

STRATA_HD inline void mergeElement(const MergeProblem& p, std::int64_t i) {
    switch (p.step) {
    case MergeStep::Sum:
        p.acc[0][i] += mergeLoad(p.part[0], p.partType[0], i);
        break;
    case MergeStep::Moments: {
        const double nb = mergeLoad(p.part[0], p.partType[0], i);
        if (nb == 0) break;
        const double na = p.acc[0][i], mb = mergeLoad(p.part[1], p.partType[1], i);
        const double m2b = mergeLoad(p.part[2], p.partType[2], i) * nb;
        if (na == 0) {
            p.acc[0][i] = nb;
            p.acc[1][i] = mb;
            p.acc[2][i] = m2b;
            break;
        }
        const double n = na + nb, delta = mb - p.acc[1][i];
        p.acc[0][i] = n;
        p.acc[1][i] += delta * nb / n;
        p.acc[2][i] += m2b + delta * delta * na * nb / n;
        break;
    }
    case MergeStep::Arg: {
        const std::int64_t which = static_cast<const std::int64_t*>(p.part[0])[i];
        const std::int64_t index = static_cast<const std::int64_t*>(p.part[1])[i];
        if (which == 1 && index >= 0) p.argAcc[i] = index + p.offset;
        break;
    }
    case MergeStep::Finish: {
        double v = p.acc[0][i];
        if (p.op == ReduceOp::Mean || p.op == ReduceOp::Var || p.op == ReduceOp::Std) {
            const double n = p.acc[0][i]; // Mean: (count, sum); Var, Std: (count, mean, M2)
            v = n == 0 ? NAN : p.op == ReduceOp::Mean ? p.acc[1][i] / n : p.acc[2][i] / n;
            if (p.op == ReduceOp::Std) v = sqrt(v);
        }
        mergeStore(p.out, p.outType, i, v);
        break;
    }
    }
}

} // namespace strata::detail
