// Min, max, argmin, argmax (NaN skipped; first index on ties); included by reduce_isa_*.cpp.

template <class T> struct ExtremeState {
    T best{};
    std::int64_t idx = -1;
};

// After the loops: `best` still at its start value means the reduction had no value that beats
// it — all NaN, or every value equal to the start (±inf, or an integer type's limit).
template <bool Max, bool Arg, class T>
void settleExtreme(const ReducePlan& pl, const T* base, T& best, std::int64_t& idx) {
    constexpr T start = extremeStart<T, Max>();
    const bool unsettled = Arg ? idx < 0 : (std::is_floating_point_v<T> && !(best != start));
    if (!unsettled) return;
    const std::int64_t f = firstValueIndex(pl, base);
    idx = f;
    if constexpr (std::is_floating_point_v<T>)
        if (f < 0) best = std::numeric_limits<T>::quiet_NaN();
}

template <bool Max, bool Arg, class T>
STRATA_INLINE void storeExtreme(const ReduceProblem& p, std::int64_t pos, T best, std::int64_t idx) {
    if constexpr (Arg)
        static_cast<std::int64_t*>(p.out)[pos] = idx;
    else
        static_cast<T*>(p.out)[pos] = best;
}

template <bool Max, bool Arg, class T> void extremaColumns(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const std::int64_t ocs = pl.kos[pl.nk - 1];
    constexpr T start = extremeStart<T, Max>();
    forColumnBlocks(pl, [&](std::int64_t inOff, std::int64_t, std::int64_t outOff, int m) {
        T* best = scratch<T>(0, static_cast<std::size_t>(m));
        std::int64_t* idx = scratch<std::int64_t>(1, static_cast<std::size_t>(m));
        const T* base = in + inOff;
        for (int j = 0; j < m; ++j) {
            best[j] = start;
            idx[j] = -1;
        }
        forRowPasses(pl, [&](const std::int64_t* offs, int count, std::int64_t r) {
            if constexpr (Arg) {
                for (int i = 0; i < count; ++i) colsArgExtreme<Max>(base + offs[i], m, r + i, best, idx);
            } else {
                const T* rows[kRowsPerPass];
                for (int i = 0; i < count; ++i) rows[i] = base + offs[i];
                withRowCount(count, [&](auto r) { colsExtreme<Max, decltype(r)::value>(rows, m, best); });
            }
        });
        for (int j = 0; j < m; ++j) {
            settleExtreme<Max, Arg>(pl, base + j, best[j], idx[j]);
            storeExtreme<Max, Arg>(p, outOff + j * ocs, best[j], idx[j]);
        }
    });
}

template <bool Max, bool Arg, bool Unit, class T>
void extremaRows(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const std::int64_t stride = pl.rowStride();
    using State = ExtremeState<T>;
    forOutputs<State>(
        pl, [](std::int64_t, State& st) { st.best = extremeStart<T, Max>(); },
        [&](std::int64_t inOff, std::int64_t, std::int64_t a, std::int64_t b, State& st) {
            const T* base = in + inOff;
            forSegments(pl, a, b, [&](std::int64_t off, std::int64_t, std::int64_t flat, std::int64_t len) {
                const T* x = base + off;
                const T v =
                    Unit ? rowExtreme<Max>(x, len, st.best) : rowExtremeStrided<Max>(x, len, stride, st.best);
                if constexpr (Arg) {
                    if (beats<Max>(v, st.best)) st.idx = flat + findRow(x, len, stride, v);
                }
                st.best = v;
            });
        },
        [](State& a, const State& b) {
            if (beats<Max>(b.best, a.best)) a = b;
        },
        [&](std::int64_t outOff, std::int64_t inOff, const State& st) {
            State s = st;
            settleExtreme<Max, Arg>(pl, in + inOff, s.best, s.idx);
            storeExtreme<Max, Arg>(p, outOff, s.best, s.idx);
        });
}

template <bool Max, bool Arg, class T> void extremaTyped(const ReduceProblem& p, const ReducePlan& pl) {
    switch (pl.shape) {
    case ReduceShape::Columns:
        extremaColumns<Max, Arg, T>(p, pl);
        break;
    case ReduceShape::Rows:
        extremaRows<Max, Arg, true, T>(p, pl);
        break;
    case ReduceShape::Strided:
        extremaRows<Max, Arg, false, T>(p, pl);
        break;
    }
}

void reduceExtrema(const ReduceProblem& p, const ReducePlan& pl) {
    visitNumeric(p.in.dtype, [&](auto tag) {
        using T = decltype(tag);
        switch (p.op) {
        case ReduceOp::Min:
            extremaTyped<false, false, T>(p, pl);
            break;
        case ReduceOp::Max:
            extremaTyped<true, false, T>(p, pl);
            break;
        case ReduceOp::ArgMin:
            extremaTyped<false, true, T>(p, pl);
            break;
        case ReduceOp::ArgMax:
            extremaTyped<true, true, T>(p, pl);
            break;
        default:
            break;
        }
    });
}
