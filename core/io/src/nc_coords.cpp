#include "nc_coords.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <sstream>
#include <vector>

#include "strata/core/cf_axis.h"
#include "strata/core/error.h"
#include "strata/core/memory_budget.h"

namespace strata::io::detail {

std::vector<std::string> coordinateNames(const Dataset& ds) {
    std::vector<std::string> names;
    const auto add = [&](const std::string& n) {
        if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    };
    const auto words = [](const std::string& text) {
        std::istringstream in(text);
        std::vector<std::string> out;
        for (std::string w; in >> w;) out.push_back(w);
        return out;
    };
    for (const auto& [name, v] : ds.variables)
        if (v.ndim() == 1 && v.dims()[0] == name) add(name);
    for (const auto& [name, v] : ds.variables)
        if (auto text = v.attrs().text("coordinates"))
            for (const auto& w : words(*text)) add(w);
    // The bounds of 2-D coordinates (a curvilinear grid's cell corners, (y, x, 4)).
    for (std::size_t k = 0; k < names.size(); ++k)
        if (const Variable* c = ds.findVariable(names[k]); c && c->ndim() == 2)
            if (auto b = c->attrs().text("bounds"); b && ds.findVariable(*b)) add(*b);
    for (const auto& [name, v] : ds.variables)
        if (auto text = v.attrs().text("cell_measures")) {
            const auto w = words(*text);
            for (std::size_t i = 0; i + 1 < w.size(); ++i)
                if (w[i] == "area:" && ds.findVariable(w[i + 1])) add(w[i + 1]);
        }
    return names;
}
namespace {

// Coordinates stay on the host as doubles; refuse absurd ones (1 GiB of doubles).
constexpr std::int64_t kMaxCoordinateValues = std::int64_t(1) << 27;

std::vector<double> readAsDoubles(const Variable& v) {
    const DType packed = v.encoding().packed;
    const auto n = static_cast<std::size_t>(v.size());
    std::vector<std::byte> raw(n * sizeOf(packed));
    const std::vector<std::int64_t> ones(v.shape().size(), 1);
    if (n) v.source()->read(v.sourceStart(), v.shape(), ones, raw.data());
    std::vector<double> out(n);
    visitNumeric(packed, [&](auto tag) {
        using T = decltype(tag);
        const T* p = reinterpret_cast<const T*>(raw.data());
        for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<double>(p[i]);
    });
    return out;
}

std::optional<TimeAxis> decodeDates(const std::vector<double>& values, const Attributes& attrs,
                                    const std::string& context, std::string& problem) {
    const auto units = attrs.text("units");
    if (!units || !isTimeUnits(*units)) return std::nullopt;
    try {
        TimeAxis axis;
        axis.units = parseTimeUnits(*units);
        axis.calendar = parseCalendar(attrs.text("calendar").value_or("standard"));
        axis.dates.reserve(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) {
            if (std::isnan(values[i]))
                STRATA_FAIL(DecodeError, "time value " + std::to_string(i) + " is missing (masked or NaN)");
            axis.dates.push_back(decodeTime(values[i], axis.units, axis.calendar));
        }
        return axis;
    } catch (const DecodeError& e) {
        problem = context + ": " + e.what();
        return std::nullopt;
    }
}

} // namespace

void decodeOnHost(std::vector<double>& values, const CfEncoding& enc) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (double& x : values) {
        bool masked = std::isnan(x);
        for (double f : enc.fillValues) masked = masked || x == f;
        masked = masked || (enc.validMin && x < *enc.validMin) || (enc.validMax && x > *enc.validMax);
        x = masked ? nan : (enc.scaled ? x * enc.scale + enc.offset : x);
    }
}

std::optional<Coordinate> decodeCoordinate(const std::string& name, const Variable& v,
                                           const std::string& context, OpenNotes& notes) {
    if (!isNumeric(v.encoding().packed)) {
        notes.lines.push_back(context + ": a " + std::string(strata::name(v.encoding().packed)) +
                              " coordinate is kept as a variable only");
        return std::nullopt;
    }
    if (v.size() > kMaxCoordinateValues) {
        notes.lines.push_back(context + ": a coordinate of " + std::to_string(v.size()) +
                              " values is too large to keep on the host; kept as a variable only");
        return std::nullopt;
    }
    // The raw values and their doubles are both held while decoding.
    const std::size_t bytes = std::size_t(v.size()) * (sizeOf(v.encoding().packed) + sizeof(double));
    if (bytes > memoryBudget()) {
        notes.lines.push_back(context + ": a coordinate of " + std::to_string(v.size()) + " values needs " +
                              formatBytes(bytes) + ", more than the memory budget of " +
                              formatBytes(memoryBudget()) +
                              " (STRATA_MEMORY_BUDGET); kept as a variable only");
        return std::nullopt;
    }
    Coordinate c;
    c.name = name;
    c.dims = v.dims();
    c.shape = v.shape();
    c.dtype = v.dtype();
    c.attrs = v.attrs();
    c.values = readAsDoubles(v);
    if (!v.encoding().problem.empty()) {
        c.problem = context + ": " + v.encoding().problem + " (raw values kept)";
    } else {
        decodeOnHost(c.values, v.encoding());
        c.time = decodeDates(c.values, c.attrs, context, c.problem);
    }
    if (!c.problem.empty()) notes.lines.push_back(c.problem);
    return c;
}

} // namespace strata::io::detail
