#pragma once
// CF grid mappings through PROJ: the variable a data variable's `grid_mapping` attribute names
// becomes a PROJ definition, and its projected x/y become longitude and latitude.
#include <string>

#include "strata/core/attributes.h"
#include "strata/core/map_crs.h"

struct pj_ctx;
struct PJconsts;

namespace strata::io {

// The PROJ definition of a CF grid-mapping variable's attributes ("+proj=lcc +lat_1=25
// +lat_2=60 +lat_0=42.5 +lon_0=-100 +x_0=0 +y_0=0 +a=6378137 +rf=298.257223563 +units=m"):
// lambert_conformal_conic, polar_stereographic, stereographic, transverse_mercator, mercator,
// albers_conical_equal_area, lambert_azimuthal_equal_area, orthographic, oblique_stereographic
// geostationary (PROJ's geos, sweeping about sweep_angle_axis or the axis fixed_angle_axis
// does not name) and rotated_latitude_longitude (PROJ's ob_tran: grid degrees, not metres), on the ellipsoid
// or sphere the attributes give (WGS 84 when they give none). Throws ValueError naming the
// mapping for another grid_mapping_name or a missing parameter.
std::string projDefinition(const Attributes& mapping);

// Metres in one unit of a projection coordinate: "m" (or none) 1, "km" 1000; throws ValueError
// for other units.
double metresPerUnit(const std::string& units);
// As above, and scan angles ("rad", "radian", "radians") of a geostationary mapping: metres of
// arc at its perspective_point_height, as PROJ's geos takes them.
double metresPerUnit(const std::string& units, const Attributes& mapping);

// One projection: x/y in metres (grid degrees for a rotated pole) to longitude/latitude in
// degrees, and back. Owns its PROJ context, so it is used by one thread at a time.
class Unprojection {
public:
    explicit Unprojection(const std::string& definition); // throws ValueError with PROJ's reason
    ~Unprojection();
    Unprojection(const Unprojection&) = delete;
    Unprojection& operator=(const Unprojection&) = delete;

    struct LonLat {
        double lon, lat;
    };
    // Degrees; NaN for a point the projection does not reach.
    LonLat operator()(double x, double y) const;
    // Longitude/latitude in degrees to x/y (as `lon` and `lat`); NaN where PROJ cannot place it.
    LonLat forward(double lon, double lat) const;

private:
    pj_ctx* context_ = nullptr;
    bool angular_ = false;
    PJconsts* pj_ = nullptr;
};

} // namespace strata::io
