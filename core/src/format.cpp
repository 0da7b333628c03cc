#include "strata/core/format.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace strata {
namespace {
template <class T> std::string shortest(T v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}
} // namespace

std::string formatNumber(double v) { return shortest(v); }
std::string formatNumber(float v) { return shortest(v); }
std::string formatNumber(std::int64_t v) { return std::to_string(v); }
std::string formatNumber(std::uint64_t v) { return std::to_string(v); }

std::string formatNarrowest(double v) {
    const float f = static_cast<float>(v);
    return std::isfinite(v) && double(f) == v ? shortest(f) : shortest(v);
}

std::string formatPacked(double v, double scale) {
    const double step = std::fabs(scale);
    if (!std::isfinite(v) || !(step > 0) || !std::isfinite(step)) return shortest(v);
    int decimals = 0;
    while (decimals < 12 && std::pow(10.0, -decimals) > step * (1 + 1e-9)) ++decimals;
    char buf[512];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    std::string out(buf);
    if (out == "-0" || (out.starts_with("-0.") && out.find_first_not_of("-0.") == std::string::npos))
        out.erase(0, 1); // no "-0.0" for a value that rounds to zero
    return out;
}

} // namespace strata
