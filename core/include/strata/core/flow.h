#pragma once
// Vector fields over a 2-D frame's grid: the (u, v) pairs a dataset holds (found by their CF
// standard names), their values at points, streamlines traced through them, and particles
// advected by them — on the frames' device. A CUDA pair is sampled, traced and advected there;
// only the samples, the traces and the particles come to the host, never the fields.
//
// Positions are in index space, as isolines are: x the column, y the row, a sample at each
// whole (x, y). Between samples a field is bilinear; a point whose four samples are not all
// there (NaN, or past the grid) has no value.
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/buffer.h"
#include "strata/core/data_array.h"

namespace strata {

class Dataset;

// ---- The pair ----

// Two variables that are the components of one vector: u eastward and v northward (earth
// relative), or along the grid's x and y (grid relative, as CF's x_wind and y_wind are).
struct VectorPair {
    std::string u, v;
    bool gridRelative = false;
    friend bool operator==(const VectorPair&, const VectorPair&) = default;
};

// The pairs in `ds`, in file order of their u: by CF standard_name, a name with the word
// "eastward" paired with the same name with "northward" (eastward_wind, northward_wind), one with
// the word "x" with the same with "y" (x_wind, y_wind; sea_water_x_velocity), grid relative; then,
// among variables with no standard name, the names that differ only in a leading u and v (u10
// and v10, uas and vas, uwnd and vwnd), earth relative. Both of a pair have the same dims.
std::vector<VectorPair> findVectorPairs(const Dataset& ds);

// Why u and v cannot be drawn as one vector: not 2-D, or on different grids (dims, sizes or
// coordinate values), both grids named. Empty when they can.
std::string vectorPairProblem(const DataArray& u, const DataArray& v);

// A variable's grid in a message: "'zg' (time 12, lat 73, lon 144)".
std::string describeGrid(const DataArray& a);
// The same dims, sizes and index coordinate values (a coordinate on one dim of one and not
// the other differs).
bool sameGrid(const DataArray& a, const DataArray& b);

// How a vector pair is drawn over a frame (the image view's settings, --vectors).
enum class VectorStyle {
    None,
    Arrows,      // scaled by speed, with a reference arrow
    Barbs,       // in knots, by the WMO's convention
    Streamlines, // evenly spaced, traced on the pair's device
    Particles,   // a still of particles advected on the pair's device, with their trails
};
// "arrows", "barbs", "streamlines", "particles" (and "none"); throws ValueError listing them.
VectorStyle parseVectorStyle(std::string_view text);
std::string toString(VectorStyle style);

// ---- Index space to speed ----

// How far a unit of u and of v moves a point in index space: dx/dt = u · xScale[x] · rowScale[y],
// dy/dt = v · yScale[y], at the nearest column x and row y (an empty table is all ones). For a
// longitude/latitude grid, with u and v in metres a second: xScale = 1 / (R · Δλ) a column,
// rowScale = 1 / cos φ a row, yScale = 1 / (R · Δφ) a row (radians), so that t is in seconds.
struct FlowMetric {
    std::vector<double> xScale, rowScale, yScale;
    // The columns are a whole turn of longitude: a point leaving the last column comes back at
    // the first.
    bool wrapX = false;
};
// The metric of a grid whose columns are longitudes and rows latitudes (degrees, at the cells'
// centres, at least two each), on a sphere of the Earth's mean radius; wrapX when the columns are
// a whole turn, evenly spaced.
FlowMetric lonLatMetric(const std::vector<double>& lon, const std::vector<double>& lat);
// Axes in their own units (projection metres, or plain indices): one over each step.
FlowMetric axisMetric(const std::vector<double>& x, const std::vector<double>& y);

// ---- Samples ----

// u and v at index points xy (x0, y0, x1, y1, ...), bilinear; NaN for a point without a value.
// The fields are read where they are (both on one device); the samples come to the host.
struct FlowSamples {
    std::vector<double> u, v;
};
FlowSamples sampleFlow(const DataArray& u, const DataArray& v, const std::vector<double>& xy,
                       bool wrapX = false);

// ---- Streamlines ----

// From each seed (index space; x0, y0, ...) the streamline both ways: steps of `step` index units
// along the direction (u, v) has through `metric` (midpoint rule), until the line leaves the
// grid, meets a point without a value or a still one, or takes `maxSteps` steps. trace(s, 0) runs
// forward (with the flow) and trace(s, 1) backward, each from the seed itself (its first point).
// A point is kept every `every` steps, and the last one reached: the steps stay short for the
// integral's sake while a line drawn in pixels needs fewer points.
struct StreamlineTraces {
    std::int64_t seeds = 0, maxSteps = 0, every = 1;
    std::int64_t capacity = 0;       // points a trace can hold: ceil(maxSteps / every) + 1
    std::vector<float> xy;           // seed s, way w, point k: at 2 · ((2s + w) · capacity + k)
    std::vector<std::int32_t> count; // points in each trace (0: the seed has no value), 2 a seed
    const float* trace(std::int64_t s, int way) const {
        return xy.data() + 2 * (std::size_t(2 * s + way) * std::size_t(capacity));
    }
    std::int32_t points(std::int64_t s, int way) const { return count[std::size_t(2 * s + way)]; }
};
StreamlineTraces traceStreamlines(const DataArray& u, const DataArray& v, const FlowMetric& metric,
                                  const std::vector<double>& seeds, double step, std::int64_t maxSteps,
                                  std::int64_t every = 1);

// Evenly spaced streamlines, after Jobard and Lefer (1997), from candidate lines in a plane (the
// screen's pixels for the view; x0, y0, ...), added in batches (seeds from a coarse lattice
// first, then finer ones where there is still room: isFree). Each batch is taken longest first;
// each line grows from its seed point both ways, each way up to the first point that comes
// nearer than `dtest` to a line already kept, or to itself further than 3 · dtest along it (a
// spiral's next turn), and is kept when it is at least `minLength` long. Distances are checked
// on a grid of cells at least `dtest` wide over the rectangle (x0, y0)-(x1, y1) against the kept
// lines' points, which are first put no further than dtest / 2 apart along each line. Points
// outside the rectangle are checked too, in its edge cells (correct, only slower).
class EvenSpacing {
public:
    // Throws ValueError for a spacing not above 0.
    EvenSpacing(double dtest, double minLength, double x0, double y0, double x1, double y1);
    // No kept line within dtest of (x, y).
    bool isFree(double x, double y) const;
    // Candidate lines, longest first, each grown from its point seeds[k] (its first point
    // without one).
    void add(std::vector<std::vector<double>> lines, std::vector<std::size_t> seeds = {});
    // One candidate of n points read only as far as it grows, from point `seed`: pointAt(k, x, y)
    // gives point k, false where there is none (the line ends before it). A step longer than
    // `jump` (a seam) ends it too. True when it is kept.
    using PointAt = std::function<bool(std::size_t k, double& x, double& y)>;
    bool grow(std::size_t n, std::size_t seed, const PointAt& pointAt, double jump = HUGE_VAL);
    const std::vector<std::vector<double>>& lines() const { return kept_; }

private:
    // Points by cell: a list a cell, through `next` (-1 ends it).
    struct Point {
        double x, y, along;
        std::int32_t next;
    };
    struct Cells {
        std::vector<std::int32_t> head;
        std::vector<Point> points;
    };
    std::size_t cellOf(double x, double y) const;
    void put(Cells& c, double x, double y, double along);
    bool nearKept(double x, double y) const;
    bool nearOwn(double x, double y, double along) const;
    double dtest_, minLength_, x0_, y0_, cell_;
    std::int64_t nx_ = 1, ny_ = 1;
    std::vector<std::vector<double>> kept_;
    Cells kept_cells_, own_; // the kept lines' points; the candidate's (x, y, along)
    std::vector<std::size_t> ownTouched_;
};
// One batch of candidates grown from their first points: EvenSpacing's lines.
std::vector<std::vector<double>> evenlySpaced(std::vector<std::vector<double>> candidates, double dtest,
                                              double minLength);

// Evenly spaced streamlines of (u, v) drawn in a plane (the view's pixels): seeds from lattices
// over the rectangle (x0, y0)-(x1, y1) every 4 · dtest, then 2 · dtest, then dtest, each taken
// where EvenSpacing has room, placed in index space by `toIndex` (false: off the grid), traced
// both ways on the pair's device (`step` index units, at most `maxSteps` a way from the first
// lattice, a half and a quarter of that from the finer ones, which fill gaps) and grown in the
// plane from their seeds, longest trace first, each point put there by `toPlane` only when the
// line reaches it (false: not drawn there, and the line ends; a step longer than a quarter of
// the rectangle's shorter side, a seam, ends it too). A point is kept every `every` steps
// (traceStreamlines).
struct StreamPlane {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::function<bool(double x, double y, double& ix, double& iy)> toIndex;
    std::function<bool(double ix, double iy, double& x, double& y)> toPlane;
};
std::vector<std::vector<double>> evenStreamlines(const DataArray& u, const DataArray& v,
                                                 const FlowMetric& metric, const StreamPlane& plane,
                                                 double dtest, double minLength, double step,
                                                 std::int64_t maxSteps, std::int64_t every = 1);

// ---- Particles ----

// A rectangle of index space where particles live: (x0, y0) to (x1, y1), inside the grid. With
// `weights` (columns × rows blocks over it, row-major, each from 0 to 1, not all 0), a particle
// is born in a block with a chance in proportion to its weight (its area on the screen, so that
// they are uniform there): a point of the box drawn at random is kept with its block's weight,
// up to 32 draws. Without, uniformly in index space.
struct ParticleBox {
    double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    std::vector<double> weights;
    int columns = 0, rows = 0;
    friend bool operator==(const ParticleBox&, const ParticleBox&) = default;
};

// A fixed number of particles on one device, advected by a vector pair there by the midpoint
// rule. A particle that leaves the box, meets a point without a value or reaches its age is born
// again at a uniformly random point of the box, aged 0: the count never changes. Random numbers
// are a hash of the seed, the particle and its births, so the host and a device place them alike.
class ParticleSet {
public:
    // `count` particles on `device`, all at (0, 0) until seeded. Throws ValueError for a count
    // below 1.
    ParticleSet(std::int64_t count, std::uint64_t seed, Device device = Device::host());
    std::int64_t size() const { return count_; }
    Device device() const { return state_.device(); }

    // Every particle born at a random point of `box`, of a random age below maxAge (so that they
    // do not all die together). Throws ValueError for an empty box.
    void seed(const ParticleBox& box, std::int32_t maxAge);
    // `steps` steps of `dt` (time: t in FlowMetric's sense) through (u, v), which are on this set's
    // device, with the particles kept in `box`. With `trails`, the positions after each step are
    // written there, step by step (steps × size() × 2), with NaN for a particle born in that step
    // (so that its trail breaks there). Throws ValueError for fields on another device or grid.
    void advect(const DataArray& u, const DataArray& v, const FlowMetric& metric, double dt, int steps,
                const ParticleBox& box, std::int32_t maxAge, std::vector<float>* trails = nullptr);

    struct Host {
        std::vector<double> x, y;
        std::vector<std::int32_t> age;
        std::vector<std::uint32_t> births;
    };
    Host toHost() const; // copies the particles to the host

private:
    std::int64_t count_ = 0;
    std::uint64_t seed_ = 0;
    Buffer state_; // x, y (double a particle each), then age (int32), births (uint32)
};

} // namespace strata
