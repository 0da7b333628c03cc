// Merge steps of streamed reductions on the host (see MergeProblem).
#define STRATA_HD
#include "../merge.inc.h"

namespace strata::detail {

void mergeCpu(const MergeProblem& p) {
    for (std::int64_t i = 0; i < p.n; ++i) mergeElement(p, i);
}

} // namespace strata::detail
