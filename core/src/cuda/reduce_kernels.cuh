#pragma once
// The reduction kernels, generic over the accumulator (accumulators.cuh), the data type and
// the weights' type, and the host code that picks one for a plan and launches it:
// - columns: one thread per output, walking the reduced elements in sequence. Coalesced
//   when the innermost kept dim has stride 1 (a mean over a leading dim such as time).
//   With few outputs the reduced range is split, the parts merged by finalizeKernel.
// - rows: the innermost reduced dim has stride 1 (a mean over lon, a cos-lat weighted mean
//   over lat, lon, a whole-array minmax): a warp per output when rows are short and many,
//   else several blocks per output, their partials merged by finalizeKernel.
// Every partial is merged in a fixed order: results do not change from run to run.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cuda/accumulators.cuh"
#include "cuda/index.cuh"
#include "cuda/launch.h"
#include "cuda/plan.h"

namespace strata::cuda {

struct NoWeight {};
template <class W> inline constexpr bool kWeighted = !std::is_same_v<W, NoWeight>;

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

template <class T, int N> struct alignas(sizeof(T) * N) Vec { T x[N]; };

struct ColumnArgs {
    const void* data = nullptr;
    const void* weights = nullptr;
    Dims kept, reduced;
    i64 nOut = 0, nRed = 0, chunk = 0, splits = 1;
    StoreInfo store;
    void* partials = nullptr;
};

struct RowArgs {
    const void* data = nullptr;
    const void* weights = nullptr;
    Dims kept;      // rows
    Dims segs;      // the reduced dims but the innermost
    i64 L = 0;      // the innermost reduced dim (data stride 1)
    i64 wInner = 0; // the weights' stride along it
    i64 nOut = 0, Q = 1, P = 0, units = 0, unitsPerChunk = 0;
    int chunks = 1;
    bool blockGroup = false;
    StoreInfo store;
    void* partials = nullptr;
};

template <class Acc, class T, class W>
__global__ void __launch_bounds__(kThreads) columnsKernel(const ColumnArgs a) {
    const i64 o = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    const i64 split = i64(blockIdx.y) * blockDim.y + threadIdx.y;
    if (o >= a.nOut || split >= a.splits) return;
    i64 off = 0, woff = 0;
    unravel(o, a.kept.n, a.kept, off, woff);
    const T* __restrict__ x = static_cast<const T*>(a.data) + off;
    const W* __restrict__ w = nullptr;
    if constexpr (kWeighted<W>) w = static_cast<const W*>(a.weights) + woff;
    Acc acc;
    const i64 r0 = split * a.chunk, r1 = min(r0 + a.chunk, a.nRed);
    const int last = a.reduced.n - 1;
    const i64 L = a.reduced.shape[last], s = a.reduced.stride[last], ws = a.reduced.wstride[last];
    for (i64 r = r0; r < r1;) {
        const i64 outer = r / L, j = r - outer * L;
        i64 roff = 0, rwoff = 0;
        unravel(outer, last, a.reduced, roff, rwoff);
        const i64 n = min(L - j, r1 - r);
        const T* q = x + roff + j * s;
        const W* wq = nullptr;
        if constexpr (kWeighted<W>) wq = w + rwoff + j * ws;
        i64 k = 0;
        for (; k + 8 <= n; k += 8) {
            T v[8];
            double wv[8];
#pragma unroll
            for (int u = 0; u < 8; ++u) v[u] = q[u * s];
            if constexpr (kWeighted<W>) {
#pragma unroll
                for (int u = 0; u < 8; ++u) wv[u] = double(wq[u * ws]);
                wq += 8 * ws;
#pragma unroll
                for (int u = 0; u < 8; ++u) acc.addWeighted(v[u], wv[u]);
            } else {
#pragma unroll
                for (int u = 0; u < 8; ++u) acc.add(v[u], r + k + u);
            }
            q += 8 * s;
        }
        for (; k < n; ++k, q += s) {
            if constexpr (kWeighted<W>) {
                acc.addWeighted(q[0], double(wq[0]));
                wq += ws;
            } else {
                acc.add(q[0], r + k);
            }
        }
        r += n;
    }
    if (a.partials)
        static_cast<Acc*>(a.partials)[o * a.splits + split] = acc;
    else
        acc.store(a.store, o);
}

template <class Acc, class T, class W, int VEC, bool WINNER>
__global__ void __launch_bounds__(kThreads) rowsKernel(const RowArgs a) {
    const int lane = int(threadIdx.x & 31), warp = int(threadIdx.x >> 5);
    i64 row, u, uEnd, uStep;
    if (a.blockGroup) {
        row = i64(blockIdx.x) / a.chunks;
        const i64 first = (i64(blockIdx.x) - row * a.chunks) * a.unitsPerChunk;
        u = first + warp;
        uEnd = min(first + a.unitsPerChunk, a.units);
        uStep = kWarps;
    } else {
        row = i64(blockIdx.x) * kWarps + warp;
        if (row >= a.nOut) return; // the whole warp leaves
        u = 0;
        uEnd = a.units;
        uStep = 1;
    }
    i64 rowOff = 0, rowWOff = 0;
    unravel(row, a.kept.n, a.kept, rowOff, rowWOff);
    const T* __restrict__ x = static_cast<const T*>(a.data) + rowOff;
    Acc acc;
    for (; u < uEnd; u += uStep) {
        const i64 seg = a.Q == 1 ? u : u / a.Q;
        const i64 piece = u - seg * a.Q;
        i64 segOff = 0, segWOff = 0;
        unravel(seg, a.segs.n, a.segs, segOff, segWOff);
        const T* base = x + segOff;
        const W* wbase = nullptr;
        double wseg = 0;
        if constexpr (kWeighted<W>) {
            wbase = static_cast<const W*>(a.weights) + rowWOff + segWOff;
            if constexpr (!WINNER) wseg = double(wbase[0]);
        }
        const i64 e0 = piece * a.P, e1 = min(e0 + a.P, a.L);
        const i64 idx0 = seg * a.L;
        for (i64 e = e0 + lane * VEC; e < e1; e += 4 * 32 * VEC) {
            Vec<T, VEC> v[4];
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const i64 ee = e + j * 32 * VEC;
                if (ee < e1) v[j] = *reinterpret_cast<const Vec<T, VEC>*>(base + ee);
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const i64 ee = e + j * 32 * VEC;
                if (ee < e1) {
#pragma unroll
                    for (int k = 0; k < VEC; ++k) {
                        if constexpr (kWeighted<W>) {
                            const double wk = WINNER ? double(wbase[(ee + k) * a.wInner]) : wseg;
                            acc.addWeighted(v[j].x[k], wk);
                        } else {
                            acc.add(v[j].x[k], idx0 + ee + k);
                        }
                    }
                }
            }
        }
    }
    if (a.blockGroup) {
        blockMerge(acc);
        if (threadIdx.x == 0) {
            if (a.partials)
                static_cast<Acc*>(a.partials)[blockIdx.x] = acc;
            else
                acc.store(a.store, row);
        }
    } else {
        warpMerge(acc);
        if (lane == 0) acc.store(a.store, row);
    }
}

// A warp per output merges its `chunks` partials (in a fixed order) and stores the result.
template <class Acc>
__global__ void __launch_bounds__(kThreads)
    finalizeKernel(const Acc* partials, i64 nOut, i64 chunks, StoreInfo st) {
    const i64 o = (i64(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
    const int lane = int(threadIdx.x & 31);
    if (o >= nOut) return;
    Acc acc;
    for (i64 c = lane; c < chunks; c += 32) acc.merge(partials[o * chunks + c]);
    warpMerge(acc);
    if (lane == 0) acc.store(st, o);
}

template <class Acc>
void launchFinalize(const Scratch& partials, i64 nOut, i64 chunks, const StoreInfo& st, cudaStream_t stream) {
    const i64 blocks = ceilDiv(nOut, kWarps);
    finalizeKernel<Acc><<<unsigned(blocks), kThreads, 0, stream>>>(partials.as<Acc>(), nOut, chunks, st);
    STRATA_CUDA_CHECK_LAUNCH("finalizeKernel");
}

template <class Acc, class T, class W>
void launchColumns(const ReducePlan& plan, const Dims& reduced, const StoreInfo& st, Stream stream) {
    const cudaStream_t s = streamOf(stream);
    ColumnArgs a;
    a.data = plan.data;
    a.weights = plan.weights;
    a.kept = plan.kept;
    a.reduced = reduced;
    a.nOut = plan.nOut;
    a.nRed = plan.nRed;
    a.store = st;
    const i64 threadsWanted = i64(multiprocessors()) * 2048;
    i64 splits = 1;
    if (a.nOut < threadsWanted && a.nRed > 512)
        splits = std::min(ceilDiv(threadsWanted, a.nOut), ceilDiv(a.nRed, 256));
    a.chunk = a.nRed > 0 ? ceilDiv(a.nRed, splits) : 0;
    a.splits = a.nRed > 0 ? ceilDiv(a.nRed, a.chunk) : 1;
    int bx = 1;
    while (bx < kThreads && bx < a.nOut) bx *= 2;
    const int by = kThreads / bx;
    const dim3 block{unsigned(bx), unsigned(by)};
    const dim3 grid{unsigned(ceilDiv(a.nOut, bx)), unsigned(ceilDiv(a.splits, by))};
    STRATA_EXPECTS(ceilDiv(a.nOut, bx) < (i64(1) << 31) && grid.y <= 65535u, ValueError,
                   "reduction too large for one launch");
    if (a.splits == 1) {
        columnsKernel<Acc, T, W><<<grid, block, 0, s>>>(a);
        STRATA_CUDA_CHECK_LAUNCH("columnsKernel");
        return;
    }
    Scratch partials(std::size_t(a.nOut * a.splits) * sizeof(Acc), stream);
    a.partials = partials.as<Acc>();
    columnsKernel<Acc, T, W><<<grid, block, 0, s>>>(a);
    STRATA_CUDA_CHECK_LAUNCH("columnsKernel");
    launchFinalize<Acc>(partials, a.nOut, a.splits, st, s);
}

template <class Acc, class T, class W, int VEC>
void launchRowsWith(const RowArgs& a, i64 blocks, cudaStream_t stream) {
    if constexpr (kWeighted<W>) {
        if (a.wInner != 0) {
            rowsKernel<Acc, T, W, VEC, true><<<unsigned(blocks), kThreads, 0, stream>>>(a);
            STRATA_CUDA_CHECK_LAUNCH("rowsKernel");
            return;
        }
    }
    rowsKernel<Acc, T, W, VEC, false><<<unsigned(blocks), kThreads, 0, stream>>>(a);
    STRATA_CUDA_CHECK_LAUNCH("rowsKernel");
}

template <class Acc, class T, class W>
void launchRows(const ReducePlan& plan, const Dims& reduced, const StoreInfo& st, Stream stream) {
    constexpr int kVec = int(16 / sizeof(T));
    RowArgs a;
    a.data = plan.data;
    a.weights = plan.weights;
    a.kept = plan.kept;
    a.segs = reduced;
    a.segs.n = reduced.n - 1;
    a.L = reduced.shape[reduced.n - 1];
    a.wInner = reduced.wstride[reduced.n - 1];
    a.nOut = plan.nOut;
    a.store = st;
    const i64 S = plan.nRed / a.L;

    // 16-byte loads when every row and segment starts on a 16-byte boundary.
    bool vec = reinterpret_cast<std::uintptr_t>(plan.data) % 16 == 0 && a.L % kVec == 0;
    for (int i = 0; i < a.kept.n; ++i) vec = vec && a.kept.stride[i] % kVec == 0;
    for (int i = 0; i < a.segs.n; ++i) vec = vec && a.segs.stride[i] % kVec == 0;
    const int v = vec ? kVec : 1;
    const i64 grain = 128 * v;

    const int sms = multiprocessors();
    i64 blocks = 0;
    if (plan.nRed <= 32768 && a.nOut >= i64(sms) * 128) {
        a.blockGroup = false; // a warp per row
        a.P = a.L;
        a.Q = 1;
        a.units = S;
        blocks = ceilDiv(a.nOut, kWarps);
    } else {
        a.blockGroup = true;
        const i64 targetBlocks = i64(sms) * 32;
        const i64 chunksWanted = std::max<i64>(1, ceilDiv(targetBlocks, a.nOut));
        const i64 unitsWanted = chunksWanted * kWarps;
        if (S >= unitsWanted)
            a.P = a.L <= 8192 ? a.L : 8192;
        else
            a.P = std::min(roundUp(ceilDiv(a.L, ceilDiv(unitsWanted, S)), grain), a.L);
        a.Q = ceilDiv(a.L, a.P);
        a.units = S * a.Q;
        i64 chunks = std::clamp<i64>(ceilDiv(a.units, kWarps), 1, chunksWanted);
        a.unitsPerChunk = ceilDiv(a.units, chunks);
        chunks = ceilDiv(a.units, a.unitsPerChunk);
        a.chunks = int(chunks);
        blocks = a.nOut * chunks;
    }
    STRATA_EXPECTS(blocks < (i64(1) << 31), ValueError, "reduction too large for one launch");
    Scratch partials(a.blockGroup && a.chunks > 1 ? std::size_t(blocks) * sizeof(Acc) : 0, stream);
    const cudaStream_t s = streamOf(stream);
    a.partials = a.blockGroup && a.chunks > 1 ? partials.as<Acc>() : nullptr;
    if (vec)
        launchRowsWith<Acc, T, W, kVec>(a, blocks, s);
    else
        launchRowsWith<Acc, T, W, 1>(a, blocks, s);
    if (a.partials) launchFinalize<Acc>(partials, a.nOut, a.chunks, st, s);
}

// Runs the reduction of `plan` with accumulator Acc over data of type T (weights of W).
template <class Acc, class T, class W>
void runReduce(const ReducePlan& plan, const StoreInfo& st, Stream stream) {
    if (plan.nOut == 0) return;
    Dims reduced = plan.reduced;
    if (reduced.n == 0) { // nothing reduced: each output is its one element
        reduced.n = 1;
        reduced.shape[0] = 1;
        reduced.stride[0] = 0;
        reduced.wstride[0] = 0;
    }
    const int last = reduced.n - 1;
    if (plan.nRed > 0 && reduced.stride[last] == 1 && reduced.shape[last] >= 32)
        launchRows<Acc, T, W>(plan, reduced, st, stream);
    else
        launchColumns<Acc, T, W>(plan, reduced, st, stream);
}

} // namespace strata::cuda
