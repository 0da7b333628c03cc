#include "strata/core/colour_range.h"

#include <string>

#include "strata/core/error.h"

namespace strata {

std::string_view name(RangeMode m) {
    switch (m) {
    case RangeMode::Frame:
        return "frame";
    case RangeMode::Variable:
        return "variable";
    case RangeMode::Fixed:
        return "fixed";
    case RangeMode::Symmetric:
        return "symmetric";
    }
    return "?";
}

bool needsVariableRange(RangeMode m) { return m == RangeMode::Variable || m == RangeMode::Symmetric; }

RangeMode parseRangeMode(std::string_view s) {
    for (RangeMode m : {RangeMode::Frame, RangeMode::Variable, RangeMode::Fixed, RangeMode::Symmetric})
        if (s == name(m)) return m;
    STRATA_FAIL(ValueError,
                "unknown range mode '" + std::string(s) + "' (known: frame, variable, fixed, symmetric)");
}

} // namespace strata
