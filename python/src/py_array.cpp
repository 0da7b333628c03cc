#include "py_array.h"

#include <pybind11/stl.h>

#include <string>

#include "dlpack.h"
#include "strata/core/error.h"
#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace py = pybind11;

namespace strata::py {
namespace {

dl::DataType dlTypeOf(DType t) {
    const auto bits = static_cast<std::uint8_t>(sizeOf(t) * 8);
    if (isFloating(t)) return {dl::Float, bits, 1};
    return {isSignedInteger(t) ? dl::Int : dl::UInt, bits, 1};
}

const char* bufferFormat(DType t) {
    switch (t) {
    case DType::Int8:
        return "b";
    case DType::UInt8:
        return "B";
    case DType::Int16:
        return "h";
    case DType::UInt16:
        return "H";
    case DType::Int32:
        return "i";
    case DType::UInt32:
        return "I";
    case DType::Int64:
        return "q";
    case DType::UInt64:
        return "Q";
    case DType::Float32:
        return "f";
    case DType::Float64:
        return "d";
    default:
        return "";
    }
}

// What a capsule's tensor points at: the buffer kept alive, and the shape and strides arrays.
struct Held {
    dl::ManagedTensor managed{};
    std::shared_ptr<const Buffer> buffer;
    std::vector<std::int64_t> shape, strides;
};

void deleteHeld(dl::ManagedTensor* m) { delete static_cast<Held*>(m->context); }

// A capsule never consumed still owns its tensor.
void capsuleDestructor(PyObject* capsule) {
    if (PyCapsule_IsValid(capsule, dl::kCapsule)) {
        auto* m = static_cast<dl::ManagedTensor*>(PyCapsule_GetPointer(capsule, dl::kCapsule));
        if (m && m->deleter) m->deleter(m);
    }
}

#if STRATA_HAVE_CUDA
void cudaCheck(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        cudaGetLastError();
        STRATA_FAIL(CudaError, std::string(what) + ": " + cudaGetErrorString(status));
    }
}
#endif

// The consumer's stream waits for the producer's: an event recorded on `producer`.
void orderAfter(Stream producer, ::py::object consumer) {
#if STRATA_HAVE_CUDA
    std::intptr_t value = consumer.is_none() ? 1 : consumer.cast<std::intptr_t>();
    if (value == -1) return; // the consumer asked for no synchronisation
    STRATA_EXPECTS(value != 0, ValueError, "DLPack stream 0 is ambiguous for CUDA: pass 1 or 2");
    cudaStream_t target = value == 1   ? cudaStreamLegacy
                          : value == 2 ? cudaStreamPerThread
                                       : reinterpret_cast<cudaStream_t>(value);
    auto source = static_cast<cudaStream_t>(producer.handle());
    if (source == target) return;
    cudaEvent_t ready;
    cudaCheck(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreate");
    cudaError_t s = cudaEventRecord(ready, source);
    if (s == cudaSuccess) s = cudaStreamWaitEvent(target, ready, 0);
    cudaEventDestroy(ready);
    cudaCheck(s, "ordering the consumer's stream after Strata's");
#else
    (void)producer;
    (void)consumer;
#endif
}

} // namespace

ExportedArray ExportedArray::of(const Variable& v, const std::string& context) {
    STRATA_EXPECTS(isNumeric(v.dtype()), ValueError,
                   context + ": a " + std::string(name(v.dtype())) + " variable has no array to export");
    STRATA_EXPECTS(v.isLoaded(), ValueError, context + ": the variable is not loaded");
    ExportedArray a;
    a.buffer = v.buffer();
    a.dtype = v.dtype();
    a.shape = v.shape();
    a.strides = v.strides();
    a.offset = v.offset();
    return a;
}

const char* ExportedArray::data() const {
    if (!buffer) return nullptr;
    return static_cast<const char*>(buffer->data()) + offset * static_cast<std::int64_t>(sizeOf(dtype));
}

std::intptr_t dlpackStreamOf(Stream s) {
    return s.handle() ? reinterpret_cast<std::intptr_t>(s.handle()) : 1;
}

::py::capsule ExportedArray::dlpack(::py::object stream) const {
    const Device d = device();
    if (d.isCuda()) {
        orderAfter(buffer->stream(), stream);
    } else if (!stream.is_none()) {
        STRATA_FAIL(ValueError, "a host array takes no DLPack stream (got " +
                                    ::py::str(stream).cast<std::string>() + ")");
    }
    auto* held = new Held;
    held->buffer = buffer;
    held->shape = shape;
    held->strides = strides;
    dl::Tensor& t = held->managed.tensor;
    t.data = const_cast<char*>(data());
    t.device = {d.isCuda() ? dl::Cuda : dl::Cpu, d.isCuda() ? d.ordinal : 0};
    t.ndim = static_cast<std::int32_t>(shape.size());
    t.dtype = dlTypeOf(dtype);
    t.shape = held->shape.data();
    t.strides = held->strides.data();
    t.byteOffset = 0;
    held->managed.context = held;
    held->managed.deleter = deleteHeld;
    return ::py::capsule(&held->managed, dl::kCapsule, capsuleDestructor);
}

::py::dict ExportedArray::cudaArrayInterface() const {
    ::py::dict d;
    ::py::tuple sh(shape.size()), st(strides.size());
    for (std::size_t i = 0; i < shape.size(); ++i) {
        sh[i] = shape[i];
        st[i] = strides[i] * static_cast<std::int64_t>(sizeOf(dtype));
    }
    d["shape"] = sh;
    d["strides"] = st;
    d["typestr"] = std::string(isFloating(dtype)        ? "<f"
                               : isSignedInteger(dtype) ? "<i"
                                                        : "<u") +
                   std::to_string(sizeOf(dtype));
    d["data"] = ::py::make_tuple(reinterpret_cast<std::uintptr_t>(data()), false);
    d["version"] = 3;
    // The producer's stream: the consumer orders its work after it.
    d["stream"] =
        buffer && buffer->stream().handle() ? ::py::cast(dlpackStreamOf(buffer->stream())) : ::py::cast(1);
    return d;
}

void bindArray(::py::module_& m) {
    ::py::class_<ExportedArray>(m, "_Array", ::py::buffer_protocol(),
                                "A view of Strata's memory (read through NumPy, CuPy or DLPack; no copy)")
        .def_property_readonly("shape",
                               [](const ExportedArray& a) { return ::py::tuple(::py::cast(a.shape)); })
        .def_property_readonly("dtype", [](const ExportedArray& a) { return std::string(name(a.dtype)); })
        .def_property_readonly("device", [](const ExportedArray& a) { return a.device().toString(); })
        .def_property_readonly(
            "ptr", [](const ExportedArray& a) { return reinterpret_cast<std::uintptr_t>(a.data()); })
        .def_property_readonly("borrowed",
                               [](const ExportedArray& a) { return a.buffer && a.buffer->isBorrowed(); })
        .def(
            "__dlpack__",
            [](const ExportedArray& a, ::py::object stream, ::py::kwargs) { return a.dlpack(stream); },
            ::py::arg("stream") = ::py::none())
        .def("__dlpack_device__",
             [](const ExportedArray& a) {
                 const Device d = a.device();
                 return ::py::make_tuple(d.isCuda() ? int(dl::Cuda) : int(dl::Cpu),
                                         d.isCuda() ? d.ordinal : 0);
             })
        .def_property_readonly("__cuda_array_interface__",
                               [](const ExportedArray& a) {
                                   if (!a.device().isCuda())
                                       throw ::py::attribute_error(
                                           "a host array has no __cuda_array_interface__");
                                   return a.cudaArrayInterface();
                               })
        .def_buffer([](const ExportedArray& a) {
            if (!a.device().isHost())
                throw ::py::buffer_error("the array is on " + a.device().toString() +
                                         ": read it through DLPack or __cuda_array_interface__ (CuPy)");
            std::vector<::py::ssize_t> shape(a.shape.begin(), a.shape.end()), strides;
            for (std::int64_t s : a.strides)
                strides.push_back(s * static_cast<::py::ssize_t>(sizeOf(a.dtype)));
            return ::py::buffer_info(const_cast<char*>(a.data()), static_cast<::py::ssize_t>(sizeOf(a.dtype)),
                                     bufferFormat(a.dtype), static_cast<::py::ssize_t>(shape.size()), shape,
                                     strides, /*readonly=*/true);
        });
}

} // namespace strata::py
