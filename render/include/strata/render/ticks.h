#pragma once
// Axis and colour-bar ticks: "nice" values (1, 2, 2.5, 5 × 10^k) with labels of just enough
// digits, and calendar ticks (years, months, days, hours) for time axes.
#include <string>
#include <vector>

#include "strata/core/coordinate.h"
#include "strata/render/grid_geometry.h"

namespace strata {

struct Tick {
    double value = 0;
    std::string label;
};

// The step between about `target` ticks over a span (1, 2, 2.5 or 5 × 10^k).
double niceStep(double span, int target);
// Ticks at multiples of niceStep inside [lo, hi] (either order; both ends included when they
// fall on a multiple). Empty for a non-finite or empty interval.
std::vector<Tick> niceTicks(double lo, double hi, int target = 6);
// Ticks for angles in degrees: steps of 1, 2, 5, 10, 15, 30, 45, 60 or 90 (and 180, 360)
// for spans of ten degrees or more, niceTicks below.
std::vector<Tick> degreeTicks(double lo, double hi, int target = 6);

// niceTicks at whole numbers only (for axes of indices): no tick between two indices.
std::vector<Tick> integerTicks(double lo, double hi, int target = 6);

// A tick value written with the decimals its step needs, the same for every tick of an axis:
// step 0.25 → "1.25", "1.50"; step 10 → "20"; exponent notation ("1e+06", "2.5e-05") for
// very large or small magnitudes. Never "-0".
std::string formatTick(double value, double step);

// Ticks at calendar boundaries on a time axis whose values are in time.units: whole years
// (1, 2, 5, 10, … apart), months (1, 2, 3, 6), days (1, 2, 5, 10), hours (1, 3, 6, 12),
// minutes or seconds, chosen so that there are at most about `target`. Labels are written to
// the tick's resolution: "1850", "1850-03", "1850-03-16", "1850-03-16 06:00".
std::vector<Tick> dateTicks(double lo, double hi, const TimeAxis& time, int target = 6);

// The ticks of a drawn axis over [lo, hi]: dates on a time axis, whole numbers on an axis of
// indices, degree steps on one in degrees, nice values otherwise.
std::vector<Tick> axisTicks(const AxisGrid& axis, double lo, double hi, int target);
// How many ticks `pixels` of axis hold with about `perTick` pixels each (2 to 10).
int tickTarget(double pixels, double perTick);

} // namespace strata
