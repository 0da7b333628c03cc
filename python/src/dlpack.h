#pragma once
// The DLPack exchange ABI (dmlc/dlpack, versions 0.8 and 1.0), declared in our own words: the
// structs a producer hands over in a PyCapsule named "dltensor" (or "dltensor_versioned").
#include <cstdint>

namespace strata::py::dl {

enum DeviceType : std::int32_t { Cpu = 1, Cuda = 2, CudaHost = 3, CudaManaged = 13 };
enum TypeCode : std::uint8_t { Int = 0, UInt = 1, Float = 2, Opaque = 3, Bfloat = 4, Complex = 5, Bool = 6 };

struct Device {
    std::int32_t type;
    std::int32_t id;
};

struct DataType {
    std::uint8_t code;
    std::uint8_t bits;
    std::uint16_t lanes;
};

struct Tensor {
    void* data;
    Device device;
    std::int32_t ndim;
    DataType dtype;
    std::int64_t* shape;
    std::int64_t* strides; // in elements; null: C-contiguous
    std::uint64_t byteOffset;
};

struct ManagedTensor {
    Tensor tensor;
    void* context;
    void (*deleter)(ManagedTensor* self);
};

struct Version {
    std::uint32_t major;
    std::uint32_t minor;
};

struct ManagedTensorVersioned {
    Version version;
    void* context;
    void (*deleter)(ManagedTensorVersioned* self);
    std::uint64_t flags; // bit 0: read-only, bit 1: a copy
    Tensor tensor;
};

inline constexpr const char* kCapsule = "dltensor";
inline constexpr const char* kUsedCapsule = "used_dltensor";
inline constexpr const char* kCapsuleVersioned = "dltensor_versioned";
inline constexpr const char* kUsedCapsuleVersioned = "used_dltensor_versioned";

} // namespace strata::py::dl
