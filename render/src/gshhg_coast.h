#pragma once
// A GSHHG binned file (strata/io/gshhg.h) as a coastline level: a box's bins read in runs along
// each row, decoded once and kept (up to a budget of points), so that a regional view of the
// full level reads a few of its 64,800 bins and never the whole 11 million points.
#include <memory>
#include <string>
#include <vector>

#include "coastlines.h"

namespace strata::detail {

// The reader of the file at `path`; nothing is read until lines() or origin() is called.
std::shared_ptr<const CoastReader> makeGshhgReader(std::string path);

// The bins (row * nx + column, sorted) of a grid of `binDegrees` bins, nx around and ny along
// a meridian (row 0 from 90°N down, column 0 from 0°E east), that meet `box` (a box's east or
// north edge on a bin's edge does not meet the bin beyond); a box 360° wide or more meets every
// column. Empty for a box that is not finite or lies off the globe.
std::vector<int> binsMeeting(const LonLatBox& box, double binDegrees, int nx, int ny);

} // namespace strata::detail
