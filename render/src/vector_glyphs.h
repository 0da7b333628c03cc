#pragma once
// The shapes a vector is drawn as, in window pixels (y up): an arrow along it, and a wind barb
// by the WMO's convention. Pure geometry: the overlay (image_vectors.cpp) places them.
#include <functional>
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

// A point's place in a plane (a map's metres, the view's pixels) from its longitude and latitude
// (degrees); false where it has none.
using LonLatPlace = std::function<bool(double lon, double lat, double& x, double& y)>;

// The direction (unit length) in the plane of `place` of a vector ue east, vn north at (lon, lat):
// the images of short ground steps east and west, north and south (0.01°), the Jacobian of the
// map by centred differences. False where a step cannot be placed or the vector is 0.
bool planeDirection(const LonLatPlace& place, double lon, double lat, double ue, double vn, double& dx,
                    double& dy);

// A grid-relative vector (u along the grid's columns, v along its rows) earth relative (ue
// east, vn north), as CF has it: by the directions the grid's x and y take on the ground at
// index point (ix, iy), from its longitudes and latitudes there (`lonLatAt`, by centred
// differences of a twentieth of a cell). False where they cannot be found.
bool gridToEarth(const std::function<bool(double ix, double iy, double& lon, double& lat)>& lonLatAt,
                 double ix, double iy, double u, double v, double& ue, double& vn);

// The reference speed an arrow legend shows: the smallest of 1, 2 or 5 times a power of ten at
// or above the 95th percentile of `speeds` (NaN left out); 0 when there is none above 0.
double referenceSpeed(std::vector<double> speeds);

} // namespace strata::detail
