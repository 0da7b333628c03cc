// Sum, mean, count, var, std (one pass over shifted sums); included by reduce_isa_*.cpp.

struct MomentState {
    Moments m;
    double k = 0; // shift (std/var)
};

template <bool Sq, class T> void momentsColumns(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const std::int64_t ocs = pl.kos[pl.nk - 1];
    forColumnBlocks(pl, [&](std::int64_t inOff, std::int64_t, std::int64_t outOff, int m) {
        alignas(64) double s[kBlock], q[kBlock], k[kBlock], n[kBlock];
        alignas(64) std::int32_t c[kBlock];
        const T* base = in + inOff;
        for (int j = 0; j < m; ++j) {
            s[j] = q[j] = n[j] = k[j] = 0;
            c[j] = 0;
        }
        if constexpr (Sq)
            for (int j = 0; j < m; ++j)
                k[j] = isFiniteValue(base[j]) ? static_cast<double>(base[j]) : shiftFor(pl, base + j);
        Odometer od = reducedOdometer(pl);
        std::int64_t r = 0, sinceFlush = 0;
        auto flush = [&] {
            for (int j = 0; j < m; ++j) {
                n[j] += c[j];
                c[j] = 0;
            }
            sinceFlush = 0;
        };
        while (r < pl.redCount) {
            const T* rows[4];
            if (pl.redCount - r >= 4) {
                for (int i = 0; i < 4; ++i, od.next()) rows[i] = base + od.off0;
                colsMoments<Sq, 4>(rows, m, s, q, c, k);
                r += 4;
                sinceFlush += 4;
            } else {
                rows[0] = base + od.off0;
                od.next();
                colsMoments<Sq, 1>(rows, m, s, q, c, k);
                r += 1;
                sinceFlush += 1;
            }
            if (sinceFlush >= (std::int64_t(1) << 30)) flush();
        }
        flush();
        for (int j = 0; j < m; ++j)
            storeNumber(p.out, p.outType, outOff + j * ocs, momentResult(p.op, s[j], q[j], n[j]));
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
