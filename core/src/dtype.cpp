#include "strata/core/dtype.h"

namespace strata {

std::size_t sizeOf(DType t) {
    switch (t) {
    case DType::Int8:
    case DType::UInt8:
    case DType::Char:
        return 1;
    case DType::Int16:
    case DType::UInt16:
        return 2;
    case DType::Int32:
    case DType::UInt32:
    case DType::Float32:
        return 4;
    case DType::Int64:
    case DType::UInt64:
    case DType::Float64:
        return 8;
    case DType::String:
        return sizeof(char*);
    }
    return 0;
}

std::string_view name(DType t) {
    switch (t) {
    case DType::Int8:
        return "int8";
    case DType::UInt8:
        return "uint8";
    case DType::Int16:
        return "int16";
    case DType::UInt16:
        return "uint16";
    case DType::Int32:
        return "int32";
    case DType::UInt32:
        return "uint32";
    case DType::Int64:
        return "int64";
    case DType::UInt64:
        return "uint64";
    case DType::Float32:
        return "float32";
    case DType::Float64:
        return "float64";
    case DType::Char:
        return "char";
    case DType::String:
        return "str";
    }
    return "?";
}

} // namespace strata
