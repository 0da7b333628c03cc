#include "coastlines.h"

#include <shapefil.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <mutex>

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

const std::vector<CoastLevel>& coastLevels() {
    static std::mutex mutex;
    static std::unique_ptr<std::vector<CoastLevel>> levels;
    std::lock_guard lock(mutex);
    if (!levels) {
        std::vector<CoastLevel> found;
        const std::string dir = coastlineDirectory();
        for (auto [r, km] : {std::pair{'c', 25.0}, {'l', 5.0}, {'i', 1.0}, {'h', 0.2}, {'f', 0.04}}) {
            const std::string path = dir + "/" + r + "/GSHHS_" + r + "_L1.shp";
            if (!std::filesystem::exists(path)) continue;
            found.push_back({r, km, path, readCoastShapefile(path)});
        }
        levels = std::make_unique<std::vector<CoastLevel>>(std::move(found));
    }
    return *levels;
}

} // namespace strata::detail

namespace strata {

std::string coastlineProblem() {
    try {
        if (detail::coastLevels().empty())
            return "no GSHHS shapefiles ({c,l,i,h,f}/GSHHS_?_L1.shp) under " + detail::coastlineDirectory() +
                   " (Debian's python-cartopy-data installs them)";
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

} // namespace strata
