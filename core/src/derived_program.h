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

// An instruction of one operand (Negate, Not, Abs … IsNan) on x.
STRATA_DERIVED_HD double derivedUnary(DerivedOp op, double x) {
    switch (op) {
    case DerivedOp::Negate:
        return -x;
    case DerivedOp::Not:
        return derivedMask(x == 0.0);
    case DerivedOp::Abs:
        return fabs(x);
    case DerivedOp::Sqrt:
        return sqrt(x);
    case DerivedOp::Exp:
        return exp(x);
    case DerivedOp::Log:
        return log(x);
    case DerivedOp::Log10:
        return log10(x);
    case DerivedOp::Sin:
        return sin(x);
    case DerivedOp::Cos:
        return cos(x);
    case DerivedOp::Tan:
        return tan(x);
    case DerivedOp::Arcsin:
        return asin(x);
    case DerivedOp::Arccos:
        return acos(x);
    case DerivedOp::Arctan:
        return atan(x);
    case DerivedOp::Floor:
        return floor(x);
    case DerivedOp::Ceil:
        return ceil(x);
    case DerivedOp::IsNan:
        return derivedMask(derivedNan(x));
    default:
        return std::numeric_limits<double>::quiet_NaN();
    }
}

// An instruction of two operands (Add … Fillna) on a and b.
STRATA_DERIVED_HD double derivedBinary(DerivedOp op, double a, double b) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    switch (op) {
    case DerivedOp::Add:
        return a + b;
    case DerivedOp::Subtract:
        return a - b;
    case DerivedOp::Multiply:
        return a * b;
    case DerivedOp::Divide:
        return a / b;
    case DerivedOp::Power:
        return pow(a, b);
    case DerivedOp::Less:
        return derivedMask(a < b);
    case DerivedOp::LessEqual:
        return derivedMask(a <= b);
    case DerivedOp::Greater:
        return derivedMask(a > b);
    case DerivedOp::GreaterEqual:
        return derivedMask(a >= b);
    case DerivedOp::Equal:
        return derivedMask(a == b);
    case DerivedOp::NotEqual:
        return derivedMask(a != b);
    case DerivedOp::And:
        return derivedMask(a != 0.0 && b != 0.0);
    case DerivedOp::Or:
        return derivedMask(a != 0.0 || b != 0.0);
    case DerivedOp::Arctan2:
        return atan2(a, b);
    case DerivedOp::Hypot:
        return derivedHypot(a, b);
    case DerivedOp::Minimum:
        return derivedNan(a) || derivedNan(b) ? nan : (a < b ? a : b);
    case DerivedOp::Maximum:
        return derivedNan(a) || derivedNan(b) ? nan : (a > b ? a : b);
    case DerivedOp::Fillna:
        return derivedNan(a) ? b : a;
    default:
        return nan;
    }
}

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
        case DerivedOp::Not:
        case DerivedOp::Abs:
        case DerivedOp::Sqrt:
        case DerivedOp::Exp:
        case DerivedOp::Log:
        case DerivedOp::Log10:
        case DerivedOp::Sin:
        case DerivedOp::Cos:
        case DerivedOp::Tan:
        case DerivedOp::Arcsin:
        case DerivedOp::Arccos:
        case DerivedOp::Arctan:
        case DerivedOp::Floor:
        case DerivedOp::Ceil:
        case DerivedOp::IsNan:
            s[sp - 1] = derivedUnary(in.op, s[sp - 1]);
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
            s[sp - 1] = derivedBinary(in.op, s[sp - 1], b);
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

// A program that is one instruction on one or two operands, each a leaf or a constant:
// x − table, x − y, hypot(u, v), x * c, sqrt(x), a leaf alone. Most derived variables take one
// of these shapes, and both backends run them without the interpreter, its value stack and
// its per-element dispatch. The box runs as rows × inner: inner flattens the trailing dims
// along which every leaf's offset grows by one step per element (innerStep), so that a row's
// offsets are worked out once and an element adds only its step.
struct DerivedSimple {
    DerivedOp op = DerivedOp::Load; // Load: the first operand alone
    int operands = 1;
    DerivedLeaf leaf[2];
    bool constant[2] = {}; // the operand is value[k], not leaf[k]
    double value[2] = {};
    int ndim = 0;
    int outer = 0; // dims [0, outer) number the rows
    DerivedBox box;
    std::int64_t rows = 1, inner = 1;
    std::int64_t innerStep[2] = {};
};

// Operand k's offset at the first element of row r.
STRATA_DERIVED_HD std::int64_t derivedSimpleBase(const DerivedSimple& s, int k, std::int64_t r) {
    const DerivedLeaf& l = s.leaf[k];
    std::int64_t o = 0;
    for (int d = s.ndim - 1; d >= 0; --d) {
        std::int64_t i = s.box.start[d];
        if (d < s.outer) {
            const std::int64_t c = s.box.count[d];
            const std::int64_t q = c > 0 ? r / c : 0;
            i += (r - q * c) * s.box.step[d];
            r = q;
        }
        if (d == l.mapDim)
            o += std::int64_t(l.map[i]) * l.mapStride;
        else
            o += (i - l.origin[d]) * l.strides[d];
    }
    return o;
}

// The simple program's instruction on its operands' values.
STRATA_DERIVED_HD double derivedSimpleApply(DerivedOp op, double a, double b) {
    if (op == DerivedOp::Load) return a;
    if (op == DerivedOp::Negate || op == DerivedOp::Not || (op >= DerivedOp::Abs && op <= DerivedOp::IsNan))
        return derivedUnary(op, a);
    return derivedBinary(op, a, b);
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
