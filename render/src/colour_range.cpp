#include "strata/render/colour_range.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "strata/core/error.h"
#include "strata/core/ops.h"

namespace strata {

bool needsFrameRange(const ColourRange& range, bool variableKnown) {
    switch (range.mode) {
    case RangeMode::Frame:
        return true;
    case RangeMode::Variable:
    case RangeMode::Symmetric:
        return !variableKnown;
    case RangeMode::Fixed:
        return false;
    }
    return true;
}

MinMax frameColourRange(const ColourRange& range, const DataArray& frame, std::optional<MinMax> variable,
                        std::optional<MinMax> known) {
    std::optional<MinMax> frameRange;
    if (needsFrameRange(range, variable.has_value())) frameRange = known ? *known : minmaxValues(frame);
    return resolveRange(range, frameRange, variable);
}

namespace {

bool finite(const std::optional<MinMax>& r) {
    return r && std::isfinite(r->first) && std::isfinite(r->second);
}

MinMax widened(MinMax r) {
    if (!std::isfinite(r.first) || !std::isfinite(r.second)) return {0.0, 1.0};
    if (r.first > r.second) std::swap(r.first, r.second);
    if (r.first == r.second) {
        double h = r.first == 0 ? 0.5 : std::abs(r.first) / 2;
        return {r.first - h, r.second + h};
    }
    return r;
}

} // namespace

MinMax resolveRange(const ColourRange& range, std::optional<MinMax> frame, std::optional<MinMax> variable) {
    std::optional<MinMax> data = finite(variable) ? variable : frame;
    switch (range.mode) {
    case RangeMode::Fixed:
        return widened({range.fixedMin, range.fixedMax});
    case RangeMode::Frame:
        return widened(finite(frame) ? *frame : MinMax{NAN, NAN});
    case RangeMode::Variable:
        return widened(finite(data) ? *data : MinMax{NAN, NAN});
    case RangeMode::Symmetric: {
        if (!finite(data)) return {-1.0, 1.0};
        double m = std::max(std::abs(data->first), std::abs(data->second));
        if (m == 0) m = 1;
        return {-m, m};
    }
    }
    return {0.0, 1.0};
}

} // namespace strata
