// Derived variables on the GPU: the program of derived_program.h, one thread per element (the
// same code the CPU runs). Every thread of a warp runs the same instruction, so the switch does
// not diverge; the inputs' loads are coalesced along the innermost dim.
#include <algorithm>
#include <cfloat>
#include <cstdint>
#include <type_traits>

#include "backend.h"
#include "cuda/device.cuh"
#include "cuda/launch.h"
#include "cuda_check.h"
#include "derived_depth.h"

namespace strata::detail {
namespace {

using cuda::i64;

// One thread per element, its index from its flat number (rows too short for the row kernel).
template <int Depth, class Out>
__global__ void __launch_bounds__(256)
    derivedEvalKernel(const DerivedProgram p, const DerivedBox box, const i64 n, Out* __restrict out) {
    i64 index[kMaxDims];
    for (i64 k = i64(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += i64(gridDim.x) * blockDim.x) {
        derivedBoxIndex(box, p.ndim, k, index);
        out[k] = static_cast<Out>(derivedEval<Depth>(p, index));
    }
}

constexpr int kRowLeaves = 16; // leaves whose row offsets a thread keeps (more: per element)

// A block per row of the box's innermost dim: the row's index is worked out once a thread, not
// once an element (64-bit divisions are dear here), and the threads run along the row. For a
// program without windows (p.byRows), each leaf's offset at the row's start is worked out once
// too, and an element adds only its step along the row.
template <int Depth, class Out>
__global__ void __launch_bounds__(256)
    derivedRowsKernel(const DerivedProgram p, const DerivedBox box, const i64 rows, Out* __restrict out) {
    const int last = p.ndim - 1;
    const i64 inner = box.count[last];
    i64 index[kMaxDims];
    i64 base[kRowLeaves];
    const bool rowOffsets = p.byRows && p.leafCount <= kRowLeaves;
    const i64 zero[kMaxDims] = {};
    for (i64 r = blockIdx.x; r < rows; r += gridDim.x) {
        derivedBoxIndex(box, last, r, index); // the dims before the last
        if (rowOffsets) {
            index[last] = 0;
            for (int l = 0; l < p.leafCount; ++l) base[l] = derivedLeafOffset(p, p.leaves[l], index, zero);
        }
        for (i64 c = threadIdx.x; c < inner; c += blockDim.x) {
            index[last] = box.start[last] + c * box.step[last];
            double v;
            if (rowOffsets) {
                const i64 j = index[last];
                v = derivedRun<Depth>(p, index, [&](int leaf, const i64*) {
                    const DerivedLeaf& l = p.leaves[leaf];
                    return derivedLoad(l.data, l.dtype, base[leaf] + j * l.strides[last]);
                });
            } else {
                v = derivedEval<Depth>(p, index);
            }
            out[r * inner + c] = static_cast<Out>(v);
        }
    }
}

constexpr int kSimpleThreads = 256, kSimplePer = 4; // a block's threads, and elements a thread
// A simple program's operand: a float32 leaf read as float, any other through derivedLoad, a
// constant as its value.
template <class T> __device__ __forceinline__ double simpleOperand(const DerivedSimple& s, int k, i64 at) {
    if constexpr (std::is_same_v<T, float>) {
        return double(static_cast<const float*>(s.leaf[k].data)[at]);
    } else {
        return s.constant[k] ? s.value[k] : derivedLoad(s.leaf[k].data, s.leaf[k].dtype, at);
    }
}

// The instruction of a simple program: Op, one of the common ones compiled alone (few registers,
// no calls), or -1 for any (derivedSimpleApply's switch).
template <int Op> __device__ __forceinline__ double simpleApply(DerivedOp op, double a, double b) {
    if constexpr (Op == int(DerivedOp::Load))
        return a;
    else if constexpr (Op == int(DerivedOp::Add))
        return a + b;
    else if constexpr (Op == int(DerivedOp::Subtract))
        return a - b;
    else if constexpr (Op == int(DerivedOp::Multiply))
        return a * b;
    else if constexpr (Op == int(DerivedOp::Divide))
        return a / b;
    else if constexpr (Op == int(DerivedOp::Hypot))
        return derivedHypot(a, b);
    else
        return derivedSimpleApply(op, a, b);
}

__device__ __forceinline__ bool aligned16(const void* p) {
    return (reinterpret_cast<std::uintptr_t>(p) & 15) == 0;
}

// Whether a row runs four elements at a time: float operands (or a constant second one) and a
// float result, each contiguous along the row and 16-byte aligned at its start, and a row of a
// multiple of four.
template <class B>
__device__ __forceinline__ bool simpleQuads(const DerivedSimple& s, i64 a0, i64 b0, const float* row) {
    const bool bPlain = s.operands < 2 || s.constant[1];
    if (!bPlain && !std::is_same_v<B, float>) return false;
    return s.inner % 4 == 0 && s.innerStep[0] == 1 &&
           aligned16(static_cast<const float*>(s.leaf[0].data) + a0) && aligned16(row) &&
           (bPlain || (s.innerStep[1] == 1 && aligned16(static_cast<const float*>(s.leaf[1].data) + b0)));
}

template <class B, int Op>
__device__ __forceinline__ void simpleRowQuads(const DerivedSimple& s, i64 a0, i64 b0, float* row) {
    const float4* pa = reinterpret_cast<const float4*>(static_cast<const float*>(s.leaf[0].data) + a0);
    const bool bLeaf = s.operands > 1 && !s.constant[1];
    const float4* pb = nullptr;
    if constexpr (std::is_same_v<B, float>)
        if (bLeaf) pb = reinterpret_cast<const float4*>(static_cast<const float*>(s.leaf[1].data) + b0);
    const double bc = s.operands > 1 && s.constant[1] ? s.value[1] : 0.0;
    float4* po = reinterpret_cast<float4*>(row);
    const i64 quads = s.inner / 4, span = i64(kSimpleThreads) * kSimplePer;
    for (i64 q0 = i64(blockIdx.x) * span; q0 < quads; q0 += i64(gridDim.x) * span) {
        float4 a[kSimplePer], b[kSimplePer];
#pragma unroll
        for (int u = 0; u < kSimplePer; ++u) {
            const i64 q = q0 + u * kSimpleThreads + threadIdx.x;
            if (q < quads) {
                a[u] = pa[q];
                if (pb) b[u] = pb[q];
            }
        }
#pragma unroll
        for (int u = 0; u < kSimplePer; ++u) {
            const i64 q = q0 + u * kSimpleThreads + threadIdx.x;
            if (q >= quads) continue;
            // a constant second operand keeps its double value
            const double y0 = pb ? double(b[u].x) : bc, y1 = pb ? double(b[u].y) : bc,
                         y2 = pb ? double(b[u].z) : bc, y3 = pb ? double(b[u].w) : bc;
            float4 o;
            o.x = float(simpleApply<Op>(s.op, double(a[u].x), y0));
            o.y = float(simpleApply<Op>(s.op, double(a[u].y), y1));
            o.z = float(simpleApply<Op>(s.op, double(a[u].z), y2));
            o.w = float(simpleApply<Op>(s.op, double(a[u].w), y3));
            po[q] = o;
        }
    }
}

// A simple program (derived_program.h): a block takes rows (blockIdx.y on) and spans of a row
// (blockIdx.x on); one thread works a row's operand offsets out into shared memory, and a
// block's threads take kSimplePer elements each along the row, their loads issued before any
// result is worked out. A and B: float where the operand is a float32 leaf (one load, no
// dispatch), else void (derivedLoad, or the constant).
template <class Out, class A, class B, int Op>
__global__ void __launch_bounds__(kSimpleThreads)
    derivedSimpleKernel(const DerivedSimple s, Out* __restrict out) {
    __shared__ i64 base[2];
    constexpr i64 span = i64(kSimpleThreads) * kSimplePer;
    for (i64 r = blockIdx.y; r < s.rows; r += gridDim.y) {
        if (threadIdx.x < 2) {
            const int k = int(threadIdx.x);
            base[k] = k < s.operands && !s.constant[k] ? derivedSimpleBase(s, k, r) : 0;
        }
        __syncthreads();
        const i64 a0 = base[0], b0 = base[1];
        Out* row = out + r * s.inner;
        if constexpr (std::is_same_v<A, float> && std::is_same_v<Out, float>) {
            if (simpleQuads<B>(s, a0, b0, row)) { // 16-byte loads and stores
                simpleRowQuads<B, Op>(s, a0, b0, row);
                __syncthreads();
                continue;
            }
        }
        for (i64 j0 = i64(blockIdx.x) * span; j0 < s.inner; j0 += i64(gridDim.x) * span) {
            double a[kSimplePer], b[kSimplePer];
#pragma unroll
            for (int u = 0; u < kSimplePer; ++u) {
                const i64 j = j0 + u * kSimpleThreads + threadIdx.x;
                if (j < s.inner) {
                    a[u] = simpleOperand<A>(s, 0, a0 + j * s.innerStep[0]);
                    b[u] = s.operands > 1 ? simpleOperand<B>(s, 1, b0 + j * s.innerStep[1]) : 0.0;
                }
            }
#pragma unroll
            for (int u = 0; u < kSimplePer; ++u) {
                const i64 j = j0 + u * kSimpleThreads + threadIdx.x;
                if (j < s.inner) row[j] = static_cast<Out>(simpleApply<Op>(s.op, a[u], b[u]));
            }
        }
        __syncthreads(); // base is rewritten for the next row
    }
}

template <class Out, class A, class B>
void launchSimpleOp(const DerivedSimple& s, Out* out, cudaStream_t stream) {
    // About 128 blocks an SM in all (many waves: the last one's idle SMs cost little), each on
    // one row's spans.
    const i64 span = i64(kSimpleThreads) * kSimplePer;
    const i64 spans = cuda::ceilDiv(s.inner, span);
    const i64 wanted = i64(cuda::multiprocessors()) * 128;
    const dim3 grid(
        unsigned(std::clamp<i64>(cuda::ceilDiv(wanted, s.rows), 1, std::min<i64>(spans, 1 << 20))),
        unsigned(std::min<i64>(s.rows, 65535)));
    auto go = [&]<int Op>() {
        derivedSimpleKernel<Out, A, B, Op><<<grid, kSimpleThreads, 0, stream>>>(s, out);
    };
    if constexpr (std::is_same_v<A, float>) {
        switch (s.op) {
        case DerivedOp::Load:
            return go.template operator()<int(DerivedOp::Load)>();
        case DerivedOp::Add:
            return go.template operator()<int(DerivedOp::Add)>();
        case DerivedOp::Subtract:
            return go.template operator()<int(DerivedOp::Subtract)>();
        case DerivedOp::Multiply:
            return go.template operator()<int(DerivedOp::Multiply)>();
        case DerivedOp::Divide:
            return go.template operator()<int(DerivedOp::Divide)>();
        case DerivedOp::Hypot:
            return go.template operator()<int(DerivedOp::Hypot)>();
        default:
            break;
        }
    }
    go.template operator()<-1>();
}

template <class Out> void launchSimple(const DerivedSimple& s, Out* out, cudaStream_t stream) {
    const bool fa = !s.constant[0] && s.leaf[0].dtype == DType::Float32;
    const bool fb = s.operands > 1 && !s.constant[1] && s.leaf[1].dtype == DType::Float32;
    if (fa && fb)
        launchSimpleOp<Out, float, float>(s, out, stream);
    else if (fa)
        launchSimpleOp<Out, float, void>(s, out, stream);
    else
        launchSimpleOp<Out, void, void>(s, out, stream);
}

// The index of point p of a table problem (every dim but time).
__device__ void tableIndex(const DerivedTableProblem& q, i64 p, i64* index) {
    for (int d = q.program.ndim - 1; d >= 0; --d) {
        if (d == q.timeDim) continue;
        const i64 n = q.program.shape[d];
        const i64 r = n > 0 ? p / n : 0;
        index[d] = p - r * n;
        p = r;
    }
}

// Each point's shift: its value at the chunk's first step (0 where that is not finite).
template <int Depth> __global__ void __launch_bounds__(256) derivedShiftKernel(const DerivedTableProblem q) {
    i64 index[kMaxDims];
    for (i64 p = i64(blockIdx.x) * blockDim.x + threadIdx.x; p < q.points; p += i64(gridDim.x) * blockDim.x) {
        tableIndex(q, p, index);
        index[q.timeDim] = q.t0;
        const double v = derivedEval<Depth>(q.program, index);
        q.shift[p] = fabs(v) <= DBL_MAX ? v : 0.0;
    }
}

// A thread per point and per run of `chunk` members of one group (blockIdx.y: the group and
// the run): the count, and the sums of v − shift and of its square, added to the cell's.
template <int Depth>
__global__ void __launch_bounds__(256)
    derivedSumsKernel(const DerivedTableProblem q, const int chunk, const int runs) {
    const i64 p = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (p >= q.points) return;
    const int g = int(blockIdx.y) / runs;
    const int lo = q.groups.first[g] + (int(blockIdx.y) % runs) * chunk;
    const int hi = min(lo + chunk, q.groups.first[g + 1]);
    if (lo >= hi) return;
    i64 index[kMaxDims];
    tableIndex(q, p, index);
    const double shift = q.shift[p];
    double n = 0, s1 = 0, s2 = 0;
    const DerivedProgram& prog = q.program;
    const DerivedLeaf* leaf =
        prog.length == 1 && prog.code[0].op == DerivedOp::Load ? &prog.leaves[prog.code[0].leaf] : nullptr;
    if (leaf && leaf->dtype == DType::Float32 && leaf->mapDim < 0) { // one float leaf: read in place
        i64 o = 0;
        for (int d = 0; d < prog.ndim; ++d)
            if (d != q.timeDim) o += (index[d] - leaf->origin[d]) * leaf->strides[d];
        const float* at = static_cast<const float*>(leaf->data) + o;
        const i64 step = leaf->strides[q.timeDim], origin = leaf->origin[q.timeDim];
        // Members in batches whose loads are all issued before any is added.
        constexpr int kBatch = 16;
        for (int m0 = lo; m0 < hi; m0 += kBatch) {
            float v[kBatch];
#pragma unroll
            for (int k = 0; k < kBatch; ++k) {
                const int m = m0 + k;
                const i64 t = m < hi ? q.groups.members[m] : -1;
                v[k] = t >= q.t0 && t < q.t1 ? at[(t - origin) * step] : __int_as_float(0x7fc00000);
            }
#pragma unroll
            for (int k = 0; k < kBatch; ++k) {
                if (v[k] != v[k]) continue;
                const double d = double(v[k]) - shift;
                n += 1;
                s1 += d;
                s2 += d * d;
            }
        }
    } else {
        for (int m = lo; m < hi; ++m) {
            const i64 t = q.groups.members[m];
            if (t < q.t0 || t >= q.t1) continue;
            index[q.timeDim] = t;
            const double v = derivedEval<Depth>(prog, index);
            if (v != v) continue;
            const double d = v - shift;
            n += 1;
            s1 += d;
            s2 += d * d;
        }
    }
    if (n == 0) return;
    const i64 cell = i64(g) * q.points + p;
    if (runs == 1) { // this thread is the cell's only one in this launch
        q.count[cell] += n;
        q.mean[cell] += s1;
        if (q.needSecond) q.m2[cell] += s2;
        return;
    }
    atomicAdd(q.count + cell, n);
    atomicAdd(q.mean + cell, s1);
    if (q.needSecond) atomicAdd(q.m2 + cell, s2);
}

__global__ void __launch_bounds__(256) derivedFinishKernel(const DerivedFinishProblem f) {
    for (i64 i = i64(blockIdx.x) * blockDim.x + threadIdx.x; i < f.n; i += i64(gridDim.x) * blockDim.x)
        derivedFinishAt(f, i);
}

unsigned blocksFor(i64 n) {
    return unsigned(
        std::max<i64>(1, std::min<i64>(cuda::ceilDiv(n, 256), i64(cuda::multiprocessors()) * 32)));
}

} // namespace

void derivedEvalCuda(const DerivedProgram& p, const DerivedBox& box, std::int64_t n, void* out, DType outType,
                     Stream stream) {
    if (n <= 0) return;
    const cuda::DeviceGuard guard(stream);
    const cudaStream_t s = cuda::streamOf(stream);
    const i64 inner = p.ndim > 0 ? box.count[p.ndim - 1] : 1;
    const bool byRows = p.ndim > 0 && inner >= 128;
    const i64 rows = byRows ? n / inner : 0;
    const unsigned rowBlocks =
        unsigned(std::max<i64>(1, std::min<i64>(rows, i64(cuda::multiprocessors()) * 64)));
    withDepth(p.stack, [&]<int Depth>() {
        if (outType == DType::Float64) {
            auto* o = static_cast<double*>(out);
            if (byRows)
                derivedRowsKernel<Depth, double><<<rowBlocks, 256, 0, s>>>(p, box, rows, o);
            else
                derivedEvalKernel<Depth, double><<<blocksFor(n), 256, 0, s>>>(p, box, n, o);
        } else {
            auto* o = static_cast<float*>(out);
            if (byRows)
                derivedRowsKernel<Depth, float><<<rowBlocks, 256, 0, s>>>(p, box, rows, o);
            else
                derivedEvalKernel<Depth, float><<<blocksFor(n), 256, 0, s>>>(p, box, n, o);
        }
    });
    STRATA_CUDA_CHECK_LAUNCH("derivedEvalKernel");
}

void derivedSimpleCuda(const DerivedSimple& s, void* out, DType outType, Stream stream) {
    if (s.rows <= 0 || s.inner <= 0) return;
    const cuda::DeviceGuard guard(stream);
    const cudaStream_t cs = cuda::streamOf(stream);
    if (outType == DType::Float64)
        launchSimple(s, static_cast<double*>(out), cs);
    else
        launchSimple(s, static_cast<float*>(out), cs);
    STRATA_CUDA_CHECK_LAUNCH("derivedSimpleKernel");
}

void derivedTableCuda(const DerivedTableProblem& q, Stream stream) {
    if (q.points <= 0 || q.groups.groups <= 0) return;
    const cuda::DeviceGuard guard(stream);
    const cudaStream_t s = cuda::streamOf(stream);
    const std::size_t cells = std::size_t(q.groups.groups) * std::size_t(q.points);
    if (q.first) { // the accumulators start at zero, about each point's shift
        STRATA_CUDA_TRY(cudaMemsetAsync(q.count, 0, cells * 8, s));
        STRATA_CUDA_TRY(cudaMemsetAsync(q.mean, 0, cells * 8, s));
        STRATA_CUDA_TRY(cudaMemsetAsync(q.m2, 0, cells * 8, s));
        withDepth(q.program.stack,
                  [&]<int Depth>() { derivedShiftKernel<Depth><<<blocksFor(q.points), 256, 0, s>>>(q); });
        STRATA_CUDA_CHECK_LAUNCH("derivedShiftKernel");
    }
    // A thread per point and group where that makes threads enough for the card (a map of
    // a million points); else runs of fewer members, down to 32 (more where the groups would
    // need more than 65535 block rows), added up with atomics.
    const i64 enough = i64(cuda::multiprocessors()) * 2048 * 4;
    int chunk = std::max(1, q.groups.largest);
    while (chunk > 32 && q.points * q.groups.groups * ((q.groups.largest + chunk - 1) / chunk) < enough)
        chunk = (chunk + 1) / 2;
    auto runsOf = [&](int c) { return std::max(1, (q.groups.largest + c - 1) / c); };
    while (i64(q.groups.groups) * runsOf(chunk) > 65535) chunk *= 2;
    const int runs = runsOf(chunk);
    const dim3 grid(unsigned(cuda::ceilDiv(q.points, 256)), unsigned(q.groups.groups * runs));
    withDepth(q.program.stack,
              [&]<int Depth>() { derivedSumsKernel<Depth><<<grid, 256, 0, s>>>(q, chunk, runs); });
    STRATA_CUDA_CHECK_LAUNCH("derivedSumsKernel");
}

void derivedFinishCuda(const DerivedFinishProblem& f, Stream stream) {
    if (f.n <= 0) return;
    const cuda::DeviceGuard guard(stream);
    derivedFinishKernel<<<blocksFor(f.n), 256, 0, cuda::streamOf(stream)>>>(f);
    STRATA_CUDA_CHECK_LAUNCH("derivedFinishKernel");
}

} // namespace strata::detail
