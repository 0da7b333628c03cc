// Flow on the device: a thread a point (samples), a thread a seed's way (streamline traces) and a
// thread a particle (advection), each by flow_step.h as the host does it. The metric's tables
// and the seeds go up; the samples and traces come back; the particles stay.
#include <vector>

#include "backend.h"
#include "cuda/device.cuh"
#include "cuda/launch.h"
#include "flow_step.h"

namespace strata::detail {
namespace {

using cuda::i64;

__global__ void __launch_bounds__(256)
    sampleKernel(flow::Plane u, flow::Plane v, flow::Grid g, const double* xy, i64 n, double* out) {
    const i64 k = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k >= n) return;
    double su = NAN, sv = NAN;
    if (!flow::valueAt(u, v, g, xy[2 * k], xy[2 * k + 1], su, sv)) su = sv = NAN;
    out[k] = su;
    out[n + k] = sv;
}

__global__ void __launch_bounds__(128)
    traceKernel(flow::Plane u, flow::Plane v, flow::Grid g, const double* seeds, i64 traces, double step,
                i64 maxSteps, i64 every, i64 capacity, float* xy, std::int32_t* count) {
    const i64 t = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (t >= traces) return;
    const i64 s = t / 2;
    count[t] = flow::traceOne(u, v, g, seeds[2 * s], seeds[2 * s + 1], t % 2 ? -step : step, maxSteps, every,
                              xy + 2 * t * capacity);
}

__global__ void __launch_bounds__(256)
    advectKernel(flow::Plane u, flow::Plane v, flow::Grid g, flow::Box box, std::uint64_t seed, double dt,
                 int steps, std::int32_t maxAge, flow::Particles p, i64 n, float* trail) {
    const i64 k = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < n) flow::advectOne(u, v, g, box, seed, dt, steps, maxAge, p, k, n, trail);
}

// Host doubles on the device (null for an empty table).
struct Table {
    Table(const std::vector<double>& t, Stream stream)
        : scratch(std::max<std::size_t>(t.size(), 1) * sizeof(double), stream), empty(t.empty()) {
        if (!empty)
            copyBytes(scratch.as<double>(), stream.device(), t.data(), Device::host(),
                      t.size() * sizeof(double), stream);
    }
    const double* get() { return empty ? nullptr : scratch.as<double>(); }
    cuda::Scratch scratch;
    bool empty;
};

} // namespace

FlowSamples sampleFlowCuda(const ArrayView& u, const ArrayView& v, bool wrapX, const std::vector<double>& xy,
                           Stream stream) {
    cuda::DeviceGuard guard(stream);
    const i64 n = i64(xy.size() / 2);
    FlowSamples out;
    if (n == 0) return out;
    Table points(xy, stream);
    cuda::Scratch values(std::size_t(2 * n) * sizeof(double), stream);
    sampleKernel<<<unsigned(cuda::ceilDiv(n, 256)), 256, 0, cuda::streamOf(stream)>>>(
        flow::planeOf(u), flow::planeOf(v), flow::gridOf(u, wrapX, nullptr, nullptr, nullptr), points.get(),
        n, values.as<double>());
    STRATA_CUDA_CHECK_LAUNCH("flow sampleKernel");
    std::vector<double> both(std::size_t(2 * n));
    copyBytes(both.data(), Device::host(), values.as<double>(), stream.device(), both.size() * sizeof(double),
              stream);
    stream.synchronize();
    out.u.assign(both.begin(), both.begin() + n);
    out.v.assign(both.begin() + n, both.end());
    return out;
}

StreamlineTraces traceStreamlinesCuda(const ArrayView& u, const ArrayView& v, const FlowMetric& metric,
                                      const std::vector<double>& seeds, double step, std::int64_t maxSteps,
                                      std::int64_t every, Stream stream) {
    cuda::DeviceGuard guard(stream);
    StreamlineTraces out;
    out.seeds = i64(seeds.size() / 2);
    out.maxSteps = maxSteps;
    out.every = every;
    out.capacity = flow::traceCapacity(maxSteps, every);
    if (out.seeds == 0) return out;
    const i64 traces = 2 * out.seeds;
    Table xs(metric.xScale, stream), rows(metric.rowScale, stream), ys(metric.yScale, stream),
        at(seeds, stream);
    cuda::Scratch xy(std::size_t(traces * out.capacity * 2) * sizeof(float), stream);
    cuda::Scratch count(std::size_t(traces) * sizeof(std::int32_t), stream);
    // Traces shorter than capacity leave their tails unwritten, and the copy below takes them
    // whole: zeroed first (a few megabytes at the memory's speed), so that no byte is undefined.
    STRATA_CUDA_TRY(cudaMemsetAsync(xy.as<float>(), 0, std::size_t(traces * out.capacity * 2) * sizeof(float),
                                    cuda::streamOf(stream)));
    traceKernel<<<unsigned(cuda::ceilDiv(traces, 128)), 128, 0, cuda::streamOf(stream)>>>(
        flow::planeOf(u), flow::planeOf(v), flow::gridOf(u, metric.wrapX, xs.get(), rows.get(), ys.get()),
        at.get(), traces, step, maxSteps, every, out.capacity, xy.as<float>(), count.as<std::int32_t>());
    STRATA_CUDA_CHECK_LAUNCH("flow traceKernel");
    out.xy.resize(std::size_t(traces * out.capacity * 2));
    out.count.resize(std::size_t(traces));
    copyBytes(out.count.data(), Device::host(), count.as<std::int32_t>(), stream.device(),
              out.count.size() * sizeof(std::int32_t), stream);
    // Each trace's points are copied whole (the unused tail too): one copy, not one a trace.
    copyBytes(out.xy.data(), Device::host(), xy.as<float>(), stream.device(), out.xy.size() * sizeof(float),
              stream);
    stream.synchronize();
    return out;
}

void advectParticlesCuda(const AdvectProblem& p, Stream stream) {
    cuda::DeviceGuard guard(stream);
    const FlowMetric& m = *p.metric;
    Table xs(m.xScale, stream), rows(m.rowScale, stream), ys(m.yScale, stream),
        weights(p.box.weights, stream);
    const flow::Particles parts = flow::particlesIn(p.state, p.count);
    advectKernel<<<unsigned(cuda::ceilDiv(p.count, 256)), 256, 0, cuda::streamOf(stream)>>>(
        flow::planeOf(p.u), flow::planeOf(p.v), flow::gridOf(p.u, m.wrapX, xs.get(), rows.get(), ys.get()),
        flow::Box{p.box.x0, p.box.y0, p.box.x1, p.box.y1, weights.get(), p.box.columns, p.box.rows}, p.seed,
        p.dt, p.steps, p.maxAge, parts, p.count, p.trail);
    STRATA_CUDA_CHECK_LAUNCH("flow advectKernel");
}

} // namespace strata::detail
