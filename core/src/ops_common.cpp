#include "ops_common.h"

#include <set>

namespace strata::detail {

std::string listDims(const std::vector<std::string>& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
    return s + ")";
}

std::string describe(const DataArray& a) {
    return (a.name().empty() ? std::string("array") : "'" + a.name() + "'") + " " + listDims(a.dims());
}

Stream streamOf(const DataArray& a) {
    const auto& buffer = a.variable().buffer();
    return a.isLoaded() && buffer ? buffer->stream() : Stream::host();
}

ArrayView checkedView(const DataArray& a, std::string_view op, Stream stream) {
    const std::string what = std::string(op) + " of " + describe(a);
    STRATA_EXPECTS(a.isLoaded(), ValueError, what + ": the data is not loaded (call load() first)");
    STRATA_EXPECTS(isNumeric(a.dtype()), ValueError,
                   what + ": needs numeric data, got dtype " + std::string(name(a.dtype())));
    STRATA_EXPECTS(a.ndim() <= kMaxDims, ValueError,
                   what + ": takes at most " + std::to_string(kMaxDims) + " dims, got " +
                       std::to_string(a.ndim()));
    if (a.device().isCuda())
        STRATA_EXPECTS(stream.device() == a.device(), ValueError,
                       what + ": the data is on " + a.device().toString() + " but the stream is for " +
                           stream.device().toString());
    return a.variable().view();
}

void checkSameDevice(const DataArray& a, const DataArray& b, std::string_view op, std::string_view what) {
    STRATA_EXPECTS(a.device() == b.device(), ValueError,
                   std::string(op) + " of " + describe(a) + ": the " + std::string(what) + " " + describe(b) +
                       " is on " + b.device().toString() + ", the data on " + a.device().toString());
}

std::vector<int> axesOf(const DataArray& a, const std::vector<std::string>& dims, std::string_view op) {
    std::vector<int> axes;
    std::set<std::string> seen;
    for (const auto& d : dims) {
        int axis = -1;
        for (int i = 0; i < a.ndim(); ++i)
            if (a.dims()[i] == d) axis = i;
        STRATA_EXPECTS(axis >= 0, ValueError,
                       std::string(op) + " of " + describe(a) + ": no dim '" + d + "'; the dims are " +
                           listDims(a.dims()));
        STRATA_EXPECTS(seen.insert(d).second, ValueError,
                       std::string(op) + " of " + describe(a) + ": dim '" + d + "' is given twice");
        axes.push_back(axis);
    }
    return axes;
}

Coordinates keptCoords(const DataArray& a, const std::vector<std::string>& kept) {
    Coordinates out;
    const std::set<std::string> keep(kept.begin(), kept.end());
    for (const Coordinate& c : a.coords()) {
        bool all = true;
        for (const auto& d : c.dims) all = all && keep.count(d) > 0;
        if (all) out.set(c);
    }
    return out;
}

Attributes labelAttrs(const Attributes& attrs) {
    Attributes out;
    for (const char* n : {"units", "long_name", "standard_name"})
        if (const Attribute* at = attrs.find(n)) out.set(*at);
    return out;
}

Buffer allocateOn(std::size_t bytes, Device device, Stream stream) {
    return Buffer(bytes, device, device.isHost() ? Stream::host() : stream);
}

} // namespace strata::detail
