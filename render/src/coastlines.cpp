#include "coastlines.h"

#include <shapefil.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>

#include "gshhg_coast.h"
#include "strata/core/error.h"
#include "strata/core/settings.h"
#include "strata/render/coastline_status.h"

namespace strata::detail {
namespace {

struct ShapeFileCloser {
    void operator()(SHPInfo* h) const { SHPClose(h); }
};
struct ShapeCloser {
    void operator()(SHPObject* o) const { SHPDestroyObject(o); }
};

// An edge GSHHS added to close a polygon, not a coast: along the ±180° meridian or the pole.
bool cutEdge(double lon0, double lat0, double lon1, double lat1) {
    constexpr double eps = 1e-9;
    const bool meridian = std::abs(lon0) >= 180 - eps && lon0 == lon1;
    const bool pole = lat0 <= -90 + eps || lat1 <= -90 + eps; // Antarctica, cut at 0° and 180°
    return meridian || pole;
}

void finish(std::vector<LonLatLine>& out, LonLatLine& l) {
    if (l.lon.size() >= 2) {
        const auto [lo, hi] = std::minmax_element(l.lon.begin(), l.lon.end());
        const auto [bo, to] = std::minmax_element(l.lat.begin(), l.lat.end());
        l.lonMin = *lo;
        l.lonMax = *hi;
        l.latMin = *bo;
        l.latMax = *to;
        out.push_back(std::move(l));
    }
    l = LonLatLine{};
}

} // namespace

std::vector<LonLatLine> readCoastShapefile(const std::string& path) {
    std::unique_ptr<SHPInfo, ShapeFileCloser> h(SHPOpen(path.c_str(), "rb"));
    STRATA_EXPECTS(h, IoError,
                   "cannot read the coastline shapefile " + path + " (missing, or not a shapefile)");
    int count = 0, type = 0;
    SHPGetInfo(h.get(), &count, &type, nullptr, nullptr);
    STRATA_EXPECTS(type == SHPT_POLYGON || type == SHPT_ARC, IoError,
                   "the coastline shapefile " + path + " holds shapes of type " + std::to_string(type) +
                       ", not polygons or lines");
    std::vector<LonLatLine> out;
    for (int i = 0; i < count; ++i) {
        std::unique_ptr<SHPObject, ShapeCloser> o(SHPReadObject(h.get(), i));
        STRATA_EXPECTS(o, IoError,
                       "the coastline shapefile " + path + ": shape " + std::to_string(i) + " is unreadable");
        for (int part = 0; part < std::max(1, o->nParts); ++part) {
            const int begin = o->nParts > 0 ? o->panPartStart[part] : 0;
            const int end = o->nParts > part + 1 ? o->panPartStart[part + 1] : o->nVertices;
            LonLatLine line;
            for (int k = begin; k < end; ++k) {
                const double lon = o->padfX[k], lat = o->padfY[k];
                STRATA_EXPECTS(std::isfinite(lon) && std::isfinite(lat) && std::abs(lon) <= 360 &&
                                   std::abs(lat) <= 90,
                               IoError,
                               "the coastline shapefile " + path + ": shape " + std::to_string(i) +
                                   " has a point off the globe (" + std::to_string(lon) + ", " +
                                   std::to_string(lat) + ")");
                if (!line.lon.empty() && cutEdge(line.lon.back(), line.lat.back(), lon, lat))
                    finish(out, line);
                line.lon.push_back(lon);
                line.lat.push_back(lat);
            }
            finish(out, line);
        }
    }
    return out;
}

std::string coastlineDirectory() { return settings::coastlinesDir(); }
std::string gshhgDirectory() { return settings::gshhgDir(); }

namespace {

// A shapefile's level: read whole on the first call, then shared.
class ShapefileReader : public CoastReader {
public:
    explicit ShapefileReader(std::string path) : path_(std::move(path)) {}
    std::shared_ptr<const std::vector<LonLatLine>> lines(const LonLatBox&) const override {
        std::lock_guard lock(mutex_);
        if (!lines_) lines_ = std::make_shared<const std::vector<LonLatLine>>(readCoastShapefile(path_));
        return lines_;
    }
    std::string origin() const override { return "GSHHS shapefile"; }

private:
    std::string path_;
    mutable std::mutex mutex_;
    mutable std::shared_ptr<const std::vector<LonLatLine>> lines_;
};

struct Resolution {
    char letter;
    double km;
    const char* name;
    const char* package; // gmt-gshhg's
};
constexpr Resolution kResolutions[] = {{'c', 25.0, "crude", "gmt-gshhg-low"},
                                       {'l', 5.0, "low", "gmt-gshhg-low"},
                                       {'i', 1.0, "intermediate", "gmt-gshhg-low"},
                                       {'h', 0.2, "high", "gmt-gshhg-high"},
                                       {'f', 0.04, "full", "gmt-gshhg-full"}};

std::string kmText(double km) {
    std::ostringstream s;
    s << km;
    return s.str();
}

} // namespace

std::vector<CoastLevel> findCoastLevels(const std::string& gshhgDir, const std::string& shapefileDir) {
    std::vector<CoastLevel> found;
    for (const Resolution& r : kResolutions) {
        const std::string path = gshhgDir + "/binned_GSHHS_" + r.letter + ".nc";
        if (std::filesystem::exists(path))
            found.push_back({r.letter, r.km, path, gshhgDir, r.package, makeGshhgReader(path)});
    }
    if (!found.empty()) return found;
    for (const Resolution& r : kResolutions) {
        const std::string path = shapefileDir + "/" + r.letter + "/GSHHS_" + r.letter + "_L1.shp";
        if (std::filesystem::exists(path))
            found.push_back({r.letter, r.km, path, shapefileDir, "python-cartopy-data",
                             std::make_shared<ShapefileReader>(path)});
    }
    return found;
}

const std::vector<CoastLevel>& coastLevels() {
    static const std::vector<CoastLevel> levels = findCoastLevels(gshhgDirectory(), coastlineDirectory());
    return levels;
}

std::string describeCoastLevel(const CoastLevel& level) {
    std::string name(1, level.resolution);
    for (const Resolution& r : kResolutions)
        if (r.letter == level.resolution) name = r.name;
    std::string origin = "GSHHS";
    try {
        if (level.reader) origin = level.reader->origin();
    } catch (const Error&) { // told where the lines are read
    }
    return origin + " " + name + " (" + kmText(level.km) + " km), " + level.folder + " (" + level.package +
           ")";
}

} // namespace strata::detail

namespace strata {

std::string coastlineProblem() {
    const auto& levels = detail::coastLevels();
    if (levels.empty())
        return "no GSHHG binned files (binned_GSHHS_?.nc) under " + detail::gshhgDirectory() +
               " (Debian's gmt-gshhg-low, -high and -full install them) and no GSHHS shapefiles "
               "({c,l,i,h,f}/GSHHS_?_L1.shp) under " +
               detail::coastlineDirectory() + " (Debian's python-cartopy-data)";
    try {
        (void)levels.front().reader->lines(detail::LonLatBox{}); // the crude level: cheap
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace strata
