#pragma once
// ValueText: how the window writes a value of one variable (the probe, a scalar's value, the
// series' readout), decided once from the variable: "271.3 K", "missing" for NaN.
#include <QString>

#include "strata/core/data_array.h"

namespace strata::app {

struct ValueText {
    bool packed = false;  // integers times scale_factor: to the decimals of `scale`'s step
    double scale = 0;     // (not the 17 digits of the unpacked double)
    bool float32 = false; // in the float's own shortest form, not its widened double's digits
    QString units;        // after the number; none when empty

    // For values of `var` as `shown` has them (a frame or series of it: its dtype, which a
    // reduction may widen, and its units, which display units change and a count drops; a
    // packed variable's step converted with its values).
    static ValueText of(const DataArray& var, const DataArray& shown);
    QString number(double v) const;     // without the units; "missing" for NaN
    QString operator()(double v) const; // with the units
};

} // namespace strata::app
