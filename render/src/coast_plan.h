#pragma once
// The coastline overlay of a view whose x is longitude and y latitude: which resolution of the
// shorelines to draw at this zoom, and the lines in window pixels, clipped to the plot. Longitude
// axes over [-180, 180], [0, 360] or any other span work alike: each line is drawn at every
// multiple of 360° that brings it into the visible window, so that a view across the seam (or
// one of 0–360) shows every coast once.
#include <memory>
#include <string>
#include <vector>

#include "coastlines.h"
#include "strata/render/grid_geometry.h"
#include "strata/render/view_layout.h"

namespace strata::detail {

// A line in window pixels: x0, y0, x1, y1, ...
struct PixelPolyline {
    std::vector<double> xy;
    friend bool operator==(const PixelPolyline&, const PixelPolyline&) = default;
};

// True when the frame's x axis is a true CF longitude and its y axis a true CF latitude
// (isLongitude, isLatitude of cf_axis.h; a rotated pole's grid axes are not).
bool isLonLatView(const AxisGrid& x, const AxisGrid& y);

// The level to draw of `levels` (coarsest first, as coastLevels() lists them) for a view that
// shows `degreesPerPixel` of longitude per pixel: the coarsest whose resolution is as fine as two
// pixels' width at the equator (111.32 km a degree); the finest there is when none is. -1 for no
// levels. Two pixels, not one: a finer level's detail under two pixels is thinned away anyway,
// and drawing it is not free (the world 1718 pixels wide at GSHHG low is 74k points, 18 ms to
// plan and paint, against 7k and 0.6 ms at crude).
int chooseCoastLevel(const std::vector<CoastLevel>& levels, double degreesPerPixel);

// What to draw over `box` at `degreesPerPixel`: the lines of the level chooseCoastLevel picks
// among those no finer than `finest`, else, when that one cannot be read, of the next coarser
// one that can (`problem` names each file that could not be read, and why). Level -1 and no
// lines when none can be read or there are none.
struct CoastPick {
    std::shared_ptr<const std::vector<LonLatLine>> lines;
    int level = -1; // in `levels`
    std::string problem;
};
CoastPick pickCoast(const std::vector<CoastLevel>& levels, double degreesPerPixel, const LonLatBox& box,
                    char finest = 'f');

// `lines` (longitude, latitude) in window pixels through `t` (x longitude, y latitude), clipped
// to the plot, each drawn at every 360° shift that meets the window. Points closer than `thin`
// pixels to the last one kept are dropped (a line's last point always stays). Without `wrap`,
// each line is drawn once where it is (lines in a map's own x/y, not longitudes).
std::vector<PixelPolyline> planCoast(const std::vector<LonLatLine>& lines, const ViewTransform& t,
                                     double thin = 0.5, bool wrap = true);

} // namespace strata::detail
