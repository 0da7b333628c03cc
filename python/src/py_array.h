#pragma once
// Strata → Python without a copy: an exported array is a strided view of a Strata Buffer that
// NumPy takes through the buffer protocol or DLPack, and CuPy through DLPack or
// __cuda_array_interface__. The view holds the Buffer: it lives as long as any consumer does.
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "strata/core/variable.h"

namespace strata::py {

struct ExportedArray {
    std::shared_ptr<const Buffer> buffer;
    DType dtype = DType::Float32;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides; // in elements
    std::int64_t offset = 0;           // in elements

    // A loaded numeric variable's data (ValueError for lazy or text variables).
    static ExportedArray of(const Variable& v, const std::string& context);
    Device device() const { return buffer ? buffer->device() : Device::host(); }
    const char* data() const;
    // "dltensor" capsule; the consumer's `stream` (DLPack's integer convention, or None) is made
    // to wait for the work queued on the buffer's stream.
    pybind11::capsule dlpack(pybind11::object stream) const;
    pybind11::dict cudaArrayInterface() const;
};

void bindArray(pybind11::module_& m);

// The CUDA stream integer for DLPack's `stream` argument that names `s` (1 for the legacy
// default stream when `s` has no handle).
std::intptr_t dlpackStreamOf(Stream s);

} // namespace strata::py
