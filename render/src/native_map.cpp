#include "native_map.h"

#include <proj.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "strata/core/error.h"

namespace strata::detail {

struct NativeMap::Proj {
    PJ_CONTEXT* context = nullptr;
    PJ* pj = nullptr;
    ~Proj() {
        proj_destroy(pj);
        proj_context_destroy(context);
    }
};

NativeMap::NativeMap(MapCrs crs) : crs_(std::move(crs)), proj_(std::make_unique<Proj>()) {
    proj_->context = proj_context_create();
    STRATA_EXPECTS(proj_->context, ValueError, "PROJ could not start (no context)");
    proj_log_level(proj_->context, PJ_LOG_NONE);
    proj_->pj = proj_create(proj_->context, crs_.definition.c_str());
    STRATA_EXPECTS(proj_->pj, ValueError,
                   "PROJ does not accept '" + crs_.definition +
                       "': " + proj_context_errno_string(proj_->context, proj_context_errno(proj_->context)));
}

NativeMap::~NativeMap() = default;

double NativeMap::degreesPerUnit() const { return isAngular(crs_) ? 1.0 : crs_.xScale / 111'320.0; }

std::vector<LonLatLine> NativeMap::forward(const std::vector<LonLatLine>& lines) const {
    const bool angular = isAngular(crs_);
    // A step longer than this (in PROJ's units) crosses the seam: a quarter of the circumference.
    const double jump = angular ? 90.0 : 10'007'543.0;
    std::vector<LonLatLine> out;
    LonLatLine cur;
    auto flush = [&] {
        if (cur.lon.size() >= 2) {
            const auto [xlo, xhi] = std::minmax_element(cur.lon.begin(), cur.lon.end());
            const auto [ylo, yhi] = std::minmax_element(cur.lat.begin(), cur.lat.end());
            cur.lonMin = *xlo;
            cur.lonMax = *xhi;
            cur.latMin = *ylo;
            cur.latMax = *yhi;
            out.push_back(std::move(cur));
        }
        cur = LonLatLine{};
    };
    double px = 0, py = 0;
    for (const LonLatLine& l : lines) {
        for (std::size_t i = 0; i < l.lon.size(); ++i) {
            const PJ_COORD c =
                proj_trans(proj_->pj, PJ_FWD, proj_coord(proj_torad(l.lon[i]), proj_torad(l.lat[i]), 0, 0));
            double x = c.xy.x, y = c.xy.y;
            if (angular) {
                x = proj_todeg(x);
                y = proj_todeg(y);
            }
            if (!std::isfinite(x) || !std::isfinite(y) || std::fabs(x) > 1e15 || std::fabs(y) > 1e15) {
                flush();
                continue;
            }
            if (!cur.lon.empty() && std::hypot(x - px, y - py) > jump) flush();
            cur.lon.push_back(x / (angular ? 1.0 : crs_.xScale));
            cur.lat.push_back(y / (angular ? 1.0 : crs_.yScale));
            px = x;
            py = y;
        }
        flush();
    }
    return out;
}

bool NativeMap::forward(double lon, double lat, double& x, double& y) const {
    const PJ_COORD c = proj_trans(proj_->pj, PJ_FWD, proj_coord(proj_torad(lon), proj_torad(lat), 0, 0));
    x = c.xy.x;
    y = c.xy.y;
    if (!std::isfinite(x) || !std::isfinite(y) || std::fabs(x) > 1e15 || std::fabs(y) > 1e15) return false;
    if (isAngular(crs_)) {
        x = proj_todeg(x);
        y = proj_todeg(y);
    } else {
        x /= crs_.xScale;
        y /= crs_.yScale;
    }
    return true;
}

bool NativeMap::inverse(double x, double y, double& lon, double& lat) const {
    const bool angular = isAngular(crs_);
    x *= angular ? 1.0 : crs_.xScale;
    y *= angular ? 1.0 : crs_.yScale;
    if (angular) {
        x = proj_torad(x);
        y = proj_torad(y);
    }
    const PJ_COORD c = proj_trans(proj_->pj, PJ_INV, proj_coord(x, y, 0, 0));
    if (!std::isfinite(c.lp.lam) || !std::isfinite(c.lp.phi) || c.lp.lam == HUGE_VAL) return false;
    lon = proj_todeg(c.lp.lam);
    lat = proj_todeg(c.lp.phi);
    return true;
}

namespace {

double wrap180(double a) {
    a = std::fmod(a + 180.0, 360.0);
    if (a < 0) a += 360.0;
    return a - 180.0;
}

} // namespace

Graticule planNativeGraticule(const NativeMap& map, const ViewTransform& t, double size) {
    Graticule g;
    const ViewWindow& w = t.window();
    // The window's extent in longitude and latitude, from a 9 × 9 sample of its points;
    // longitudes unwrapped about the first one found.
    double lonLo = 1e9, lonHi = -1e9, latLo = 1e9, latHi = -1e9,
           lonRef = std::numeric_limits<double>::quiet_NaN();
    for (int i = 0; i <= 8; ++i)
        for (int j = 0; j <= 8; ++j) {
            double lon = 0, lat = 0;
            if (!map.inverse(w.x0 + (w.x1 - w.x0) * i / 8, w.y0 + (w.y1 - w.y0) * j / 8, lon, lat)) continue;
            if (std::isnan(lonRef)) lonRef = lon;
            lon = lonRef + wrap180(lon - lonRef);
            lonLo = std::min(lonLo, lon);
            lonHi = std::max(lonHi, lon);
            latLo = std::min(latLo, lat);
            latHi = std::max(latHi, lat);
        }
    if (std::isnan(lonRef)) return g;                         // no point of the window is on the map
    static constexpr double kSteps[] = {1, 2, 5, 10, 15, 30}; // whole degrees: the labels' own
    const double extent = std::max(lonHi - lonLo, latHi - latLo);
    double step = 30;
    for (double s : kSteps)
        if (s >= extent / 4) {
            step = s;
            break;
        }
    const double lat0 = std::max(-89.999, std::floor(latLo / step) * step - step),
                 lat1 = std::min(89.999, std::ceil(latHi / step) * step + step);
    const double lon0 = std::floor(lonLo / step) * step - step, lon1 = std::ceil(lonHi / step) * step + step;
    const double sample = step / 20;
    std::vector<LonLatLine> meridians, parallels;
    std::vector<double> meridianAt, parallelAt;
    for (double lon = lon0; lon <= lon1 + 1e-9 && meridians.size() < 200; lon += step) {
        LonLatLine l;
        for (double lat = lat0; lat <= lat1 + 1e-9; lat += sample) {
            l.lon.push_back(lon);
            l.lat.push_back(std::clamp(lat, -89.999, 89.999));
        }
        meridians.push_back(std::move(l));
        meridianAt.push_back(wrap180(lon));
    }
    for (double lat = std::ceil(lat0 / step) * step; lat <= lat1 + 1e-9 && parallels.size() < 200;
         lat += step) {
        LonLatLine l;
        for (double lon = lon0; lon <= lon1 + 1e-9; lon += sample) {
            l.lon.push_back(lon);
            l.lat.push_back(lat);
        }
        parallels.push_back(std::move(l));
        parallelAt.push_back(lat);
    }
    const PixelRect& plot = t.plot();
    const double bottom = std::min(plot.y0, plot.y1), left = std::min(plot.x0, plot.x1); // y runs up
    // Labels along one edge, left to right (or top to bottom), none over the one before.
    struct Candidate {
        double along;
        TextItem item;
    };
    auto place = [&](std::vector<Candidate>& cs) {
        for (Candidate& c : cs) c.item.halo = true; // over the data
        std::sort(cs.begin(), cs.end(),
                  [](const Candidate& a, const Candidate& b) { return a.along < b.along; });
        double last = -1e300, lastHalf = 0;
        for (Candidate& c : cs) {
            const double half = 0.5 * 0.62 * size * double(c.item.text.size()) + 0.3 * size;
            if (c.along - half < last + lastHalf) continue;
            last = c.along;
            lastHalf = half;
            g.labels.push_back(std::move(c.item));
        }
    };
    auto plan = [&](const std::vector<LonLatLine>& lines, const std::vector<double>& at, bool meridian,
                    std::vector<Candidate>& labels) {
        for (std::size_t k = 0; k < lines.size(); ++k) {
            const std::vector<LonLatLine> projected = map.forward({lines[k]});
            std::vector<PixelPolyline> px = planCoast(projected, t, 0.5, false);
            for (const PixelPolyline& p : px) {
                for (std::size_t e : {std::size_t(0), p.xy.size() - 2}) { // each end on an edge
                    const double x = p.xy[e], y = p.xy[e + 1];
                    if (meridian && std::fabs(y - bottom) < 1) {
                        labels.push_back(
                            {x, textAt(lonLabel(at[k]), x, bottom + 3, size, Align::Centre, VAlign::Bottom)});
                    } else if (!meridian && std::fabs(x - left) < 1) {
                        labels.push_back(
                            {y, textAt(latLabel(at[k]), left + 3, y, size, Align::Left, VAlign::Centre)});
                    }
                }
            }
            g.lines.insert(g.lines.end(), px.begin(), px.end());
        }
    };
    std::vector<Candidate> bottomLabels, leftLabels;
    plan(meridians, meridianAt, true, bottomLabels);
    plan(parallels, parallelAt, false, leftLabels);
    place(bottomLabels);
    place(leftLabels);
    return g;
}

} // namespace strata::detail
