#pragma once
// Numbers as text: the shortest form that reads back to the same value ("0.1", "1e+20", "nan").
#include <cstdint>
#include <string>

namespace strata {
std::string formatNumber(double v);
std::string formatNumber(float v);
std::string formatNumber(std::int64_t v);
std::string formatNumber(std::uint64_t v);
// A value that is exactly a float32 (a float32 datum widened: a frame's extreme) in the
// float's shortest form ("5886.7", not "5886.7001953125"); any other in the double's.
std::string formatNarrowest(double v);
// A value unpacked from integers with scale_factor `scale`: to the decimals its step needs
// (the fewest with 10^-decimals <= |scale|, at most 12), since the digits beyond say nothing
// the file holds ("121750.4", not "121750.37456509797"). The shortest form for a scale of 0
// or not finite.
std::string formatPacked(double v, double scale);
} // namespace strata
