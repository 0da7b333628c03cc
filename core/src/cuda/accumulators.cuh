#pragma once
// What a reduction keeps per output while it reads: add() takes one element (and its flat
// index over the reduced dims), merge() joins two partial results, store() writes the
// result. All are plain structs so partials can sit in scratch memory and move by shuffle.
#include <cmath>

#include "cuda/device.cuh"
#include "strata/core/ops.h"

namespace strata::cuda {

struct StoreInfo {
    void* out = nullptr;
    DType type = DType::Float64;
    ReduceOp op = ReduceOp::Sum;
};

// sum, mean and count: a double sum and a count of the non-NaN elements.
struct SumAcc {
    double s = 0;
    i64 n = 0;
    template <class T> __device__ __forceinline__ void add(T v, i64) {
        if (!isNan(v)) {
            s += double(v);
            ++n;
        }
    }
    __device__ __forceinline__ void merge(const SumAcc& o) {
        s += o.s;
        n += o.n;
    }
    __device__ void store(const StoreInfo& st, i64 i) const {
        if (st.op == ReduceOp::Count)
            storeAs(st.out, st.type, i, n);
        else if (st.op == ReduceOp::Mean)
            storeAs(st.out, st.type, i, n > 0 ? s / double(n) : double(NAN));
        else
            storeAs(st.out, st.type, i, s);
    }
};

// std and var in one pass: sums of d = x - k and d² with k the first value seen (a shift
// that keeps the sums small), so no division per element. Merging converts both sides to
// (n, mean, M2) and joins them as Chan et al.; the result is again of this form (k = mean).
struct MomentAcc {
    double k = 0, s1 = 0, s2 = 0;
    i64 n = 0;
    template <class T> __device__ __forceinline__ void add(T v, i64) {
        if (!isNan(v)) {
            const double x = double(v);
            k = n == 0 ? x : k;
            const double d = x - k;
            s1 += d;
            s2 += d * d;
            ++n;
        }
    }
    __device__ void merge(const MomentAcc& o) {
        if (o.n == 0) return;
        if (n == 0) {
            *this = o;
            return;
        }
        const double na = double(n), nb = double(o.n), nn = na + nb;
        const double ma = k + s1 / na, mb = o.k + o.s1 / nb;
        const double m2a = s2 - s1 * s1 / na, m2b = o.s2 - o.s1 * o.s1 / nb;
        const double delta = mb - ma;
        k = ma + delta * (nb / nn);
        s1 = 0;
        s2 = m2a + m2b + delta * delta * (na * nb / nn);
        n += o.n;
    }
    __device__ void store(const StoreInfo& st, i64 i) const {
        double r = NAN;
        if (n > 0) {
            const double var = fmax((s2 - s1 * s1 / double(n)) / double(n), 0.0);
            r = st.op == ReduceOp::Std ? sqrt(var) : var;
        }
        storeAs(st.out, st.type, i, r);
    }
};

template <class T> __device__ __forceinline__ T pickMin(T a, T b) {
    if constexpr (std::is_same_v<T, float>)
        return fminf(a, b); // the non-NaN one when one is NaN
    else if constexpr (std::is_same_v<T, double>)
        return fmin(a, b);
    else
        return b < a ? b : a;
}
template <class T> __device__ __forceinline__ T pickMax(T a, T b) {
    if constexpr (std::is_same_v<T, float>)
        return fmaxf(a, b);
    else if constexpr (std::is_same_v<T, double>)
        return fmax(a, b);
    else
        return b > a ? b : a;
}

// min or max in the data's type; floating data starts at NaN, so all-NaN gives NaN.
template <class T, bool IsMax> struct ExtremeAcc {
    static __host__ __device__ constexpr T initial() {
        if constexpr (std::is_floating_point_v<T>)
            return T(NAN);
        else
            return IsMax ? lowestOf<T>() : highestOf<T>();
    }
    T v = initial();
    template <class U> __device__ __forceinline__ void add(U x, i64) {
        v = IsMax ? pickMax(v, x) : pickMin(v, x);
    }
    __device__ __forceinline__ void merge(const ExtremeAcc& o) { add(o.v, 0); }
    __device__ void store(const StoreInfo& st, i64 i) const { storeAs(st.out, st.type, i, v); }
};

// argmin or argmax: the best value and its flat index, the first one on ties; -1 when none.
template <class T, bool IsMax> struct ArgAcc {
    T v = T(0);
    i64 i = -1;
    __device__ __forceinline__ bool better(T a, T b) const { return IsMax ? a > b : a < b; }
    template <class U> __device__ __forceinline__ void add(U x, i64 idx) {
        if (!isNan(x) && (i < 0 || better(x, v))) {
            v = x;
            i = idx;
        }
    }
    __device__ __forceinline__ void merge(const ArgAcc& o) {
        if (o.i >= 0 && (i < 0 || better(o.v, v) || (o.v == v && o.i < i))) {
            v = o.v;
            i = o.i;
        }
    }
    __device__ void store(const StoreInfo& st, i64 out) const { storeAs(st.out, st.type, out, i); }
};

// The smallest and largest finite values (minmax); both NaN when there is none.
template <class T> struct FiniteAcc {
    T lo = highestOf<T>(), hi = lowestOf<T>();
    bool any = false;
    template <class U> __device__ __forceinline__ void add(U x, i64) {
        if (isFinite(x)) {
            lo = pickMin(lo, x);
            hi = pickMax(hi, x);
            any = true;
        }
    }
    __device__ __forceinline__ void merge(const FiniteAcc& o) {
        if (o.any) {
            lo = pickMin(lo, o.lo);
            hi = pickMax(hi, o.hi);
            any = true;
        }
    }
    __device__ void store(const StoreInfo& st, i64 i) const {
        double* out = static_cast<double*>(st.out);
        out[2 * i] = any ? double(lo) : double(NAN);
        out[2 * i + 1] = any ? double(hi) : double(NAN);
    }
};

// sum(w·x) and sum(w) over the elements where neither is NaN.
struct WeightedAcc {
    double swx = 0, sw = 0;
    template <class T> __device__ __forceinline__ void addWeighted(T v, double w) {
        if (!isNan(v) && !isNan(w)) {
            swx += w * double(v);
            sw += w;
        }
    }
    __device__ __forceinline__ void merge(const WeightedAcc& o) {
        swx += o.swx;
        sw += o.sw;
    }
    __device__ void store(const StoreInfo& st, i64 i) const { storeAs(st.out, st.type, i, swx / sw); }
};

} // namespace strata::cuda
