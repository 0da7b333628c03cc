#include "py_import.h"

#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "dlpack.h"
#include "py_array.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace py = pybind11;

namespace strata::py {
namespace {

std::string typeName(::py::handle o) { return ::py::str(::py::type::handle_of(o).attr("__name__")); }

DType dtypeFromDl(const dl::DataType& t, const std::string& context) {
    const std::string what = t.code == dl::Int       ? "int"
                             : t.code == dl::UInt    ? "uint"
                             : t.code == dl::Float   ? "float"
                             : t.code == dl::Bool    ? "bool"
                             : t.code == dl::Complex ? "complex"
                             : t.code == dl::Bfloat  ? "bfloat"
                                                     : "opaque";
    auto unsupported = [&] {
        std::string n = what + std::to_string(t.bits);
        if (t.lanes != 1) n += "x" + std::to_string(t.lanes);
        STRATA_FAIL(ValueError, context + ": dtype " + n +
                                    " is not supported (Strata takes int8 to int64, uint8 to uint64, "
                                    "float32 and float64)");
    };
    if (t.lanes != 1) unsupported();
    if (t.code == dl::Float && t.bits == 32) return DType::Float32;
    if (t.code == dl::Float && t.bits == 64) return DType::Float64;
    if (t.code == dl::Int || t.code == dl::UInt) {
        const bool s = t.code == dl::Int;
        switch (t.bits) {
        case 8:
            return s ? DType::Int8 : DType::UInt8;
        case 16:
            return s ? DType::Int16 : DType::UInt16;
        case 32:
            return s ? DType::Int32 : DType::UInt32;
        case 64:
            return s ? DType::Int64 : DType::UInt64;
        default:
            break;
        }
    }
    unsupported();
    return DType::Float32;
}

// Why a big-endian dtype spelled `what` (">f4") is refused, and how to convert it.
std::string bigEndian(const std::string& what) {
    return "dtype " + what +
           " is big-endian: Strata takes the machine's byte order; convert it first "
           "(NumPy: a.astype(a.dtype.newbyteorder('=')))";
}

DType dtypeFromTypestr(const std::string& s, const std::string& context) {
    STRATA_EXPECTS(s.size() >= 3, ValueError, context + ": typestr '" + s + "' is not understood");
    STRATA_EXPECTS(s[0] != '>', ValueError, context + ": " + bigEndian(s));
    const int bytes = std::stoi(s.substr(2));
    const char kind = s[1];
    dl::DataType t{dl::Opaque, static_cast<std::uint8_t>(bytes * 8), 1};
    if (kind == 'f') t.code = dl::Float;
    if (kind == 'i') t.code = dl::Int;
    if (kind == 'u') t.code = dl::UInt;
    if (kind == 'b') t.code = dl::Bool;
    if (kind == 'c') t.code = dl::Complex;
    return dtypeFromDl(t, context);
}

// The device Strata computes on must be where a CUDA array lives; host arrays are taken
// anywhere (the frame pipeline moves them, counted, where it computes).
Device checkDevice(Device d, const std::string& context) {
    if (d.isHost()) return d;
    const ComputeInfo& info = computeInfo();
    STRATA_EXPECTS(info.device.isCuda(), ValueError,
                   context + ": the array is on " + d.toString() + " but Strata computes on the CPU (" +
                       info.reason + ")");
    STRATA_EXPECTS(info.device == d, ValueError,
                   context + ": the array is on " + d.toString() + " but Strata computes on " +
                       info.device.toString() + "; move it there first");
    return d;
}

// The bytes a strided view spans, and the element offset of its first element within them.
struct Span {
    std::int64_t lowest = 0, highest = 0; // element offsets from the data pointer
};
Span spanOf(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides) {
    Span s;
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (shape[i] == 0) return {0, -1};
        const std::int64_t reach = (shape[i] - 1) * strides[i];
        (reach < 0 ? s.lowest : s.highest) += reach;
    }
    return s;
}

std::vector<std::int64_t> contiguous(const std::vector<std::int64_t>& shape) {
    std::vector<std::int64_t> st(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
        st[i] = st[i + 1] * std::max<std::int64_t>(shape[i + 1], 1);
    return st;
}

// Releases a Python object under the GIL (Strata may drop its last view on any thread).
std::shared_ptr<const void> keepAlive(::py::object o) {
    auto* held = new ::py::object(std::move(o));
    return std::shared_ptr<const void>(held, [](const ::py::object* p) {
        if (!Py_IsInitialized()) return; // the interpreter is gone: nothing left to release
        ::py::gil_scoped_acquire gil;
        delete p;
    });
}

Variable fromParts(void* data, DType dtype, std::vector<std::int64_t> shape,
                   std::vector<std::int64_t> strides, Device device, Stream stream,
                   std::shared_ptr<const void> owner, std::vector<std::string> dims, Attributes attrs,
                   const std::string& context) {
    STRATA_EXPECTS(dims.size() == shape.size(), ValueError,
                   context + ": " + std::to_string(dims.size()) + " dims for an array of " +
                       std::to_string(shape.size()) + " dimensions");
    STRATA_EXPECTS(static_cast<int>(shape.size()) <= kMaxDims, ValueError,
                   context + ": " + std::to_string(shape.size()) + " dimensions (Strata takes up to " +
                       std::to_string(kMaxDims) + ")");
    const Span span = spanOf(shape, strides);
    STRATA_EXPECTS(span.lowest == 0, ValueError,
                   context + ": negative strides are not supported (make the array contiguous first)");
    const std::size_t item = sizeOf(dtype);
    const auto bytes = static_cast<std::size_t>(span.highest + 1) * item;
    Buffer borrowed = Buffer::borrow(bytes ? data : nullptr, bytes, device, stream, std::move(owner));
    return Variable(std::move(dims), std::move(shape), dtype,
                    std::make_shared<const Buffer>(std::move(borrowed)), std::move(strides), 0,
                    std::move(attrs));
}

Stream importStream(Device d) { return d.isCuda() ? defaultStream(d) : Stream::host(); }

Variable fromDlpack(::py::handle array, std::vector<std::string> dims, Attributes attrs,
                    const std::string& context) {
    Device device = Device::host();
    if (::py::hasattr(array, "__dlpack_device__")) {
        auto dev = array.attr("__dlpack_device__")().cast<std::pair<int, int>>();
        if (dev.first == dl::Cuda || dev.first == dl::CudaManaged)
            device = Device::cuda(dev.second);
        else if (dev.first != dl::Cpu && dev.first != dl::CudaHost)
            STRATA_FAIL(ValueError, context + ": the array is on DLPack device type " +
                                        std::to_string(dev.first) + " (Strata takes CPU and CUDA arrays)");
    }
    device = checkDevice(device, context);
    const Stream stream = importStream(device);
    ::py::object capsule;
    // Our stream for the producer to order its work before (DLPack's stream argument).
    ::py::object streamArg = device.isCuda() ? ::py::cast(dlpackStreamOf(stream)) : ::py::none();
    try {
        capsule = array.attr("__dlpack__")(::py::arg("stream") = streamArg);
    } catch (::py::error_already_set& e) {
        if (!e.matches(PyExc_TypeError)) throw;
        capsule = array.attr("__dlpack__")(); // an older producer without the stream argument
    }
    const bool versioned = PyCapsule_IsValid(capsule.ptr(), dl::kCapsuleVersioned);
    STRATA_EXPECTS(versioned || PyCapsule_IsValid(capsule.ptr(), dl::kCapsule), ValueError,
                   context + ": __dlpack__ of " + typeName(array) + " did not return a DLPack capsule");
    dl::Tensor t;
    std::shared_ptr<const void> owner;
    if (versioned) {
        auto* m = static_cast<dl::ManagedTensorVersioned*>(
            PyCapsule_GetPointer(capsule.ptr(), dl::kCapsuleVersioned));
        PyCapsule_SetName(capsule.ptr(), dl::kUsedCapsuleVersioned);
        owner = std::shared_ptr<const void>(m, [](dl::ManagedTensorVersioned* p) {
            if (!p->deleter || !Py_IsInitialized()) return;
            ::py::gil_scoped_acquire gil;
            p->deleter(p);
        });
        STRATA_EXPECTS(m->version.major == 1, ValueError,
                       context + ": DLPack version " + std::to_string(m->version.major) +
                           " is not supported");
        t = m->tensor;
    } else {
        auto* m = static_cast<dl::ManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), dl::kCapsule));
        PyCapsule_SetName(capsule.ptr(), dl::kUsedCapsule);
        owner = std::shared_ptr<const void>(m, [](dl::ManagedTensor* p) {
            if (!p->deleter || !Py_IsInitialized()) return;
            ::py::gil_scoped_acquire gil;
            p->deleter(p);
        });
        t = m->tensor;
    }
    const DType dtype = dtypeFromDl(t.dtype, context);
    std::vector<std::int64_t> shape(t.shape, t.shape + t.ndim);
    std::vector<std::int64_t> strides =
        t.strides ? std::vector<std::int64_t>(t.strides, t.strides + t.ndim) : contiguous(shape);
    // The memory stays the producer's as long as both its capsule's tensor and the object do.
    auto both = std::make_shared<std::pair<std::shared_ptr<const void>, std::shared_ptr<const void>>>(
        std::move(owner), keepAlive(::py::reinterpret_borrow<::py::object>(array)));
    return fromParts(static_cast<char*>(t.data) + t.byteOffset, dtype, std::move(shape), std::move(strides),
                     device, stream, both, std::move(dims), std::move(attrs), context);
}

Variable fromCudaArrayInterface(::py::handle array, std::vector<std::string> dims, Attributes attrs,
                                const std::string& context) {
    ::py::dict cai = array.attr("__cuda_array_interface__");
    const DType dtype = dtypeFromTypestr(cai["typestr"].cast<std::string>(), context);
    auto shape = cai["shape"].cast<std::vector<std::int64_t>>();
    std::vector<std::int64_t> strides = contiguous(shape);
    if (cai.contains("strides") && !cai["strides"].is_none()) {
        auto bytes = cai["strides"].cast<std::vector<std::int64_t>>();
        const auto item = static_cast<std::int64_t>(sizeOf(dtype));
        for (std::size_t i = 0; i < bytes.size(); ++i) {
            STRATA_EXPECTS(bytes[i] % item == 0, ValueError,
                           context + ": strides that are not whole elements are not supported");
            strides[i] = bytes[i] / item;
        }
    }
    STRATA_EXPECTS(!cai.contains("mask") || cai["mask"].is_none(), ValueError,
                   context + ": the __cuda_array_interface__ has a mask, and Strata takes no masked arrays "
                             "(fill the masked elements, e.g. with NaN, first)");
    // Version 3's stream: the producer's work on it comes before ours. 0 is forbidden (it could
    // mean no stream or either default stream).
    std::optional<std::intptr_t> producerStream;
    if (cai.contains("stream") && !cai["stream"].is_none()) {
        producerStream = cai["stream"].cast<std::intptr_t>();
        STRATA_EXPECTS(*producerStream != 0, ValueError,
                       context + ": the __cuda_array_interface__ gives stream 0, which the interface "
                                 "forbids as ambiguous (None, 1, 2 or a stream's handle)");
    }
    auto ptr = reinterpret_cast<void*>(cai["data"].cast<::py::tuple>()[0].cast<std::uintptr_t>());
    Device device = Device::cuda(0);
#if STRATA_HAVE_CUDA
    if (ptr) {
        cudaPointerAttributes pa{};
        if (cudaPointerGetAttributes(&pa, ptr) == cudaSuccess && pa.device >= 0)
            device = Device::cuda(pa.device);
        cudaGetLastError();
    }
#endif
    device = checkDevice(device, context);
    const Stream stream = importStream(device);
#if STRATA_HAVE_CUDA
    if (producerStream) {
        const std::intptr_t value = *producerStream;
        cudaStream_t producer = value == 1   ? cudaStreamLegacy
                                : value == 2 ? cudaStreamPerThread
                                             : reinterpret_cast<cudaStream_t>(value);
        cudaEvent_t ready;
        if (cudaEventCreateWithFlags(&ready, cudaEventDisableTiming) == cudaSuccess) {
            cudaEventRecord(ready, producer);
            cudaStreamWaitEvent(static_cast<cudaStream_t>(stream.handle()), ready, 0);
            cudaEventDestroy(ready);
        }
    }
#endif
    return fromParts(ptr, dtype, std::move(shape), std::move(strides), device, stream,
                     keepAlive(::py::reinterpret_borrow<::py::object>(array)), std::move(dims),
                     std::move(attrs), context);
}

// The buffer protocol, for host producers whose __dlpack__ refuses (NumPy < 2 exports no
// read-only array through DLPack).
Variable fromBufferProtocol(::py::handle array, std::vector<std::string> dims, Attributes attrs,
                            const std::string& context) {
    ::py::buffer_info info = ::py::reinterpret_borrow<::py::buffer>(array).request();
    std::string f = info.format;
    STRATA_EXPECTS(f.empty() || (f[0] != '>' && f[0] != '!'), ValueError,
                   context + ": " + bigEndian("'" + f + "'"));
    if (!f.empty() && (f[0] == '<' || f[0] == '=' || f[0] == '@')) f = f.substr(1);
    static const std::pair<const char*, DType> formats[] = {
        {"b", DType::Int8},    {"B", DType::UInt8},  {"h", DType::Int16}, {"H", DType::UInt16},
        {"i", DType::Int32},   {"I", DType::UInt32}, {"q", DType::Int64}, {"Q", DType::UInt64},
        {"f", DType::Float32}, {"d", DType::Float64}};
    DType dtype = DType::Char;
    for (const auto& [code, t] : formats)
        if (f == code) dtype = t;
    if ((f == "l" || f == "L") && info.itemsize == 8) dtype = f == "l" ? DType::Int64 : DType::UInt64;
    STRATA_EXPECTS(dtype != DType::Char && static_cast<std::size_t>(info.itemsize) == sizeOf(dtype),
                   ValueError,
                   context + ": buffer format '" + info.format +
                       "' is not supported (Strata takes int8 to int64, "
                       "uint8 to uint64, float32 and float64)");
    std::vector<std::int64_t> shape(info.shape.begin(), info.shape.end()), strides;
    for (auto b : info.strides) {
        STRATA_EXPECTS(b % info.itemsize == 0, ValueError,
                       context + ": strides that are not whole elements are not supported");
        strides.push_back(b / info.itemsize);
    }
    return fromParts(info.ptr, dtype, std::move(shape), std::move(strides), Device::host(), Stream::host(),
                     keepAlive(::py::reinterpret_borrow<::py::object>(array)), std::move(dims),
                     std::move(attrs), context);
}

Attribute importAttribute(const std::string& key, ::py::handle value) {
    Attribute a;
    a.name = key;
    if (::py::isinstance<::py::str>(value)) {
        a.type = DType::Char;
        a.value = value.cast<std::string>();
        return a;
    }
    ::py::module_ np = ::py::module_::import("numpy");
    ::py::object arr;
    try {
        arr = np.attr("asarray")(value);
    } catch (::py::error_already_set&) {
        a.type = DType::Char;
        a.value = ::py::str(value).cast<std::string>();
        return a;
    }
    const std::string kind = ::py::str(arr.attr("dtype").attr("kind"));
    ::py::object flat = arr.attr("ravel")();
    if (kind == "f") {
        a.type = arr.attr("dtype").attr("itemsize").cast<int>() == 4 ? DType::Float32 : DType::Float64;
        a.value = flat.attr("astype")("float64").attr("tolist")().cast<std::vector<double>>();
    } else if (kind == "i" || kind == "b") {
        a.type = DType::Int64;
        a.value = flat.attr("astype")("int64").attr("tolist")().cast<std::vector<std::int64_t>>();
    } else if (kind == "u") {
        a.type = DType::UInt64;
        a.value = flat.attr("astype")("uint64").attr("tolist")().cast<std::vector<std::uint64_t>>();
    } else {
        a.type = DType::Char;
        a.value = ::py::str(value).cast<std::string>();
    }
    return a;
}

} // namespace

Variable importVariable(::py::handle array, std::vector<std::string> dims, Attributes attrs,
                        const std::string& context) {
    if (::py::hasattr(array, "dtype")) { // NumPy, CuPy and their kin name their dtype: say it
        const std::string dt = ::py::str(array.attr("dtype"));
        STRATA_EXPECTS(dt.empty() || dt[0] != '>', ValueError, context + ": " + bigEndian(dt));
        static const char* taken[] = {"int8",   "uint8", "int16",  "uint16",  "int32",
                                      "uint32", "int64", "uint64", "float32", "float64"};
        STRATA_EXPECTS(
            std::find(std::begin(taken), std::end(taken), dt) != std::end(taken), ValueError,
            context + ": dtype " + dt +
                " is not supported (Strata takes int8 to int64, uint8 to uint64, float32 and float64)");
    }
    if (::py::hasattr(array, "__dlpack__")) {
        try {
            return fromDlpack(array, dims, attrs, context);
        } catch (::py::error_already_set& e) {
            if (!e.matches(PyExc_BufferError)) throw;
            if (!PyObject_CheckBuffer(array.ptr()))
                STRATA_FAIL(ValueError, context + ": a " + typeName(array) + " cannot export DLPack (" +
                                            std::string(::py::str(e.value())) + ")");
        }
        return fromBufferProtocol(array, std::move(dims), std::move(attrs), context);
    }
    if (::py::hasattr(array, "__cuda_array_interface__"))
        return fromCudaArrayInterface(array, std::move(dims), std::move(attrs), context);
    if (PyObject_CheckBuffer(array.ptr()))
        return fromBufferProtocol(array, std::move(dims), std::move(attrs), context);
    STRATA_FAIL(ValueError,
                context + ": a " + typeName(array) +
                    " cannot export DLPack (it has neither __dlpack__ nor __cuda_array_interface__)");
}

Attributes importAttributes(::py::handle mapping) {
    Attributes out;
    if (mapping.is_none()) return out;
    for (auto item : ::py::reinterpret_borrow<::py::dict>(mapping))
        out.set(importAttribute(::py::str(item.first).cast<std::string>(), item.second));
    return out;
}

} // namespace strata::py
