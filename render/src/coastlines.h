#pragma once
// The shorelines the coastline overlay draws, as lines of longitude/latitude in degrees
// (longitudes in [-180, 180]), at up to five levels of detail. Preferred: GMT's binned GSHHG
// files (Debian's gmt-gshhg-low/-high/-full, read per bin by strata/io/gshhg.h, lake shores
// included); else the GSHHS shapefiles of Debian's python-cartopy-data (read whole, with
// shapelib). Listing the levels reads no file; a level's lines are read when first asked for.
#include <memory>
#include <string>
#include <vector>

namespace strata::detail {

// One line of a shoreline, its points in order, with its bounding box.
struct LonLatLine {
    std::vector<double> lon, lat;
    double lonMin = 0, lonMax = 0, latMin = 0, latMax = 0;
};

// A box of longitude and latitude in degrees; longitudes may run over any span (0–360, -180–180,
// or beyond: a box 360° wide or more holds every longitude).
struct LonLatBox {
    double lonMin = -180, lonMax = 180, latMin = -90, latMax = 90;
};

// Reads one level's lines; thread-safe.
class CoastReader {
public:
    virtual ~CoastReader() = default;
    // The lines meeting `box` (and maybe more: whole bins, or the whole level), shared: asked
    // again for the same bins, the same object. Throws IoError or NetcdfError naming the file.
    virtual std::shared_ptr<const std::vector<LonLatLine>> lines(const LonLatBox& box) const = 0;
    // "GSHHG 2.3.7" (the file's version, read on first use), "GSHHS shapefile".
    virtual std::string origin() const = 0;
};

// One resolution of the shorelines.
struct CoastLevel {
    char resolution = 'c'; // c(rude), l(ow), i(ntermediate), h(igh), f(ull)
    double km = 25;        // its nominal resolution (GSHHS: 25, 5, 1, 0.2, 0.04 km)
    std::string path;
    std::string folder;  // the folder the settings name (the GSHHG or the shapefile one)
    std::string package; // the Debian package that installs it
    std::shared_ptr<const CoastReader> reader;
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
// Where the GSHHG binned files are: $STRATA_GSHHG_DIR, else Debian's /usr/share/gmt-gshhg.
std::string gshhgDirectory();

// The levels, coarsest first: those of `gshhgDir` (binned_GSHHS_?.nc) when it holds any, else
// those of `shapefileDir` ({c,l,i,h,f}/GSHHS_?_L1.shp). Reads no file; empty when none is there.
std::vector<CoastLevel> findCoastLevels(const std::string& gshhgDir, const std::string& shapefileDir);

// findCoastLevels of the two folders the settings name, found on the first call (thread-safe).
const std::vector<CoastLevel>& coastLevels();

// What the user is told a level is: "GSHHG 2.3.7 high (0.2 km), /usr/share/gmt-gshhg
// (gmt-gshhg-high)".
std::string describeCoastLevel(const CoastLevel& level);

} // namespace strata::detail
