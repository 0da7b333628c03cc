#pragma once
// A frame's x/y as a map's own coordinates: the CRS a CF grid mapping defines, as PROJ reads it,
// and how many of PROJ's units (metres; degrees for a rotated pole) one unit of x and of y is.
// Plain data: the readers fill it (strata/io/geo.h), the image view draws coastlines and a
// graticule through it.
#include <string>

namespace strata {

struct MapCrs {
    std::string definition; // "+proj=lcc +lat_1=25 ... +units=m +no_defs"
    double xScale = 1, yScale = 1;
    friend bool operator==(const MapCrs&, const MapCrs&) = default;
};

// True for a CRS whose coordinates are angles (a rotated pole: PROJ's ob_tran to longlat).
inline bool isAngular(const MapCrs& crs) {
    return crs.definition.find("+o_proj=longlat") != std::string::npos;
}

} // namespace strata
