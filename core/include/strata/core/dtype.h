#pragma once
// The netCDF numeric types, plus char and string for metadata only.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace strata {

enum class DType : std::uint8_t {
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float32,
    Float64,
    Char,
    String
};

std::size_t sizeOf(DType t);    // bytes per element; String: sizeof(char*)
std::string_view name(DType t); // numpy's names: "int16", "float32", "char", "str"
constexpr bool isFloating(DType t) { return t == DType::Float32 || t == DType::Float64; }
constexpr bool isInteger(DType t) { return t <= DType::UInt64; }
constexpr bool isNumeric(DType t) { return t <= DType::Float64; }
constexpr bool isSignedInteger(DType t) {
    return t == DType::Int8 || t == DType::Int16 || t == DType::Int32 || t == DType::Int64;
}

template <class T> constexpr DType dtypeOf() {
    if constexpr (std::is_same_v<T, std::int8_t>)
        return DType::Int8;
    else if constexpr (std::is_same_v<T, std::uint8_t>)
        return DType::UInt8;
    else if constexpr (std::is_same_v<T, std::int16_t>)
        return DType::Int16;
    else if constexpr (std::is_same_v<T, std::uint16_t>)
        return DType::UInt16;
    else if constexpr (std::is_same_v<T, std::int32_t>)
        return DType::Int32;
    else if constexpr (std::is_same_v<T, std::uint32_t>)
        return DType::UInt32;
    else if constexpr (std::is_same_v<T, std::int64_t>)
        return DType::Int64;
    else if constexpr (std::is_same_v<T, std::uint64_t>)
        return DType::UInt64;
    else if constexpr (std::is_same_v<T, float>)
        return DType::Float32;
    else if constexpr (std::is_same_v<T, double>)
        return DType::Float64;
    else
        static_assert(sizeof(T) == 0, "not a numeric dtype");
}

// Calls f(T{}) with T the C++ type of a numeric dtype; throws ValueError for char/string.
// Usable from host code only (the CUDA backend has its own switch in device code).
template <class F> decltype(auto) visitNumeric(DType t, F&& f);

} // namespace strata

#include "strata/core/detail/dtype_visit.h"
