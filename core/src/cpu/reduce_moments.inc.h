// Sum, mean, count, var, std (one pass over shifted sums); included by reduce_isa_*.cpp.

struct MomentState {
    Moments m;
    double k = 0; // shift (std/var)
};

// The results of a column block, in loops that vectorise: an empty column has s = q = 0
// and c = 0, so 0/0 gives its NaN; the variance's clamp at 0 is a max that keeps NaN.
// `r` is scratch for m doubles.
// Square roots of a block. std::sqrt keeps a scalar errno check that stops vectorisation,
// though the arguments here are >= 0 or NaN; on x86 the packed instruction does the block.
inline void sqrtInPlace(double* r, int m) {
    int j = 0;
#if defined(__x86_64__) && defined(__GNUC__)
#if STRATA_CPU_VARIANT_AVX2
    using V4 = double __attribute__((vector_size(32)));
    for (; j + 4 <= m; j += 4) {
        V4 v;
        std::memcpy(&v, r + j, sizeof v);
        v = __builtin_ia32_sqrtpd256(v);
        std::memcpy(r + j, &v, sizeof v);
    }
#endif
    using V2 = double __attribute__((vector_size(16)));
    for (; j + 2 <= m; j += 2) {
        V2 v;
        std::memcpy(&v, r + j, sizeof v);
        v = __builtin_ia32_sqrtpd(v);
        std::memcpy(r + j, &v, sizeof v);
    }
#endif
    for (; j < m; ++j) r[j] = std::sqrt(r[j]);
}

template <class O> void storeColumns(const double* __restrict r, int m, O* out, std::int64_t stride) {
    if (stride == 1)
        for (int j = 0; j < m; ++j) out[j] = static_cast<O>(r[j]);
    else
        for (int j = 0; j < m; ++j) out[j * stride] = static_cast<O>(r[j]);
}

inline void finishColumns(ReduceOp op, const double* __restrict s, const double* __restrict q,
                          const std::int32_t* __restrict c, double* __restrict r, int m, void* out,
                          DType outType, std::int64_t outOff, std::int64_t stride) {
    switch (op) {
    case ReduceOp::Sum:
        for (int j = 0; j < m; ++j) r[j] = s[j];
        break;
    case ReduceOp::Count:
        for (int j = 0; j < m; ++j) r[j] = c[j];
        break;
    case ReduceOp::Mean:
        for (int j = 0; j < m; ++j) r[j] = s[j] / c[j];
        break;
    default: // Var, Std
        for (int j = 0; j < m; ++j) {
            const double n = c[j];
            const double v = (q[j] - s[j] * s[j] / n) / n;
            r[j] = v < 0.0 ? 0.0 : v;
        }
        if (op == ReduceOp::Std) sqrtInPlace(r, m);
        break;
    }
    switch (outType) {
    case DType::Float32:
        storeColumns(r, m, static_cast<float*>(out) + outOff, stride);
        break;
    case DType::Int64:
        storeColumns(r, m, static_cast<std::int64_t*>(out) + outOff, stride);
        break;
    default:
        storeColumns(r, m, static_cast<double*>(out) + outOff, stride);
        break;
    }
}

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
        finishColumns(p.op, s, q, c, k, m, p.out, p.outType, outOff, ocs);
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
