#include "strata/io/grid_mapping.h"

#include <proj.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "strata/core/error.h"

namespace strata::io {
namespace {

std::string number(double v) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// The CF parameters of one grid mapping, read with the mapping's name in every error.
struct Reader {
    const Attributes& attrs;
    std::string mapping;

    std::vector<double> values(const char* name) const {
        const Attribute* a = attrs.find(name);
        return a ? a->numbers() : std::vector<double>{};
    }
    double required(const char* name) const {
        const auto v = values(name);
        STRATA_EXPECTS(!v.empty(), ValueError,
                       "the grid mapping '" + mapping + "' has no numeric '" + std::string(name) + "'");
        return v.front();
    }
    double optional(const char* name, double fallback) const {
        const auto v = values(name);
        return v.empty() ? fallback : v.front();
    }
};

std::string earth(const Reader& r) {
    const auto a = r.values("semi_major_axis"), b = r.values("semi_minor_axis");
    const auto rf = r.values("inverse_flattening"), radius = r.values("earth_radius");
    if (!radius.empty()) return " +R=" + number(radius.front());
    if (!a.empty() && !rf.empty() && rf.front() != 0)
        return " +a=" + number(a.front()) + " +rf=" + number(rf.front());
    if (!a.empty() && !b.empty()) return " +a=" + number(a.front()) + " +b=" + number(b.front());
    if (!a.empty()) return " +R=" + number(a.front()); // no flattening given: a sphere
    return " +ellps=WGS84";
}

} // namespace

std::string projDefinition(const Attributes& mapping) {
    const std::string name = mapping.text("grid_mapping_name").value_or("");
    STRATA_EXPECTS(!name.empty(), ValueError, "the grid mapping has no grid_mapping_name");
    const Reader r{mapping, name};
    const auto p = [](const char* key, double v) { return std::string(" +") + key + "=" + number(v); };
    std::string def;
    if (name == "lambert_conformal_conic" || name == "albers_conical_equal_area") {
        const auto parallels = r.values("standard_parallel");
        STRATA_EXPECTS(!parallels.empty(), ValueError,
                       "the grid mapping '" + name + "' has no numeric 'standard_parallel'");
        def = name == "lambert_conformal_conic" ? "+proj=lcc" : "+proj=aea";
        def += p("lat_1", parallels[0]);
        if (parallels.size() > 1) def += p("lat_2", parallels[1]);
        def += p("lat_0", r.required("latitude_of_projection_origin"));
        def += p("lon_0", r.required("longitude_of_central_meridian"));
    } else if (name == "polar_stereographic") {
        def = "+proj=stere" + p("lat_0", r.required("latitude_of_projection_origin"));
        def += p("lon_0", r.values("straight_vertical_longitude_from_pole").empty()
                              ? r.required("longitude_of_projection_origin")
                              : r.required("straight_vertical_longitude_from_pole"));
        if (!r.values("standard_parallel").empty())
            def += p("lat_ts", r.required("standard_parallel"));
        else
            def += p("k_0", r.optional("scale_factor_at_projection_origin", 1));
    } else if (name == "stereographic" || name == "lambert_azimuthal_equal_area" || name == "orthographic") {
        def = name == "stereographic" ? "+proj=stere" : name == "orthographic" ? "+proj=ortho" : "+proj=laea";
        def += p("lat_0", r.required("latitude_of_projection_origin"));
        def += p("lon_0", r.required("longitude_of_projection_origin"));
        if (name == "stereographic") def += p("k_0", r.optional("scale_factor_at_projection_origin", 1));
    } else if (name == "transverse_mercator") {
        def = "+proj=tmerc" + p("lat_0", r.required("latitude_of_projection_origin"));
        def += p("lon_0", r.required("longitude_of_central_meridian"));
        def += p("k_0", r.optional("scale_factor_at_central_meridian", 1));
    } else if (name == "mercator") {
        def = "+proj=merc" + p("lon_0", r.required("longitude_of_projection_origin"));
        if (!r.values("standard_parallel").empty())
            def += p("lat_ts", r.required("standard_parallel"));
        else
            def += p("k_0", r.optional("scale_factor_at_projection_origin", 1));
    } else if (name == "oblique_stereographic") {
        def = "+proj=sterea" + p("lat_0", r.required("latitude_of_projection_origin"));
        def += p("lon_0", r.required("longitude_of_projection_origin"));
        def += p("k_0", r.optional("scale_factor_at_projection_origin", 1));
    } else if (name == "geostationary") {
        // A satellite's view: x/y are scan angles (GOES writes radians; geo.cpp scales them to
        // metres on the perspective sphere, as PROJ's geos reads them). CF gives the axis that
        // sweeps, or the one fixed (the other sweeps).
        std::string sweep = mapping.text("sweep_angle_axis").value_or("");
        if (sweep.empty()) {
            const std::string fixed = mapping.text("fixed_angle_axis").value_or("x");
            sweep = fixed == "x" ? "y" : "x";
        }
        STRATA_EXPECTS(sweep == "x" || sweep == "y", ValueError,
                       "the grid mapping 'geostationary' has sweep_angle_axis '" + sweep + "', not x or y");
        def = "+proj=geos" + p("h", r.required("perspective_point_height"));
        def += p("lon_0", r.optional("longitude_of_projection_origin", 0)) + " +sweep=" + sweep;
    } else if (name == "rotated_latitude_longitude") {
        // Grid longitude and latitude in degrees about a pole moved to (pole latitude, pole
        // longitude); the grid's own meridian through it turned by north_pole_grid_longitude.
        return "+proj=ob_tran +o_proj=longlat" + p("o_lon_p", r.optional("north_pole_grid_longitude", 0)) +
               p("o_lat_p", r.required("grid_north_pole_latitude")) +
               p("lon_0", 180 + r.required("grid_north_pole_longitude")) + earth(r) + " +no_defs";
    } else {
        STRATA_FAIL(ValueError,
                    "the grid mapping '" + name + "' is not one Strata can turn into latitude and longitude");
    }
    def += p("x_0", r.optional("false_easting", 0)) + p("y_0", r.optional("false_northing", 0));
    return def + earth(r) + " +units=m +no_defs";
}

double metresPerUnit(const std::string& units, const Attributes& mapping) {
    if (units == "rad" || units == "radian" || units == "radians") {
        STRATA_EXPECTS(mapping.text("grid_mapping_name") == "geostationary", ValueError,
                       "projection coordinates in radians, but the grid mapping is not geostationary");
        const std::optional<double> h = mapping.number("perspective_point_height");
        STRATA_EXPECTS(h && *h > 0, ValueError,
                       "the geostationary grid mapping has no perspective_point_height");
        return *h; // a scan angle is an arc on the sphere of the satellite's height
    }
    return metresPerUnit(units);
}

double metresPerUnit(const std::string& units) {
    if (units.empty() || units == "m" || units == "meter" || units == "meters" || units == "metre" ||
        units == "metres")
        return 1;
    if (units == "km" || units == "kilometer" || units == "kilometers" || units == "kilometre" ||
        units == "kilometres")
        return 1000;
    STRATA_FAIL(ValueError, "projection coordinates in '" + units + "' (not m or km)");
}

Unprojection::Unprojection(const std::string& definition)
    : context_(proj_context_create()), angular_(isAngular(MapCrs{definition})) {
    STRATA_EXPECTS(context_, ValueError, "PROJ could not start (no context)");
    proj_log_level(context_, PJ_LOG_NONE);
    pj_ = proj_create(context_, definition.c_str());
    if (!pj_) {
        const std::string why = proj_context_errno_string(context_, proj_context_errno(context_));
        proj_context_destroy(context_);
        STRATA_FAIL(ValueError, "PROJ does not accept '" + definition + "': " + why);
    }
}

Unprojection::~Unprojection() {
    proj_destroy(pj_);
    proj_context_destroy(context_);
}

Unprojection::LonLat Unprojection::operator()(double x, double y) const {
    if (angular_) { // a rotated pole's grid degrees: PROJ's ob_tran reads radians
        x = proj_torad(x);
        y = proj_torad(y);
    }
    const PJ_COORD out = proj_trans(pj_, PJ_INV, proj_coord(x, y, 0, 0));
    if (!std::isfinite(out.lp.lam) || !std::isfinite(out.lp.phi) || out.lp.lam == HUGE_VAL) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan};
    }
    return {proj_todeg(out.lp.lam), proj_todeg(out.lp.phi)};
}

Unprojection::LonLat Unprojection::forward(double lon, double lat) const {
    const PJ_COORD out = proj_trans(pj_, PJ_FWD, proj_coord(proj_torad(lon), proj_torad(lat), 0, 0));
    const double x = out.xy.x, y = out.xy.y;
    if (!std::isfinite(x) || !std::isfinite(y) || x == HUGE_VAL) {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        return {nan, nan};
    }
    return angular_ ? LonLat{proj_todeg(x), proj_todeg(y)} : LonLat{x, y};
}

} // namespace strata::io
