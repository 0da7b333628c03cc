// The image view's particles (ImageViewSettings::vectors Particles): advected on the pair's
// device by the window's clock (particleTime), born uniformly on the screen, and drawn as
// fading trails in window pixels; a run seeded afresh is the still that export draws.
#include <algorithm>
#include <cmath>

#include "vector_overlay.h"

namespace strata::detail {

// Particles advected over the visible part of the grid, each drawn as its trail over its last
// kTrail steps (of about 1.5 pixels times `speed`), in four groups, older ones fainter. The
// run keeps them between calls: seeded afresh for a new view (grid, window, plot, density,
// device) or a step it cannot reach, else moved on to step `tick` through the pair as it is
// now (the time dim may play under them). Step 0 of a fresh run is the still that export
// and the command line draw.
void Overlay::particles(ParticleRun& run, const ParticleRun::Seeded& view, std::int64_t tick, double speed) {
    const bool fresh = !run.set || !(run.seeded == view) || tick < run.tick || tick - run.tick > 4 * kTrail;
    if (fresh && !seedParticles(run, view, tick, speed)) return;
    const double dt = run.dt * speed;
    if (tick - run.tick > kTrail) { // beyond the trail: moved without it
        run.set->advect(u, v, metric, dt, int(tick - run.tick - kTrail), run.box, run.maxAge);
        run.tick = tick - kTrail;
    }
    const auto n = std::size_t(run.set->size());
    std::vector<float> trail;
    for (; run.tick < tick; ++run.tick) {
        run.set->advect(u, v, metric, dt, 1, run.box, run.maxAge, &trail);
        float* at = &run.ring[slot(run.tick + 1) * n * 2];
        for (std::size_t k = 0; k < n; ++k) {
            double px = NAN, py = NAN;
            if (!std::isnan(trail[2 * k]) && !place.pixelAt(trail[2 * k], trail[2 * k + 1], px, py))
                px = py = NAN;
            at[2 * k] = float(px);
            at[2 * k + 1] = float(py);
        }
    }
    drawTrails(run);
}

// A fresh run over the visible part of the grid, its ring filled up to `tick`: false when
// nothing of the grid is visible.
bool Overlay::seedParticles(ParticleRun& run, const ParticleRun::Seeded& view, std::int64_t tick,
                            double speed) {
    run.set.reset();
    run.seeded = view;
    const double dsep = spacing / 3;
    std::vector<double> pixels, index;
    lattice(dsep, pixels, index);
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (std::size_t k = 0; k + 1 < index.size(); k += 2) {
        x0 = std::min(x0, index[k]);
        x1 = std::max(x1, index[k]);
        y0 = std::min(y0, index[k + 1]);
        y1 = std::max(y1, index[k + 1]);
    }
    const double nx = double(u.shape()[1]), ny = double(u.shape()[0]);
    ParticleBox box{std::max(0.0, x0 - 1), std::max(0.0, y0 - 1), std::min(nx - 1, x1 + 1),
                    std::min(ny - 1, y1 + 1)};
    if (metric.wrapX && x1 - x0 > 0.5 * nx) box.x0 = 0, box.x1 = nx;
    if (!(box.x1 > box.x0 && box.y1 > box.y0)) return false;
    // The time step: the 90th percentile of the speeds in index space moves 1.5 pixels.
    const FlowSamples samples = sampleFlow(u, v, index, metric.wrapX);
    std::vector<double> speeds;
    const FlowMetric& m = metric;
    for (std::size_t k = 0; k < samples.u.size(); ++k) {
        const auto i = std::size_t(std::clamp(std::lround(index[2 * k]), 0L, long(nx) - 1));
        const auto j = std::size_t(std::clamp(std::lround(index[2 * k + 1]), 0L, long(ny) - 1));
        const double ix = samples.u[k] * (m.xScale.empty() ? 1 : m.xScale[i]) *
                          (m.rowScale.empty() ? 1 : m.rowScale[j]),
                     iy = samples.v[k] * (m.yScale.empty() ? 1 : m.yScale[j]);
        if (std::isfinite(ix) && std::isfinite(iy)) speeds.push_back(std::hypot(ix, iy));
    }
    if (speeds.empty()) return false;
    std::nth_element(speeds.begin(), speeds.begin() + std::ptrdiff_t(speeds.size() * 9 / 10), speeds.end());
    const double fast = speeds[speeds.size() * 9 / 10];
    run.dt = fast > 0 ? 1.5 / pixelsPerIndex(index) / fast : 1;
    const std::int64_t count = std::clamp<std::int64_t>(
        std::int64_t(view.density * plot.width() * plot.height() / (dsep * dsep / 1.5)), 100, 500000);
    screenWeights(box);
    run.box = box;
    run.maxAge = 4 * kTrail;
    run.set.emplace(count, 20261206, u.device());
    run.set->seed(box, run.maxAge);
    run.set->advect(u, v, m, run.dt * speed, 2 * kTrail, box, run.maxAge); // under way first
    run.ring.assign(std::size_t(kTrail * count * 2), NAN);
    run.tick = tick - kTrail;
    return true;
}

// Weights of 64 × 32 blocks of the box: each block's area on the plot (its corners' quad in
// pixels, times the share of 3 × 3 points of it inside the plot) as a share of the largest,
// so that particles are born uniformly on the screen, and not off it. A block spanning more
// than a quarter of the plot lies across a map's seam: 0. None at all: uniform in index space.
void Overlay::screenWeights(ParticleBox& box) const {
    constexpr int wx = 64, wy = 32;
    const double bw = (box.x1 - box.x0) / wx, bh = (box.y1 - box.y0) / wy;
    const auto inside = [&](double px, double py) {
        return px >= plot.x0 && px <= plot.x1 && py >= plot.y0 && py <= plot.y1;
    };
    std::vector<double> w(std::size_t(wx * wy), 0.0);
    double most = 0;
    for (int j = 0; j < wy; ++j)
        for (int i = 0; i < wx; ++i) {
            const double x0 = box.x0 + i * bw, y0 = box.y0 + j * bh;
            double cx[4], cy[4];
            bool placed = true;
            for (int c = 0; c < 4 && placed; ++c)
                placed =
                    place.pixelAt(x0 + (c == 1 || c == 2 ? bw : 0), y0 + (c >= 2 ? bh : 0), cx[c], cy[c]);
            if (!placed) continue;
            double area = 0;
            for (int c = 0; c < 4; ++c) area += cx[c] * cy[(c + 1) % 4] - cx[(c + 1) % 4] * cy[c];
            area = 0.5 * std::abs(area);
            if (!(area < 0.25 * plot.width() * plot.height())) continue;
            int in = 0;
            for (int q = 0; q < 9; ++q) {
                double px, py;
                in += place.pixelAt(x0 + (q % 3 + 0.5) * bw / 3, y0 + (q / 3 + 0.5) * bh / 3, px, py) &&
                      inside(px, py);
            }
            w[std::size_t(j * wx + i)] = area * in / 9;
            most = std::max(most, w[std::size_t(j * wx + i)]);
        }
    if (!(most > 0)) return;
    for (double& x : w) x /= most;
    box.weights = std::move(w);
    box.columns = wx;
    box.rows = wy;
}

// The ring's trails as four groups of a quarter of the steps each, oldest first and
// faintest; a trail breaks where its particle was born again, or jumps (a map's seam).
void Overlay::drawTrails(const ParticleRun& run) {
    const auto n = std::size_t(run.set->size());
    const double jump = 0.25 * std::min(plot.width(), plot.height());
    constexpr int groups = 4;
    for (int grp = 0; grp < groups; ++grp) {
        InkLines lines{{}, ink, width, false};
        lines.colour.a = std::uint8_t(std::lround(ink.a * double(grp + 1) / groups));
        // Steps tick - kTrail + 1 ... tick, this group's, and the one before to join the last.
        const std::int64_t first = run.tick - kTrail + 1 + grp * kTrail / groups,
                           last = run.tick - kTrail + (grp + 1) * kTrail / groups;
        lines.lines.reserve(n);
        std::vector<double> piece;
        piece.reserve(2 * std::size_t(last - first + 2));
        const auto keep = [&] { // a piece of two points or more, in a vector of its own size
            if (piece.size() >= 4) lines.lines.push_back({std::vector<double>(piece.begin(), piece.end())});
            piece.clear();
        };
        for (std::size_t k = 0; k < n; ++k) {
            for (std::int64_t st = grp == 0 ? first : first - 1; st <= last; ++st) {
                const float* p = &run.ring[(slot(st) * n + k) * 2];
                const std::size_t m = piece.size();
                const double dx = m >= 2 ? p[0] - piece[m - 2] : 0, dy = m >= 2 ? p[1] - piece[m - 1] : 0;
                if (std::isnan(p[0]) || dx * dx + dy * dy > jump * jump) {
                    keep();
                    if (std::isnan(p[0])) continue;
                }
                piece.push_back(p[0]);
                piece.push_back(p[1]);
            }
            keep();
        }
        out.push_back(std::move(lines));
    }
}

} // namespace strata::detail
