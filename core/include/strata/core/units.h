#pragma once
// Display units: a variable shown in other units than it is stored in (K as degC, Pa as hPa,
// kg m-2 s-1 as mm/day, m s-1 as knots). The conversion is worked out by udunits2 from the two
// unit strings, as CF writes them, and applied on the frame's device as scale · x + offset.
// A mass flux shown as a depth rate (precipitation) goes through the density of liquid water,
// and says so.
#include <optional>
#include <string>
#include <vector>

#include "strata/core/colour_range.h"
#include "strata/core/data_array.h"
#include "strata/core/ops.h"

namespace strata {

// Reads udunits2's unit database now (4-5 ms), unless it has been read: for a thread started
// early, so that the first variable's units do not wait for it. Never throws; a database that
// cannot be read is reported by the first conversion, as without this.
void loadUnitDatabase();

// value_in_to = scale · value_in_from + offset.
struct UnitConversion {
    std::string from, to;
    double scale = 1, offset = 0;
    // What the conversion assumes beyond the units, in words (empty: nothing):
    // "as liquid water, 1000 kg m-3".
    std::string assumption;
    bool identity() const { return scale == 1 && offset == 0; }
    double apply(double v) const { return scale * v + offset; }
};

// The conversion from units `from` to units `to`. Throws ValueError naming the unit when
// either cannot be parsed, and both when they measure different things (or their conversion
// is not linear, as with logarithmic units). Equal strings give the identity without parsing.
UnitConversion unitConversion(const std::string& from, const std::string& to);

// Whether unitConversion(from, to) would succeed.
bool convertible(const std::string& from, const std::string& to);

// The display units offered for a variable in `units`: `units` itself first, then the common
// ones of its quantity (K, degC, degF; Pa, hPa, kPa; kg m-2 s-1, mm/day, mm/h; m s-1, km/h,
// knots; m, km; kg kg-1, g kg-1; …), without the one it is. Empty when `units` is empty or
// unknown to udunits2.
std::vector<std::string> commonUnits(const std::string& units);

// A range of values in `storedUnits` (lowest, highest) in `units` (empty: as stored); nullopt
// when it cannot be converted.
std::optional<MinMax> rangeInUnits(MinMax stored, const std::string& storedUnits, const std::string& units);

// `a` in the conversion's units, on its device (a new array; the stream is the last argument,
// as elsewhere): its "units" attribute says c.to; integers become float32 (float64 above 16
// bits), as CF unpacking widens them. The identity gives `a`.
DataArray convertUnits(const DataArray& a, const UnitConversion& c, Stream stream);

// The conversion a frame reduced with `ops` (in order) takes: a standard deviation is a
// spread, which an offset leaves alone (scale only); a sum is refused when the conversion has
// an offset (a sum of temperatures has no meaning in degC). (A count, a variance or an index
// has no units left to convert: computeFrame shows those as they are.) Throws ValueError
// naming the variable.
UnitConversion conversionAfter(const UnitConversion& c, const std::vector<ReduceOp>& ops,
                               const std::string& variable);

} // namespace strata
