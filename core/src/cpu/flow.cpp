// Flow on the host: samples, streamline traces and particle steps over the thread pool, each
// point, seed or particle by flow_step.h as the device does it.
#include "backend.h"
#include "cpu/thread_pool.h"
#include "flow_step.h"

namespace strata::detail {

namespace {

const double* table(const std::vector<double>& t) { return t.empty() ? nullptr : t.data(); }

} // namespace

FlowSamples sampleFlowCpu(const ArrayView& u, const ArrayView& v, bool wrapX, const std::vector<double>& xy) {
    const flow::Plane pu = flow::planeOf(u), pv = flow::planeOf(v);
    const flow::Grid g = flow::gridOf(u, wrapX, nullptr, nullptr, nullptr);
    const std::int64_t n = std::int64_t(xy.size() / 2);
    FlowSamples out;
    out.u.assign(std::size_t(n), NAN);
    out.v.assign(std::size_t(n), NAN);
    cpu::parallelFor(n, 4096, [&](std::int64_t k0, std::int64_t k1) {
        for (std::int64_t k = k0; k < k1; ++k) {
            double su, sv;
            if (flow::valueAt(pu, pv, g, xy[std::size_t(2 * k)], xy[std::size_t(2 * k + 1)], su, sv)) {
                out.u[std::size_t(k)] = su;
                out.v[std::size_t(k)] = sv;
            }
        }
    });
    return out;
}

StreamlineTraces traceStreamlinesCpu(const ArrayView& u, const ArrayView& v, const FlowMetric& metric,
                                     const std::vector<double>& seeds, double step, std::int64_t maxSteps,
                                     std::int64_t every) {
    const flow::Plane pu = flow::planeOf(u), pv = flow::planeOf(v);
    const flow::Grid g =
        flow::gridOf(u, metric.wrapX, table(metric.xScale), table(metric.rowScale), table(metric.yScale));
    StreamlineTraces out;
    out.seeds = std::int64_t(seeds.size() / 2);
    out.maxSteps = maxSteps;
    out.every = every;
    out.capacity = flow::traceCapacity(maxSteps, every);
    out.xy.assign(std::size_t(out.seeds * 2 * out.capacity * 2), 0.0f);
    out.count.assign(std::size_t(out.seeds * 2), 0);
    cpu::parallelFor(out.seeds * 2, 64, [&](std::int64_t t0, std::int64_t t1) {
        for (std::int64_t t = t0; t < t1; ++t) {
            const std::int64_t s = t / 2;
            out.count[std::size_t(t)] = flow::traceOne(
                pu, pv, g, seeds[std::size_t(2 * s)], seeds[std::size_t(2 * s + 1)], t % 2 ? -step : step,
                maxSteps, every, out.xy.data() + 2 * std::size_t(t) * std::size_t(out.capacity));
        }
    });
    return out;
}

void advectParticlesCpu(const AdvectProblem& p) {
    const flow::Plane pu = flow::planeOf(p.u), pv = flow::planeOf(p.v);
    const FlowMetric& m = *p.metric;
    const flow::Grid g = flow::gridOf(p.u, m.wrapX, table(m.xScale), table(m.rowScale), table(m.yScale));
    const flow::Box box{
        p.box.x0,      p.box.y0,  p.box.x1, p.box.y1, p.box.weights.empty() ? nullptr : p.box.weights.data(),
        p.box.columns, p.box.rows};
    const flow::Particles parts = flow::particlesIn(p.state, p.count);
    cpu::parallelFor(p.count, 1024, [&](std::int64_t k0, std::int64_t k1) {
        for (std::int64_t k = k0; k < k1; ++k)
            flow::advectOne(pu, pv, g, box, p.seed, p.dt, p.steps, p.maxAge, parts, k, p.count, p.trail);
    });
}

} // namespace strata::detail
