#pragma once
// One drawing of the image view's vector pair over the plot (image_vectors.cpp: why none, arrows,
// barbs, streamlines; image_particles.cpp: particles): where index space, longitude/latitude
// and window pixels meet for a view (Placement), what every style needs (Overlay), and the
// particles kept between the window's ticks (ParticleRun).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "annotation_plan.h"
#include "index_space.h"
#include "map_plan.h"
#include "native_map.h"
#include "projection_math.h"
#include "strata/core/flow.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/projection.h"
#include "vector_glyphs.h"

namespace strata::detail {

constexpr double kVectorRad = M_PI / 180;

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
            if (!projForward(map->projection().params(), lon * kVectorRad, lat * kVectorRad, mx, my))
                return false;
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
            double lon = 0, lat = 0;
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
        double lon = 0, lat = 0;
        if (!projInverse(map->projection().params(), dx, dy, lon, lat)) return false;
        lon /= kVectorRad;
        lat /= kVectorRad;
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
inline std::size_t slot(std::int64_t step) { return std::size_t(((step % kTrail) + kTrail) % kTrail); }

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

    // Arrows or barbs on the lattice, each turned into the view's directions (image_vectors.cpp).
    void glyphs(bool barbs);
    // Evenly spaced streamlines a third of the spacing apart, each with a head at its middle.
    void streamlines();
    // Particles (image_particles.cpp): moved on to step `tick` of the run, seeded afresh for a
    // new view, and drawn as trails.
    void particles(ParticleRun& run, const ParticleRun::Seeded& view, std::int64_t tick, double speed);

private:
    bool seedParticles(ParticleRun& run, const ParticleRun::Seeded& view, std::int64_t tick, double speed);
    void screenWeights(ParticleBox& box) const;
    void drawTrails(const ParticleRun& run);
};

} // namespace strata::detail
