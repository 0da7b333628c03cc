#pragma once
// The shapes a vector is drawn as, in window pixels (y up): an arrow along it, and a wind barb
// by the WMO's convention. Pure geometry: the overlay (image_vectors.cpp) places them.
#include <vector>

#include "coast_plan.h" // PixelPolyline

namespace strata::detail {

// Strokes, and closed outlines to fill (a barb's pennants, an arrow's head).
struct Glyphs {
    std::vector<PixelPolyline> lines, fills;
};

// A speed in knots as a barb shows it: rounded to the nearest 5 kn, then as many pennants (50
// kn) as fit, full barbs (10 kn) and a half barb (5 kn) for the rest; calm below 2.5 kn.
struct BarbParts {
    int pennants = 0, barbs = 0, halves = 0;
    bool calm = false;
    friend bool operator==(const BarbParts&, const BarbParts&) = default;
};
BarbParts barbParts(double knots);

// A barb for a wind at (x, y) blowing toward (dx, dy) (any length, pixels, y up) at `knots`: the
// staff `length` pixels long from (x, y) toward where the wind comes from; at its far end the
// pennants, then the barbs and the half barb inwards, a seventh of the staff apart, on the side
// of low pressure — left of the wind's way in the northern hemisphere, right in the southern. A
// half barb alone is set in one place from the end. Calm: a circle around (x, y).
void addBarb(Glyphs& g, double x, double y, double dx, double dy, double knots, double length, bool southern);

// An arrow from (x, y) by (vx, vy) pixels, with a filled head `head` pixels long (at most
// half the arrow). Nothing for an arrow under half a pixel.
void addArrow(Glyphs& g, double x, double y, double vx, double vy, double head);

// The reference speed an arrow legend shows: the smallest of 1, 2 or 5 times a power of ten at
// or above the 95th percentile of `speeds` (NaN left out); 0 when there is none above 0.
double referenceSpeed(std::vector<double> speeds);

} // namespace strata::detail
