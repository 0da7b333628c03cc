// Derived variables on the CPU. The program of derived_program.h runs on rows: along the box's
// innermost dim, each instruction works on a block of up to kBlock elements at once (a loop the
// compiler vectorises), so the interpreter's cost is paid once a block, not once an element.
// Programs whose windows or time maps run along the innermost dim (where an element's window
// may be cut off at the row's ends) take the per-element path the GPU takes.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "backend.h"
#include "cpu/thread_pool.h"
#include "derived_depth.h"

namespace strata::detail {
namespace {

constexpr int kBlock = 256;

// Whether rows along dim `last` can run as blocks: no window along it, no leaf mapped along it.
bool rowsRun(const DerivedProgram& p, int last) {
    for (int pc = 0; pc < p.length; ++pc) {
        const DerivedInstr& in = p.code[pc];
        if ((in.op == DerivedOp::WindowBegin || in.op == DerivedOp::WindowEnd) && in.dim == last)
            return false;
        if (in.op == DerivedOp::Load && p.leaves[in.leaf].mapDim == last) return false;
    }
    return true;
}

template <class T> void loadBlock(const T* base, std::int64_t stride, int n, double* out) {
    if (stride == 1)
        for (int j = 0; j < n; ++j) out[j] = double(base[j]);
    else if (stride == 0)
        for (int j = 0; j < n; ++j) out[j] = double(base[0]);
    else
        for (int j = 0; j < n; ++j) out[j] = double(base[std::int64_t(j) * stride]);
}

// The program over n (<= kBlock) elements of a row: index[] is the first element's, the row
// runs along `last` in steps of `step`. The result goes to out[0..n).
class RowEvaluator {
public:
    RowEvaluator(const DerivedProgram& p, int last)
        : p_(p), last_(last), stack_(std::size_t(p.stack + 1) * kBlock) {}

    void run(const std::int64_t* index, std::int64_t step, int n, double* out) {
        std::int64_t shift[kMaxDims] = {};
        int sp = 0;
        auto at = [&](int i) { return stack_.data() + std::size_t(i) * kBlock; };
        const double nan = std::numeric_limits<double>::quiet_NaN();
        for (int pc = 0; pc < p_.length; ++pc) {
            const DerivedInstr& in = p_.code[pc];
            switch (in.op) {
            case DerivedOp::Const: {
                double* d = at(sp++);
                for (int j = 0; j < n; ++j) d[j] = in.value;
                break;
            }
            case DerivedOp::Load: {
                const DerivedLeaf& l = p_.leaves[in.leaf];
                const std::int64_t o = derivedLeafOffset(p_, l, index, shift);
                const std::int64_t stride = l.strides[last_] * step;
                double* d = at(sp++);
                switch (l.dtype) {
                case DType::Float32:
                    loadBlock(static_cast<const float*>(l.data) + o, stride, n, d);
                    break;
                case DType::Float64:
                    loadBlock(static_cast<const double*>(l.data) + o, stride, n, d);
                    break;
                default:
                    for (int j = 0; j < n; ++j)
                        d[j] = derivedLoad(l.data, l.dtype, o + std::int64_t(j) * stride);
                }
                break;
            }
            case DerivedOp::WindowBegin: { // along another dim than the row's: one answer for the row
                const std::int64_t i = index[in.dim] + shift[in.dim];
                if (i + in.lo < 0 || i + in.hi >= p_.shape[in.dim]) {
                    double* d = at(sp++);
                    for (int j = 0; j < n; ++j) d[j] = nan;
                    pc = in.jump - 1;
                    break;
                }
                shift[in.dim] += in.lo;
                double* acc = at(sp++);
                for (int j = 0; j < n; ++j) acc[j] = 0;
                at(sp++)[0] = double(in.lo);
                break;
            }
            case DerivedOp::WindowEnd: {
                const double* v = at(--sp);
                const int k = int(at(sp - 1)[0]);
                double* acc = at(sp - 2);
                const double sign = (in.window == WindowKind::Diff && k == in.lo) ? -1.0 : 1.0;
                for (int j = 0; j < n; ++j) acc[j] += sign * v[j];
                if (k < in.hi) {
                    at(sp - 1)[0] = double(k + 1);
                    shift[in.dim] += 1;
                    pc = in.jump - 1;
                } else {
                    shift[in.dim] -= in.hi;
                    --sp;
                    if (in.window == WindowKind::Mean) {
                        const double w = double(in.hi - in.lo + 1);
                        for (int j = 0; j < n; ++j) acc[j] /= w;
                    }
                }
                break;
            }
            case DerivedOp::Where: {
                sp -= 2;
                double* c = at(sp - 1);
                const double *a = at(sp), *b = at(sp + 1);
                for (int j = 0; j < n; ++j) c[j] = c[j] != 0.0 ? a[j] : b[j];
                break;
            }
            case DerivedOp::Clip: {
                sp -= 2;
                double* x = at(sp - 1);
                const double *lo = at(sp), *hi = at(sp + 1);
                for (int j = 0; j < n; ++j)
                    x[j] = std::isnan(x[j]) || std::isnan(lo[j]) || std::isnan(hi[j])
                               ? nan
                               : (x[j] < lo[j] ? lo[j] : (x[j] > hi[j] ? hi[j] : x[j]));
                break;
            }
            default:
                if (isUnary(in.op)) {
                    unary(in.op, at(sp - 1), n);
                } else {
                    --sp;
                    binary(in.op, at(sp - 1), at(sp), n);
                }
            }
        }
        std::memcpy(out, at(0), std::size_t(n) * sizeof(double));
    }

private:
    static bool isUnary(DerivedOp op) {
        return op == DerivedOp::Negate || op == DerivedOp::Not ||
               (op >= DerivedOp::Abs && op <= DerivedOp::IsNan);
    }
    static void unary(DerivedOp op, double* a, int n) {
        switch (op) {
        case DerivedOp::Negate:
            for (int j = 0; j < n; ++j) a[j] = -a[j];
            break;
        case DerivedOp::Not:
            for (int j = 0; j < n; ++j) a[j] = a[j] == 0.0 ? 1.0 : 0.0;
            break;
        case DerivedOp::Abs:
            for (int j = 0; j < n; ++j) a[j] = std::fabs(a[j]);
            break;
        case DerivedOp::IsNan:
            for (int j = 0; j < n; ++j) a[j] = std::isnan(a[j]) ? 1.0 : 0.0;
            break;
        case DerivedOp::Sqrt:
            for (int j = 0; j < n; ++j) a[j] = std::sqrt(a[j]);
            break;
        case DerivedOp::Exp:
            for (int j = 0; j < n; ++j) a[j] = std::exp(a[j]);
            break;
        case DerivedOp::Log:
            for (int j = 0; j < n; ++j) a[j] = std::log(a[j]);
            break;
        case DerivedOp::Floor:
            for (int j = 0; j < n; ++j) a[j] = std::floor(a[j]);
            break;
        case DerivedOp::Ceil:
            for (int j = 0; j < n; ++j) a[j] = std::ceil(a[j]);
            break;
        default: // the transcendental ones, as the per-element path has them
            for (int j = 0; j < n; ++j) a[j] = derivedUnary(op, a[j]);
        }
    }
    static void binary(DerivedOp op, double* a, const double* b, int n) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        switch (op) {
        case DerivedOp::Add:
            for (int j = 0; j < n; ++j) a[j] += b[j];
            break;
        case DerivedOp::Subtract:
            for (int j = 0; j < n; ++j) a[j] -= b[j];
            break;
        case DerivedOp::Multiply:
            for (int j = 0; j < n; ++j) a[j] *= b[j];
            break;
        case DerivedOp::Divide:
            for (int j = 0; j < n; ++j) a[j] /= b[j];
            break;
        case DerivedOp::Less:
            for (int j = 0; j < n; ++j) a[j] = a[j] < b[j] ? 1.0 : 0.0;
            break;
        case DerivedOp::Greater:
            for (int j = 0; j < n; ++j) a[j] = a[j] > b[j] ? 1.0 : 0.0;
            break;
        case DerivedOp::LessEqual:
            for (int j = 0; j < n; ++j) a[j] = a[j] <= b[j] ? 1.0 : 0.0;
            break;
        case DerivedOp::GreaterEqual:
            for (int j = 0; j < n; ++j) a[j] = a[j] >= b[j] ? 1.0 : 0.0;
            break;
        case DerivedOp::And:
            for (int j = 0; j < n; ++j) a[j] = a[j] != 0.0 && b[j] != 0.0 ? 1.0 : 0.0;
            break;
        case DerivedOp::Or:
            for (int j = 0; j < n; ++j) a[j] = a[j] != 0.0 || b[j] != 0.0 ? 1.0 : 0.0;
            break;
        case DerivedOp::Power:
            for (int j = 0; j < n; ++j) a[j] = std::pow(a[j], b[j]);
            break;
        case DerivedOp::Arctan2:
            for (int j = 0; j < n; ++j) a[j] = std::atan2(a[j], b[j]);
            break;
        case DerivedOp::Hypot: { // sqrt(a² + b²) vectorised; the rare others as derivedHypot has them
            // NaN needs nothing more (sqrt gives NaN, as hypot does but for an infinity, which
            // is among the rare); huge, tiny and infinite operands do.
            double r[kBlock];
            int rare = 0;
            for (int j = 0; j < n; ++j) {
                const double x = std::fabs(a[j]), y = std::fabs(b[j]);
                rare |= int(x >= 1e150 || y >= 1e150 || (x != 0 && x < 1e-150) || (y != 0 && y < 1e-150));
                r[j] = std::sqrt(a[j] * a[j] + b[j] * b[j]);
            }
            if (rare)
                for (int j = 0; j < n; ++j) r[j] = derivedHypot(a[j], b[j]);
            std::memcpy(a, r, std::size_t(n) * sizeof(double));
            break;
        }
        case DerivedOp::Minimum:
            for (int j = 0; j < n; ++j)
                a[j] = std::isnan(a[j]) || std::isnan(b[j]) ? nan : (a[j] < b[j] ? a[j] : b[j]);
            break;
        case DerivedOp::Maximum:
            for (int j = 0; j < n; ++j)
                a[j] = std::isnan(a[j]) || std::isnan(b[j]) ? nan : (a[j] > b[j] ? a[j] : b[j]);
            break;
        case DerivedOp::Fillna:
            for (int j = 0; j < n; ++j) a[j] = std::isnan(a[j]) ? b[j] : a[j];
            break;
        default: // the rest, as the per-element path has them
            for (int j = 0; j < n; ++j) a[j] = derivedBinary(op, a[j], b[j]);
        }
    }

    const DerivedProgram& p_;
    int last_;
    std::vector<double> stack_;
};

// The rows of a box along its innermost dim: rows × length elements.
struct Rows {
    int last = 0;
    std::int64_t length = 1, rows = 1;
};
Rows rowsOf(const DerivedProgram& p, const DerivedBox& box) {
    Rows r;
    r.last = p.ndim - 1;
    r.length = box.count[r.last];
    for (int d = 0; d < r.last; ++d) r.rows *= box.count[d];
    return r;
}

template <class Out> void storeRow(const double* v, int n, Out* out) {
    for (int j = 0; j < n; ++j) out[j] = static_cast<Out>(v[j]);
}

} // namespace

void derivedEvalCpu(const DerivedProgram& p, const DerivedBox& box, std::int64_t n, void* out,
                    DType outType) {
    const Rows r = rowsOf(p, box);
    if (p.ndim == 0 || !rowsRun(p, r.last) || r.length < 8) {
        withDepth(p.stack, [&]<int Depth>() {
            cpu::parallelFor(n, 4096, [&](std::int64_t begin, std::int64_t end) {
                std::int64_t index[kMaxDims];
                for (std::int64_t k = begin; k < end; ++k) {
                    derivedBoxIndex(box, p.ndim, k, index);
                    const double v = derivedEval<Depth>(p, index);
                    if (outType == DType::Float64)
                        static_cast<double*>(out)[k] = v;
                    else
                        static_cast<float*>(out)[k] = static_cast<float>(v);
                }
            });
        });
        return;
    }
    // Rows × blocks, spread over the pool.
    const std::int64_t blocksPerRow = (r.length + kBlock - 1) / kBlock;
    cpu::parallelFor(r.rows * blocksPerRow, 16, [&](std::int64_t begin, std::int64_t end) {
        RowEvaluator eval(p, r.last);
        double values[kBlock];
        std::int64_t index[kMaxDims];
        for (std::int64_t b = begin; b < end; ++b) {
            const std::int64_t row = b / blocksPerRow, first = (b % blocksPerRow) * kBlock;
            const int m = int(std::min<std::int64_t>(kBlock, r.length - first));
            const std::int64_t k = row * r.length + first;
            derivedBoxIndex(box, p.ndim, k, index);
            eval.run(index, box.step[r.last], m, values);
            if (outType == DType::Float64)
                storeRow(values, m, static_cast<double*>(out) + k);
            else
                storeRow(values, m, static_cast<float*>(out) + k);
        }
    });
}

namespace {

// n elements of a simple program's span: operands a and b in steps of sa and sb (0: one value
// for all), through f, into out. The contiguous cases are their own loops, so that they
// vectorise.
template <class Out, class A, class B, class F>
void simpleSpan(const A* a, std::int64_t sa, const B* b, std::int64_t sb, Out* __restrict out, std::int64_t n,
                const F& f) {
    if (sa == 1 && sb == 1) {
        for (std::int64_t j = 0; j < n; ++j) out[j] = static_cast<Out>(f(double(a[j]), double(b[j])));
    } else if (sa == 1 && sb == 0) {
        const double y = double(b[0]);
        for (std::int64_t j = 0; j < n; ++j) out[j] = static_cast<Out>(f(double(a[j]), y));
    } else if (sa == 0 && sb == 1) {
        const double x = double(a[0]);
        for (std::int64_t j = 0; j < n; ++j) out[j] = static_cast<Out>(f(x, double(b[j])));
    } else {
        for (std::int64_t j = 0; j < n; ++j)
            out[j] = static_cast<Out>(f(double(a[j * sa]), double(b[j * sb])));
    }
}

// hypot over a span: sqrt(a² + b²) vectorised, in pieces; a piece with a rare operand (huge,
// tiny, infinite) again through derivedHypot, as the interpreter has it.
template <class Out, class A, class B>
void hypotSpan(const A* a, std::int64_t sa, const B* b, std::int64_t sb, Out* __restrict out,
               std::int64_t n) {
    constexpr std::int64_t kPiece = 1024;
    for (std::int64_t j0 = 0; j0 < n; j0 += kPiece) {
        const std::int64_t m = std::min(kPiece, n - j0);
        const A* pa = a + j0 * sa;
        const B* pb = b + j0 * sb;
        int rare = 0;
        simpleSpan(pa, sa, pb, sb, out + j0, m, [&](double x, double y) {
            const double ax = std::fabs(x), ay = std::fabs(y);
            rare |= int(ax >= 1e150 || ay >= 1e150 || (ax != 0 && ax < 1e-150) || (ay != 0 && ay < 1e-150));
            return std::sqrt(x * x + y * y);
        });
        if (rare)
            simpleSpan(pa, sa, pb, sb, out + j0, m, [](double x, double y) { return derivedHypot(x, y); });
    }
}

template <class Out, class A, class B>
void simpleTyped(DerivedOp op, const A* a, std::int64_t sa, const B* b, std::int64_t sb, Out* out,
                 std::int64_t n) {
    switch (op) {
    case DerivedOp::Load:
        simpleSpan(a, sa, b, sb, out, n, [](double x, double) { return x; });
        break;
    case DerivedOp::Add:
        simpleSpan(a, sa, b, sb, out, n, [](double x, double y) { return x + y; });
        break;
    case DerivedOp::Subtract:
        simpleSpan(a, sa, b, sb, out, n, [](double x, double y) { return x - y; });
        break;
    case DerivedOp::Multiply:
        simpleSpan(a, sa, b, sb, out, n, [](double x, double y) { return x * y; });
        break;
    case DerivedOp::Divide:
        simpleSpan(a, sa, b, sb, out, n, [](double x, double y) { return x / y; });
        break;
    case DerivedOp::Hypot:
        hypotSpan(a, sa, b, sb, out, n);
        break;
    default:
        simpleSpan(a, sa, b, sb, out, n, [op](double x, double y) { return derivedSimpleApply(op, x, y); });
    }
}

// Operand k of a simple program: its data from `at` (a leaf's element offset) in `dtype`.
struct SimpleOperand {
    const void* data;
    DType dtype;
    std::int64_t step;
};

template <class Out>
void simpleRow(DerivedOp op, const SimpleOperand& a, const SimpleOperand& b, Out* out, std::int64_t n) {
    auto withB = [&](const auto* pa) {
        if (b.dtype == DType::Float32)
            simpleTyped(op, pa, a.step, static_cast<const float*>(b.data), b.step, out, n);
        else
            simpleTyped(op, pa, a.step, static_cast<const double*>(b.data), b.step, out, n);
    };
    if (a.dtype == DType::Float32)
        withB(static_cast<const float*>(a.data));
    else
        withB(static_cast<const double*>(a.data));
}

} // namespace

void derivedSimpleCpu(const DerivedSimple& s, void* out, DType outType) {
    const double zero = 0.0;
    const bool typed = [&] {
        for (int k = 0; k < s.operands; ++k)
            if (!s.constant[k] && s.leaf[k].dtype != DType::Float32 && s.leaf[k].dtype != DType::Float64)
                return false;
        return true;
    }();
    const std::int64_t n = s.rows * s.inner;
    cpu::parallelFor(n, 1 << 15, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t k = begin; k < end;) {
            const std::int64_t r = k / s.inner, j = k - r * s.inner;
            const std::int64_t m = std::min(end - k, s.inner - j);
            SimpleOperand o[2];
            for (int q = 0; q < 2; ++q) {
                if (q >= s.operands) { // an instruction of one operand: b is a zero it ignores
                    o[q] = {&zero, DType::Float64, 0};
                } else if (s.constant[q]) {
                    o[q] = {&s.value[q], DType::Float64, 0};
                } else {
                    const DerivedLeaf& l = s.leaf[q];
                    const std::int64_t at = derivedSimpleBase(s, q, r) + j * s.innerStep[q];
                    o[q] = {static_cast<const char*>(l.data) + at * std::int64_t(sizeOf(l.dtype)), l.dtype,
                            s.innerStep[q]};
                }
            }
            if (typed) {
                if (outType == DType::Float64)
                    simpleRow(s.op, o[0], o[1], static_cast<double*>(out) + k, m);
                else
                    simpleRow(s.op, o[0], o[1], static_cast<float*>(out) + k, m);
            } else { // integer leaves: through derivedLoad, an element at a time
                for (std::int64_t i = 0; i < m; ++i) {
                    const double x = derivedLoad(o[0].data, o[0].dtype, i * o[0].step);
                    const double y = derivedLoad(o[1].data, o[1].dtype, i * o[1].step);
                    const double v = derivedSimpleApply(s.op, x, y);
                    if (outType == DType::Float64)
                        static_cast<double*>(out)[k + i] = v;
                    else
                        static_cast<float*>(out)[k + i] = static_cast<float>(v);
                }
            }
            k += m;
        }
    });
}

namespace {

// The row at `index` of a program that is one float32 leaf, contiguous along `last`, read in
// place (no evaluation); null for any other program.
bool plainFloatLeaf(const DerivedProgram& p, int last) {
    if (p.length != 1 || p.code[0].op != DerivedOp::Load) return false;
    const DerivedLeaf& l = p.leaves[p.code[0].leaf];
    return l.dtype == DType::Float32 && l.mapDim < 0 && l.strides[last] == 1;
}
const float* inPlace(const DerivedProgram& p, int last, const std::int64_t* index) {
    if (!plainFloatLeaf(p, last)) return nullptr;
    const DerivedLeaf& l = p.leaves[p.code[0].leaf];
    std::int64_t o = 0;
    for (int d = 0; d < p.ndim; ++d) o += (index[d] - l.origin[d]) * l.strides[d];
    return static_cast<const float*>(l.data) + o;
}

// Counts and sums in double of m values (NaN skipped): a mean's moments. The file builds with
// -fno-trapping-math, so that the compare and select become vector blends.
template <class T>
void addValues(const T* __restrict v, std::int64_t m, double* __restrict n, double* __restrict s) {
    for (std::int64_t j = 0; j < m; ++j) {
        const double x = double(v[j]);
        const bool ok = x == x;
        n[j] += ok ? 1.0 : 0.0;
        s[j] += ok ? x : 0.0;
    }
}

// addValues over kMembers rows at once: the accumulators are read and written once a batch.
constexpr int kMembers = 8;
template <int K>
void addRows(const float* const* rows, std::int64_t m, double* __restrict n, double* __restrict s) {
    for (std::int64_t j = 0; j < m; ++j) {
        double c = 0, t = 0;
        for (int k = 0; k < K; ++k) {
            const double x = double(rows[k][j]);
            const bool ok = x == x;
            c += ok ? 1.0 : 0.0;
            t += ok ? x : 0.0;
        }
        n[j] += c;
        s[j] += t;
    }
}

} // namespace

void derivedTableCpu(const DerivedTableProblem& q) {
    // Points run along x's innermost dim (not time) in blocks: for each block and group, the
    // members' values come as rows (contiguous in a leaf stored time-first), and each point's
    // moments are updated across the row.
    const int last = q.program.ndim - 1;
    if (last == q.timeDim || !rowsRun(q.program, last) || q.program.shape[last] < 8) {
        withDepth(q.program.stack, [&]<int Depth>() {
            cpu::parallelFor(q.points, 64, [&](std::int64_t begin, std::int64_t end) {
                for (std::int64_t p = begin; p < end; ++p) derivedTablePoint<Depth>(q, p);
            });
        });
        return;
    }
    // Blocks of whole rows of about kTablePoints points: for each member, the block's values are
    // read as one stretch of memory (a leaf stored time-first), and its moments stay in cache.
    constexpr std::int64_t kTablePoints = 32768;
    const std::int64_t length = q.program.shape[last];
    const std::int64_t rows = q.points / length;
    const std::int64_t rowsPerBlock = std::max<std::int64_t>(1, kTablePoints / length);
    const std::int64_t blocks = (rows + rowsPerBlock - 1) / rowsPerBlock;
    cpu::parallelFor(blocks, 1, [&](std::int64_t begin, std::int64_t end) {
        RowEvaluator eval(q.program, last);
        const std::size_t most = std::size_t(rowsPerBlock * length);
        std::vector<double> n(most), shift(most), s1(most), s2(most);
        double v[kBlock];
        std::int64_t index[kMaxDims] = {};
        auto setRow = [&](std::int64_t row) { // the index of the row's first point
            std::int64_t rest = row * length;
            for (int d = last; d >= 0; --d) {
                if (d == q.timeDim) continue;
                const std::int64_t s = q.program.shape[d];
                index[d] = rest % s;
                rest /= s;
            }
        };
        const bool plainLeaf = plainFloatLeaf(q.program, last); // one float leaf, read in place
        for (std::int64_t b = begin; b < end; ++b) {
            const std::int64_t r0 = b * rowsPerBlock, r1 = std::min(rows, r0 + rowsPerBlock);
            const std::int64_t count = (r1 - r0) * length, p0 = r0 * length;
            for (int g = 0; g < q.groups.groups; ++g) {
                // Sums about a shift (each point's first value): no division in the loop, and
                // no cancellation for values far from zero (temperatures in K).
                for (std::int64_t i = 0; i < count; ++i) // the mean alone needs no shift: none (0)
                    n[i] = s1[i] = s2[i] = 0,
                    shift[i] = q.needSecond ? std::numeric_limits<double>::quiet_NaN() : 0.0;
                if (!q.needSecond && plainLeaf) { // the mean of one float leaf: members in batches
                    std::vector<std::int64_t> ts;
                    for (int k = q.groups.first[g]; k < q.groups.first[g + 1]; ++k)
                        if (q.groups.members[k] >= q.t0 && q.groups.members[k] < q.t1)
                            ts.push_back(q.groups.members[k]);
                    for (std::size_t k0 = 0; k0 < ts.size(); k0 += kMembers) {
                        const int batch = int(std::min<std::size_t>(kMembers, ts.size() - k0));
                        for (std::int64_t r = r0; r < r1; ++r) {
                            setRow(r);
                            index[last] = 0;
                            const float* rows[kMembers];
                            for (int k = 0; k < batch; ++k) {
                                index[q.timeDim] = ts[k0 + std::size_t(k)];
                                rows[k] = inPlace(q.program, last, index);
                            }
                            const std::int64_t at = (r - r0) * length;
                            if (batch == kMembers)
                                addRows<kMembers>(rows, length, n.data() + at, s1.data() + at);
                            else
                                for (int k = 0; k < batch; ++k)
                                    addValues(rows[k], length, n.data() + at, s1.data() + at);
                        }
                    }
                }
                for (int k = q.groups.first[g]; k < q.groups.first[g + 1]; ++k) {
                    if (!q.needSecond && plainLeaf) break;
                    const std::int64_t t = q.groups.members[k];
                    if (t < q.t0 || t >= q.t1) continue;
                    for (std::int64_t r = r0; r < r1; ++r) {
                        setRow(r);
                        index[q.timeDim] = t;
                        for (std::int64_t f = 0; f < length; f += kBlock) {
                            const int m = int(std::min<std::int64_t>(kBlock, length - f));
                            index[last] = f;
                            const std::int64_t at = (r - r0) * length + f;
                            if (!q.needSecond) { // the mean alone: count and sum, in double
                                if (const float* row = inPlace(q.program, last, index)) {
                                    addValues(row, m, n.data() + at, s1.data() + at);
                                } else {
                                    eval.run(index, 1, m, v);
                                    addValues(v, m, n.data() + at, s1.data() + at);
                                }
                                continue;
                            }
                            eval.run(index, 1, m, v);
                            for (int j = 0; j < m; ++j) {
                                const bool ok = v[j] == v[j];
                                double& sh = shift[at + j];
                                if (ok && sh != sh) sh = v[j];
                                const double d = ok ? v[j] - sh : 0.0;
                                n[at + j] += ok ? 1.0 : 0.0;
                                s1[at + j] += d;
                                s2[at + j] += d * d;
                            }
                        }
                    }
                }
                for (std::int64_t i = 0; i < count; ++i) {
                    const double ni = n[i];
                    const double mean = ni > 0 ? shift[i] + s1[i] / ni : 0.0;
                    const double m2 = ni > 0 ? std::max(0.0, s2[i] - s1[i] * s1[i] / ni) : 0.0;
                    const std::int64_t at = std::int64_t(g) * q.points + p0 + i;
                    if (q.meanOut) { // the single chunk: the tables themselves
                        writeTable(q.meanOut, q.stdOut, q.dtype, at, ni, mean, m2);
                        continue;
                    }
                    const double na = q.first ? 0.0 : q.count[at];
                    if (na == 0) {
                        q.count[at] = ni;
                        q.mean[at] = mean;
                        q.m2[at] = m2;
                    } else if (ni > 0) {
                        const double total = na + ni, delta = mean - q.mean[at];
                        q.mean[at] += delta * ni / total;
                        q.m2[at] += m2 + delta * delta * na * ni / total;
                        q.count[at] = total;
                    }
                }
            }
        }
    });
}

void derivedFinishCpu(const DerivedFinishProblem& f) {
    cpu::parallelFor(f.n, 1 << 16, [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i) derivedFinishAt(f, i);
    });
}

} // namespace strata::detail
