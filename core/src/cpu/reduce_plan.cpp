#include "cpu/reduce_plan.h"

namespace strata::detail::cpu {
namespace {

struct Dim {
    std::int64_t n, s, ws, os;
};

// Drops length-1 dims and merges an outer dim into the next inner one where every array
// steps through both as through one.
int simplify(Dim* d, int count, bool withOut) {
    int m = 0;
    for (int i = 0; i < count; ++i) {
        if (d[i].n == 1) continue;
        if (m > 0) {
            Dim& o = d[m - 1];
            const Dim& in = d[i];
            if (o.s == in.s * in.n && o.ws == in.ws * in.n && (!withOut || o.os == in.os * in.n)) {
                o = {o.n * in.n, in.s, in.ws, in.os};
                continue;
            }
        }
        d[m++] = d[i];
    }
    return m;
}

} // namespace

ReducePlan makePlan(const ReduceProblem& p, bool weighted) {
    ReducePlan plan;
    const ArrayView& v = p.in;
    const int nd = v.ndim;
    Dim kept[kMaxDims], red[kMaxDims];
    // Output strides: C order over the kept dims.
    std::int64_t os = 1;
    for (int i = p.kept - 1; i >= 0; --i) {
        kept[i] = {v.shape[i], v.strides[i], weighted ? p.weights.strides[i] : 0, os};
        os *= v.shape[i];
    }
    plan.outCount = os;
    for (int i = p.kept; i < nd; ++i) {
        red[i - p.kept] = {v.shape[i], v.strides[i], weighted ? p.weights.strides[i] : 0, 0};
        plan.redCount *= v.shape[i];
    }
    int nk = p.kept, nr = nd - p.kept;
    bool emptyAny = plan.outCount == 0 || plan.redCount == 0;
    if (!emptyAny) {
        nk = simplify(kept, nk, true);
        nr = simplify(red, nr, false);
    }
    // Columns needs a kept dim of stride 1 (not broadcast): move it innermost.
    int unit = -1;
    for (int i = 0; i < nk; ++i)
        if (kept[i].s == 1 && kept[i].n >= 16) unit = i;
    const bool rowsOk = nr > 0 && red[nr - 1].s == 1 && red[nr - 1].n >= 8;
    if (!emptyAny && rowsOk)
        plan.shape = ReduceShape::Rows;
    else if (!emptyAny && unit >= 0 && plan.redCount < (std::int64_t(1) << 31)) { // int32 counts
        plan.shape = ReduceShape::Columns;
        const Dim u = kept[unit];
        for (int i = unit; i < nk - 1; ++i) kept[i] = kept[i + 1];
        kept[nk - 1] = u;
    } else
        plan.shape = ReduceShape::Strided;

    plan.nk = nk;
    for (int i = 0; i < nk; ++i) {
        plan.kn[i] = kept[i].n;
        plan.ks[i] = kept[i].s;
        plan.kws[i] = kept[i].ws;
        plan.kos[i] = kept[i].os;
    }
    plan.nr = nr;
    for (int i = 0; i < nr; ++i) {
        plan.rn[i] = red[i].n;
        plan.rs[i] = red[i].s;
        plan.rws[i] = red[i].ws;
    }
    return plan;
}

Odometer rowOdometer(const ReducePlan& plan) {
    Odometer o;
    o.n = plan.nr > 0 ? plan.nr - 1 : 0;
    for (int d = 0; d < o.n; ++d) {
        o.len[d] = plan.rn[d];
        o.s0[d] = plan.rs[d];
        o.s1[d] = plan.rws[d];
    }
    return o;
}

Odometer reducedOdometer(const ReducePlan& plan) {
    Odometer o;
    o.n = plan.nr;
    for (int d = 0; d < o.n; ++d) {
        o.len[d] = plan.rn[d];
        o.s0[d] = plan.rs[d];
        o.s1[d] = plan.rws[d];
    }
    return o;
}

Odometer keptOdometer(const ReducePlan& plan) {
    Odometer o;
    o.n = plan.nk;
    for (int d = 0; d < o.n; ++d) {
        o.len[d] = plan.kn[d];
        o.s0[d] = plan.ks[d];
        o.s1[d] = plan.kws[d];
        o.s2[d] = plan.kos[d];
    }
    return o;
}

} // namespace strata::detail::cpu
