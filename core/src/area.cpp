#include "strata/core/area.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "strata/core/cf_axis.h"
#include "strata/core/error.h"

namespace strata {
namespace {

bool within(const std::vector<std::string>& some, const std::vector<std::string>& all) {
    return std::all_of(some.begin(), some.end(), [&](const std::string& d) {
        return std::find(all.begin(), all.end(), d) != all.end();
    });
}

// The variable named after "area:" in a cell_measures attribute ("area: cell_area volume: v").
std::string areaVariable(const Attributes& attrs) {
    std::istringstream words(attrs.text("cell_measures").value_or(""));
    std::string w;
    while (words >> w)
        if (w == "area:" && (words >> w)) return w;
    return {};
}

} // namespace

std::string latitudeDim(const DataArray& a) {
    for (const auto& d : a.dims())
        if (const Coordinate* c = a.coords().find(d); c && c->isIndex() && isLatitudeLike(c->attrs)) return d;
    return {};
}

namespace {

// The cell areas of `a` over a subset of `dims`, when it has them.
const Coordinate* cellAreas(const DataArray& a, const std::vector<std::string>& dims) {
    const std::string cells = areaVariable(a.attrs());
    const Coordinate* c = cells.empty() ? nullptr : a.coords().find(cells);
    return c && !c->dims.empty() && within(c->dims, dims) ? c : nullptr;
}

} // namespace

void checkAreaWeights(const DataArray& a, const std::vector<std::string>& dims) {
    if (cellAreas(a, dims)) return;
    const std::string lat = latitudeDim(a), cells = areaVariable(a.attrs());
    STRATA_EXPECTS(
        !lat.empty() && std::find(dims.begin(), dims.end(), lat) != dims.end(), ValueError,
        "an area-weighted mean of '" + a.name() + "' needs its latitude among the dims reduced" +
            (lat.empty() ? std::string(" (it has no dim with CF latitude units or standard_name)")
                         : " ('" + lat + "' is not)") +
            (cells.empty() ? std::string() : ", or its cell areas '" + cells + "' over the dims reduced"));
}

AreaWeights areaWeights(const DataArray& a, const std::vector<std::string>& dims, Device device,
                        Stream stream) {
    checkAreaWeights(a, dims);
    if (const Coordinate* c = cellAreas(a, dims)) {
        const std::string& cells = c->name;
        std::vector<double> w = c->values;
        for (double& x : w)
            if (!(x > 0)) x = NAN; // a cell with no area (or a missing one) has no say
        DataArray host = DataArray::fromHost(cells, c->dims, c->shape, w);
        return {host.load(device, stream), cells};
    }
    const std::string lat = latitudeDim(a);
    const Coordinate& c = *a.coords().find(lat);
    std::vector<double> w(c.values.size());
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = std::max(0.0, std::cos(c.values[i] * M_PI / 180.0));
    DataArray host = DataArray::fromHost("cos(" + lat + ")", {lat}, {std::int64_t(w.size())}, w);
    return {host.load(device, stream), "cos(" + lat + ")"};
}

} // namespace strata
