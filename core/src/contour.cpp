// Contour levels: --contours spellings and the levels they give in a range.
#include "strata/core/contour.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "strata/core/error.h"
#include "strata/core/format.h"

namespace strata {
namespace {

constexpr int kMaxLevels = 1000;

double number(std::string_view text, std::string_view whole) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    STRATA_EXPECTS(ec == std::errc() && end == text.data() + text.size() && std::isfinite(v), ValueError,
                   "contour levels '" + std::string(whole) + "': '" + std::string(text) +
                       "' is not a number");
    return v;
}

} // namespace

ContourSpec parseContourSpec(std::string_view text) {
    ContourSpec s;
    if (text == "auto") return s;
    if (const auto colon = text.find(':'); colon != std::string_view::npos) {
        s.kind = ContourSpec::Kind::Step;
        s.step = number(text.substr(0, colon), text);
        s.base = number(text.substr(colon + 1), text);
        STRATA_EXPECTS(s.step > 0, ValueError,
                       "contour levels '" + std::string(text) + "': the step must be above 0");
        return s;
    }
    if (text.find(',') == std::string_view::npos) {
        const double n = number(text, text);
        if (n != std::floor(n)) { // one level: 3.5
            s.kind = ContourSpec::Kind::List;
            s.values = {n};
            return s;
        }
        STRATA_EXPECTS(n >= 1 && n <= kMaxLevels, ValueError,
                       "contour levels '" + std::string(text) +
                           "': a count is a whole number from 1 to 1000 (one whole level is written with a "
                           "comma: 5,)");
        s.kind = ContourSpec::Kind::Count;
        s.count = static_cast<int>(n);
        return s;
    }
    s.kind = ContourSpec::Kind::List;
    std::string_view rest = text;
    if (rest.back() == ',') rest.remove_suffix(1); // "5," is the one level 5
    std::size_t start = 0;
    while (start <= rest.size()) {
        const std::size_t comma = std::min(rest.find(',', start), rest.size());
        s.values.push_back(number(rest.substr(start, comma - start), text));
        start = comma + 1;
    }
    for (std::size_t k = 1; k < s.values.size(); ++k)
        STRATA_EXPECTS(s.values[k] > s.values[k - 1], ValueError,
                       "contour levels '" + std::string(text) + "': the levels " +
                           formatNumber(s.values[k - 1]) + "," + formatNumber(s.values[k]) +
                           " are not increasing");
    return s;
}

std::string toString(const ContourSpec& s) {
    switch (s.kind) {
    case ContourSpec::Kind::Auto:
        return "auto";
    case ContourSpec::Kind::Count:
        return std::to_string(s.count);
    case ContourSpec::Kind::Step:
        return formatNumber(s.step) + ":" + formatNumber(s.base);
    case ContourSpec::Kind::List:
        break;
    }
    std::string out;
    for (double v : s.values) out += (out.empty() ? "" : ",") + formatNumber(v);
    if (s.values.size() == 1 && s.values[0] == std::floor(s.values[0])) out += ","; // not a count
    return out;
}

std::vector<double> contourLevels(const ContourSpec& s, double lo, double hi) {
    std::vector<double> out;
    if (!(std::isfinite(lo) && std::isfinite(hi) && hi > lo)) return out;
    auto between = [&](double base, double step) {
        const double k0 = std::floor((lo - base) / step) + 1, k1 = std::ceil((hi - base) / step) - 1;
        for (double k = k0; k <= k1 && out.size() < kMaxLevels; ++k) {
            const double v = base + k * step;
            if (v > lo && v < hi) out.push_back(v);
        }
    };
    switch (s.kind) {
    case ContourSpec::Kind::Auto: {
        // The smallest nice step at least a tenth of the range.
        const double raw = (hi - lo) / 10, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        double step = 10 * magnitude;
        for (double m : {1.0, 2.0, 2.5, 5.0})
            if (m * magnitude >= raw) {
                step = m * magnitude;
                break;
            }
        between(0, step);
        break;
    }
    case ContourSpec::Kind::Count:
        for (int k = 1; k <= s.count; ++k) out.push_back(lo + (hi - lo) * k / (s.count + 1));
        break;
    case ContourSpec::Kind::List:
        for (double v : s.values)
            if (v > lo && v < hi) out.push_back(v);
        break;
    case ContourSpec::Kind::Step:
        between(s.base, s.step);
        break;
    }
    return out;
}

} // namespace strata
