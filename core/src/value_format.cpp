#include "strata/core/value_format.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <unordered_set>
#include <vector>

#include "strata/core/cf_axis.h"
#include "strata/core/coordinate.h"

namespace strata {
namespace {

constexpr int kMaxDecimals = 10;
constexpr std::size_t kMaxSampled = 100'000; // values a decision looks at, at most

// |v| to `decimals` places, halves rounded away from zero ("5.63" for 5.625, which printf
// alone makes "5.62"), and whether it is all zeros (no sign, no hemisphere then).
std::string fixed(double v, int decimals, bool& zero) {
    const double scale = std::pow(10.0, decimals);
    const double rounded =
        std::fabs(v) * scale < 1e15 ? std::round(std::fabs(v) * scale) / scale : std::fabs(v);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, rounded);
    std::string s = buf;
    zero = s.find_first_not_of("0.") == std::string::npos;
    return s;
}

// A single value: up to six significant digits, trailing zeros dropped ("0.123457", "850").
std::string shortNumber(double v) {
    if (v == std::trunc(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<std::int64_t>(v));
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

// A single angle: at most three decimals, trailing zeros dropped ("45.5", "84.753").
std::string shortAngle(double v) {
    bool zero = false;
    std::string s = fixed(v, 3, zero);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
    std::nth_element(v.begin(), mid, v.end());
    return *mid;
}

// The axis's step: the smallest gap between neighbours of a 1-D coordinate; for one of more
// dims (2-D latitude), the larger of the typical gaps along its last and its first dim.
double stepOf(const Coordinate& c) {
    const auto& v = c.values;
    const std::size_t n = std::min(v.size(), kMaxSampled);
    const auto gaps = [&](std::size_t stride) {
        std::vector<double> out;
        for (std::size_t i = stride; i < n; ++i) {
            const double d = std::fabs(v[i] - v[i - stride]);
            if (std::isfinite(d) && d > 0) out.push_back(d);
        }
        return out;
    };
    if (c.shape.size() <= 1) {
        const auto g = gaps(1);
        return g.empty() ? 0 : *std::min_element(g.begin(), g.end());
    }
    const auto last = static_cast<std::size_t>(std::max<std::int64_t>(c.shape.back(), 1));
    return std::max(median(gaps(1)), median(gaps(last)));
}

int decimalsFor(const Coordinate& c) {
    const double step = stepOf(c);
    if (!(step > 0)) return -1;
    // A 1-D axis is usually regular: its values are exact at few decimals. The values of a 2-D
    // one (curvilinear latitude) are not: a tenth of a typical cell is close enough.
    const double tolerance = (c.shape.size() <= 1 ? 0.01 : 0.1) * step;
    const std::size_t n = std::min(c.values.size(), kMaxSampled);
    for (int d = 0; d < kMaxDecimals; ++d) {
        const double scale = std::pow(10.0, d);
        bool close = true;
        for (std::size_t i = 0; i < n && close; ++i) {
            const double v = c.values[i];
            if (std::isfinite(v)) close = std::fabs(std::round(v * scale) / scale - v) <= tolerance;
        }
        if (close) return d;
    }
    return kMaxDecimals;
}

DateResolution resolutionOf(const Coordinate& c) {
    const auto& dates = c.time->dates;
    double step = 0;
    for (std::size_t i = 1; i < c.values.size() && i < dates.size(); ++i) {
        const double d = std::fabs(c.values[i] - c.values[i - 1]);
        if (std::isfinite(d) && d > 0 && (step == 0 || d < step)) step = d;
    }
    step *= secondsPerUnit(c.time->units.unit);
    DateResolution r = DateResolution::Exact;
    if (step == 0 && !dates.empty()) { // one date: as much of it as it holds
        const DateTime& d = dates.front();
        const bool wholeSeconds = d.second == std::floor(d.second);
        r = d.hour == 0 && d.minute == 0 && d.second == 0 ? DateResolution::Days
            : d.second == 0                               ? DateResolution::Minutes
            : wholeSeconds                                ? DateResolution::Seconds
                                                          : DateResolution::Exact;
    } else if (step >= 86400 * (1 - 1e-9)) {
        r = DateResolution::Days;
    } else if (step >= 60 * (1 - 1e-9)) {
        r = DateResolution::Minutes;
    } else if (step >= 1 - 1e-9) {
        r = DateResolution::Seconds;
    }
    // Finer while two dates would read the same (an uneven axis).
    for (; r != DateResolution::Exact; r = static_cast<DateResolution>(static_cast<int>(r) + 1)) {
        ValueFormat f;
        f.kind = ValueFormat::Kind::Date;
        f.dates = r;
        std::unordered_set<std::string> seen;
        bool distinct = true;
        for (std::size_t i = 0; i < dates.size() && i < kMaxSampled && distinct; ++i)
            distinct = seen.insert(f.date(dates[i])).second;
        if (distinct) break;
    }
    return r;
}

} // namespace

std::string ValueFormat::number(double v) const {
    if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
    const bool angle = kind == Kind::Latitude || kind == Kind::Longitude;
    if (!angle) {
        if (decimals < 0) return shortNumber(v);
        bool zero = false;
        const std::string s = fixed(v, decimals, zero);
        return (v < 0 && !zero ? "-" : "") + s;
    }
    bool zero = false;
    const std::string s = decimals < 0 ? shortAngle(v) : fixed(v, decimals, zero);
    if (decimals < 0) zero = s == "0";
    if (zero) return s + "°";
    return s + "°" + (kind == Kind::Latitude ? (v < 0 ? "S" : "N") : (v < 0 ? "W" : "E"));
}

std::string ValueFormat::numberWithUnits(double v) const {
    return units.empty() ? number(v) : number(v) + " " + units;
}

std::string ValueFormat::date(const DateTime& d) const {
    const std::string iso = d.iso(false); // "2005-01-16T12:00:00[.5]"
    const std::size_t t = iso.find('T');
    switch (dates) {
    case DateResolution::Days:
        return iso.substr(0, t);
    case DateResolution::Minutes:
        return iso.substr(0, t) + " " + iso.substr(t + 1, 5);
    case DateResolution::Seconds:
        return iso.substr(0, t) + " " + iso.substr(t + 1, 8);
    case DateResolution::Exact:
        break;
    }
    return iso;
}

ValueFormat valueFormatOf(const Coordinate& c) {
    ValueFormat f;
    if (c.time) {
        f.kind = ValueFormat::Kind::Date;
        f.dates = resolutionOf(c);
        return f;
    }
    const std::string units = c.problem.empty() ? c.attrs.text("units").value_or("") : std::string();
    f.kind = isLatitudeUnits(units)    ? ValueFormat::Kind::Latitude
             : isLongitudeUnits(units) ? ValueFormat::Kind::Longitude
                                       : ValueFormat::Kind::Number;
    if (f.kind == ValueFormat::Kind::Number) f.units = units;
    f.decimals = decimalsFor(c);
    return f;
}

} // namespace strata
