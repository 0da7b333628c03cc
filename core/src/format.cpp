#include "strata/core/format.h"

#include <charconv>
#include <cmath>

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

} // namespace strata
