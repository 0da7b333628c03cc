// Derived variables on the CPU: the program of derived_program.h per element, over the pool.
#include "backend.h"
#include "cpu/thread_pool.h"

namespace strata::detail {
namespace {

// Calls fn.template operator()<Depth>() with the smallest compiled depth that holds `stack`.
template <class F> void withDepth(int stack, F&& fn) {
    if (stack <= kDerivedDepths[0])
        fn.template operator()<kDerivedDepths[0]>();
    else if (stack <= kDerivedDepths[1])
        fn.template operator()<kDerivedDepths[1]>();
    else
        fn.template operator()<kDerivedDepths[2]>();
}

} // namespace

void derivedEvalCpu(const DerivedProgram& p, const DerivedBox& box, std::int64_t n, void* out,
                    DType outType) {
    withDepth(p.stack, [&]<int Depth>() {
        cpu::parallelFor(n, 4096, [&](std::int64_t begin, std::int64_t end) {
            std::int64_t index[kMaxDims];
            for (std::int64_t k = begin; k < end; ++k) {
                derivedBoxIndex(box, p.ndim, k, index);
                const double v = derivedEval<Depth>(p, index);
                if (outType == DType::Float64)
                    static_cast<double*>(out)[k] = v;
                else
                    static_cast<float*>(out)[k] = static_cast<float>(v);
            }
        });
    });
}

void derivedTableCpu(const DerivedTableProblem& q) {
    withDepth(q.program.stack, [&]<int Depth>() {
        cpu::parallelFor(q.points, 64, [&](std::int64_t begin, std::int64_t end) {
            for (std::int64_t p = begin; p < end; ++p) derivedTablePoint<Depth>(q, p);
        });
    });
}

void derivedFinishCpu(const DerivedFinishProblem& f) {
    cpu::parallelFor(f.n, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) derivedFinishAt(f, i);
    });
}

} // namespace strata::detail
