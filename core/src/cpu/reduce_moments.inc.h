// Sum, mean, count, var, std (one pass over shifted sums); included by reduce_isa_*.cpp.

struct MomentState {
    Moments m;
    double k = 0; // shift (std/var)
};

template <bool Sq, class T> void momentsColumns(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const std::int64_t ocs = pl.kos[pl.nk - 1];
    forColumnBlocks(pl, [&](std::int64_t inOff, std::int64_t, std::int64_t outOff, int m) {
        const std::size_t sm = static_cast<std::size_t>(m);
        double* s = scratch<double>(0, sm);
        double* q = scratch<double>(1, sm);
        double* k = scratch<double>(2, sm);
        std::int32_t* c = scratch<std::int32_t>(3, sm);
        T* kt = scratch<T>(4, sm);
        const T* base = in + inOff;
        for (int j = 0; j < m; ++j) {
            s[j] = q[j] = k[j] = 0;
            c[j] = 0;
        }
        if constexpr (Sq)
            for (int j = 0; j < m; ++j) {
                kt[j] = isFiniteValue(base[j]) ? base[j] : shiftFor(pl, base + j);
                k[j] = static_cast<double>(kt[j]);
            }
        forRowPasses(pl, [&](const std::int64_t* offs, int count, std::int64_t) {
            const T* rows[kRowsPerPass];
            for (int i = 0; i < count; ++i) rows[i] = base + offs[i];
            withRowCount(count,
                         [&](auto r) { colsMoments<Sq, decltype(r)::value>(rows, m, s, q, c, k, kt); });
        });
        for (int j = 0; j < m; ++j)
            storeNumber(p.out, p.outType, outOff + j * ocs, momentResult(p.op, s[j], q[j], c[j]));
    });
}

template <bool Sq, bool Unit, class T> void momentsRows(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const std::int64_t stride = pl.rowStride();
    forOutputs<MomentState>(
        pl,
        [&](std::int64_t inOff, MomentState& st) {
            if constexpr (Sq) st.k = shiftFor(pl, in + inOff);
        },
        [&](std::int64_t inOff, std::int64_t, std::int64_t a, std::int64_t b, MomentState& st) {
            const T* base = in + inOff;
            forSegments(pl, a, b, [&](std::int64_t off, std::int64_t, std::int64_t, std::int64_t len) {
                if constexpr (Unit)
                    rowMoments<Sq>(base + off, len, st.k, st.m.s, st.m.q, st.m.n);
                else
                    rowMomentsStrided<Sq>(base + off, len, stride, st.k, st.m.s, st.m.q, st.m.n);
            });
        },
        [](MomentState& a, const MomentState& b) { a.m.add(b.m); },
        [&](std::int64_t outOff, std::int64_t, const MomentState& st) {
            storeNumber(p.out, p.outType, outOff, momentResult(p.op, st.m.s, st.m.q, st.m.n));
        });
}

template <bool Sq, class T> void momentsTyped(const ReduceProblem& p, const ReducePlan& pl) {
    switch (pl.shape) {
    case ReduceShape::Columns:
        momentsColumns<Sq, T>(p, pl);
        break;
    case ReduceShape::Rows:
        momentsRows<Sq, true, T>(p, pl);
        break;
    case ReduceShape::Strided:
        momentsRows<Sq, false, T>(p, pl);
        break;
    }
}

void reduceMoments(const ReduceProblem& p, const ReducePlan& pl) {
    const bool sq = p.op == ReduceOp::Std || p.op == ReduceOp::Var;
    visitNumeric(p.in.dtype, [&](auto tag) {
        using T = decltype(tag);
        if (sq)
            momentsTyped<true, T>(p, pl);
        else
            momentsTyped<false, T>(p, pl);
    });
}
