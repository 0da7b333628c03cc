#pragma once
// A derived variable compiled for evaluation: a stack program over an index space (the
// variable's dims), run once per element by the CPU loop and by the CUDA kernel alike. Every
// element-wise chain is one pass: an element's inputs are read where they lie and nothing is
// written but the result. Windows along a dim (rolling means and sums, differences) re-run
// their body at shifted indices; climatologies are read from tables (one map per group)
// through a map from time index to group.
//
// Plain data: instructions and leaves are arrays on the device that evaluates them.
#include <cstdint>
#include <limits>

#include "strata/core/array_view.h"
#include "strata/core/dtype.h"

#if defined(__CUDACC__)
#define STRATA_DERIVED_HD __host__ __device__ __forceinline__
#else
#include <cmath>
#define STRATA_DERIVED_HD inline
#endif

namespace strata::detail {

enum class DerivedOp : std::uint8_t {
    Const, // push value
    Load,  // push leaf `leaf` at the current index (plus the windows' shifts)
    Negate,
    Not,
    Add,
    Subtract,
    Multiply,
    Divide,
    Power,
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    Equal,
    NotEqual,
    And,
    Or,
    Where, // c a b → c ? a : b
    Abs,
    Sqrt,
    Exp,
    Log,
    Log10,
    Sin,
    Cos,
    Tan,
    Arcsin,
    Arccos,
    Arctan,
    Floor,
    Ceil,
    IsNan,
    Arctan2,
    Hypot,
    Minimum, // NaN when either is NaN, as NumPy's minimum
    Maximum,
    Fillna, // x v → x unless NaN, else v
    Clip,   // x lo hi
    // A window along `dim` over shifts [lo, hi] of the index: WindowBegin checks that the whole
    // window lies in the dim (else pushes NaN and jumps to `jump`, past the WindowEnd), shifts
    // the index by lo and pushes the accumulator and the shift; the body pushes one value;
    // WindowEnd adds it (Diff: the first with a minus) and runs the body again at the next
    // shift (jumping to `jump`, the body's first instruction), or pushes the result.
    WindowBegin,
    WindowEnd,
};

enum class WindowKind : std::uint8_t { Sum, Mean, Diff };

struct DerivedInstr {
    DerivedOp op = DerivedOp::Const;
    WindowKind window = WindowKind::Sum;
    std::int8_t dim = 0;   // WindowBegin/End
    std::int16_t leaf = 0; // Load
    std::int32_t jump = 0; // WindowBegin/End
    std::int32_t lo = 0, hi = 0;
    double value = 0; // Const
};

// One array the program reads: `data` of `dtype`, element offset = Σ (index[d] − origin[d]) ·
// strides[d] over the index space's dims (stride 0: broadcast along d). A mapped leaf (a
// climatology table read by time) replaces the term of `mapDim` with map[index] · mapStride.
struct DerivedLeaf {
    const void* data = nullptr;
    DType dtype = DType::Float32;
    std::int64_t strides[kMaxDims] = {};
    std::int64_t origin[kMaxDims] = {};
    int mapDim = -1;
    const std::int32_t* map = nullptr;
    std::int64_t mapStride = 0;
};

struct DerivedProgram {
    const DerivedInstr* code = nullptr;
    int length = 0;
    const DerivedLeaf* leaves = nullptr;
    int ndim = 0;
    std::int64_t shape[kMaxDims] = {}; // the index space
    int stack = 0;                     // the deepest the value stack goes
    // Known on the host (code and leaves may be on the device): how many leaves, and whether
    // the program can be run a row at a time with each leaf's offset worked out once a row
    // (no windows, no leaf mapped along the innermost dim).
    int leafCount = 0;
    bool byRows = false;
};

// A box of the index space: along every dim, count indices from start in steps of step.
struct DerivedBox {
    std::int64_t start[kMaxDims] = {};
    std::int64_t count[kMaxDims] = {};
    std::int64_t step[kMaxDims] = {};
};

STRATA_DERIVED_HD double derivedLoad(const void* p, DType t, std::int64_t i) {
    switch (t) {
    case DType::Float32:
        return double(static_cast<const float*>(p)[i]);
    case DType::Float64:
        return static_cast<const double*>(p)[i];
    case DType::Int8:
        return double(static_cast<const std::int8_t*>(p)[i]);
    case DType::UInt8:
        return double(static_cast<const std::uint8_t*>(p)[i]);
    case DType::Int16:
        return double(static_cast<const std::int16_t*>(p)[i]);
    case DType::UInt16:
        return double(static_cast<const std::uint16_t*>(p)[i]);
    case DType::Int32:
        return double(static_cast<const std::int32_t*>(p)[i]);
    case DType::UInt32:
        return double(static_cast<const std::uint32_t*>(p)[i]);
    case DType::Int64:
        return double(static_cast<const std::int64_t*>(p)[i]);
    case DType::UInt64:
        return double(static_cast<const std::uint64_t*>(p)[i]);
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

STRATA_DERIVED_HD bool derivedNan(double v) { return v != v; }

// hypot as sqrt(a² + b²) where the squares cannot overflow or lose range (any float32 input):
// a few times faster than the C library's careful one, and as exact after rounding to float;
// beyond, and for infinities and NaN (hypot(inf, NaN) is inf), the library's.
STRATA_DERIVED_HD double derivedHypot(double a, double b) {
    const double x = fabs(a), y = fabs(b);
    const bool plain = x < 1e150 && y < 1e150 && (x == 0 || x > 1e-150) && (y == 0 || y > 1e-150);
    return plain ? sqrt(a * a + b * b) : hypot(a, b);
}
STRATA_DERIVED_HD double derivedMask(bool b) { return b ? 1.0 : 0.0; }

// The offset of leaf `l`'s element at index + shift.
STRATA_DERIVED_HD std::int64_t derivedLeafOffset(const DerivedProgram& p, const DerivedLeaf& l,
                                                 const std::int64_t* index, const std::int64_t* shift) {
    std::int64_t o = 0;
    for (int d = 0; d < p.ndim; ++d) {
        const std::int64_t i = index[d] + shift[d];
        if (d == l.mapDim)
            o += std::int64_t(l.map[i]) * l.mapStride;
        else
            o += (i - l.origin[d]) * l.strides[d];
    }
    return o;
}

// The value of the program at `index` (absolute, in the index space), a leaf's value read by
// load(leaf number, shift) (`shift`: the windows' offsets from index). `Depth` bounds the
// value stack (the program's `stack` must not exceed it).
template <int Depth, class Load>
STRATA_DERIVED_HD double derivedRun(const DerivedProgram& p, const std::int64_t* index, const Load& load) {
    double s[Depth];
    int sp = 0;
    std::int64_t shift[kMaxDims];
    for (int d = 0; d < kMaxDims; ++d) shift[d] = 0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int pc = 0; pc < p.length; ++pc) {
        const DerivedInstr& in = p.code[pc];
        switch (in.op) {
        case DerivedOp::Const:
            s[sp++] = in.value;
            break;
        case DerivedOp::Load:
            s[sp++] = load(in.leaf, shift);
            break;
        case DerivedOp::Negate:
            s[sp - 1] = -s[sp - 1];
            break;
        case DerivedOp::Not:
            s[sp - 1] = derivedMask(s[sp - 1] == 0.0);
            break;
        case DerivedOp::Abs:
            s[sp - 1] = fabs(s[sp - 1]);
            break;
        case DerivedOp::Sqrt:
            s[sp - 1] = sqrt(s[sp - 1]);
            break;
        case DerivedOp::Exp:
            s[sp - 1] = exp(s[sp - 1]);
            break;
        case DerivedOp::Log:
            s[sp - 1] = log(s[sp - 1]);
            break;
        case DerivedOp::Log10:
            s[sp - 1] = log10(s[sp - 1]);
            break;
        case DerivedOp::Sin:
            s[sp - 1] = sin(s[sp - 1]);
            break;
        case DerivedOp::Cos:
            s[sp - 1] = cos(s[sp - 1]);
            break;
        case DerivedOp::Tan:
            s[sp - 1] = tan(s[sp - 1]);
            break;
        case DerivedOp::Arcsin:
            s[sp - 1] = asin(s[sp - 1]);
            break;
        case DerivedOp::Arccos:
            s[sp - 1] = acos(s[sp - 1]);
            break;
        case DerivedOp::Arctan:
            s[sp - 1] = atan(s[sp - 1]);
            break;
        case DerivedOp::Floor:
            s[sp - 1] = floor(s[sp - 1]);
            break;
        case DerivedOp::Ceil:
            s[sp - 1] = ceil(s[sp - 1]);
            break;
        case DerivedOp::IsNan:
            s[sp - 1] = derivedMask(derivedNan(s[sp - 1]));
            break;
        case DerivedOp::Where:
            sp -= 2;
            s[sp - 1] = s[sp - 1] != 0.0 ? s[sp] : s[sp + 1];
            break;
        case DerivedOp::Clip: {
            sp -= 2;
            const double x = s[sp - 1], lo = s[sp], hi = s[sp + 1];
            // NumPy's clip: NaN stays NaN; a NaN bound clips to NaN.
            s[sp - 1] =
                derivedNan(x) || derivedNan(lo) || derivedNan(hi) ? nan : (x < lo ? lo : (x > hi ? hi : x));
            break;
        }
        case DerivedOp::WindowBegin: {
            const std::int64_t i = index[in.dim] + shift[in.dim];
            if (i + in.lo < 0 || i + in.hi >= p.shape[in.dim]) {
                s[sp++] = nan;
                pc = in.jump - 1;
                break;
            }
            shift[in.dim] += in.lo;
            s[sp++] = 0.0;           // the accumulator
            s[sp++] = double(in.lo); // the shift the body is at
            break;
        }
        case DerivedOp::WindowEnd: {
            const double v = s[--sp];
            const int k = int(s[sp - 1]);
            double& acc = s[sp - 2];
            acc += (in.window == WindowKind::Diff && k == in.lo) ? -v : v;
            if (k < in.hi) {
                s[sp - 1] = double(k + 1);
                shift[in.dim] += 1;
                pc = in.jump - 1;
            } else {
                shift[in.dim] -= in.hi;
                --sp; // the shift
                if (in.window == WindowKind::Mean) acc /= double(in.hi - in.lo + 1);
            }
            break;
        }
        default: { // binary
            const double b = s[--sp];
            double& a = s[sp - 1];
            switch (in.op) {
            case DerivedOp::Add:
                a = a + b;
                break;
            case DerivedOp::Subtract:
                a = a - b;
                break;
            case DerivedOp::Multiply:
                a = a * b;
                break;
            case DerivedOp::Divide:
                a = a / b;
                break;
            case DerivedOp::Power:
                a = pow(a, b);
                break;
            case DerivedOp::Less:
                a = derivedMask(a < b);
                break;
            case DerivedOp::LessEqual:
                a = derivedMask(a <= b);
                break;
            case DerivedOp::Greater:
                a = derivedMask(a > b);
                break;
            case DerivedOp::GreaterEqual:
                a = derivedMask(a >= b);
                break;
            case DerivedOp::Equal:
                a = derivedMask(a == b);
                break;
            case DerivedOp::NotEqual:
                a = derivedMask(a != b);
                break;
            case DerivedOp::And:
                a = derivedMask(a != 0.0 && b != 0.0);
                break;
            case DerivedOp::Or:
                a = derivedMask(a != 0.0 || b != 0.0);
                break;
            case DerivedOp::Arctan2:
                a = atan2(a, b);
                break;
            case DerivedOp::Hypot:
                a = derivedHypot(a, b);
                break;
            case DerivedOp::Minimum:
                a = derivedNan(a) || derivedNan(b) ? nan : (a < b ? a : b);
                break;
            case DerivedOp::Maximum:
                a = derivedNan(a) || derivedNan(b) ? nan : (a > b ? a : b);
                break;
            case DerivedOp::Fillna:
                a = derivedNan(a) ? b : a;
                break;
            default:
                a = nan;
                break;
            }
        }
        }
    }
    return s[0];
}

template <int Depth>
STRATA_DERIVED_HD double derivedEval(const DerivedProgram& p, const std::int64_t* index) {
    return derivedRun<Depth>(p, index, [&](int leaf, const std::int64_t* shift) {
        const DerivedLeaf& l = p.leaves[leaf];
        return derivedLoad(l.data, l.dtype, derivedLeafOffset(p, l, index, shift));
    });
}

// The absolute index of element k (C order) of a box.
STRATA_DERIVED_HD void derivedBoxIndex(const DerivedBox& b, int ndim, std::int64_t k, std::int64_t* index) {
    for (int d = ndim - 1; d >= 0; --d) {
        const std::int64_t c = b.count[d];
        const std::int64_t q = c > 0 ? k / c : 0;
        index[d] = b.start[d] + (k - q * c) * b.step[d];
        k = q;
    }
}

// One group's members, for the climatology tables: the time indices of group g are
// members[first[g] .. first[g + 1]).
struct DerivedGroups {
    int groups = 0;
    const std::int32_t* first = nullptr; // groups + 1
    const std::int32_t* members = nullptr;
    int largest = 0; // the most members a group has (known on the host, for a launch's shape)
};

// A climatology table's problem: for every point p of the index space without the time dim
// (C order over the other dims) and every group g, the moments of the program's values at the
// group's members within [t0, t1), merged (Chan et al.) into acc (count, mean, M2), each
// groups × points doubles, group-major.
struct DerivedTableProblem {
    DerivedProgram program;
    int timeDim = 0;
    std::int64_t points = 0;
    std::int64_t t0 = 0, t1 = 0;
    DerivedGroups groups;
    double* count = nullptr;
    double* mean = nullptr;
    double* m2 = nullptr;
    bool first = false;     // the first chunk: the accumulators are written, not merged
    bool needSecond = true; // m2 wanted (a standard deviation); else the values are summed alone
    // The GPU's accumulators (points doubles of shift): count, then the sum and the sum of squares
    // of v − shift[p] in mean and m2, added to by many threads at once (atomics) and chunk after
    // chunk; shift[p] is p's first value in the first chunk (0 where that is NaN). Null: the
    // CPU's count, mean and M2, merged.
    double* shift = nullptr;
    // The CPU's single chunk: the tables are written here directly (as derivedFinishAt would),
    // and count, mean and m2 are not used. Null on the device and for chunked input.
    void* meanOut = nullptr;
    void* stdOut = nullptr;
    DType dtype = DType::Float32;
};

// The tables from the accumulators: mean, and the standard deviation (ddof 0, as xarray's
// std) when stdOut is set; NaN where a point had no value in its group.
struct DerivedFinishProblem {
    std::int64_t n = 0;
    const double* count = nullptr;
    const double* mean = nullptr;
    const double* m2 = nullptr;
    void* meanOut = nullptr;
    void* stdOut = nullptr;
    DType dtype = DType::Float32;
    const double* shift = nullptr; // set: mean and m2 are sums about shift[i % points] (the GPU's)
    std::int64_t points = 1;
};

// A table cell from its moments: the mean and the standard deviation (ddof 0, as xarray's
// std) when stdOut is set; NaN where a point had no value in its group.
STRATA_DERIVED_HD void writeTable(void* meanOut, void* stdOut, DType dtype, std::int64_t i, double n,
                                  double mean, double m2) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double mv = n > 0 ? mean : nan;
    const double sd = n > 0 ? sqrt(m2 / n) : nan;
    if (dtype == DType::Float64) {
        static_cast<double*>(meanOut)[i] = mv;
        if (stdOut) static_cast<double*>(stdOut)[i] = sd;
    } else {
        static_cast<float*>(meanOut)[i] = float(mv);
        if (stdOut) static_cast<float*>(stdOut)[i] = float(sd);
    }
}

STRATA_DERIVED_HD void derivedFinishAt(const DerivedFinishProblem& f, std::int64_t i) {
    const double n = f.count[i];
    if (f.shift && n > 0) {
        const double s1 = f.mean[i], m2 = f.m2[i] - s1 * s1 / n;
        writeTable(f.meanOut, f.stdOut, f.dtype, i, n, f.shift[i % f.points] + s1 / n, m2 > 0 ? m2 : 0.0);
    } else {
        writeTable(f.meanOut, f.stdOut, f.dtype, i, n, f.mean[i], f.m2[i]);
    }
}

template <int Depth> STRATA_DERIVED_HD void derivedTablePoint(const DerivedTableProblem& q, std::int64_t p) {
    std::int64_t index[kMaxDims];
    std::int64_t rest = p;
    for (int d = q.program.ndim - 1; d >= 0; --d) {
        if (d == q.timeDim) continue;
        const std::int64_t n = q.program.shape[d];
        const std::int64_t r = n > 0 ? rest / n : 0;
        index[d] = rest - r * n;
        rest = r;
    }
    for (int g = 0; g < q.groups.groups; ++g) {
        double n = 0, mean = 0, m2 = 0;
        // The members are in time order: the first at or after t0, by bisection.
        int lo = q.groups.first[g], hi = q.groups.first[g + 1];
        while (lo < hi) {
            const int mid = lo + (hi - lo) / 2;
            if (q.groups.members[mid] < q.t0)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (int m = lo; m < q.groups.first[g + 1]; ++m) {
            const std::int64_t t = q.groups.members[m];
            if (t >= q.t1) break;
            index[q.timeDim] = t;
            const double v = derivedEval<Depth>(q.program, index);
            if (derivedNan(v)) continue;
            n += 1;
            const double delta = v - mean;
            mean += delta / n;
            m2 += delta * (v - mean);
        }
        const std::int64_t at = std::int64_t(g) * q.points + p;
        if (q.meanOut) { // the single chunk: the tables themselves
            writeTable(q.meanOut, q.stdOut, q.dtype, at, n, mean, m2);
            continue;
        }
        const double na = q.first ? 0.0 : q.count[at];
        if (na == 0) {
            q.count[at] = n;
            q.mean[at] = mean;
            q.m2[at] = m2;
        } else {
            const double total = na + n, delta = mean - q.mean[at];
            q.mean[at] += delta * n / total;
            q.m2[at] += m2 + delta * delta * na * n / total;
            q.count[at] = total;
        }
    }
}

// The stack depths the evaluators are compiled for; a program runs with the first that holds it.
inline constexpr int kDerivedDepths[] = {8, 24, 72};

} // namespace strata::detail
