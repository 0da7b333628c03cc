#pragma once
// The parsed JSON behind JsonDoc (zarr_meta.h), for the files that read Zarr metadata.
#include <nlohmann/json.hpp>

#include "zarr_meta.h"

namespace strata::io::detail {

struct JsonDoc {
    nlohmann::json json;
};

// The marker a bare NaN, Infinity or -Infinity of the text becomes (a string no store writes).
inline constexpr const char* kJsonNaN = "\x01NaN";
inline constexpr const char* kJsonInf = "\x01Infinity";
inline constexpr const char* kJsonNegInf = "\x01-Infinity";

} // namespace strata::io::detail

namespace strata::io::detail {

// Helpers shared by the v2 and v3 parsers; each failure names `context`.
[[noreturn]] void fail(const std::string& context, const std::string& problem);
std::optional<double> nonFinite(const std::string& s); // "NaN", "Infinity", "-Infinity" (or markers)
std::string shortDump(const nlohmann::json& j);        // at most 80 characters
const nlohmann::json& member(const nlohmann::json& obj, const char* key, const std::string& context);
std::int64_t asInt(const nlohmann::json& j, const std::string& what, const std::string& context);
std::vector<std::int64_t> intList(const nlohmann::json& j, const std::string& what,
                                  const std::string& context);
std::optional<DType> v3Type(const std::string& s); // "float32", ...; bool reads as uint8
// A fill value (a number, NaN/Infinity, a v3 hex bit pattern) as `dtype` bytes; `number` gets it.
std::vector<unsigned char> fillBytes(const nlohmann::json& j, DType dtype, std::optional<double>& number,
                                     const std::string& context);
// Dims, chunk shape and sizes checked: at most kMaxDims, lengths >= 0, chunks >= 1 and small.
void checkShapes(ZarrArrayMeta& m, const std::string& context);

} // namespace strata::io::detail
