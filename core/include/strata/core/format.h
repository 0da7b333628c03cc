#pragma once
// Numbers as text: the shortest form that reads back to the same value ("0.1", "1e+20", "nan").
#include <cstdint>
#include <string>

namespace strata {
std::string formatNumber(double v);
std::string formatNumber(float v);
std::string formatNumber(std::int64_t v);
std::string formatNumber(std::uint64_t v);
} // namespace strata
