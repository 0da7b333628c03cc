#include "py_computed.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "py_array.h"
#include "py_dataset.h"
#include "py_import.h"
#include "strata/core/cancel.h"
#include "strata/core/data_source.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/view.h"
#include "strata/core/weighted_reduce_source.h"

namespace py = pybind11;

namespace strata::py {
namespace {

// A Python object released under the GIL: Strata drops its sources on any thread.
std::shared_ptr<::py::object> hold(::py::object o) {
    return std::shared_ptr<::py::object>(new ::py::object(std::move(o)), [](::py::object* p) {
        if (!Py_IsInitialized()) { // the interpreter is gone: nothing left to release
            p->release();
            delete p;
            return;
        }
        ::py::gil_scoped_acquire gil;
        delete p;
    });
}

template <class T>::py::list listOf(std::span<const T> values) {
    ::py::list l;
    for (T v : values) l.append(v);
    return l;
}
::py::list listOf(std::span<const std::int64_t> values) { return listOf<std::int64_t>(values); }
::py::list listOf(const std::vector<int>& values) { return listOf<int>(values); }

// A variable whose boxes Python computes on demand: `fetch(start, count, step, device)` returns
// the box as a C-contiguous array (NumPy for "host", CuPy for "cuda:N"), of the variable's dtype
// and of shape `count`. strata.show gives Dask-backed arrays one, whose fetch computes only the
// chunks of the box on the user's Dask client; the window therefore never loads them whole.
class PythonSource final : public DataSource, public WeightedReduceSource {
public:
    PythonSource(std::shared_ptr<::py::object> fetch, std::shared_ptr<::py::object> reduce,
                 std::vector<std::string> dims, DType dtype, std::string description, std::string refusal)
        : fetch_(std::move(fetch)), reduce_(std::move(reduce)), dims_(std::move(dims)), dtype_(dtype),
          description_(std::move(description)), refusal_(std::move(refusal)) {}

    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override {
        Variable got = call(start, count, stride, Device::host());
        std::int64_t n = 1;
        for (std::int64_t c : count) n *= c;
        STRATA_EXPECTS(got.size() == n && got.isContiguous(), IoError,
                       description_ + ": the box computed has " + std::to_string(got.size()) +
                           " values, not " + std::to_string(n));
        std::memcpy(out, static_cast<const char*>(got.buffer()->data()) + got.offset() * sizeOf(dtype_),
                    got.nbytes());
    }

    // The box where it is asked for, without a copy when the array computed is there already
    // (NumPy chunks for the host, CuPy chunks for the GPU): the array is borrowed.
    std::optional<Buffer> evaluate(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                                   std::span<const std::int64_t> stride, Device device,
                                   Stream stream) const override {
        return borrowOn(call(start, count, stride, device), device, stream);
    }

    // The box reduced where its values are: `reduce(start, count, step, steps, device)` returns
    // the result alone (the reduced axes gone), as fetch returns a box; each step is
    // ([axes], op, weights), weights None or a float64 NumPy array (WeightedReduceSource::Step).
    std::optional<Buffer> reduceBox(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                                    std::span<const std::int64_t> stride,
                                    std::span<const Reduction> reductions, Device device,
                                    Stream stream) const override {
        std::vector<Step> steps;
        for (const Reduction& r : reductions) steps.push_back({{r.axis}, r.op, nullptr, {}});
        return reduceBoxSteps(start, count, stride, steps, device, stream);
    }

    std::optional<Buffer> reduceBoxSteps(std::span<const std::int64_t> start,
                                         std::span<const std::int64_t> count,
                                         std::span<const std::int64_t> stride, std::span<const Step> steps,
                                         Device device, Stream stream) const override {
        if (!reduce_) return std::nullopt;
        std::vector<std::int64_t> shape(count.begin(), count.end());
        std::vector<std::string> dims = dims_;
        std::vector<bool> gone(shape.size(), false);
        for (const Step& s : steps)
            for (int axis : s.axes) gone[static_cast<std::size_t>(axis)] = true;
        for (std::size_t i = shape.size(); i-- > 0;)
            if (gone[i]) {
                shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(i));
                dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(i));
            }
        Variable got = call(*reduce_, dims, shape, device, [&](::py::object& f) {
            ::py::list ops;
            for (const Step& s : steps) {
                ::py::object weights = ::py::none();
                if (s.weights) {
                    ::py::array_t<double> w(
                        std::vector<::py::ssize_t>(s.weightShape.begin(), s.weightShape.end()));
                    std::memcpy(w.mutable_data(), s.weights->data(), s.weights->size() * sizeof(double));
                    weights = std::move(w);
                }
                ops.append(::py::make_tuple(listOf(s.axes), std::string(name(s.op)), weights));
            }
            return f(listOf(start), listOf(count), listOf(stride), ops, device.toString());
        });
        return borrowOn(std::move(got), device, stream);
    }

    std::string describe() const override { return description_; }
    std::string readPath() const override { return refusal_; }
    std::string wholeLoadRefusal() const override { return refusal_; }

private:
    Variable call(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                  std::span<const std::int64_t> stride, Device device) const {
        std::vector<std::int64_t> shape(count.begin(), count.end());
        return call(*fetch_, dims_, shape, device, [&](::py::object& f) {
            return f(listOf(start), listOf(count), listOf(stride), device.toString());
        });
    }

    // What `invoke` returns from Python, as a Variable borrowing it, checked against the
    // dtype and `shape` asked for; Python's error (naming the chunk) as an IoError.
    // The thread's cancel token (the window's: a newer view, or Cancel) cancels the Dask
    // computations in flight; the frame then fails with CancelledError, as a read would.
    template <class Invoke>
    Variable call(::py::object& f, const std::vector<std::string>& dims,
                  const std::vector<std::int64_t>& shape, Device device, Invoke invoke) const {
        const CancelToken* token = CancelScope::current();
        std::optional<CancelToken::Subscription> subscription; // ends after the GIL is released
        if (token) {
            token->throwIfCancelled(description_);
            subscription = token->onCancel([fetch = fetch_] {
                ::py::gil_scoped_acquire gil;
                try {
                    if (::py::hasattr(*fetch, "cancel")) fetch->attr("cancel")();
                } catch (::py::error_already_set& e) {
                    e.discard_as_unraisable("strata: cancelling a Dask computation");
                }
            });
        }
        Variable v = callHoldingGil(f, dims, shape, device, invoke);
        subscription.reset();
        if (token) token->throwIfCancelled(description_);
        return v;
    }

    template <class Invoke>
    Variable callHoldingGil(::py::object& f, const std::vector<std::string>& dims,
                            const std::vector<std::int64_t>& shape, Device device, Invoke invoke) const {
        (void)device;
        ::py::gil_scoped_acquire gil;
        try {
            ::py::object got = invoke(f);
            Variable v = importVariable(got, dims, {}, description_);
            STRATA_EXPECTS(v.dtype() == dtype_, IoError,
                           description_ + ": the box computed is " + std::string(name(v.dtype())) + ", not " +
                               std::string(name(dtype_)));
            STRATA_EXPECTS(v.shape() == shape, IoError,
                           description_ + ": the box computed has another shape");
            return v;
        } catch (::py::error_already_set& e) {
            // Python's message says which chunk failed and why; Strata's error carries it.
            const std::string what = ::py::str(e.value());
            if (CancelScope::cancelled()) STRATA_FAIL(CancelledError, description_ + ": cancelled");
            STRATA_FAIL(IoError, what);
        }
    }

    // `got` as a Buffer on `device`: borrowed where it is there already, else copied there.
    Buffer borrowOn(Variable got, Device device, Stream stream) const {
        if (got.device() != device) got = got.load(device, stream); // NumPy chunks shown on a GPU
        STRATA_EXPECTS(got.isContiguous(), IoError, description_ + ": the box computed is not contiguous");
        const std::shared_ptr<const Buffer> owner = got.buffer();
        auto* data = const_cast<char*>(static_cast<const char*>(owner->data())) +
                     got.offset() * static_cast<std::int64_t>(sizeOf(dtype_));
        return Buffer::borrow(data, got.nbytes(), device, stream, owner);
    }

    std::shared_ptr<::py::object> fetch_, reduce_; // reduce_ may be null
    std::vector<std::string> dims_;
    DType dtype_;
    std::string description_, refusal_;
};

DType dtypeNamed(const std::string& text) {
    for (DType t : {DType::Int8, DType::UInt8, DType::Int16, DType::UInt16, DType::Int32, DType::UInt32,
                    DType::Int64, DType::UInt64, DType::Float32, DType::Float64})
        if (text == name(t)) return t;
    STRATA_FAIL(ValueError, "dtype " + text +
                                " is not supported (Strata takes int8 to int64, uint8 to uint64, float32 and "
                                "float64)");
}

} // namespace

void bindComputed(::py::module_& m) {
    ::py::class_<ComputedVariable>(m, "_Computed", "A variable whose boxes Python computes on demand");
    m.def(
        "_computed",
        [](std::vector<std::string> dims, std::vector<std::int64_t> shape, const std::string& dtype,
           ::py::object fetch, ::py::object reduce, const std::string& description,
           const std::string& refusal) {
            STRATA_EXPECTS(dims.size() == shape.size(), ValueError,
                           description + ": " + std::to_string(dims.size()) + " dims for a shape of " +
                               std::to_string(shape.size()));
            CfEncoding enc;
            enc.packed = enc.decoded = dtypeNamed(dtype);
            auto source = std::make_shared<PythonSource>(hold(std::move(fetch)),
                                                         reduce.is_none() ? nullptr : hold(std::move(reduce)),
                                                         dims, enc.decoded, description, refusal);
            return ComputedVariable{
                Variable::lazy(std::move(dims), std::move(shape), enc, std::move(source))};
        },
        ::py::arg("dims"), ::py::arg("shape"), ::py::arg("dtype"), ::py::arg("fetch"), ::py::arg("reduce"),
        ::py::arg("description"), ::py::arg("refusal"),
        "A lazy variable whose boxes fetch(start, count, step, device) computes, and reduce(start, count, "
        "step, [([axes], op, weights)], device) reduces (None: Strata reduces what fetch gives); `refusal` "
        "says why it "
        "is never loaded whole.");
    m.def(
        "_compute_frame",
        [](const HeldDataset& held, const std::string& variable, const std::string& x, const std::string& y,
           const std::vector<std::pair<std::string, std::int64_t>>& indices,
           const std::vector<std::pair<std::string, std::string>>& reductions, const std::string& device,
           bool areaWeighted) {
            FrameSpec spec;
            spec.areaWeighted = areaWeighted;
            spec.variable = variable;
            spec.xDim = x;
            spec.yDim = y;
            spec.indices = indices;
            for (const auto& [dim, op] : reductions) spec.reductions.emplace_back(dim, parseReduceOp(op));
            const Device d = device.empty() ? computeInfo().device : parseDevice(device);
            DataArray frame;
            {
                ::py::gil_scoped_release nogil; // a computed variable's boxes take it back
                FallbackNote note;
                frame = computeFrame((*held.dataset)[variable], spec, d, note);
            }
            return ExportedArray::of(frame.variable(), "the frame of '" + variable + "'");
        },
        ::py::arg("dataset"), ::py::arg("variable"), ::py::arg("x"), ::py::arg("y") = "",
        ::py::arg("indices") = std::vector<std::pair<std::string, std::int64_t>>{},
        ::py::arg("reductions") = std::vector<std::pair<std::string, std::string>>{},
        ::py::arg("device") = "", ::py::arg("area_weighted") = false,
        "The frame the window's pipeline (computeFrame) computes for a view: x and y dims, sliced dims' "
        "indices, reductions [(dim, op)] in order, the means one area-weighted mean when area_weighted.");
}

} // namespace strata::py
