#pragma once
// How a coordinate's values read wherever one is shown (titles, sliders, the probe, the series
// title, export names): as many decimals as the axis's spacing needs and the same number for
// every value of the axis, a hemisphere for latitude and longitude, and dates to the time
// axis's resolution ("2005-01-16" on a monthly axis, "2001-12-31 23:00" on an hourly one).
#include <cstdint>
#include <string>

#include "strata/core/cftime.h"

namespace strata {

struct Coordinate;

// The finest part of a date an axis needs to tell its values apart.
enum class DateResolution : std::uint8_t { Days, Minutes, Seconds, Exact };

struct ValueFormat {
    enum class Kind : std::uint8_t { Number, Latitude, Longitude, Date };
    Kind kind = Kind::Number;
    int decimals = -1; // fixed decimals; -1: up to six significant digits (a single value)
    DateResolution dates = DateResolution::Exact;
    std::string units; // a number's units, shown after it ("850 hPa"); not for angles or dates

    // "0.93°N", "1.88°E", "0.00°", "850": a number of this axis, without units.
    std::string number(double v) const;
    // "850 hPa": number() and the units.
    std::string numberWithUnits(double v) const;
    // "2005-01-16", "2001-12-31 23:00", "2001-12-31 23:00:05", or full ISO 8601.
    std::string date(const DateTime& d) const;

    friend bool operator==(const ValueFormat&, const ValueFormat&) = default;
};

// The format of `c`'s values, decided from all of them: for numbers, the fewest decimals
// (0..10) that put every value within 1 % of the axis's smallest step of its label (10 % of a
// typical cell for a coordinate of more dims, such as 2-D latitude); for dates,
// the coarsest resolution at which the smallest step shows and every date reads differently.
// Latitude and longitude are recognised by CF's units (isLatitudeUnits, isLongitudeUnits of
// cf_axis.h): the units say the values are degrees north or east.
ValueFormat valueFormatOf(const Coordinate& c);

} // namespace strata
