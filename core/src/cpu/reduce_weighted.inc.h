// Weighted mean Σw·x / Σw over elements where x and w are not NaN; weights are float64 here
// (reduceCpu converts them); included by reduce_isa_*.cpp.

struct WeightedState {
    double s = 0, sw = 0;
};

STRATA_INLINE double weightedResult(double s, double sw) {
    return sw != 0 ? s / sw : std::numeric_limits<double>::quiet_NaN();
}

template <class T> void weightedColumns(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const double* wts = static_cast<const double*>(p.weights.data);
    const std::int64_t ocs = pl.kos[pl.nk - 1];
    const std::int64_t wcs = pl.kws[pl.nk - 1];
    forColumnBlocks(pl, [&](std::int64_t inOff, std::int64_t wOff, std::int64_t outOff, int m) {
        double* s = scratch<double>(0, static_cast<std::size_t>(m));
        double* sw = scratch<double>(1, static_cast<std::size_t>(m));
        for (int j = 0; j < m; ++j) s[j] = sw[j] = 0;
        Odometer od = reducedOdometer(pl);
        for (std::int64_t r = 0; r < pl.redCount; ++r, od.next()) {
            const T* x = in + inOff + od.off0;
            const double* w = wts + wOff + od.off1;
            if (wcs == 0)
                colsWeighted(x, m, w, 0, s, sw);
            else if (wcs == 1)
                colsWeighted(x, m, w, 1, s, sw);
            else
                colsWeighted(x, m, w, wcs, s, sw);
        }
        for (int j = 0; j < m; ++j)
            storeNumber(p.out, p.outType, outOff + j * ocs, weightedResult(s[j], sw[j]));
    });
}

template <bool Unit, class T> void weightedRows(const ReduceProblem& p, const ReducePlan& pl) {
    const T* in = static_cast<const T*>(p.in.data);
    const double* wts = static_cast<const double*>(p.weights.data);
    const std::int64_t stride = pl.rowStride(), ws = pl.rowWeightStride();
    forOutputs<WeightedState>(
        pl, [](std::int64_t, WeightedState&) {},
        [&](std::int64_t inOff, std::int64_t wOff, std::int64_t a, std::int64_t b, WeightedState& st) {
            forSegments(pl, a, b, [&](std::int64_t off, std::int64_t woff, std::int64_t, std::int64_t len) {
                const T* x = in + inOff + off;
                const double* w = wts + wOff + woff;
                if (ws == 0) {
                    // One weight for the whole piece: w·Σx and w·count.
                    const double wv = w[0];
                    if (wv != wv) return;
                    double s = 0, q = 0, n = 0;
                    if constexpr (Unit)
                        rowMoments<false>(x, len, 0.0, s, q, n);
                    else
                        rowMomentsStrided<false>(x, len, stride, 0.0, s, q, n);
                    st.s += wv * s;
                    st.sw += wv * n;
                } else if (Unit && ws == 1) {
                    rowWeighted<true>(x, 1, w, 1, len, st.s, st.sw);
                } else {
                    rowWeighted<false>(x, stride, w, ws, len, st.s, st.sw);
                }
            });
        },
        [](WeightedState& a, const WeightedState& b) {
            a.s += b.s;
            a.sw += b.sw;
        },
        [&](std::int64_t outOff, std::int64_t, const WeightedState& st) {
            storeNumber(p.out, p.outType, outOff, weightedResult(st.s, st.sw));
        });
}

void reduceWeighted(const ReduceProblem& p, const ReducePlan& pl) {
    visitNumeric(p.in.dtype, [&](auto tag) {
        using T = decltype(tag);
        switch (pl.shape) {
        case ReduceShape::Columns:
            weightedColumns<T>(p, pl);
            break;
        case ReduceShape::Rows:
            weightedRows<true, T>(p, pl);
            break;
        case ReduceShape::Strided:
            weightedRows<false, T>(p, pl);
            break;
        }
    });
}
