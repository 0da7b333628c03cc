#pragma once
// A strided array seen in C order as rows along its innermost dim, after dropping length-1
// dims and merging dims that memory steps through as one: for the element-wise CPU loops.
#include <cstdint>

#include "cpu/reduce_plan.h"
#include "strata/core/array_view.h"

namespace strata::detail::cpu {

struct Flat {
    Odometer outer;          // over the rows (input offsets in off0)
    std::int64_t rowLen = 1; // elements per row
    std::int64_t rowStride = 1;
    std::int64_t total = 0;
};

inline Flat flatten(const ArrayView& v) {
    Flat f;
    f.total = v.size();
    std::int64_t n[kMaxDims], s[kMaxDims];
    int m = 0;
    for (int i = 0; i < v.ndim; ++i) {
        if (v.shape[i] == 1) continue;
        if (m > 0 && s[m - 1] == v.strides[i] * v.shape[i]) {
            n[m - 1] *= v.shape[i];
            s[m - 1] = v.strides[i];
            continue;
        }
        n[m] = v.shape[i];
        s[m] = v.strides[i];
        ++m;
    }
    if (m == 0) return f;
    f.rowLen = n[m - 1];
    f.rowStride = s[m - 1];
    f.outer.n = m - 1;
    for (int i = 0; i < m - 1; ++i) {
        f.outer.len[i] = n[i];
        f.outer.s0[i] = s[i];
    }
    return f;
}

// Calls seg(input offset, flat start, length) for the pieces of [a, b), each within a row.
template <class F> void forFlatSegments(const Flat& f, std::int64_t a, std::int64_t b, F&& seg) {
    if (a >= b || f.rowLen == 0) return;
    Odometer od = f.outer;
    std::int64_t i = a % f.rowLen;
    od.seek(a / f.rowLen);
    while (a < b) {
        std::int64_t len = f.rowLen - i;
        if (b - a < len) len = b - a;
        seg(od.off0 + i * f.rowStride, a, len);
        a += len;
        i += len;
        if (i == f.rowLen) {
            i = 0;
            od.next();
        }
    }
}

} // namespace strata::detail::cpu
