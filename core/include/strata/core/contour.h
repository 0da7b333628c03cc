#pragma once
// Contours of a 2-D frame: which levels (automatic nice numbers, a count, a list, or a step from
// a base, as --contours spells them), and the isolines at those levels by marching squares, in
// the frame's index space, on the frame's device: a CUDA frame is contoured there, and only its
// segments come to the host.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/data_array.h"

namespace strata {

// How the levels are chosen.
struct ContourSpec {
    enum class Kind { Auto, Count, List, Step };
    Kind kind = Kind::Auto;
    int count = 10;             // Count: this many, evenly inside the range
    std::vector<double> values; // List: these, increasing
    double step = 1, base = 0;  // Step: base + k · step
    friend bool operator==(const ContourSpec&, const ContourSpec&) = default;
};

// "auto", "N" (a count, 1 to 1000), "v1,v2,..." (increasing; one level: "3.5", or "5," for a
// whole one) or "step:base" (step > 0). Throws ValueError saying what is wrong ("the levels 5,3
// are not increasing").
ContourSpec parseContourSpec(std::string_view text);
std::string toString(const ContourSpec& spec); // as parseContourSpec reads it

// The levels within the open range (lo, hi): Auto, nice numbers (1, 2, 2.5 or 5 times a power of
// ten apart) about ten of them; Count, that many evenly spaced inside; List, those inside; Step,
// base + k · step inside (at most 1000). None when the range is empty, not finite or a point.
std::vector<double> contourLevels(const ContourSpec& spec, double lo, double hi);

// The segments marching squares cuts in a 2-D frame (dims (y, x)) at `levels` (increasing),
// cell by cell in row-major order, computed on the frame's device; the result is on the host.
// Each segment joins two points on its cell's edges (x the column, y the row). A level crosses
// a cell when its corners are not all on one side (a corner is above when value > level); a
// cell with a NaN corner has none. A saddle (corners alternately above and below) is cut as the
// mean of its corners says. link[2·s + e] names the end (2·t + f) of the segment t of the same
// level that end e of segment s meets across its edge, or -1 at the frame's border or missing
// data. Throws ValueError past kMaxContourSegments.
inline constexpr std::int64_t kMaxContourSegments = std::int64_t(1) << 25;
struct ContourSegments {
    std::int64_t ny = 0, nx = 0;
    std::vector<double> xy;          // x0, y0, x1, y1 a segment
    std::vector<std::int32_t> level; // a segment: which of the levels
    std::vector<std::int32_t> link;  // two a segment
    std::size_t size() const { return level.size(); }
};
// With `wrapX` the columns are a whole turn (a global longitude): the last column's cells reach
// over to the first, x running from nx - 1 to nx there, and lines pass the seam unbroken.
ContourSegments contourSegments(const DataArray& frame, const std::vector<double>& levels,
                                bool wrapX = false);

// The isolines of a 2-D frame (dims (y, x)) at `levels`, on any device: polylines of points
// (x, y) in index space, x the column and y the row, each point on a cell edge where the
// value crosses the level (linear between the two samples). A cell with a NaN corner is left
// out, so that lines stop at missing data. A saddle cell (corners alternately above and below)
// joins its edges as the mean of its corners says, the same way wherever it is met. Lines are
// joined across cells; a closed line ends at its first point. joinSegments() joins
// contourSegments()'s result; isolines() does both.
struct Isoline {
    double level = 0;
    std::vector<double> xy; // x0, y0, x1, y1, ...
    bool closed = false;
};
std::vector<Isoline> joinSegments(const ContourSegments& segments, const std::vector<double>& levels);
std::vector<Isoline> isolines(const DataArray& frame, std::vector<double> levels, // in any order
                              bool wrapX = false);

} // namespace strata
