#pragma once
// What a coordinate is by the CF conventions: a latitude, a longitude, a rotated pole's grid
// axis, a projection axis, a vertical or a time, read from its standard_name, units, axis and
// positive attributes. The one rule every layer asks (area means, default roles, value labels,
// coastlines, curvilinear cells).
#include <cstdint>
#include <string>

#include "strata/core/attributes.h"

namespace strata {

// The kind of a coordinate. Attributes are read in this order, the first that says something
// wins: standard_name, units, axis, positive. Text is compared without regard to case.
enum class CfAxis : std::uint8_t {
    None,
    Latitude,      // standard_name latitude; units degrees_north, degree_N, degreesN, ...
    Longitude,     // standard_name longitude; units degrees_east, degree_E, degreesE, ...
    GridLatitude,  // standard_name grid_latitude (a rotated pole's), kept apart from Latitude
    GridLongitude, // standard_name grid_longitude
    ProjectionX,   // standard_name projection_x_coordinate
    ProjectionY,   // standard_name projection_y_coordinate
    Vertical,      // a vertical standard_name, units of pressure, axis Z, or positive up/down
    Time,          // standard_name time, units "<unit> since <date>", or axis T
    X,             // axis X, with nothing more specific
    Y,             // axis Y, with nothing more specific
};

CfAxis cfAxisOf(const Attributes& attrs);

// The screen axis a coordinate of this kind prefers: X for longitudes (true or grid),
// projection x and axis X; Y for their latitude and y counterparts; None for the others.
enum class ScreenAxis : std::uint8_t { None, X, Y };
ScreenAxis screenAxisOf(CfAxis kind);

// A true latitude or longitude (not a rotated pole's): where lon/lat on the Earth is needed.
bool isLatitude(const Attributes& attrs);
bool isLongitude(const Attributes& attrs);
// A latitude or longitude, true or a rotated pole's: where only the angle is needed (cos of
// a grid latitude still weights areas).
bool isLatitudeLike(const Attributes& attrs);
bool isLongitudeLike(const Attributes& attrs);

// The units alone: CF's spellings of degrees north and east, and "<unit> since <date>".
bool isLatitudeUnits(const std::string& units);
bool isLongitudeUnits(const std::string& units);
bool isTimeUnits(const std::string& units);

} // namespace strata
