#include "strata/core/cf_axis.h"

#include <algorithm>
#include <cctype>
#include <initializer_list>
#include <string_view>

namespace strata {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::string lowerText(const Attributes& attrs, std::string_view name) {
    return lower(attrs.text(name).value_or(""));
}

bool oneOf(const std::string& s, std::initializer_list<std::string_view> names) {
    return std::find(names.begin(), names.end(), s) != names.end();
}

bool startsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// CF's vertical standard names (section 4.3): dimensional ones, and the parametric
// (dimensionless) coordinates of appendix D, all named "..._coordinate".
bool isVerticalStandardName(const std::string& s) {
    if (oneOf(s, {"air_pressure", "altitude", "height", "depth", "geopotential_height", "model_level_number",
                  "depth_below_geoid"}))
        return true;
    if (startsWith(s, "height_above_")) return true;
    return (startsWith(s, "atmosphere_") || startsWith(s, "ocean_") || startsWith(s, "land_ice_")) &&
           s.find("_coordinate") != std::string::npos;
}

// Units of pressure, which CF takes as a vertical coordinate (lowercase).
bool isPressureUnits(const std::string& u) {
    return oneOf(u, {"pa", "hpa", "kpa", "pascal", "pascals", "hectopascal", "hectopascals", "bar", "mbar",
                     "millibar", "millibars", "decibar", "dbar", "atm"});
}

CfAxis fromStandardName(const std::string& s) {
    if (s == "latitude") return CfAxis::Latitude;
    if (s == "longitude") return CfAxis::Longitude;
    if (s == "grid_latitude") return CfAxis::GridLatitude;
    if (s == "grid_longitude") return CfAxis::GridLongitude;
    if (s == "projection_x_coordinate") return CfAxis::ProjectionX;
    if (s == "projection_y_coordinate") return CfAxis::ProjectionY;
    if (s == "time") return CfAxis::Time;
    if (isVerticalStandardName(s)) return CfAxis::Vertical;
    return CfAxis::None;
}

CfAxis fromUnits(const std::string& units) {
    if (isLatitudeUnits(units)) return CfAxis::Latitude;
    if (isLongitudeUnits(units)) return CfAxis::Longitude;
    if (isTimeUnits(units)) return CfAxis::Time;
    if (isPressureUnits(lower(units))) return CfAxis::Vertical;
    return CfAxis::None;
}

CfAxis fromAxis(const std::string& a) {
    if (a == "x") return CfAxis::X;
    if (a == "y") return CfAxis::Y;
    if (a == "z") return CfAxis::Vertical;
    if (a == "t") return CfAxis::Time;
    return CfAxis::None;
}

} // namespace

bool isLatitudeUnits(const std::string& units) {
    return oneOf(lower(units),
                 {"degrees_north", "degree_north", "degrees_n", "degree_n", "degreesn", "degreen"});
}

bool isLongitudeUnits(const std::string& units) {
    return oneOf(lower(units),
                 {"degrees_east", "degree_east", "degrees_e", "degree_e", "degreese", "degreee"});
}

bool isTimeUnits(const std::string& units) { return lower(units).find(" since ") != std::string::npos; }

CfAxis cfAxisOf(const Attributes& attrs) {
    if (CfAxis k = fromStandardName(lowerText(attrs, "standard_name")); k != CfAxis::None) return k;
    if (CfAxis k = fromUnits(attrs.text("units").value_or("")); k != CfAxis::None) return k;
    if (CfAxis k = fromAxis(lowerText(attrs, "axis")); k != CfAxis::None) return k;
    const std::string positive = lowerText(attrs, "positive");
    return positive == "up" || positive == "down" ? CfAxis::Vertical : CfAxis::None;
}

ScreenAxis screenAxisOf(CfAxis kind) {
    switch (kind) {
    case CfAxis::Longitude:
    case CfAxis::GridLongitude:
    case CfAxis::ProjectionX:
    case CfAxis::X:
        return ScreenAxis::X;
    case CfAxis::Latitude:
    case CfAxis::GridLatitude:
    case CfAxis::ProjectionY:
    case CfAxis::Y:
        return ScreenAxis::Y;
    case CfAxis::None:
    case CfAxis::Vertical:
    case CfAxis::Time:
        break;
    }
    return ScreenAxis::None;
}

bool isLatitude(const Attributes& attrs) { return cfAxisOf(attrs) == CfAxis::Latitude; }
bool isLongitude(const Attributes& attrs) { return cfAxisOf(attrs) == CfAxis::Longitude; }

bool isLatitudeLike(const Attributes& attrs) {
    const CfAxis k = cfAxisOf(attrs);
    return k == CfAxis::Latitude || k == CfAxis::GridLatitude;
}

bool isLongitudeLike(const Attributes& attrs) {
    const CfAxis k = cfAxisOf(attrs);
    return k == CfAxis::Longitude || k == CfAxis::GridLongitude;
}

} // namespace strata
