// Vector fields: the dispatch of samples, traces and particle steps to the pair's device
// (cpu/flow.cpp, cuda/flow.cu), the metrics, and the choice of evenly spaced streamlines.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "backend.h"
#include "flow_step.h"
#include "ops_common.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"
#include "strata/core/whole_turn.h"

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

bool isWholeTurn(const std::vector<double>& lon) {
    const std::size_t n = lon.size();
    if (n < 3) return false;
    const double step = (lon[n - 1] - lon[0]) / double(n - 1);
    for (std::size_t i = 1; i < n; ++i)
        if (std::abs(lon[i] - lon[0] - double(i) * step) > 1e-6 * std::abs(step)) return false;
    return std::abs(std::abs(step) * double(n) - 360) < 1e-6 * 360;
}

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
    m.wrapX = isWholeTurn(lon);
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
                                  const std::vector<double>& seeds, double step, std::int64_t maxSteps,
                                  std::int64_t every) {
    const Pair p = checkedPair(u, v, "streamlines");
    checkMetric(metric, p.u);
    STRATA_EXPECTS(step > 0 && std::isfinite(step), ValueError, "streamlines: the step must be above 0");
    STRATA_EXPECTS(maxSteps >= 1 && maxSteps <= 100000, ValueError,
                   "streamlines: from 1 to 100000 steps a way, not " + std::to_string(maxSteps));
    STRATA_EXPECTS(every >= 1 && every <= maxSteps, ValueError,
                   "streamlines: a point kept every 1 to " + std::to_string(maxSteps) + " steps, not " +
                       std::to_string(every));
    if (u.device().isHost())
        return detail::traceStreamlinesCpu(p.u, p.v, metric, seeds, step, maxSteps, every);
#if STRATA_HAVE_CUDA
    return detail::traceStreamlinesCuda(p.u, p.v, metric, seeds, step, maxSteps, every, p.stream);
#else
    STRATA_FAIL(ValueError, "streamlines: CUDA data, but the CUDA backend is not built");
#endif
}

namespace {

double lengthOf(const std::vector<double>& l) {
    double s = 0;
    for (std::size_t k = 2; k + 1 < l.size(); k += 2) {
        const double dx = l[k] - l[k - 2], dy = l[k + 1] - l[k - 1];
        s += std::sqrt(dx * dx + dy * dy);
    }
    return s;
}

} // namespace

EvenSpacing::EvenSpacing(double dtest, double minLength, double x0, double y0, double x1, double y1)
    : dtest_(dtest), minLength_(minLength), x0_(x0), y0_(y0), cell_(dtest) {
    STRATA_EXPECTS(dtest > 0 && std::isfinite(dtest), ValueError, "streamlines: the spacing must be above 0");
    const double w = std::isfinite(x1 - x0) ? std::max(x1 - x0, 0.0) : 0,
                 h = std::isfinite(y1 - y0) ? std::max(y1 - y0, 0.0) : 0;
    if (!std::isfinite(x0_)) x0_ = 0;
    if (!std::isfinite(y0_)) y0_ = 0;
    // At most about four million cells: a wider cell still finds every neighbour within dtest.
    cell_ = std::max(dtest, std::sqrt(w * h / 4e6));
    nx_ = std::max<std::int64_t>(1, std::int64_t(std::ceil(w / cell_)));
    ny_ = std::max<std::int64_t>(1, std::int64_t(std::ceil(h / cell_)));
    kept_cells_.head.assign(std::size_t(nx_ * ny_), -1);
    own_.head.assign(std::size_t(nx_ * ny_), -1);
}

// Cells clamped to the rectangle: a point outside shares an edge cell, and two points within a
// cell of each other stay within a cell after the clamp.
std::size_t EvenSpacing::cellOf(double x, double y) const {
    const double fx = std::floor((x - x0_) / cell_), fy = std::floor((y - y0_) / cell_);
    const auto cx = std::int64_t(std::clamp(fx, 0.0, double(nx_ - 1)));
    const auto cy = std::int64_t(std::clamp(fy, 0.0, double(ny_ - 1)));
    return std::size_t(cy * nx_ + cx);
}

void EvenSpacing::put(Cells& c, double x, double y, double along) {
    const std::size_t at = cellOf(x, y);
    c.points.push_back({x, y, along, c.head[at]});
    c.head[at] = std::int32_t(c.points.size() - 1);
}

namespace {

// Whether `test` holds for a point listed in the 3 × 3 cells about cell `at` of a grid nx × ny
// (each cell's list starts at head[cell] and goes on through next; -1 ends it).
template <class Point, class Test>
bool anyNear(const std::vector<std::int32_t>& head, const std::vector<Point>& points, std::int64_t nx,
             std::int64_t ny, std::size_t at, Test test) {
    const auto cx = std::int64_t(at) % nx, cy = std::int64_t(at) / nx;
    for (std::int64_t j = std::max<std::int64_t>(cy - 1, 0); j <= std::min(cy + 1, ny - 1); ++j)
        for (std::int64_t i = std::max<std::int64_t>(cx - 1, 0); i <= std::min(cx + 1, nx - 1); ++i)
            for (std::int32_t k = head[std::size_t(j * nx + i)]; k >= 0; k = points[std::size_t(k)].next)
                if (test(points[std::size_t(k)])) return true;
    return false;
}

} // namespace

bool EvenSpacing::nearKept(double x, double y) const {
    const double d2 = dtest_ * dtest_;
    return anyNear(kept_cells_.head, kept_cells_.points, nx_, ny_, cellOf(x, y),
                   [&](const Point& p) { return (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y) < d2; });
}

// A point of the candidate itself within dtest, but further than 3 · dtest along it: the line
// has come back on itself.
bool EvenSpacing::nearOwn(double x, double y, double along) const {
    const double d2 = dtest_ * dtest_;
    return anyNear(own_.head, own_.points, nx_, ny_, cellOf(x, y), [&](const Point& p) {
        return std::abs(p.along - along) > 3 * dtest_ && (p.x - x) * (p.x - x) + (p.y - y) * (p.y - y) < d2;
    });
}

bool EvenSpacing::isFree(double x, double y) const { return !nearKept(x, y); }

void EvenSpacing::add(std::vector<std::vector<double>> lines, std::vector<std::size_t> seeds) {
    seeds.resize(lines.size(), 0);
    std::vector<double> lengths(lines.size());
    for (std::size_t k = 0; k < lines.size(); ++k) lengths[k] = lengthOf(lines[k]);
    std::vector<std::size_t> order(lines.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return lengths[a] > lengths[b]; });
    for (std::size_t c : order) {
        const std::vector<double>& l = lines[c];
        const std::size_t n = l.size() / 2;
        grow(n, std::min(seeds[c], n ? n - 1 : 0), [&](std::size_t k, double& x, double& y) {
            x = l[2 * k];
            y = l[2 * k + 1];
            return true;
        });
    }
}

bool EvenSpacing::grow(std::size_t n, std::size_t seed, const PointAt& pointAt, double jump) {
    if (n < 2 || seed >= n) return false;
    // This line's points kept so far, each with how far along it is from the seed (minus
    // backward), by cell: a line coming back on itself (a spiral) is cut as a line met.
    for (std::size_t at : ownTouched_) own_.head[at] = -1;
    ownTouched_.clear();
    own_.points.clear();
    auto take = [&](double x, double y, double a, std::vector<double>& half) {
        if (!std::isfinite(x) || !std::isfinite(y) || nearKept(x, y) || nearOwn(x, y, a)) return false;
        ownTouched_.push_back(cellOf(x, y));
        put(own_, x, y, a);
        half.insert(half.end(), {x, y});
        return true;
    };
    // From the seed each way, as far as the first point too near; points half dtest apart at
    // most (a long step is split), so that no kept point skips a neighbour.
    std::vector<double> halves[2];
    double sx, sy;
    if (!pointAt(seed, sx, sy) || !take(sx, sy, 0, halves[0])) return false;
    for (int way = 0; way < 2; ++way) {
        const std::ptrdiff_t dir = way == 0 ? 1 : -1;
        double a = 0, x0 = sx, y0 = sy;
        bool open = true;
        for (std::ptrdiff_t k = std::ptrdiff_t(seed) + dir; open && k >= 0 && k < std::ptrdiff_t(n);
             k += dir) {
            double x1, y1;
            if (!pointAt(std::size_t(k), x1, y1)) break;
            const double step = std::sqrt((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0));
            if (!(step <= jump)) break;
            const int parts = step <= 0.5 * dtest_ ? 1 : int(std::ceil(step / (0.5 * dtest_)));
            for (int q = 1; open && q <= parts; ++q) {
                a += step / parts;
                open = take(x0 + (x1 - x0) * q / parts, y0 + (y1 - y0) * q / parts, way == 0 ? a : -a,
                            halves[way]);
            }
            x0 = x1;
            y0 = y1;
        }
    }
    std::vector<double> kept;
    kept.reserve(halves[0].size() + halves[1].size());
    for (std::size_t k = halves[1].size(); k >= 2; k -= 2)
        kept.insert(kept.end(), {halves[1][k - 2], halves[1][k - 1]});
    kept.insert(kept.end(), halves[0].begin(), halves[0].end());
    if (kept.size() < 4 || lengthOf(kept) < minLength_) return false;
    for (std::size_t k = 0; k + 1 < kept.size(); k += 2) put(kept_cells_, kept[k], kept[k + 1], 0);
    kept_.push_back(std::move(kept));
    return true;
}

std::vector<std::vector<double>> evenlySpaced(std::vector<std::vector<double>> candidates, double dtest,
                                              double minLength) {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    bool any = false;
    for (const auto& l : candidates)
        for (std::size_t k = 0; k + 1 < l.size(); k += 2) {
            if (!std::isfinite(l[k]) || !std::isfinite(l[k + 1])) continue;
            x0 = any ? std::min(x0, l[k]) : l[k];
            x1 = any ? std::max(x1, l[k]) : l[k];
            y0 = any ? std::min(y0, l[k + 1]) : l[k + 1];
            y1 = any ? std::max(y1, l[k + 1]) : l[k + 1];
            any = true;
        }
    EvenSpacing spacing(dtest, minLength, x0, y0, x1, y1);
    spacing.add(std::move(candidates));
    return spacing.lines();
}

std::vector<std::vector<double>> evenStreamlines(const DataArray& u, const DataArray& v,
                                                 const FlowMetric& metric, const StreamPlane& plane,
                                                 double dtest, double minLength, double step,
                                                 std::int64_t maxSteps, std::int64_t every) {
    EvenSpacing spacing(dtest, minLength, plane.x0, plane.y0, plane.x1, plane.y1);
    const double jump = 0.25 * std::min(plane.x1 - plane.x0, plane.y1 - plane.y0);
    // The finer lattices fill the gaps between lines already kept, where lines are short: they
    // are traced a half and a quarter as far.
    std::int64_t steps = 2 * maxSteps;
    for (const double apart : {4 * dtest, 2 * dtest, dtest}) {
        steps = std::max<std::int64_t>(steps / 2, std::min<std::int64_t>(maxSteps, 16));
        std::vector<double> seeds; // index space
        for (double y = plane.y0 + apart / 2; y < plane.y1; y += apart)
            for (double x = plane.x0 + apart / 2; x < plane.x1; x += apart) {
                double ix, iy;
                if (!spacing.isFree(x, y) || !plane.toIndex(x, y, ix, iy)) continue;
                seeds.insert(seeds.end(), {ix, iy});
            }
        if (seeds.empty()) continue;
        const StreamlineTraces t =
            traceStreamlines(u, v, metric, seeds, step, steps, std::clamp<std::int64_t>(every, 1, steps));
        // Longest trace first (the traces' points are alike apart in index space); each read as
        // it grows: backward reversed, then forward from the seed.
        std::vector<std::int64_t> order(std::size_t(t.seeds));
        std::iota(order.begin(), order.end(), 0);
        const auto points = [&](std::int64_t s) { return std::max(t.points(s, 1) - 1, 0) + t.points(s, 0); };
        std::stable_sort(order.begin(), order.end(),
                         [&](std::int64_t a, std::int64_t b) { return points(a) > points(b); });
        for (const std::int64_t s : order) {
            const std::int32_t back = std::max(t.points(s, 1) - 1, 0);
            const float *b = t.trace(s, 1), *f = t.trace(s, 0);
            spacing.grow(
                std::size_t(points(s)), std::size_t(back),
                [&](std::size_t k, double& x, double& y) {
                    const float* p =
                        std::int32_t(k) < back ? b + 2 * (back - std::int32_t(k)) : f + 2 * (k - back);
                    return plane.toPlane(p[0], p[1], x, y);
                },
                jump);
        }
    }
    return spacing.lines();
}

namespace {

void checkWeights(const ParticleBox& box) {
    if (box.weights.empty() && box.columns == 0 && box.rows == 0) return;
    STRATA_EXPECTS(box.columns >= 1 && box.rows >= 1 &&
                       box.weights.size() == std::size_t(box.columns) * std::size_t(box.rows),
                   ValueError,
                   "particles: " + std::to_string(box.weights.size()) + " weights for " +
                       std::to_string(box.columns) + " × " + std::to_string(box.rows) + " blocks");
    bool any = false;
    for (double w : box.weights) {
        STRATA_EXPECTS(w >= 0 && w <= 1, ValueError, "particles: a block's weight must be from 0 to 1");
        any = any || w > 0;
    }
    STRATA_EXPECTS(any, ValueError, "particles: every block's weight is 0");
}

} // namespace

ParticleSet::ParticleSet(std::int64_t count, std::uint64_t seed, Device device) : count_(count), seed_(seed) {
    STRATA_EXPECTS(count >= 1 && count <= (std::int64_t(1) << 28), ValueError,
                   "particles: from 1 to 2^28 of them, not " + std::to_string(count));
    Buffer host(std::size_t(count) * 24, Device::host(), Stream::host());
    std::memset(host.data(), 0, host.size());
    state_ = device.isHost() ? std::move(host) : host.copyTo(device, defaultStream(device));
}

void ParticleSet::seed(const ParticleBox& box, std::int32_t maxAge) {
    STRATA_EXPECTS(box.x1 > box.x0 && box.y1 > box.y0, ValueError, "particles: their box is empty");
    STRATA_EXPECTS(maxAge >= 1, ValueError, "particles: their age must be at least 1 step");
    Buffer host(std::size_t(count_) * 24, Device::host(), Stream::host());
    const detail::flow::Particles p = detail::flow::particlesIn(host.data(), count_);
    checkWeights(box);
    const detail::flow::Box b{
        box.x0,      box.y0,  box.x1, box.y1, box.weights.empty() ? nullptr : box.weights.data(),
        box.columns, box.rows};
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
    checkWeights(box);
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
