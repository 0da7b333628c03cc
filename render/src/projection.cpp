// The named projections: their PROJ strings, the parameters of their own formulas
// (projection_math.h) and the transforms through PROJ.
#include "strata/render/projection.h"

#include <proj.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <iomanip>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "projection_math.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"

namespace strata {
namespace {

using detail::ProjKind;
using detail::ProjParams;

constexpr double kRadius = 6371000; // metres: the sphere every projection here is on
constexpr double kDeg = M_PI / 180;

// The Lambert conformal conic's constants (cartopy's defaults), degrees: written here only.
// Its PROJ string (lambertProj) and its own formula's parameters (setLambert) are both made
// from them, so the host's PROJ path and the GPU's formula cannot drift apart.
struct LambertConic {
    double lat1, lat2; // the standard parallels, where the scale is true
    double lat0, lon0; // the origin: map (0, 0)
};
constexpr LambertConic kLambert{33, 45, 39, -96};

// `v` in its shortest exact form ("33", "-96", "6371000"), as PROJ reads it back.
std::string number(double v) {
    std::ostringstream s;
    s << std::setprecision(17) << v;
    return s.str();
}

// A PROJ definition on the sphere of kRadius.
std::string onSphere(const std::string& definition) { return definition + " +R=" + number(kRadius); }

std::string lambertProj(const LambertConic& c) {
    return onSphere("+proj=lcc +lat_1=" + number(c.lat1) + " +lat_2=" + number(c.lat2) +
                    " +lat_0=" + number(c.lat0) + " +lon_0=" + number(c.lon0));
}

// The own formula's parameters of the conic (Snyder's n, F and ρ0 over R).
void setLambert(ProjParams& params, const LambertConic& c) {
    const double p1 = c.lat1 * kDeg, p2 = c.lat2 * kDeg, p0 = c.lat0 * kDeg;
    params.lon0 = c.lon0 * kDeg;
    auto t = [](double phi) { return std::tan(M_PI / 4 + phi / 2); };
    params.n = std::log(std::cos(p1) / std::cos(p2)) / std::log(t(p2) / t(p1));
    params.F = std::cos(p1) * std::pow(t(p1), params.n) / params.n;
    params.rho0 = params.F / std::pow(t(p0), params.n);
}

struct Named {
    const char* name;
    ProjKind kind;
    std::string proj;
    double latLo, latHi; // degrees drawn
};

// cartopy's names and (for the Lambert conformal) its defaults; all on a sphere of kRadius.
const std::array<Named, 6>& named() {
    static const std::array<Named, 6> all{{
        {"PlateCarree", ProjKind::PlateCarree, onSphere("+proj=eqc +lon_0=0"), -90, 90},
        {"Robinson", ProjKind::Robinson, onSphere("+proj=robin +lon_0=0"), -90, 90},
        {"Mollweide", ProjKind::Mollweide, onSphere("+proj=moll +lon_0=0"), -90, 90},
        {"NorthPolarStereo", ProjKind::NorthPolarStereo, onSphere("+proj=stere +lat_0=90 +lon_0=0 +k_0=1"), 0,
         90},
        {"SouthPolarStereo", ProjKind::SouthPolarStereo, onSphere("+proj=stere +lat_0=-90 +lon_0=0 +k_0=1"),
         -90, 0},
        {"LambertConformal", ProjKind::LambertConformal, lambertProj(kLambert), -30, 90},
    }};
    return all;
}

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Solves the 4 × 4 system a · c = b by elimination with partial pivoting.
std::array<double, 4> solve4(std::array<std::array<double, 5>, 4> m) {
    for (int k = 0; k < 4; ++k) {
        int p = k;
        for (int r = k + 1; r < 4; ++r)
            if (std::fabs(m[r][k]) > std::fabs(m[p][k])) p = r;
        std::swap(m[k], m[p]);
        for (int r = k + 1; r < 4; ++r) {
            const double f = m[r][k] / m[k][k];
            for (int c = k; c < 5; ++c) m[r][c] -= f * m[k][c];
        }
    }
    std::array<double, 4> x{};
    for (int k = 3; k >= 0; --k) {
        double s = m[k][4];
        for (int c = k + 1; c < 4; ++c) s -= m[k][c] * x[c];
        x[k] = s / m[k][k];
    }
    return x;
}

} // namespace

struct Projection::Impl {
    std::string name, proj;
    ProjParams params;
    MapExtent extent;
    mutable std::mutex mutex; // PROJ's objects are used by one thread at a time
    PJ_CONTEXT* ctx = nullptr;
    PJ* pj = nullptr;
    // More of the same for the threads of a large inverse (made on first use, under `mutex`).
    mutable std::vector<std::pair<PJ_CONTEXT*, PJ*>> workers;

    explicit Impl(const Named& n) : name(n.name), proj(n.proj) {
        ctx = proj_context_create();
        STRATA_EXPECTS(ctx != nullptr, Error, "PROJ could not create a context");
        proj_log_level(ctx, PJ_LOG_NONE);
        pj = proj_create(ctx, proj.c_str());
        if (!pj) {
            const std::string why = proj_context_errno_string(ctx, proj_context_errno(ctx));
            proj_context_destroy(ctx);
            STRATA_FAIL(Error, "PROJ refused the projection " + name + " ('" + proj + "'): " + why);
        }
        params.kind = n.kind;
        params.R = kRadius;
        params.latLo = n.latLo * kDeg;
        params.latHi = n.latHi * kDeg;
        if (n.kind == ProjKind::LambertConformal) setLambert(params, kLambert);
        if (n.kind == ProjKind::Robinson) fitRobinson();
        extent = outline();
    }
    ~Impl() {
        for (auto& [c, w] : workers) {
            proj_destroy(w);
            proj_context_destroy(c);
        }
        proj_destroy(pj);
        proj_context_destroy(ctx);
    }

    // PJ objects for `n` threads (the first is `pj`); the caller holds `mutex`.
    std::vector<PJ*> threads(std::size_t n) const {
        while (workers.size() + 1 < n) {
            PJ_CONTEXT* c = proj_context_create();
            if (!c) break;
            proj_log_level(c, PJ_LOG_NONE);
            PJ* w = proj_create(c, proj.c_str());
            if (!w) {
                proj_context_destroy(c);
                break;
            }
            workers.emplace_back(c, w);
        }
        std::vector<PJ*> out{pj};
        for (std::size_t i = 0; i + 1 < n && i < workers.size(); ++i) out.push_back(workers[i].second);
        return out;
    }

    // Robinson's x / (R λ) and y / R are cubics in the degrees above each 5° node (PROJ's
    // table): each interval's two cubics are found from four points of PROJ's own forward.
    void fitRobinson() {
        const std::array<double, 4> ts{0.5, 1.75, 3.25, 4.5};
        for (int i = 0; i < detail::kRobinsonIntervals; ++i) {
            std::array<std::array<double, 5>, 4> mx{}, my{};
            for (int k = 0; k < 4; ++k) {
                PJ_COORD c = proj_coord(1.0, (5.0 * i + ts[k]) * kDeg, 0, 0);
                c = proj_trans(pj, PJ_FWD, c);
                double pw = 1;
                for (int j = 0; j < 4; ++j, pw *= ts[k]) mx[k][j] = my[k][j] = pw;
                mx[k][4] = c.xy.x / kRadius;
                my[k][4] = c.xy.y / kRadius;
            }
            const auto cx = solve4(mx), cy = solve4(my);
            std::copy(cx.begin(), cx.end(), params.robX[i]);
            std::copy(cy.begin(), cy.end(), params.robY[i]);
        }
    }

    // The bounding box of the map's outline: its edge meridians (lon0 ± 180°) and the
    // parallels where it stops, forward-projected with the own formulas.
    MapExtent outline() const {
        MapExtent e{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                    std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
        auto add = [&](double lon, double lat) {
            double x = 0, y = 0;
            if (!detail::projForward(params, lon, lat, x, y)) return;
            e.x0 = std::min(e.x0, x);
            e.x1 = std::max(e.x1, x);
            e.y0 = std::min(e.y0, y);
            e.y1 = std::max(e.y1, y);
        };
        const int steps = 720;
        const double edge = M_PI * (1 - 1e-12);
        for (int k = 0; k <= steps; ++k) {
            const double f = static_cast<double>(k) / steps;
            const double lon = params.lon0 - edge + 2 * edge * f;
            const double lat = params.latLo + (params.latHi - params.latLo) * f;
            add(lon, params.latLo);
            add(lon, params.latHi);
            add(lon, 0.0 > params.latLo && 0.0 < params.latHi ? 0.0 : params.latLo);
            add(params.lon0 - edge, lat);
            add(params.lon0 + edge, lat);
            add(params.lon0, lat);
        }
        return e;
    }
};

Projection Projection::byName(std::string_view name) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<const Impl>> made;
    const std::string key = lower(name);
    for (const Named& n : named()) {
        if (lower(n.name) != key) continue;
        std::lock_guard lock(mutex);
        auto& impl = made[n.name];
        if (!impl) impl = std::make_shared<const Impl>(n);
        return Projection(impl);
    }
    std::string known;
    for (const std::string& k : knownNames()) known += (known.empty() ? "" : ", ") + k;
    STRATA_FAIL(ValueError, "unknown projection '" + std::string(name) + "'; known projections: " + known);
}

const std::vector<std::string>& Projection::knownNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> v;
        for (const Named& n : named()) v.emplace_back(n.name);
        return v;
    }();
    return names;
}

const std::string& Projection::name() const { return impl_->name; }
const std::string& Projection::projString() const { return impl_->proj; }
const detail::ProjParams& Projection::params() const { return impl_->params; }
MapExtent Projection::extent() const { return impl_->extent; }

void Projection::forward(std::vector<double>& lonToX, std::vector<double>& latToY) const {
    STRATA_EXPECTS(lonToX.size() == latToY.size(), ValueError,
                   "Projection::forward: lon and lat differ in size");
    const ProjParams& p = impl_->params;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<char> drawn(lonToX.size());
    for (std::size_t i = 0; i < lonToX.size(); ++i) {
        drawn[i] = latToY[i] >= p.latLo / kDeg && latToY[i] <= p.latHi / kDeg;
        lonToX[i] *= kDeg;
        latToY[i] *= kDeg;
    }
    {
        std::lock_guard lock(impl_->mutex);
        proj_errno_reset(impl_->pj);
        proj_trans_generic(impl_->pj, PJ_FWD, lonToX.data(), sizeof(double), lonToX.size(), latToY.data(),
                           sizeof(double), latToY.size(), nullptr, 0, 0, nullptr, 0, 0);
    }
    for (std::size_t i = 0; i < lonToX.size(); ++i)
        if (!drawn[i] || !std::isfinite(lonToX[i]) || !std::isfinite(latToY[i]) || lonToX[i] == HUGE_VAL)
            lonToX[i] = latToY[i] = nan;
}

void Projection::inverse(std::vector<double>& xToLon, std::vector<double>& yToLat) const {
    STRATA_EXPECTS(xToLon.size() == yToLat.size(), ValueError, "Projection::inverse: x and y differ in size");
    const ProjParams& p = impl_->params;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // PROJ wraps a longitude beyond ±180° from the central meridian back onto the map: a point
    // off the globe's outline comes back elsewhere, thousands of kilometres away, and is off the
    // map. So each point goes there and back, and stays only where it returns (to 1e-5 R, 64 m).
    // The tolerance is not tighter because PROJ's Robinson table steps by up to 2.1 m in y at
    // its 5° nodes: a point in such a step is on the map but comes back across it.
    const double tolerance = 1e-5 * p.R;
    auto run = [&](PJ* pj, std::size_t begin, std::size_t end) {
        constexpr std::size_t kBatch = 16384;
        std::vector<double> x, y, bx, by;
        for (std::size_t b0 = begin; b0 < end; b0 += kBatch) {
            const std::size_t b1 = std::min(end, b0 + kBatch), n = b1 - b0;
            double* lon = xToLon.data() + b0;
            double* lat = yToLat.data() + b0;
            x.assign(lon, lon + n);
            y.assign(lat, lat + n);
            proj_trans_generic(pj, PJ_INV, lon, sizeof(double), n, lat, sizeof(double), n, nullptr, 0, 0,
                               nullptr, 0, 0);
            bx.assign(lon, lon + n);
            by.assign(lat, lat + n);
            proj_trans_generic(pj, PJ_FWD, bx.data(), sizeof(double), n, by.data(), sizeof(double), n,
                               nullptr, 0, 0, nullptr, 0, 0);
            for (std::size_t i = 0; i < n; ++i) {
                // PROJ's Robinson puts a point up to 1e-6 of the map's height beyond its pole
                // line (9 m) onto the pole, exactly: such a point is off the map, as it is for
                // the own formulas (a point exactly on the line, which PROJ also gives the pole,
                // is a measure-zero loss).
                const bool clamped = p.kind == ProjKind::Robinson && std::fabs(lat[i]) == M_PI / 2;
                const bool ok = std::isfinite(lon[i]) && std::isfinite(lat[i]) && lon[i] != HUGE_VAL &&
                                std::fabs(bx[i] - x[i]) <= tolerance &&
                                std::fabs(by[i] - y[i]) <= tolerance && lat[i] >= p.latLo &&
                                lat[i] <= p.latHi && !clamped;
                lon[i] = ok ? lon[i] / kDeg : nan;
                lat[i] = ok ? lat[i] / kDeg : nan;
            }
        }
    };
    const std::size_t total = xToLon.size();
    const std::size_t nThreads =
        std::clamp<std::size_t>(total / 65536, 1, static_cast<std::size_t>(std::max(1, hostThreads())));
    std::lock_guard lock(impl_->mutex);
    const std::vector<PJ*> pjs = impl_->threads(nThreads);
    std::vector<std::thread> pool;
    const std::size_t share = (total + pjs.size() - 1) / pjs.size();
    for (std::size_t t = 1; t < pjs.size(); ++t)
        pool.emplace_back(run, pjs[t], std::min(total, t * share), std::min(total, (t + 1) * share));
    run(pjs[0], 0, std::min(total, share));
    for (std::thread& t : pool) t.join();
}

MapExtent fitExtent(const MapExtent& e, int width, int height) {
    STRATA_EXPECTS(width > 0 && height > 0, ValueError, "fitExtent: the image must have pixels");
    const double aspect = static_cast<double>(width) / height;
    MapExtent out = e;
    if (e.width() / e.height() < aspect) {
        const double w = e.height() * aspect, cx = (e.x0 + e.x1) / 2;
        out.x0 = cx - w / 2;
        out.x1 = cx + w / 2;
    } else {
        const double h = e.width() / aspect, cy = (e.y0 + e.y1) / 2;
        out.y0 = cy - h / 2;
        out.y1 = cy + h / 2;
    }
    return out;
}

} // namespace strata
