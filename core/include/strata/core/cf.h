#pragma once
#include <algorithm>
#include <cmath>
// CF packing and masking: what a variable's attributes say about its stored values.
#include <optional>
#include <string>
#include <vector>

#include "strata/core/attributes.h"
#include "strata/core/dtype.h"

namespace strata {

// A CF attribute that decoding leaves out, and why, in words for the user ("attribute
// '_FillValue' value NaN cannot be represented in int16; ignored, as xarray does").
struct CfWarning {
    std::string attribute; // "_FillValue", "missing_value", "valid_min", ...
    std::string text;      // names the attribute, its value and what is wrong with it
};

// How stored ("packed") values become decoded ones. Masking is applied to the packed values
// first (as CF says), then unpacking: decoded = packed * scale + offset, masked → NaN.
struct CfEncoding {
    DType packed = DType::Float32;  // the type stored in the file
    DType decoded = DType::Float32; // the type after decoding (floating whenever masked/scaled)
    std::vector<double> fillValues; // _FillValue and missing_value (each may be a list)
    std::optional<double> validMin; // from valid_min or valid_range[0]
    std::optional<double> validMax; // from valid_max or valid_range[1]
    double scale = 1.0;
    double offset = 0.0;
    bool scaled = false; // scale_factor or add_offset present
    // Text of the problem when the attributes cannot be honoured (e.g. scale_factor given as
    // text); decoding then throws DecodeError with it. Empty when all is well.
    std::string problem;
    // Masking attributes that cannot be used with the stored type (a NaN _FillValue on shorts,
    // a text missing_value, a NaN valid_min): left out of decoding, which goes on.
    std::vector<CfWarning> warnings;

    // Nothing to decode: the stored values are the values. A NaN fill value of floating-point
    // data masks nothing (NaN is missing already), so it needs no pass over the data.
    bool isIdentity() const {
        const bool noFill = std::all_of(fillValues.begin(), fillValues.end(),
                                        [&](double f) { return std::isnan(f) && isFloating(packed); });
        return !scaled && noFill && !validMin && !validMax && packed == decoded;
    }

    // Reads _FillValue, missing_value, valid_min/valid_max/valid_range, scale_factor and
    // add_offset from `attrs` of a variable stored as `packed`. Never throws. What makes
    // decoding impossible (a text, non-finite or multi-valued scale_factor or add_offset, a
    // valid_range not of two ordered values, a valid_min of several) goes to `problem`; a
    // masking value the stored type cannot hold or compare goes to `warnings` and is ignored.
    // Both name the attribute and what is wrong with it (the caller adds the file and
    // variable). Decoded type as in xarray: the scale_factor's type when scaled, float32 for
    // masked 8/16-bit integers, float64 for wider masked integers, else the stored type; an
    // ignored fill value other than NaN counts as masking here, as it does in xarray.
    static CfEncoding fromAttributes(const Attributes& attrs, DType packed);
};

} // namespace strata
