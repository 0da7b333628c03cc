#pragma once
// Inner loops of the CPU reductions, written so that GCC and Clang vectorise them at the
// baseline ISA without -ffast-math: accumulators are arrays indexed by the innermost loop
// (no floating-point reduction across its iterations), and NaN is tested and masked on the
// bits (integer operations), so there is no floating-point select to if-convert.
// All are always_inline: each ISA variant (reduce_isa_*.cpp) gets its own copy.
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#define STRATA_INLINE [[gnu::always_inline]] inline

namespace strata::detail::cpu {

// 1 when x is not NaN (always for integers), else 0.
template <class T> STRATA_INLINE std::int32_t okBit(T x) {
    // Signed compares of the magnitude bits (one instruction at SSE2 for float).
    if constexpr (std::is_same_v<T, float>) {
        return (std::bit_cast<std::int32_t>(x) & 0x7fffffff) <= 0x7f800000;
    } else if constexpr (std::is_same_v<T, double>) {
        return (std::bit_cast<std::int64_t>(x) & 0x7fffffffffffffffll) <= 0x7ff0000000000000ll;
    } else {
        return 1;
    }
}

// x where ok is 1, +0 where ok is 0 (floating types; integers pass through).
template <class T> STRATA_INLINE T zap(T x, std::int32_t ok) {
    if constexpr (std::is_same_v<T, float>)
        return std::bit_cast<float>(std::bit_cast<std::uint32_t>(x) & (0u - static_cast<std::uint32_t>(ok)));
    else if constexpr (std::is_same_v<T, double>)
        return std::bit_cast<double>(std::bit_cast<std::uint64_t>(x) &
                                     (0ull - static_cast<std::uint64_t>(ok)));
    else
        return x;
}

// x where ok is 1, else `other` — on the bits, so loops using it vectorise.
template <class T> STRATA_INLINE T pick(T x, T other, std::int32_t ok) {
    if constexpr (std::is_same_v<T, float>) {
        const std::uint32_t m = 0u - static_cast<std::uint32_t>(ok);
        return std::bit_cast<float>((std::bit_cast<std::uint32_t>(x) & m) |
                                    (std::bit_cast<std::uint32_t>(other) & ~m));
    } else if constexpr (std::is_same_v<T, double>) {
        const std::uint64_t m = 0ull - static_cast<std::uint64_t>(ok);
        return std::bit_cast<double>((std::bit_cast<std::uint64_t>(x) & m) |
                                     (std::bit_cast<std::uint64_t>(other) & ~m));
    } else {
        return x;
    }
}

template <class T> STRATA_INLINE bool isFiniteValue(T x) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isfinite(x);
    else
        return true;
}

// ---- moments: s += Σ d, q += Σ d², c += count, d = x − k over non-NaN x ----

// R rows (1..8) of one block of m contiguous columns. The shift k[j] must be finite and
// equal to kt[j] (a value of T): a NaN is replaced by it, so its deviation is exactly 0.
template <bool Sq, int R, class T>
STRATA_INLINE void colsMoments(const T* const* rows, int m, double* __restrict s, double* __restrict q,
                               std::int32_t* __restrict c, const double* __restrict k,
                               const T* __restrict kt) {
    const T* __restrict p[R];
    for (int r = 0; r < R; ++r) p[r] = rows[r];
    for (int j = 0; j < m; ++j) {
        double a = 0, b = 0;
        std::int32_t n = 0;
        for (int r = 0; r < R; ++r) {
            const T x = p[r][j];
            const std::int32_t ok = okBit(x);
            double d;
            if constexpr (Sq)
                d = static_cast<double>(pick(x, kt[j], ok)) - k[j];
            else
                d = static_cast<double>(zap(x, ok));
            a += d;
            if constexpr (Sq) b += d * d;
            n += ok;
        }
        s[j] += a;
        if constexpr (Sq) q[j] += b;
        c[j] += n;
    }
}

// One contiguous row; len < 2^31. Adds to s, q, n.
template <bool Sq, class T>
STRATA_INLINE void rowMoments(const T* __restrict p, std::int64_t len, double k, double& s, double& q,
                              double& n) {
    constexpr int L = 16;
    double a[L] = {}, b[L] = {};
    std::int32_t c[L] = {};
    std::int64_t i = 0;
    for (; i + 2 * L <= len; i += 2 * L) {
        const T* __restrict x = p + i;
        for (int l = 0; l < L; ++l) {
            const std::int32_t o0 = okBit(x[l]), o1 = okBit(x[l + L]);
            double d0 = static_cast<double>(zap(x[l], o0)), d1 = static_cast<double>(zap(x[l + L], o1));
            if constexpr (Sq) {
                d0 = (d0 - k) * static_cast<double>(o0);
                d1 = (d1 - k) * static_cast<double>(o1);
            }
            a[l] += d0 + d1;
            if constexpr (Sq) b[l] += d0 * d0 + d1 * d1;
            c[l] += o0 + o1;
        }
    }
    double ta = 0, tb = 0, tc = 0;
    for (; i < len; ++i) {
        const std::int32_t o = okBit(p[i]);
        double d = static_cast<double>(zap(p[i], o));
        if constexpr (Sq) d = (d - k) * static_cast<double>(o);
        ta += d;
        if constexpr (Sq) tb += d * d;
        tc += o;
    }
    for (int l = 0; l < L; ++l) {
        ta += a[l];
        if constexpr (Sq) tb += b[l];
        tc += c[l];
    }
    s += ta;
    if constexpr (Sq) q += tb;
    n += tc;
}

// One row with any stride.
template <bool Sq, class T>
STRATA_INLINE void rowMomentsStrided(const T* p, std::int64_t len, std::int64_t stride, double k, double& s,
                                     double& q, double& n) {
    double a = 0, b = 0, c = 0;
    for (std::int64_t i = 0; i < len; ++i) {
        const T x = p[i * stride];
        const std::int32_t o = okBit(x);
        double d = static_cast<double>(zap(x, o));
        if constexpr (Sq) d = (d - k) * static_cast<double>(o);
        a += d;
        if constexpr (Sq) b += d * d;
        c += o;
    }
    s += a;
    if constexpr (Sq) q += b;
    n += c;
}

// ---- weighted sums: s += Σ w·x, W += Σ w over elements where x and w are not NaN ----

// One block of m columns of one row; the weight of column j is w[j * ws] (ws may be 0).
template <class T>
STRATA_INLINE void colsWeighted(const T* __restrict x, int m, const double* __restrict w, std::int64_t ws,
                                double* __restrict s, double* __restrict sw) {
    for (int j = 0; j < m; ++j) {
        const double wj = w[j * ws];
        const std::int32_t ok = okBit(x[j]) & okBit(wj);
        const double wk = zap(wj, ok);
        s[j] += static_cast<double>(zap(x[j], ok)) * wk;
        sw[j] += wk;
    }
}

// One row of len elements; the weight of element i is w[i * ws].
template <bool Unit, class T>
STRATA_INLINE void rowWeighted(const T* __restrict p, std::int64_t stride, const double* __restrict w,
                               std::int64_t ws, std::int64_t len, double& s, double& sw) {
    if constexpr (Unit) {
        constexpr int L = 16;
        double a[L] = {}, b[L] = {};
        std::int64_t i = 0;
        for (; i + L <= len; i += L) {
            const T* __restrict x = p + i;
            const double* __restrict wi = w + i;
            for (int l = 0; l < L; ++l) {
                const std::int32_t ok = okBit(x[l]) & okBit(wi[l]);
                const double wk = zap(wi[l], ok);
                a[l] += static_cast<double>(zap(x[l], ok)) * wk;
                b[l] += wk;
            }
        }
        for (; i < len; ++i) {
            const std::int32_t ok = okBit(p[i]) & okBit(w[i]);
            const double wk = zap(w[i], ok);
            s += static_cast<double>(zap(p[i], ok)) * wk;
            sw += wk;
        }
        for (int l = 0; l < L; ++l) {
            s += a[l];
            sw += b[l];
        }
    } else {
        double a = 0, b = 0;
        for (std::int64_t i = 0; i < len; ++i) {
            const T x = p[i * stride];
            const double wi = w[i * ws];
            const std::int32_t ok = okBit(x) & okBit(wi);
            const double wk = zap(wi, ok);
            a += static_cast<double>(zap(x, ok)) * wk;
            b += wk;
        }
        s += a;
        sw += b;
    }
}

// ---- extrema ----

// The start of a min (Max = false) or max accumulator: a value no element beats.
template <class T, bool Max> constexpr T extremeStart() {
    if constexpr (std::is_floating_point_v<T>)
        return Max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    else
        return Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
}

// NaN never beats.
template <bool Max, class T> STRATA_INLINE bool beats(T x, T best) {
    if constexpr (Max)
        return x > best;
    else
        return x < best;
}

template <bool Max, int R, class T>
STRATA_INLINE void colsExtreme(const T* const* rows, int m, T* __restrict best) {
    const T* __restrict p[R];
    for (int r = 0; r < R; ++r) p[r] = rows[r];
    for (int j = 0; j < m; ++j) {
        T b = best[j];
        for (int r = 0; r < R; ++r) b = beats<Max>(p[r][j], b) ? p[r][j] : b;
        best[j] = b;
    }
}

template <bool Max, class T>
STRATA_INLINE void colsArgExtreme(const T* __restrict x, int m, std::int64_t r, T* __restrict best,
                                  std::int64_t* __restrict idx) {
    for (int j = 0; j < m; ++j) {
        const bool better = beats<Max>(x[j], best[j]);
        best[j] = better ? x[j] : best[j];
        idx[j] = better ? r : idx[j];
    }
}

template <bool Max, class T> STRATA_INLINE T rowExtreme(const T* __restrict p, std::int64_t len, T best) {
    constexpr int L = sizeof(T) <= 4 ? 32 : 16;
    T b[L];
    for (int l = 0; l < L; ++l) b[l] = best;
    std::int64_t i = 0;
    for (; i + L <= len; i += L) {
        const T* __restrict x = p + i;
        for (int l = 0; l < L; ++l) b[l] = beats<Max>(x[l], b[l]) ? x[l] : b[l];
    }
    for (; i < len; ++i) best = beats<Max>(p[i], best) ? p[i] : best;
    for (int l = 0; l < L; ++l) best = beats<Max>(b[l], best) ? b[l] : best;
    return best;
}

template <bool Max, class T>
STRATA_INLINE T rowExtremeStrided(const T* p, std::int64_t len, std::int64_t stride, T best) {
    for (std::int64_t i = 0; i < len; ++i) {
        const T x = p[i * stride];
        best = beats<Max>(x, best) ? x : best;
    }
    return best;
}

// Index of the first element equal to `value`, or -1.
template <class T> inline std::int64_t findRow(const T* x, std::int64_t len, std::int64_t stride, T value) {
    for (std::int64_t i = 0; i < len; ++i)
        if (x[i * stride] == value) return i;
    return -1;
}

} // namespace strata::detail::cpu
