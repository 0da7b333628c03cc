#include "strata/render/frame_labels.h"

#include "strata/render/grid_geometry.h"

namespace strata {

std::string variableTitle(const DataArray& a) { return axisTitle(a.name(), a.attrs(), false); }

std::string sliceValueLabel(const Coordinate& c) { return c.labelWithUnits(0); }

std::string sliceDescription(const DataArray& a) {
    std::string out;
    for (const Coordinate& c : a.coords()) {
        if (!c.dims.empty() || c.values.size() != 1) continue;
        out += (out.empty() ? "" : ", ") + c.name + " = " + sliceValueLabel(c);
    }
    return out;
}

std::string reductionDescription(const std::vector<std::pair<std::string, ReduceOp>>& reductions,
                                 bool areaWeighted, const std::string& latitude) {
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
        if (op == ReduceOp::Mean && !latitude.empty() && dim == latitude) out += " (unweighted)";
    }
    return out;
}

std::string frameTitle(const DataArray& a) { return frameTitle(a, {}); }

std::string frameTitle(const DataArray& a, const std::vector<std::pair<std::string, ReduceOp>>& reductions,
                       bool areaWeighted, const std::string& latitude) {
    const std::string t = variableTitle(a);
    std::string s = sliceDescription(a);
    const std::string r = reductionDescription(reductions, areaWeighted, latitude);
    if (!r.empty()) s += (s.empty() ? "" : ", ") + r;
    return s.empty() ? t : t + "  " + s;
}

} // namespace strata
