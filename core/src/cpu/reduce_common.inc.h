// Shared pieces of the reduction drivers; included inside namespace
// strata::detail::cpu::<variant> by reduce_isa_*.cpp (after all standard headers).

inline constexpr int kMaxBlock = 16384; // most columns per block (Columns shape)
inline constexpr int kRowsPerPass = 12; // rows of a block read per pass over its accumulators
inline constexpr std::int64_t kSegment = std::int64_t(1) << 30; // longest row piece per kernel call

struct Moments {
    double s = 0, q = 0, n = 0;
    void add(const Moments& o) {
        s += o.s;
        q += o.q;
        n += o.n;
    }
};

// Sum: s; mean: s/n; count: n; var: (q − s²/n)/n (the sums are shifted, ddof = 0).
STRATA_INLINE double momentResult(ReduceOp op, double s, double q, double n) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    switch (op) {
    case ReduceOp::Sum:
        return s;
    case ReduceOp::Count:
        return n;
    case ReduceOp::Mean:
        return n > 0 ? s / n : nan;
    case ReduceOp::Var:
    case ReduceOp::Std: {
        if (!(n > 0)) return nan;
        double v = (q - s * s / n) / n;
        v = v < 0 ? 0 : v;
        return op == ReduceOp::Std ? std::sqrt(v) : v;
    }
    default:
        return nan;
    }
}

STRATA_INLINE void storeNumber(void* out, DType t, std::int64_t pos, double v) {
    switch (t) {
    case DType::Float32:
        static_cast<float*>(out)[pos] = static_cast<float>(v);
        break;
    case DType::Int64:
        static_cast<std::int64_t*>(out)[pos] = static_cast<std::int64_t>(v);
        break;
    default:
        static_cast<double*>(out)[pos] = v;
        break;
    }
}

// The first finite value of one output's reduction (0 when there is none): the shift that
// keeps the one-pass sum of squares accurate.
template <class T> T shiftFor(const ReducePlan& pl, const T* base) {
    Odometer od = reducedOdometer(pl);
    for (std::int64_t i = 0; i < pl.redCount; ++i, od.next())
        if (isFiniteValue(base[od.off0])) return base[od.off0];
    return T(0);
}

// Flat index (over the reduced dims) of the first non-NaN element of one output, or -1.
template <class T> std::int64_t firstValueIndex(const ReducePlan& pl, const T* base) {
    Odometer od = reducedOdometer(pl);
    for (std::int64_t i = 0; i < pl.redCount; ++i, od.next())
        if (okBit(base[od.off0])) return i;
    return -1;
}

// Calls seg(pointer offset, weight offset, flat start, length) for the pieces of the flat
// range [a, b) of one output's reduction, each within one row.
template <class F>
STRATA_INLINE void forSegments(const ReducePlan& pl, std::int64_t a, std::int64_t b, F&& seg) {
    if (a >= b) return;
    const std::int64_t m = pl.rowLength(), s = pl.rowStride(), ws = pl.rowWeightStride();
    Odometer od = rowOdometer(pl);
    std::int64_t i = a % m;
    od.seek(a / m);
    while (a < b) {
        std::int64_t len = m - i;
        if (b - a < len) len = b - a;
        if (kSegment < len) len = kSegment;
        seg(od.off0 + i * s, od.off1 + i * ws, a, len);
        a += len;
        i += len;
        if (i == m) {
            i = 0;
            od.next();
        }
    }
}

// Per-thread scratch arrays for the column accumulators (slot 0..5, n elements of T <= 8 bytes).
template <class T> T* scratch(int slot, std::size_t n) {
    static_assert(sizeof(T) <= sizeof(double));
    thread_local std::vector<double> store[6];
    if (store[slot].size() < n) store[slot].resize(n);
    return reinterpret_cast<T*>(store[slot].data());
}

// Calls pass(rows, count) for the rows of a column block in order, up to kRowsPerPass at a
// time; `rows` holds the rows' offsets from the block's start.
template <class F> STRATA_INLINE void forRowPasses(const ReducePlan& pl, F&& pass) {
    Odometer od = reducedOdometer(pl);
    std::int64_t offs[kRowsPerPass];
    for (std::int64_t r = 0; r < pl.redCount;) {
        const int k = static_cast<int>(std::min<std::int64_t>(kRowsPerPass, pl.redCount - r));
        for (int i = 0; i < k; ++i, od.next()) offs[i] = od.off0;
        pass(offs, k, r);
        r += k;
    }
}

// Calls f(std::integral_constant<int, R>{}) for R == count (1..kRowsPerPass).
template <int R = kRowsPerPass, class F> STRATA_INLINE void withRowCount(int count, F&& f) {
    if constexpr (R > 1) {
        if (count < R) {
            withRowCount<R - 1>(count, f);
            return;
        }
    }
    f(std::integral_constant<int, R>{});
}

// Columns shape: the tasks are (outer kept index, block of columns) pairs; calls
// body(input offset, weight offset, output offset, columns in block) — at most blockSize(pl).
inline std::int64_t blockSize(const ReducePlan& pl) {
    const std::int64_t cols = pl.kn[pl.nk - 1];
    const std::int64_t outer = pl.outCount / cols;
    const std::int64_t want = 4 * static_cast<std::int64_t>(poolThreads());
    std::int64_t b = (cols * outer + want - 1) / want;
    b = (b + 63) / 64 * 64;
    b = std::clamp<std::int64_t>(b, 256, kMaxBlock);
    return std::min(b, cols);
}

template <class F> void forColumnBlocks(const ReducePlan& pl, F&& body) {
    const std::int64_t cols = pl.kn[pl.nk - 1];
    const std::int64_t block = blockSize(pl);
    const std::int64_t blocks = (cols + block - 1) / block;
    const std::int64_t outer = pl.outCount / cols;
    Odometer outerOd = keptOdometer(pl);
    outerOd.n = pl.nk - 1;
    const std::int64_t perTask = block * (pl.redCount > 0 ? pl.redCount : 1);
    parallelFor(outer * blocks, std::max<std::int64_t>(1, (std::int64_t(1) << 18) / perTask),
                [&](std::int64_t tb, std::int64_t te) {
                    Odometer od = outerOd;
                    for (std::int64_t t = tb; t < te; ++t) {
                        od.seek(t / blocks);
                        const std::int64_t j0 = (t % blocks) * block;
                        const int m = static_cast<int>(std::min<std::int64_t>(block, cols - j0));
                        body(od.off0 + j0, od.off1 + j0 * pl.kws[pl.nk - 1], od.off2 + j0 * pl.kos[pl.nk - 1],
                             m);
                    }
                });
}

// Rows and Strided shapes: per output (many outputs), or per output split into chunks of its
// reduction that are combined in order (few outputs). `one(base offsets, a, b, State&)`
// accumulates a flat range; `prepare(in offset, State&)` initialises a state for an output;
// `finish(out offset, in offset, const State&)` writes it.
template <class State, class Prep, class One, class Combine, class Finish>
void forOutputs(const ReducePlan& pl, Prep&& prepare, One&& one, Combine&& combine, Finish&& finish) {
    const std::int64_t threads = poolThreads();
    if (pl.outCount >= 4 * threads || pl.redCount < (std::int64_t(1) << 16)) {
        const std::int64_t grain =
            std::max<std::int64_t>(1, (std::int64_t(1) << 16) / std::max<std::int64_t>(1, pl.redCount));
        parallelFor(pl.outCount, grain, [&](std::int64_t ob, std::int64_t oe) {
            Odometer kod = keptOdometer(pl);
            kod.seek(ob);
            for (std::int64_t o = ob; o < oe; ++o, kod.next()) {
                State st;
                prepare(kod.off0, st);
                one(kod.off0, kod.off1, std::int64_t{0}, pl.redCount, st);
                finish(kod.off2, kod.off0, st);
            }
        });
        return;
    }
    Odometer kod = keptOdometer(pl);
    const std::int64_t chunks = chunksFor(pl.redCount);
    const std::int64_t step = (pl.redCount + chunks - 1) / chunks;
    std::vector<State> parts(static_cast<std::size_t>(chunks));
    for (std::int64_t o = 0; o < pl.outCount; ++o, kod.next()) {
        State st;
        prepare(kod.off0, st);
        for (auto& p : parts) p = st;
        forEachChunk(chunks, [&](std::int64_t c) {
            const std::int64_t a = c * step, b = std::min(pl.redCount, a + step);
            one(kod.off0, kod.off1, a, b, parts[static_cast<std::size_t>(c)]);
        });
        for (std::int64_t c = 0; c < chunks; ++c) {
            if (c == 0)
                st = parts[0];
            else
                combine(st, parts[static_cast<std::size_t>(c)]);
        }
        finish(kod.off2, kod.off0, st);
    }
}
