#include "strata/render/frame_labels.h"

#include <cmath>
#include <cstdio>

#include "strata/core/format.h"
#include "strata/render/grid_geometry.h"

namespace strata {
namespace {

// CF's spellings of the units of latitude and longitude.
bool oneOf(const std::string& s, std::initializer_list<const char*> names) {
    for (const char* n : names)
        if (s == n) return true;
    return false;
}
bool isLatitude(const std::string& units) {
    return oneOf(units, {"degrees_north", "degree_north", "degrees_N", "degree_N", "degreesN", "degreeN"});
}
bool isLongitude(const std::string& units) {
    return oneOf(units, {"degrees_east", "degree_east", "degrees_E", "degree_E", "degreesE", "degreeE"});
}

// |v| with at most three decimals and no trailing zeros: "45.5", "84.753", "0".
std::string angle(double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", std::fabs(v));
    std::string s = buf;
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

// A number short enough for a title: whole numbers as they are, others to six digits.
std::string shortNumber(double v, DType dtype) {
    if (!std::isfinite(v)) return formatNumber(v);
    if (v == std::trunc(v) && std::fabs(v) < 1e15) return formatNumber(static_cast<std::int64_t>(v));
    if (dtype == DType::Float32) return formatNumber(static_cast<float>(v)); // at most 9 digits
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace

std::string variableTitle(const DataArray& a) { return axisTitle(a.name(), a.attrs(), false); }

std::string sliceValueLabel(const Coordinate& c) {
    if (c.values.empty()) return {};
    if (c.time) return c.label(0);
    const double v = c.values[0];
    const std::string units = c.attrs.text("units").value_or("");
    if (std::isfinite(v) && (isLatitude(units) || isLongitude(units))) {
        const std::string a = angle(v);
        if (a == "0") return "0°";
        return a + "°" + (isLatitude(units) ? (v < 0 ? "S" : "N") : (v < 0 ? "W" : "E"));
    }
    std::string out = shortNumber(v, c.dtype);
    if (!units.empty()) out += " " + units;
    return out;
}

std::string sliceDescription(const DataArray& a) {
    std::string out;
    for (const Coordinate& c : a.coords()) {
        if (!c.dims.empty() || c.values.size() != 1) continue;
        out += (out.empty() ? "" : ", ") + c.name + " = " + sliceValueLabel(c);
    }
    return out;
}

std::string reductionDescription(const std::vector<std::pair<std::string, ReduceOp>>& reductions,
                                 bool areaWeighted) {
    std::string out, area;
    for (const auto& [dim, op] : reductions) {
        if (areaWeighted && op == ReduceOp::Mean) { // one step, where the first mean is
            if (area.empty()) {
                for (const auto& [d, o] : reductions)
                    if (o == ReduceOp::Mean) area += (area.empty() ? "" : ", ") + d;
                out += (out.empty() ? "" : ", ") + std::string("area-weighted mean over ") + area;
            }
            continue;
        }
        out += (out.empty() ? "" : ", ") + std::string(name(op)) + " over " + dim;
    }
    return out;
}

std::string frameTitle(const DataArray& a) { return frameTitle(a, {}); }

std::string frameTitle(const DataArray& a, const std::vector<std::pair<std::string, ReduceOp>>& reductions,
                       bool areaWeighted) {
    const std::string t = variableTitle(a);
    std::string s = sliceDescription(a);
    const std::string r = reductionDescription(reductions, areaWeighted);
    if (!r.empty()) s += (s.empty() ? "" : ", ") + r;
    return s.empty() ? t : t + "  " + s;
}

} // namespace strata
