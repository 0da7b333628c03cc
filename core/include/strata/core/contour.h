#pragma once
// Contours of a 2-D frame: which levels (automatic nice numbers, a count, a list, or a step from
// a base, as --contours spells them), and the isolines at those levels by marching squares, in
// the frame's index space. The host path; the window and the device path build on it.
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

// The isolines of a 2-D frame on the host (dims (y, x)) at `levels`: polylines of points
// (x, y) in index space, x the column and y the row, each point on a cell edge where the
// value crosses the level (linear between the two samples). A cell with a NaN corner is left
// out, so that lines stop at missing data. A saddle cell (corners alternately above and below)
// joins its edges as the mean of its corners says, the same way wherever it is met. Lines are
// joined across cells; a closed line ends at its first point.
struct Isoline {
    double level = 0;
    std::vector<double> xy; // x0, y0, x1, y1, ...
    bool closed = false;
};
std::vector<Isoline> isolines(const DataArray& frame, const std::vector<double>& levels);

} // namespace strata
