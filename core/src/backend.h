#pragma once
// The two backends' entry points. Only the dispatchers in core/src/*.cpp call these; they
// check inputs, allocate outputs on the input's device, and normalise the problem first.
// Every *Cuda function queues work on `stream` and never synchronises.
#include <cstdint>
#include <span>

#include "derived_program.h"
#include "strata/core/array_view.h"
#include "strata/core/cf.h"
#include "strata/core/chunks.h"
#include "strata/core/contour.h"
#include "strata/core/flow.h"
#include "strata/core/ops.h"
#include "strata/core/stream.h"

namespace strata::detail {

// A reduction, normalised: `in` is permuted so its first `kept` dims are the kept ones (in
// output order) and the rest are reduced; `out` is contiguous over the kept dims (an empty
// kept set gives one output element). For weighted means `weights` has in's shape with zero
// strides along broadcast dims; otherwise weights.data is null.
struct ReduceProblem {
    ArrayView in;
    int kept = 0;
    ReduceOp op = ReduceOp::Sum;
    void* out = nullptr;
    DType outType = DType::Float64;
    ArrayView weights;
};

struct ColormapProblem {
    ArrayView frame;            // 2-D
    const Rgba8* lut = nullptr; // n entries, on the frame's device
    int lutSize = 0;
    double vmin = 0, vmax = 1;
    const double* range = nullptr; // if set: {vmin, vmax} on the frame's device
    Rgba8 nanColour;
    // Below vmin, above vmax: these colours where set (else the LUT's end entries).
    bool hasUnder = false, hasOver = false;
    Rgba8 underColour, overColour;
    Rgba8* out = nullptr; // h*w, row-major, on the frame's device
};

// One step of a streamed reduction: a slab's partial result merged into the accumulators, or
// the accumulators turned into the result. All arrays are contiguous, `n` elements, on one device.
enum class MergeStep {
    Sum,     // acc0 += part0 (part0: float32, float64 or int64 sums or counts)
    Moments, // (acc0, acc1, acc2) = (count, mean, M2) merged with the slab's (part0: int64 count,
             // part1: mean, part2: variance (ddof 0)) by Chan's parallel formula, in double
    Arg,     // where part0 (int64: which of the stacked extremes won) is 1 and part1 (the slab's
             // int64 index) is >= 0: argAcc = part1 + offset
    Finish,  // out (outType) = acc0 (Sum/Count), acc1 / acc0 (Mean: count and sum), or the
             // variance or std of (acc0, acc1, acc2) = (count, mean, M2)
};
struct MergeProblem {
    MergeStep step = MergeStep::Sum;
    ReduceOp op = ReduceOp::Sum; // for Finish
    std::int64_t n = 0;
    double* acc[3] = {nullptr, nullptr, nullptr};
    std::int64_t* argAcc = nullptr;
    const void* part[3] = {nullptr, nullptr, nullptr};
    DType partType[3] = {DType::Float64, DType::Float64, DType::Float64};
    std::int64_t offset = 0;
    void* out = nullptr;
    DType outType = DType::Float64;
};

// Chunk placement, normalised: each chunk that meets the region, as the box where the two meet.
// Chunks that miss the region are dropped; a scalar becomes one dim of length 1.
struct ChunkBox {
    std::uint64_t offset = 0;          // the chunk's bytes in the batch, or ChunkRef::kNotStored
    std::int64_t srcFirst = 0;         // the box's first element, C-order index within the chunk
    std::int64_t dstFirst = 0;         // the box's first element, C-order index within the region
    std::int64_t count[kMaxDims] = {}; // the box's extents, each >= 1
};
struct PlaceProblem {
    int ndim = 1;                           // 1..kMaxDims
    std::int64_t chunkSize = 1;             // elements per chunk (fewer than 2^32)
    std::int64_t srcStrides[kMaxDims] = {}; // C-order strides of a chunk, in elements
    std::int64_t dstStrides[kMaxDims] = {}; // C-order strides of the region, in elements
    int elemSize = 4;                       // 1, 2, 4 or 8
    bool shuffled = false;
    bool swap = false;
    const void* batch = nullptr; // on the device of dst
    const void* fill = nullptr;  // elemSize bytes on the host; null when every box is stored
    void* dst = nullptr;
    std::span<const ChunkBox> boxes; // host memory, not empty
    bool serial = false;             // CPU: on the calling thread only
};

// ---- CPU (core/src/cpu) ----
void mergeCpu(const MergeProblem& p);
void contiguousCpu(const ArrayView& in, void* out);
void reduceCpu(const ReduceProblem& p);
void weightedMeanCpu(const ReduceProblem& p);
void minmaxCpu(const ArrayView& in, double* out2);
void histogramCpu(const ArrayView& in, int bins, double lo, double hi, std::int64_t* out);
void colormapCpu(const ColormapProblem& p);
// `packed` is contiguous in enc.packed; `out` holds packed.size() values of enc.decoded.
void decodeCfCpu(const ArrayView& packed, const CfEncoding& enc, void* out);
void placeChunksCpu(const PlaceProblem& p);
// Derived variables (derived_program.h): the program at each of the box's n elements, into
// `out` (contiguous, C order over the box, Float32 or Float64); a table chunk; the tables.
void derivedEvalCpu(const DerivedProgram& p, const DerivedBox& box, std::int64_t n, void* out, DType outType);
// A simple program (derived_program.h) over its box's rows × inner elements.
void derivedSimpleCpu(const DerivedSimple& s, void* out, DType outType);
void derivedTableCpu(const DerivedTableProblem& q);
void derivedFinishCpu(const DerivedFinishProblem& f);
// Marching squares over a 2-D view (contour.h's contourSegments); levels increasing.
ContourSegments contourSegmentsCpu(const ArrayView& frame, const std::vector<double>& levels, bool wrapX);
// flow.h's samples, traces and particle steps (u and v 2-D views of one shape; `state` a
// ParticleSet's bytes, `trail` null or steps × n × 2 floats, both on the views' device).
FlowSamples sampleFlowCpu(const ArrayView& u, const ArrayView& v, bool wrapX, const std::vector<double>& xy);
StreamlineTraces traceStreamlinesCpu(const ArrayView& u, const ArrayView& v, const FlowMetric& metric,
                                     const std::vector<double>& seeds, double step, std::int64_t maxSteps,
                                     std::int64_t every);
struct AdvectProblem {
    ArrayView u, v;
    const FlowMetric* metric = nullptr;
    ParticleBox box;
    std::uint64_t seed = 0;
    double dt = 0;
    int steps = 0;
    std::int32_t maxAge = 0;
    void* state = nullptr;
    std::int64_t count = 0;
    float* trail = nullptr;
};
void advectParticlesCpu(const AdvectProblem& p);

#if STRATA_HAVE_CUDA
// ---- CUDA (core/src/cuda) ----
void contiguousCuda(const ArrayView& in, void* out, Stream stream);
void mergeCuda(const MergeProblem& p, Stream stream);
void reduceCuda(const ReduceProblem& p, Stream stream);
void weightedMeanCuda(const ReduceProblem& p, Stream stream);
void minmaxCuda(const ArrayView& in, double* out2, Stream stream);
void histogramCuda(const ArrayView& in, int bins, double lo, double hi, std::int64_t* out, Stream stream);
void colormapCuda(const ColormapProblem& p, Stream stream);
void decodeCfCuda(const ArrayView& packed, const CfEncoding& enc, void* out, Stream stream);
// Copies the boxes to the device on `stream` before it returns; the caller may free them then.
void placeChunksCuda(const PlaceProblem& p, Stream stream);
// The program, leaves and maps are on the device already.
void derivedEvalCuda(const DerivedProgram& p, const DerivedBox& box, std::int64_t n, void* out, DType outType,
                     Stream stream);
void derivedSimpleCuda(const DerivedSimple& s, void* out, DType outType, Stream stream);
void derivedTableCuda(const DerivedTableProblem& q, Stream stream);
void derivedFinishCuda(const DerivedFinishProblem& f, Stream stream);
// Synchronises `stream`: the segments are copied to the host.
ContourSegments contourSegmentsCuda(const ArrayView& frame, const std::vector<double>& levels, bool wrapX,
                                    Stream stream);
// Synchronise `stream`: the samples and traces are copied to the host.
FlowSamples sampleFlowCuda(const ArrayView& u, const ArrayView& v, bool wrapX, const std::vector<double>& xy,
                           Stream stream);
StreamlineTraces traceStreamlinesCuda(const ArrayView& u, const ArrayView& v, const FlowMetric& metric,
                                      const std::vector<double>& seeds, double step, std::int64_t maxSteps,
                                      std::int64_t every, Stream stream);
void advectParticlesCuda(const AdvectProblem& p, Stream stream); // ordered on `stream`
#endif

} // namespace strata::detail
