#pragma once
// One step of flow, for the host loops and the CUDA kernels alike, so that both trace and advect
// the same way: a pair's bilinear value at an index point, its speed in index space through the
// metric, a streamline's and a particle's midpoint step, and the hash that places a particle born
// again.
#include <cmath>
#include <cstdint>

#include "strata/core/array_view.h"
#include "strata/core/dtype.h"

#include "host_device.h"

namespace strata::detail::flow {

using i64 = std::int64_t;

// One component's samples: element (j, i) at p[j·sy + i·sx], of any numeric dtype (u and v may
// differ; the switch is the same for every thread, so it costs a warp nothing).
struct Plane {
    const void* p = nullptr;
    DType type = DType::Float32;
    i64 sy = 0, sx = 0;
    STRATA_HOST_DEVICE double at(i64 j, i64 i) const {
        const i64 k = j * sy + i * sx;
        switch (type) {
        case DType::Int8:
            return double(static_cast<const std::int8_t*>(p)[k]);
        case DType::UInt8:
            return double(static_cast<const std::uint8_t*>(p)[k]);
        case DType::Int16:
            return double(static_cast<const std::int16_t*>(p)[k]);
        case DType::UInt16:
            return double(static_cast<const std::uint16_t*>(p)[k]);
        case DType::Int32:
            return double(static_cast<const std::int32_t*>(p)[k]);
        case DType::UInt32:
            return double(static_cast<const std::uint32_t*>(p)[k]);
        case DType::Int64:
            return double(static_cast<const std::int64_t*>(p)[k]);
        case DType::UInt64:
            return double(static_cast<const std::uint64_t*>(p)[k]);
        case DType::Float32:
            return double(static_cast<const float*>(p)[k]);
        default:
            return static_cast<const double*>(p)[k];
        }
    }
};

// The grid the pair is on and its metric (a null table is all ones).
struct Grid {
    i64 ny = 0, nx = 0;
    bool wrapX = false;
    const double* xScale = nullptr;   // nx
    const double* rowScale = nullptr; // ny
    const double* yScale = nullptr;   // ny
};

inline Plane planeOf(const ArrayView& a) { return {a.data, a.dtype, a.strides[0], a.strides[1]}; }
inline Grid gridOf(const ArrayView& a, bool wrapX, const double* xScale, const double* rowScale,
                   const double* yScale) {
    return {a.shape[0], a.shape[1], wrapX, xScale, rowScale, yScale};
}

// x brought into [0, nx) for wrapping columns; false when x is off a grid that does not wrap
// (or not a number).
STRATA_HOST_DEVICE inline bool placeX(const Grid& g, double& x) {
    if (g.wrapX) {
        if (x >= 0 && x < double(g.nx)) return true; // the usual case: no division
        if (!(x == x) || x - x != 0) return false;
        x = std::fmod(x, double(g.nx));
        if (x < 0) x += double(g.nx);
        if (x >= double(g.nx)) x = 0; // fmod's result a rounding below nx
        return true;
    }
    return x >= 0 && x <= double(g.nx - 1);
}

// (u, v) bilinear at (x, y); false where a sample it needs is missing or the point is off the grid.
STRATA_HOST_DEVICE inline bool valueAt(const Plane& u, const Plane& v, const Grid& g, double x, double y,
                                       double& su, double& sv) {
    if (!(y >= 0 && y <= double(g.ny - 1)) || !placeX(g, x)) return false;
    const i64 lastCell = g.wrapX ? g.nx - 1 : g.nx - 2;
    i64 i = i64(x), j = i64(y);
    if (i > lastCell) i = lastCell;
    if (j > g.ny - 2) j = g.ny - 2;
    const i64 i1 = i + 1 == g.nx ? 0 : i + 1;
    const double fx = x - double(i), fy = y - double(j);
    // A sample of weight 0 is not read: a point on a sample, or on an edge, needs only those it
    // lies between.
    su = sv = 0;
    auto add = [&](double w, i64 jj, i64 ii) {
        if (w == 0) return;
        su += w * u.at(jj, ii);
        sv += w * v.at(jj, ii);
    };
    add((1 - fx) * (1 - fy), j, i);
    add(fx * (1 - fy), j, i1);
    add((1 - fx) * fy, j + 1, i);
    add(fx * fy, j + 1, i1);
    return su == su && sv == sv; // a NaN sample makes it NaN
}

// The pair's velocity in index space at (x, y).
STRATA_HOST_DEVICE inline bool velocityAt(const Plane& u, const Plane& v, const Grid& g, double x, double y,
                                          double& dx, double& dy) {
    double su, sv;
    if (!valueAt(u, v, g, x, y, su, sv)) return false;
    placeX(g, x);
    i64 i = i64(x + 0.5), j = i64(y + 0.5);
    if (i >= g.nx) i = g.wrapX ? 0 : g.nx - 1;
    if (j >= g.ny) j = g.ny - 1;
    dx = su * (g.xScale ? g.xScale[i] : 1.0) * (g.rowScale ? g.rowScale[j] : 1.0);
    dy = sv * (g.yScale ? g.yScale[j] : 1.0);
    return true;
}

// A streamline's step of length h along the direction of the flow (way 0) or against it
// (way 1), by the midpoint rule on the unit direction; false where it ends (no value, or still).
STRATA_HOST_DEVICE inline bool streamStep(const Plane& u, const Plane& v, const Grid& g, double h, double& x,
                                          double& y) {
    double dx, dy;
    if (!velocityAt(u, v, g, x, y, dx, dy)) return false;
    double n = std::sqrt(dx * dx + dy * dy);
    if (!(n > 0)) return false;
    const double mx = x + 0.5 * h * dx / n, my = y + 0.5 * h * dy / n;
    if (!velocityAt(u, v, g, mx, my, dx, dy)) return false;
    n = std::sqrt(dx * dx + dy * dy);
    if (!(n > 0)) return false;
    x += h * dx / n;
    y += h * dy / n;
    return true;
}

// A particle's step of dt by the midpoint rule; false where it has no value on the way.
STRATA_HOST_DEVICE inline bool particleStep(const Plane& u, const Plane& v, const Grid& g, double dt,
                                            double& x, double& y) {
    double dx, dy;
    if (!velocityAt(u, v, g, x, y, dx, dy)) return false;
    const double mx = x + 0.5 * dt * dx, my = y + 0.5 * dt * dy;
    if (!velocityAt(u, v, g, mx, my, dx, dy)) return false;
    x += dt * dx;
    y += dt * dy;
    return true;
}

// SplitMix64's finaliser: a well-mixed 64-bit hash.
STRATA_HOST_DEVICE inline std::uint64_t mix(std::uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

// A uniform number in [0, 1) for (seed, particle, births, which).
STRATA_HOST_DEVICE inline double uniform(std::uint64_t seed, i64 particle, std::uint32_t births, int which) {
    const std::uint64_t h =
        mix(seed ^ mix(std::uint64_t(particle) * 4 + std::uint64_t(which)) ^ (std::uint64_t(births) << 40));
    return double(h >> 11) * (1.0 / 9007199254740992.0);
}

// The box a particle lives in (index space), and its blocks' weights (ParticleBox).
struct Box {
    double x0, y0, x1, y1;
    const double* weight = nullptr; // wx × wy, row-major; null: uniform
    int wx = 0, wy = 0;
};

// Particle state: positions, ages and births (how many times each was born again).
struct Particles {
    double* x;
    double* y;
    std::int32_t* age;
    std::uint32_t* births;
};

// A ParticleSet's bytes: x and y (n doubles each), then age (n int32) and births (n uint32).
STRATA_HOST_DEVICE inline Particles particlesIn(void* state, i64 n) {
    auto* x = static_cast<double*>(state);
    auto* age = reinterpret_cast<std::int32_t*>(x + 2 * n);
    return {x, x + n, age, reinterpret_cast<std::uint32_t*>(age + n)};
}

// Where particle k is born for the `births`-th time: a uniform point of the box, drawn again
// (up to 32 draws, each from its own stream) until its block's weight keeps it.
STRATA_HOST_DEVICE inline void bornAt(const Box& b, std::uint64_t seed, i64 k, std::uint32_t births,
                                      double& x, double& y) {
    for (int t = 0; t < 32; ++t) {
        const std::uint64_t s = t == 0 ? seed : seed ^ mix(0x9e3779b97f4a7c15ull * std::uint64_t(t));
        x = b.x0 + uniform(s, k, births, 0) * (b.x1 - b.x0);
        y = b.y0 + uniform(s, k, births, 1) * (b.y1 - b.y0);
        if (!b.weight) return;
        const int i = int((x - b.x0) / (b.x1 - b.x0) * b.wx), j = int((y - b.y0) / (b.y1 - b.y0) * b.wy);
        const double w = b.weight[(j < b.wy ? j : b.wy - 1) * b.wx + (i < b.wx ? i : b.wx - 1)];
        if (uniform(s, k, births, 3) < w) return;
    }
}

// The box holds (x, y); on wrapping columns spanning the whole turn, x is any column.
STRATA_HOST_DEVICE inline bool inBox(const Box& b, const Grid& g, double x, double y) {
    const bool whole = g.wrapX && b.x1 - b.x0 >= double(g.nx - 1);
    return y >= b.y0 && y <= b.y1 && (whole || (x >= b.x0 && x <= b.x1));
}

// Particle k's `steps` steps; with `trail` (steps × n × 2 floats), its position after each, NaN
// in a step it was born again.
STRATA_HOST_DEVICE inline void advectOne(const Plane& u, const Plane& v, const Grid& g, const Box& box,
                                         std::uint64_t seed, double dt, int steps, std::int32_t maxAge,
                                         Particles p, i64 k, i64 n, float* trail) {
    double x = p.x[k], y = p.y[k];
    std::int32_t age = p.age[k];
    std::uint32_t births = p.births[k];
    for (int s = 0; s < steps; ++s) {
        bool reborn = age >= maxAge;
        if (!reborn) {
            reborn = !particleStep(u, v, g, dt, x, y);
            if (!reborn && g.wrapX) placeX(g, x);
            reborn = reborn || !inBox(box, g, x, y);
        }
        if (reborn) {
            ++births;
            bornAt(box, seed, k, births, x, y);
            age = 0;
        } else {
            ++age;
        }
        if (trail) {
            trail[2 * (i64(s) * n + k)] = reborn ? NAN : float(x);
            trail[2 * (i64(s) * n + k) + 1] = reborn ? NAN : float(y);
        }
    }
    p.x[k] = x;
    p.y[k] = y;
    p.age[k] = age;
    p.births[k] = births;
}

// Seed s's trace one way: its points written from `out` (2 floats each), their count returned.
// Points a trace of maxSteps steps keeps, one every `every` steps and the last: the seed,
// ceil(maxSteps / every) more.
STRATA_HOST_DEVICE inline i64 traceCapacity(i64 maxSteps, i64 every) {
    return (maxSteps + every - 1) / every + 1;
}

STRATA_HOST_DEVICE inline std::int32_t traceOne(const Plane& u, const Plane& v, const Grid& g, double x,
                                                double y, double h, i64 maxSteps, i64 every, float* out) {
    double su, sv;
    if (!valueAt(u, v, g, x, y, su, sv)) return 0;
    out[0] = float(x);
    out[1] = float(y);
    std::int32_t k = 1;
    bool kept = true; // the point reached last is written
    for (i64 s = 1; s <= maxSteps; ++s) {
        if (!streamStep(u, v, g, h, x, y)) break;
        if (g.wrapX) placeX(g, x);
        kept = s % every == 0 || s == maxSteps;
        if (kept) {
            out[2 * k] = float(x);
            out[2 * k + 1] = float(y);
            ++k;
        }
    }
    if (!kept) {
        out[2 * k] = float(x);
        out[2 * k + 1] = float(y);
        ++k;
    }
    return k;
}

} // namespace strata::detail::flow
