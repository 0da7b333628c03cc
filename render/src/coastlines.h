#pragma once
// Coastlines from GSHHS shapefiles (Debian's python-cartopy-data, LGPL-3+), read with shapelib:
// the shorelines (level 1) at each resolution found, as lines of longitude/latitude in degrees
// (longitudes in [-180, 180]). Loaded once per process on first use.
#include <string>
#include <vector>

namespace strata::detail {

// One line of a shoreline, its points in order, with its bounding box.
struct LonLatLine {
    std::vector<double> lon, lat;
    double lonMin = 0, lonMax = 0, latMin = 0, latMax = 0;
};

// One resolution of the GSHHS shorelines.
struct CoastLevel {
    char resolution = 'c'; // c(rude), l(ow), i(ntermediate), h(igh), f(ull)
    double km = 25;        // its nominal resolution (GSHHS: 25, 5, 1, 0.2, 0.04 km)
    std::string path;
    std::vector<LonLatLine> lines;
};

// The polygons of the shapefile at `path` as closed lines, with the edges that are no coast
// left out: those along the ±180° meridian (where GSHHS cuts Eurasia in two) and those that
// reach the south pole (where it cuts Antarctica at 0° and 180° and closes it along -90°). Throws IoError
// naming the file when it cannot be read, is not a polygon or line shapefile, or holds a non-finite or
// out-of-range point.
std::vector<LonLatLine> readCoastShapefile(const std::string& path);

// Where the shapefiles are: $STRATA_COASTLINES_DIR, else Debian's cartopy data folder
// (/usr/share/cartopy/data/shapefiles/gshhs).
std::string coastlineDirectory();

// The levels found under coastlineDirectory() ({c,l,i,h,f}/GSHHS_?_L1.shp), coarsest first;
// read on the first call (thread-safe). Empty when there are none; a file that is there but
// unreadable throws IoError (each call throws again).
const std::vector<CoastLevel>& coastLevels();

} // namespace strata::detail
