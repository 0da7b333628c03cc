// Vector fields: the dispatch of samples, traces and particle steps to the pair's device
// (cpu/flow.cpp, cuda/flow.cu), the metrics, and the choice of evenly spaced streamlines.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "backend.h"
#include "flow_step.h"
#include "ops_common.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"

namespace strata {

namespace {

constexpr double kEarthRadius = 6371008.8; // metres: the mean radius

struct Pair {
    ArrayView u, v;
    Stream stream;
};

Pair checkedPair(const DataArray& u, const DataArray& v, std::string_view op) {
    const std::string why = vectorPairProblem(u, v);
    STRATA_EXPECTS(why.empty(), ValueError, std::string(op) + ": " + why);
    detail::checkSameDevice(u, v, op, "v");
    const Stream stream = detail::streamOf(u);
    Pair p{detail::checkedView(u, op, stream), detail::checkedView(v, op, stream), stream};
    STRATA_EXPECTS(p.u.shape[0] >= 2 && p.u.shape[1] >= 2, ValueError,
                   std::string(op) + ": " + describeGrid(u) + " needs at least 2 rows and 2 columns");
    return p;
}

void checkMetric(const FlowMetric& m, const ArrayView& u) {
    STRATA_EXPECTS(m.xScale.empty() || std::int64_t(m.xScale.size()) == u.shape[1], ValueError,
                   "flow: the metric's column table has " + std::to_string(m.xScale.size()) +
                       " entries for " + std::to_string(u.shape[1]) + " columns");
    for (const auto* t : {&m.rowScale, &m.yScale})
        STRATA_EXPECTS(t->empty() || std::int64_t(t->size()) == u.shape[0], ValueError,
                       "flow: the metric's row table has " + std::to_string(t->size()) + " entries for " +
                           std::to_string(u.shape[0]) + " rows");
}

// One over each step of `c`, a centre's step taken as the mean of its two sides.
std::vector<double> inverseSteps(const std::vector<double>& c, double unit) {
    std::vector<double> out(c.size(), 1.0);
    for (std::size_t k = 0; k < c.size() && c.size() >= 2; ++k) {
        const std::size_t a = k == 0 ? 0 : k - 1, b = k + 1 == c.size() ? k : k + 1;
        const double step = std::abs(c[b] - c[a]) / double(b - a) * unit;
        out[k] = step > 0 ? 1 / step : 0;
    }
    return out;
}

} // namespace

FlowMetric lonLatMetric(const std::vector<double>& lon, const std::vector<double>& lat) {
    FlowMetric m;
    const double rad = M_PI / 180 * kEarthRadius;
    m.xScale = inverseSteps(lon, rad);
    m.yScale = inverseSteps(lat, rad);
    for (double phi : lat) m.rowScale.push_back(1 / std::max(std::cos(phi * M_PI / 180), 1e-3));
    // Northward in index space is the way the rows go: a latitude falling down the rows turns
    // a northward speed into fewer rows.
    if (lat.size() >= 2 && lat.back() < lat.front())
        for (double& s : m.yScale) s = -s;
    if (lon.size() >= 2 && lon.back() < lon.front())
        for (double& s : m.xScale) s = -s;
    const std::size_t n = lon.size();
    if (n >= 3) {
        const double step = (lon[n - 1] - lon[0]) / double(n - 1);
        bool even = true;
        for (std::size_t i = 1; i < n && even; ++i)
            even = std::abs(lon[i] - lon[0] - double(i) * step) <= 1e-6 * std::abs(step);
        m.wrapX = even && std::abs(std::abs(step) * double(n) - 360) < 1e-6 * 360;
    }
    return m;
}

FlowMetric axisMetric(const std::vector<double>& x, const std::vector<double>& y) {
    FlowMetric m;
    m.xScale = inverseSteps(x, 1);
    m.yScale = inverseSteps(y, 1);
    if (x.size() >= 2 && x.back() < x.front())
        for (double& s : m.xScale) s = -s;
    if (y.size() >= 2 && y.back() < y.front())
        for (double& s : m.yScale) s = -s;
    return m;
}

FlowSamples sampleFlow(const DataArray& u, const DataArray& v, const std::vector<double>& xy, bool wrapX) {
    const Pair p = checkedPair(u, v, "vector samples");
    if (u.device().isHost()) return detail::sampleFlowCpu(p.u, p.v, wrapX, xy);
#if STRATA_HAVE_CUDA
    return detail::sampleFlowCuda(p.u, p.v, wrapX, xy, p.stream);
#else
    STRATA_FAIL(ValueError, "vector samples: CUDA data, but the CUDA backend is not built");
#endif
}

StreamlineTraces traceStreamlines(const DataArray& u, const DataArray& v, const FlowMetric& metric,
                                  const std::vector<double>& seeds, double step, std::int64_t maxSteps) {
    const Pair p = checkedPair(u, v, "streamlines");
    checkMetric(metric, p.u);
    STRATA_EXPECTS(step > 0 && std::isfinite(step), ValueError, "streamlines: the step must be above 0");
    STRATA_EXPECTS(maxSteps >= 1 && maxSteps <= 100000, ValueError,
                   "streamlines: from 1 to 100000 steps a way, not " + std::to_string(maxSteps));
    if (u.device().isHost()) return detail::traceStreamlinesCpu(p.u, p.v, metric, seeds, step, maxSteps);
#if STRATA_HAVE_CUDA
    return detail::traceStreamlinesCuda(p.u, p.v, metric, seeds, step, maxSteps, p.stream);
#else
    STRATA_FAIL(ValueError, "streamlines: CUDA data, but the CUDA backend is not built");
#endif
}

std::vector<std::vector<double>> evenlySpaced(std::vector<std::vector<double>> candidates, double dtest,
                                              double minLength) {
    STRATA_EXPECTS(dtest > 0, ValueError, "streamlines: the spacing must be above 0");
    auto length = [](const std::vector<double>& l) {
        double s = 0;
        for (std::size_t k = 2; k + 1 < l.size(); k += 2)
            s += std::hypot(l[k] - l[k - 2], l[k + 1] - l[k - 1]);
        return s;
    };
    std::vector<double> lengths(candidates.size());
    for (std::size_t k = 0; k < candidates.size(); ++k) lengths[k] = length(candidates[k]);
    std::vector<std::size_t> order(candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });

    // The kept lines' points, bucketed by cells dtest wide.
    struct Kept {
        double x, y;
        std::uint32_t line;
    };
    std::unordered_map<std::uint64_t, std::vector<Kept>> cells;
    auto cellOf = [&](double x, double y) {
        const auto cx = std::int64_t(std::floor(x / dtest)), cy = std::int64_t(std::floor(y / dtest));
        return std::pair{cx, cy};
    };
    auto key = [](std::int64_t cx, std::int64_t cy) {
        return (std::uint64_t(std::uint32_t(cx)) << 32) | std::uint32_t(cy);
    };
    auto tooNear = [&](double x, double y) {
        const auto [cx, cy] = cellOf(x, y);
        for (std::int64_t j = cy - 1; j <= cy + 1; ++j)
            for (std::int64_t i = cx - 1; i <= cx + 1; ++i) {
                const auto it = cells.find(key(i, j));
                if (it == cells.end()) continue;
                for (const Kept& k : it->second)
                    if (std::hypot(k.x - x, k.y - y) < dtest) return true;
            }
        return false;
    };
    std::vector<std::vector<double>> out;
    for (std::size_t c : order) {
        const std::vector<double>& l = candidates[c];
        if (l.size() < 4 || !std::isfinite(l[0]) || !std::isfinite(l[1])) continue;
        // From the line's start, each point as far as the first too near a kept line; points half
        // dtest apart at most (a long step is split), so that no kept point skips a neighbour.
        std::vector<double> kept, arc;            // the points kept of this line, and how far along each is
        auto selfNear = [&](double x, double y) { // the line coming back on itself (a spiral)
            const double along =
                arc.empty() ? 0 : arc.back() + std::hypot(x - kept[kept.size() - 2], y - kept.back());
            for (std::size_t k = 0; k < arc.size() && arc[k] < along - 3 * dtest; ++k)
                if (std::hypot(kept[2 * k] - x, kept[2 * k + 1] - y) < dtest) return true;
            return false;
        };
        auto take = [&](double x, double y) {
            if (!std::isfinite(x) || !std::isfinite(y) || tooNear(x, y) || selfNear(x, y)) return false;
            arc.push_back(arc.empty() ? 0
                                      : arc.back() + std::hypot(x - kept[kept.size() - 2], y - kept.back()));
            kept.insert(kept.end(), {x, y});
            return true;
        };
        bool open = take(l[0], l[1]);
        for (std::size_t k = 2; open && k + 1 < l.size(); k += 2) {
            const double x0 = l[k - 2], y0 = l[k - 1], x1 = l[k], y1 = l[k + 1];
            const int parts = std::max(1, int(std::ceil(std::hypot(x1 - x0, y1 - y0) / (0.5 * dtest))));
            for (int q = 1; open && q <= parts; ++q)
                open = take(x0 + (x1 - x0) * q / parts, y0 + (y1 - y0) * q / parts);
        }
        if (kept.size() < 4 || length(kept) < minLength) continue;
        const auto line = std::uint32_t(out.size());
        for (std::size_t k = 0; k + 1 < kept.size(); k += 2) {
            const auto [cx, cy] = cellOf(kept[k], kept[k + 1]);
            cells[key(cx, cy)].push_back({kept[k], kept[k + 1], line});
        }
        out.push_back(std::move(kept));
    }
    return out;
}

ParticleSet::ParticleSet(std::int64_t count, std::uint64_t seed, Device device) : count_(count), seed_(seed) {
    STRATA_EXPECTS(count >= 1 && count <= (std::int64_t(1) << 28), ValueError,
                   "particles: from 1 to 2^28 of them, not " + std::to_string(count));
    std::vector<std::uint8_t> zero(std::size_t(count) * 24, 0);
    Buffer host(zero.size(), Device::host(), Stream::host());
    std::copy(zero.begin(), zero.end(), static_cast<std::uint8_t*>(host.data()));
    state_ = device.isHost() ? std::move(host) : host.copyTo(device, defaultStream(device));
}

void ParticleSet::seed(const ParticleBox& box, std::int32_t maxAge) {
    STRATA_EXPECTS(box.x1 > box.x0 && box.y1 > box.y0, ValueError, "particles: their box is empty");
    STRATA_EXPECTS(maxAge >= 1, ValueError, "particles: their age must be at least 1 step");
    Buffer host(std::size_t(count_) * 24, Device::host(), Stream::host());
    const detail::flow::Particles p = detail::flow::particlesIn(host.data(), count_);
    const detail::flow::Box b{box.x0, box.y0, box.x1, box.y1};
    for (std::int64_t k = 0; k < count_; ++k) {
        detail::flow::bornAt(b, seed_, k, 0, p.x[k], p.y[k]);
        p.age[k] = std::int32_t(detail::flow::uniform(seed_, k, 0, 2) * maxAge);
        p.births[k] = 0;
    }
    state_ = state_.device().isHost() ? std::move(host) : host.copyTo(state_.device(), state_.stream());
}

void ParticleSet::advect(const DataArray& u, const DataArray& v, const FlowMetric& metric, double dt,
                         int steps, const ParticleBox& box, std::int32_t maxAge, std::vector<float>* trails) {
    const Pair p = checkedPair(u, v, "particles");
    checkMetric(metric, p.u);
    STRATA_EXPECTS(u.device() == device(), ValueError,
                   "particles: the vector field is on " + u.device().toString() + ", the particles on " +
                       device().toString());
    STRATA_EXPECTS(box.x1 > box.x0 && box.y1 > box.y0 && box.x0 >= 0 && box.y0 >= 0 &&
                       box.x1 <= double(p.u.shape[1] - 1) + (metric.wrapX ? 1 : 0) &&
                       box.y1 <= double(p.u.shape[0] - 1),
                   ValueError, "particles: their box is empty or not inside the grid");
    STRATA_EXPECTS(steps >= 0 && maxAge >= 1 && std::isfinite(dt), ValueError,
                   "particles: steps, age and time step must be finite and positive");
    if (steps == 0) return;
    detail::AdvectProblem q{p.u, p.v, &metric, box, seed_, dt, steps, maxAge, state_.data(), count_, nullptr};
    const std::size_t trailFloats = trails ? std::size_t(steps) * std::size_t(count_) * 2 : 0;
    if (device().isHost()) {
        if (trails) {
            trails->assign(trailFloats, 0.0f);
            q.trail = trails->data();
        }
        detail::advectParticlesCpu(q);
        return;
    }
#if STRATA_HAVE_CUDA
    // The fields' stream steps the particles: the work queued on theirs comes first, and what
    // comes after on theirs waits for the steps.
    const bool otherStream = p.stream != state_.stream();
    if (otherStream) state_.stream().synchronize();
    Buffer trail(std::max<std::size_t>(trailFloats, 1) * sizeof(float), device(), p.stream);
    if (trails) q.trail = static_cast<float*>(trail.data());
    detail::advectParticlesCuda(q, p.stream);
    if (otherStream && !trails) p.stream.synchronize();
    if (trails) {
        trails->resize(trailFloats);
        copyBytes(trails->data(), Device::host(), trail.data(), device(), trailFloats * sizeof(float),
                  p.stream);
        p.stream.synchronize();
    }
#else
    STRATA_FAIL(ValueError, "particles: CUDA data, but the CUDA backend is not built");
#endif
}

ParticleSet::Host ParticleSet::toHost() const {
    Host out;
    std::vector<std::uint8_t> bytes(std::size_t(count_) * 24);
    copyBytes(bytes.data(), Device::host(), state_.data(), state_.device(), bytes.size(), state_.stream());
    state_.stream().synchronize();
    const detail::flow::Particles p = detail::flow::particlesIn(bytes.data(), count_);
    out.x.assign(p.x, p.x + count_);
    out.y.assign(p.y, p.y + count_);
    out.age.assign(p.age, p.age + count_);
    out.births.assign(p.births, p.births + count_);
    return out;
}

} // namespace strata
