#include "strata/render/frame_labels.h"

#include "strata/render/grid_geometry.h"

namespace strata {

std::string variableTitle(const DataArray& a) { return axisTitle(a.name(), a.attrs(), false); }

std::string sliceDescription(const DataArray& a) {
    std::string out;
    for (const Coordinate& c : a.coords()) {
        if (!c.dims.empty() || c.values.size() != 1) continue;
        std::string value = c.label(0);
        auto units = c.attrs.text("units");
        if (!c.time && units && !units->empty()) value += " " + *units;
        out += (out.empty() ? "" : ", ") + c.name + " = " + value;
    }
    return out;
}

std::string frameTitle(const DataArray& a) {
    std::string t = variableTitle(a);
    std::string s = sliceDescription(a);
    return s.empty() ? t : t + "  " + s;
}

} // namespace strata
