// The image view's vector pair (ImageViewSettings::vectors): why none are drawn, and arrows,
// barbs, streamlines or particles (moving with the view's particleTime; a still when seeded
// afresh) in window pixels, a glyph every so many pixels of the plot whatever the zoom, turned
// into the map's directions.
//
// Each glyph's place is a pixel of a lattice over the plot; the pair is sampled there (on its
// device: only the samples come back) in index space, and its direction worked out in pixels by
// finite differences: an eastward and a northward step of the ground through the map (earth
// relative), or a step along the grid's columns and rows (grid relative, turned to the earth by
// the grid's own longitudes and latitudes, as CF says; or straight onto the axes for a grid that
// is not on the globe).
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "image_content.h"
#include "index_space.h"
#include "map_plan.h"
#include "projection_math.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"
#include "strata/core/format.h"
#include "strata/core/units.h"
#include "vector_glyphs.h"

namespace strata::detail {

std::string ImageContent::vectorProblem() const {
    std::string why = vectorBlocker();
    return why.empty() ? vectorError_ : why;
}

std::string ImageContent::vectorBlocker() const {
    if (settings_.vectors == VectorStyle::None || !frame_) return {};
    if (!frame_->vectorU || !frame_->vectorV) return "no vector pair (u, v) is given to draw";
    const DataArray &u = *frame_->vectorU, &v = *frame_->vectorV;
    if (!u.isLoaded() || !v.isLoaded()) return "vectors are drawn for frames in memory; these are not loaded";
    if (std::string why = vectorPairProblem(u, v); !why.empty()) return why;
    if (!sameGrid(u, frame_->frame))
        return "the vector pair " + describeGrid(u) + " is on another grid than " +
               describeGrid(frame_->frame);
    const bool traced =
        settings_.vectors == VectorStyle::Streamlines || settings_.vectors == VectorStyle::Particles;
    if (traced && curvilinearOn() && !frame_->vectorsGridRelative)
        return "streamlines and particles on a curvilinear grid are traced along its rows and columns: they "
               "need "
               "grid-relative components (x_*, y_*), and '" +
               u.name() + "' is earth relative";
    return {};
}

// Particles moving in the window (ImageViewSettings::particleTime): the set on the pair's
// device, seeded for a view, and each particle's last places in window pixels, a ring of
// kTrail steps (NaN where it was born again or is off the map).
struct ParticleRun {
    struct Seeded { // what the set was seeded for
        std::uint64_t cells = 0;
        const Reprojection* map = nullptr;
        ViewWindow window;
        PixelRect plot;
        double scale = 0, spacing = 0, density = 0;
        Device device;
        std::vector<std::int64_t> shape;
        friend bool operator==(const Seeded&, const Seeded&) = default;
    } seeded;
    std::optional<ParticleSet> set;
    ParticleBox box;
    double dt = 1; // index-space time a step of about 1.5 pixels takes at speed 1
    std::int32_t maxAge = 96;
    std::int64_t tick = 0;   // the step the ring ends at
    std::vector<float> ring; // step st at slot(st) · size · 2: x, y for each particle
};

namespace {

constexpr double kRad = M_PI / 180;

// Where index space (the pair's columns and rows), longitude/latitude and window pixels meet,
// for one view: plain axes, a curvilinear grid's cells, a map, a grid mapping's own CRS.
struct Placement {
    const ViewTransform& t;
    const AxisGrid &x, &y;       // the drawn axes (map metres on a map)
    const AxisGrid &srcX, &srcY; // the frame's own
    const CurvilinearGrid* curv = nullptr;
    const CellLocator* locator = nullptr;
    const Reprojection* map = nullptr;
    const NativeMap* source = nullptr; // the frame's grid mapping, on a map
    bool lonLat = false;               // the frame's axes are longitude and latitude
    bool turn = false;                 // ... making a whole turn

    bool geographic() const { return curv || source || lonLat; }

    bool lonLatAt(double ix, double iy, double& lon, double& lat) const {
        if (curv) {
            detail::lonLatAt(*curv, ix, iy, lon, lat);
            return true;
        }
        if (source) return source->inverse(along(srcX.centres, ix), along(srcY.centres, iy), lon, lat);
        if (!lonLat) return false;
        lon = along(srcX.centres, ix);
        lat = along(srcY.centres, iy);
        return true;
    }

    bool pixelAtLonLat(double lon, double lat, double& px, double& py) const {
        if (map) {
            double mx, my;
            if (!projForward(map->projection().params(), lon * kRad, lat * kRad, mx, my)) return false;
            px = t.pixelX(mx);
            py = t.pixelY(my);
            return true;
        }
        px = t.pixelX(lon);
        py = t.pixelY(lat);
        return true;
    }

    bool pixelAt(double ix, double iy, double& px, double& py) const {
        if (geographic() && (map || curv)) {
            double lon, lat;
            return lonLatAt(ix, iy, lon, lat) && pixelAtLonLat(lon, lat, px, py);
        }
        px = t.pixelX(along(x.centres, ix));
        py = t.pixelY(along(y.centres, iy));
        return true;
    }

    // A longitude in index space: brought within a turn of the axis's first centre, and, on a
    // whole turn, between the last column and the first.
    bool lonIndex(double lon, double& at) const {
        const std::vector<double>& c = srcX.centres;
        if (c.size() < 2) return false;
        const bool up = c.back() >= c.front();
        const double lo = up ? c.front() : c.back();
        const double l = lo + std::fmod(std::fmod(lon - lo, 360.0) + 360.0, 360.0);
        if (indexAlong(c, l, at)) return true;
        if (!turn) return false;
        const double step = (c.back() - c.front()) / double(c.size() - 1);
        at = double(c.size() - 1) + (up ? l - c.back() : c.back() - l + 360) / std::abs(step);
        return at >= double(c.size() - 1) && at < double(c.size());
    }

    bool indexAt(double px, double py, double& ix, double& iy) const {
        const double dx = t.dataX(px), dy = t.dataY(py);
        if (!map) {
            if (curv) {
                const std::int64_t k = locator->find(dx, dy);
                if (k < 0) return false;
                ix = double(k % curv->columns);
                iy = double(k / curv->columns);
                return true;
            }
            return indexAlong(x.centres, dx, ix) && indexAlong(y.centres, dy, iy);
        }
        double lon, lat;
        if (!projInverse(map->projection().params(), dx, dy, lon, lat)) return false;
        lon /= kRad;
        lat /= kRad;
        if (curv) {
            std::int64_t row, col;
            if (!map->sourceCellAt(lon, lat, row, col)) return false;
            ix = double(col);
            iy = double(row);
            return true;
        }
        if (source) {
            double sx, sy;
            return source->forward(lon, lat, sx, sy) && indexAlong(srcX.centres, sx, ix) &&
                   indexAlong(srcY.centres, sy, iy);
        }
        return lonIndex(lon, ix) && indexAlong(srcY.centres, lat, iy);
    }

    // A vector (u, v) at index point (ix, iy): its direction in pixels (unit length); false where
    // it cannot be placed. `southern`: south of the equator.
    bool direction(double ix, double iy, double u, double v, bool gridRelative, double& dx, double& dy,
                   bool& southern) const {
        southern = false;
        double lon, lat, ue = u, vn = v;
        if (geographic() && lonLatAt(ix, iy, lon, lat)) {
            southern = lat < 0;
            if (gridRelative &&
                !gridToEarth([&](double x, double y, double& o, double& a) { return lonLatAt(x, y, o, a); },
                             ix, iy, u, v, ue, vn))
                return false;
            return planeDirection(
                [&](double o, double a, double& x, double& y) { return pixelAtLonLat(o, a, x, y); }, lon, lat,
                ue, vn, dx, dy);
        }
        // Along the axes as they are drawn.
        double ax, ay, bx, by, p0x, p0y;
        const double h = 0.05;
        if (!pixelAt(ix, iy, p0x, p0y) || !pixelAt(ix + h, iy, ax, ay) || !pixelAt(ix, iy + h, bx, by))
            return false;
        const double na = std::hypot(ax - p0x, ay - p0y), nb = std::hypot(bx - p0x, by - p0y);
        if (!(na > 0 && nb > 0)) return false;
        dx = u * (ax - p0x) / na + v * (bx - p0x) / nb;
        dy = u * (ay - p0y) / na + v * (by - p0y) / nb;
        const double n = std::hypot(dx, dy);
        if (!(n > 0) || !std::isfinite(n)) return false;
        dx /= n;
        dy /= n;
        return true;
    }
};

// A particle's trail: its places over this many steps, in a ring: step st at slot(st).
constexpr std::int64_t kTrail = 24;
std::size_t slot(std::int64_t step) { return std::size_t(((step % kTrail) + kTrail) % kTrail); }

// The pair's units ("m s-1") from u's attributes; empty when it has none.
std::string unitsOf(const DataArray& u) { return u.attrs().text("units").value_or(""); }

// One drawing of the pair over the plot: what every style needs, and a style each.
struct Overlay {
    const Placement& place;
    const DataArray &u, &v;
    bool gridRelative = false;
    PixelRect plot;
    double s = 1, spacing = 36; // device pixels a logical one; between glyphs
    Rgba8 ink;
    double width = 1;
    FlowMetric metric;
    // Index-space lines in window pixels (ImageContent::pixelLines), each piece with its line.
    std::function<std::vector<PixelPolyline>(const std::vector<const std::vector<double>*>&,
                                             std::vector<std::size_t>&)>
        toPixels;
    std::vector<InkLines>& out;
    std::vector<TextItem>& labels;

    // A point every `step` pixels over the plot, and each in index space.
    void lattice(double step, std::vector<double>& pixels, std::vector<double>& index) const {
        for (double py = plot.y0 + step / 2; py < plot.y1; py += step)
            for (double px = plot.x0 + step / 2; px < plot.x1; px += step) {
                double ix, iy;
                if (!place.indexAt(px, py, ix, iy)) continue;
                pixels.insert(pixels.end(), {px, py});
                index.insert(index.end(), {ix, iy});
            }
    }

    // Pixels a step of one index unit spans (the most over the first points: steps of about a
    // pixel stay within one).
    double pixelsPerIndex(const std::vector<double>& index) const {
        double best = 0;
        for (std::size_t k = 0; k + 1 < index.size() && k < 64; k += 2) {
            double p0x, p0y, p1x, p1y, p2x, p2y;
            if (place.pixelAt(index[k], index[k + 1], p0x, p0y) &&
                place.pixelAt(index[k] + 0.5, index[k + 1], p1x, p1y) &&
                place.pixelAt(index[k], index[k + 1] + 0.5, p2x, p2y))
                best = std::max(
                    {best, 2 * std::hypot(p1x - p0x, p1y - p0y), 2 * std::hypot(p2x - p0x, p2y - p0y)});
        }
        return best > 0 ? best : 1.0;
    }

    void inkGlyphs(Glyphs& g) {
        out.push_back({std::move(g.lines), ink, width, false});
        out.push_back({std::move(g.fills), ink, width, true});
    }

    TextItem legend(std::string text) const {
        TextItem label = textAt(std::move(text), plot.x1 - 8 * s, plot.y0 + 10 * s, kLabelSize * s,
                                Align::Right, VAlign::Centre);
        label.maxWidth = plot.width() - 16 * s;
        label.halo = true;
        return label;
    }

    // Arrows or barbs on the lattice, each turned into the view's directions.
    void glyphs(bool barbs) {
        std::vector<double> pixels, index;
        lattice(spacing, pixels, index);
        const FlowSamples samples = sampleFlow(u, v, index, place.turn);
        struct Placed {
            double x, y, dx, dy, speed;
            bool southern;
        };
        std::vector<Placed> placed;
        std::vector<double> speeds;
        for (std::size_t k = 0; k < samples.u.size(); ++k) {
            const double su = samples.u[k], sv = samples.v[k];
            if (std::isnan(su) || std::isnan(sv)) continue;
            Placed p{pixels[2 * k], pixels[2 * k + 1], 0, 0, std::hypot(su, sv), false};
            if (!place.direction(index[2 * k], index[2 * k + 1], su, sv, gridRelative, p.dx, p.dy,
                                 p.southern))
                continue;
            placed.push_back(p);
            speeds.push_back(p.speed);
        }
        Glyphs g;
        const std::string units = unitsOf(u);
        if (!barbs) {
            const double ref = referenceSpeed(speeds), length = 0.9 * spacing, head = 0.28 * spacing;
            if (ref > 0) {
                for (const Placed& p : placed)
                    addArrow(g, p.x, p.y, p.dx * length * p.speed / ref, p.dy * length * p.speed / ref, head);
                // The reference arrow, bottom right, its speed left of it.
                const double y = plot.y0 + 10 * s, x1 = plot.x1 - 8 * s;
                addArrow(g, x1 - length, y, length, 0, head);
                TextItem label = legend(formatNumber(ref) + (units.empty() ? "" : " " + units));
                label.x = x1 - length - 6 * s;
                label.maxWidth = 0;
                labels.push_back(std::move(label));
            }
        } else {
            // In knots: from the pair's units where udunits knows them, else taken as m s-1.
            UnitConversion toKnots;
            bool assumed = false;
            try {
                toKnots = unitConversion(units.empty() ? "m s-1" : units, "knots");
                assumed = units.empty();
            } catch (const ValueError&) {
                toKnots = unitConversion("m s-1", "knots");
                assumed = true;
            }
            for (const Placed& p : placed)
                addBarb(g, p.x, p.y, p.dx, p.dy, toKnots.apply(p.speed), 0.8 * spacing, p.southern);
            labels.push_back(
                legend("barbs in knots" + std::string(assumed ? " (" + u.name() + " taken as m s-1)" : "")));
        }
        inkGlyphs(g);
    }

    // Evenly spaced streamlines a third of the spacing apart, each with a head at its middle.
    void streamlines() {
        const double dsep = spacing / 3;
        std::vector<double> pixels, index;
        lattice(dsep, pixels, index);
        // Steps of about 1.5 pixels, lines up to about the plot's longer side each way, drawn
        // through every other point.
        const double step = std::clamp(1.5 / pixelsPerIndex(index), 1e-3, 0.5);
        const auto maxSteps =
            std::int64_t(std::clamp(std::max(plot.width(), plot.height()) / 1.5, 50.0, 1500.0));
        const StreamPlane plane{
            plot.x0, plot.y0, plot.x1, plot.y1,
            [&](double x, double y, double& ix, double& iy) { return place.indexAt(x, y, ix, iy); },
            // A line ends a little beyond the plot: what lies further is not seen.
            [&, margin = 2 * dsep](double ix, double iy, double& x, double& y) {
                return place.pixelAt(ix, iy, x, y) && x > plot.x0 - margin && x < plot.x1 + margin &&
                       y > plot.y0 - margin && y < plot.y1 + margin;
            }};
        Glyphs g;
        for (const auto& l : evenStreamlines(u, v, metric, plane, dsep, spacing, step, maxSteps, 2)) {
            g.lines.push_back({l});
            // A head at the middle, along the line (which runs with the flow).
            const std::size_t mid = (l.size() / 4) * 2;
            if (mid < 2 || mid + 1 >= l.size()) continue;
            const double ax = l[mid - 2], ay = l[mid - 1], bx = l[mid], by = l[mid + 1];
            const double n = std::hypot(bx - ax, by - ay);
            if (!(n > 0)) continue;
            const double head = std::max(5 * s, 0.22 * spacing), ux = (bx - ax) / n, uy = (by - ay) / n;
            Glyphs h;
            addArrow(h, bx - 2 * head * ux, by - 2 * head * uy, 2 * head * ux, 2 * head * uy, head);
            for (auto& f : h.fills) g.fills.push_back(std::move(f));
        }
        inkGlyphs(g);
    }

    // Particles advected over the visible part of the grid, each drawn as its trail over its last
    // kTrail steps (of about 1.5 pixels times `speed`), in four groups, older ones fainter. The
    // run keeps them between calls: seeded afresh for a new view (grid, window, plot, density,
    // device) or a step it cannot reach, else moved on to step `tick` through the pair as it is
    // now (the time dim may play under them). Step 0 of a fresh run is the still that export
    // and the command line draw.
    void particles(ParticleRun& run, const ParticleRun::Seeded& view, std::int64_t tick, double speed) {
        const bool fresh =
            !run.set || !(run.seeded == view) || tick < run.tick || tick - run.tick > 4 * kTrail;
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
    bool seedParticles(ParticleRun& run, const ParticleRun::Seeded& view, std::int64_t tick, double speed) {
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
        std::nth_element(speeds.begin(), speeds.begin() + std::ptrdiff_t(speeds.size() * 9 / 10),
                         speeds.end());
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
    void screenWeights(ParticleBox& box) const {
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
    void drawTrails(const ParticleRun& run) {
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
                if (piece.size() >= 4)
                    lines.lines.push_back({std::vector<double>(piece.begin(), piece.end())});
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
};

} // namespace

std::shared_ptr<const std::vector<InkLines>> ImageContent::vectorGlyphs(const ViewLayout& layout,
                                                                        const ViewWindow& window) const {
    if (settings_.vectors == VectorStyle::None || !frame_ || layout.plot.width() <= 0 ||
        !vectorBlocker().empty()) {
        vectorLabels_.clear();
        return nullptr;
    }
    VectorKey key{frameVersion_,
                  cellsVersion_,
                  map_.get(),
                  window,
                  layout.plot,
                  layout.scale,
                  settings_.vectorSpacing,
                  settings_.vectors,
                  settings_.vectorColour,
                  settings_.particleDensity,
                  settings_.particleSpeed,
                  settings_.vectors == VectorStyle::Particles ? settings_.particleTime : 0};
    if (vectors_ && vectorKey_ == key) return vectorError_.empty() ? vectors_ : nullptr;
    vectorError_.clear();
    vectorLabels_.clear();
    const ViewTransform t(layout.plot, window);
    const CurvilinearGrid* curv = curvilinearOn() ? curv_.get() : nullptr;
    std::unique_ptr<NativeMap> source;
    if (map_ && map_->sourceCrs() && !curv) source = std::make_unique<NativeMap>(*map_->sourceCrs());
    const AxisGrid &gx = map_ ? srcX_ : x_, &gy = map_ ? srcY_ : y_;
    const bool lonLat = !curv && !source && (map_ || isLonLatView(srcX_, srcY_));
    const Placement place{t,
                          x_,
                          y_,
                          srcX_,
                          srcY_,
                          curv,
                          locator_.get(),
                          map_.get(),
                          source.get(),
                          lonLat,
                          lonLat && wholeTurn(gx, gy)};
    auto out = std::make_shared<std::vector<InkLines>>();
    const double s = layout.scale;
    // How far a unit of speed moves a point in index space (the metric of the source grid).
    const FlowMetric metric = curv     ? FlowMetric{}
                              : lonLat ? lonLatMetric(srcX_.centres, srcY_.centres)
                                       : axisMetric(srcX_.centres, srcY_.centres);
    Overlay o{place,
              *frame_->vectorU,
              *frame_->vectorV,
              frame_->vectorsGridRelative,
              layout.plot,
              s,
              std::max(8.0, settings_.vectorSpacing) * s,
              settings_.vectorColour,
              std::max(1.0, std::round(s)),
              metric,
              [&](const std::vector<const std::vector<double>*>& lines, std::vector<std::size_t>& owner) {
                  return pixelLines(lines, t, place.turn, owner);
              },
              *out,
              vectorLabels_};
    try {
        switch (settings_.vectors) {
        case VectorStyle::Arrows:
            o.glyphs(false);
            break;
        case VectorStyle::Barbs:
            o.glyphs(true);
            break;
        case VectorStyle::Streamlines:
            o.streamlines();
            break;
        default: {
            if (!particles_.run) particles_.run = std::make_shared<ParticleRun>();
            const ParticleRun::Seeded view{cellsVersion_,
                                           map_.get(),
                                           window,
                                           layout.plot,
                                           s,
                                           settings_.vectorSpacing,
                                           std::clamp(settings_.particleDensity, 0.05, 20.0),
                                           frame_->vectorU->device(),
                                           frame_->vectorU->shape()};
            o.particles(*particles_.run, view, std::int64_t(settings_.particleTime),
                        std::clamp(settings_.particleSpeed, 0.05, 20.0));
            break;
        }
        }
    } catch (const Error& e) { // the device failed, or the pair could not be read: said, none drawn
        vectorError_ = e.what();
        vectorLabels_.clear();
        vectors_ = std::make_shared<const std::vector<InkLines>>();
        vectorKey_ = std::move(key);
        return nullptr;
    }
    vectors_ = std::move(out);
    vectorKey_ = std::move(key);
    return vectors_;
}

} // namespace strata::detail
