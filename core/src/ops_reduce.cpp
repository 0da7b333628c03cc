// reduce() and weightedMean(): checks, the normalised ReduceProblem, dispatch to a backend.
#include <array>

#include "backend.h"
#include "ops_common.h"
#include "strata/core/ops.h"

namespace strata {
namespace {

constexpr std::array<std::string_view, 9> kOpNames = {"sum", "mean",  "min",    "max",   "std",
                                                      "var", "count", "argmin", "argmax"};

DType resultType(ReduceOp op, DType in) {
    switch (op) {
    case ReduceOp::Min:
    case ReduceOp::Max:
        return in;
    case ReduceOp::Count:
    case ReduceOp::ArgMin:
    case ReduceOp::ArgMax:
        return DType::Int64;
    default:
        return in == DType::Float32 ? DType::Float32 : DType::Float64;
    }
}

// Attributes of a result: a sum, mean, min, max or std is still the same quantity in the same
// units, so it keeps units, long_name and standard_name (for labels); a count or an index is
// not, and a variance has squared units, so those keep nothing. Other attributes (packing,
// cell methods, history) describe the input, not the result, and are dropped.
Attributes resultAttrs(ReduceOp op, const Attributes& in) {
    switch (op) {
    case ReduceOp::Sum:
    case ReduceOp::Mean:
    case ReduceOp::Min:
    case ReduceOp::Max:
    case ReduceOp::Std:
        return detail::labelAttrs(in);
    default:
        return {};
    }
}

// The view of `a` permuted so that its kept dims come first (in a's order), then the reduced
// ones (in a's order too, which argmin/argmax's flat index follows).
struct Split {
    ArrayView in;
    int kept = 0;
    std::vector<int> order; // a's axes in the permuted order
    std::vector<std::string> keptDims;
    Shape keptShape;
    std::int64_t reducedCount = 1;
};

Split splitDims(const DataArray& a, const ArrayView& v, const std::vector<int>& reduced) {
    Split s;
    std::vector<bool> isReduced(static_cast<std::size_t>(a.ndim()), false);
    for (int ax : reduced) isReduced[static_cast<std::size_t>(ax)] = true;
    for (int i = 0; i < a.ndim(); ++i)
        if (!isReduced[static_cast<std::size_t>(i)]) {
            s.order.push_back(i);
            s.keptDims.push_back(a.dims()[static_cast<std::size_t>(i)]);
            s.keptShape.push_back(v.shape[i]);
        }
    s.kept = static_cast<int>(s.order.size());
    for (int i = 0; i < a.ndim(); ++i)
        if (isReduced[static_cast<std::size_t>(i)]) {
            s.order.push_back(i);
            s.reducedCount *= v.shape[i];
        }
    s.in = v;
    for (int i = 0; i < a.ndim(); ++i) {
        s.in.shape[i] = v.shape[s.order[static_cast<std::size_t>(i)]];
        s.in.strides[i] = v.strides[s.order[static_cast<std::size_t>(i)]];
    }
    return s;
}

DataArray makeResult(const DataArray& a, const Split& s, DType type, Buffer buffer, Attributes attrs) {
    Variable v(s.keptDims, s.keptShape, type, std::move(buffer), std::move(attrs));
    return DataArray(a.name(), std::move(v), detail::keptCoords(a, s.keptDims));
}

std::int64_t product(const Shape& shape) {
    std::int64_t n = 1;
    for (auto x : shape) n *= x;
    return n;
}

} // namespace

std::string_view name(ReduceOp op) { return kOpNames[static_cast<std::size_t>(op)]; }

ReduceOp parseReduceOp(std::string_view text) {
    for (std::size_t i = 0; i < kOpNames.size(); ++i)
        if (kOpNames[i] == text) return static_cast<ReduceOp>(i);
    std::string all;
    for (auto n : kOpNames) all += (all.empty() ? "" : ", ") + std::string(n);
    STRATA_FAIL(ValueError, "unknown reduction '" + std::string(text) + "'; the reductions are " + all);
}

DataArray reduce(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op, Stream stream) {
    return detail::reduceAs(a, dims, op, resultType(op, a.dtype()), stream);
}

DataArray detail::reduceAs(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op, DType type,
                           Stream stream) {
    const std::string what = "reduce(" + std::string(name(op)) + ")";
    const ArrayView v = detail::checkedView(a, what, stream);
    const Split s = splitDims(a, v, detail::axesOf(a, dims, what));
    STRATA_EXPECTS(
        !(isInteger(a.dtype()) && (op == ReduceOp::Min || op == ReduceOp::Max) && s.reducedCount == 0),
        ValueError,
        what + " of " + detail::describe(a) + ": integer data has no " + std::string(name(op)) +
            " over an empty dim");
    const std::int64_t count = product(s.keptShape);
    Buffer out = detail::allocateOn(static_cast<std::size_t>(count) * sizeOf(type), a.device(), stream);
    detail::ReduceProblem p;
    p.in = s.in;
    p.kept = s.kept;
    p.op = op;
    p.out = out.data();
    p.outType = type;
    if (count > 0) {
        if (a.device().isHost()) {
            detail::reduceCpu(p);
        } else {
#if STRATA_HAVE_CUDA
            detail::reduceCuda(p, stream);
#else
            STRATA_FAIL(ValueError, what + ": CUDA data, but the CUDA backend is not built");
#endif
        }
    }
    return makeResult(a, s, type, std::move(out), resultAttrs(op, a.attrs()));
}

DataArray reduce(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op) {
    return reduce(a, dims, op, detail::streamOf(a));
}

DataArray weightedMean(const DataArray& a, const DataArray& weights, const std::vector<std::string>& dims,
                       Stream stream) {
    const std::string what = "weightedMean";
    const ArrayView v = detail::checkedView(a, what, stream);
    const ArrayView wv = detail::checkedView(weights, what + " weights", stream);
    detail::checkSameDevice(a, weights, what, "weights");
    // Where each of a's axes is in the weights (-1: broadcast).
    std::vector<int> wAxisOf(static_cast<std::size_t>(a.ndim()), -1);
    const std::vector<int> wAxes =
        detail::axesOf(a, weights.dims(), what + " weights " + detail::describe(weights));
    for (int i = 0; i < weights.ndim(); ++i) {
        const int ax = wAxes[static_cast<std::size_t>(i)];
        STRATA_EXPECTS(wv.shape[i] == v.shape[ax], ValueError,
                       what + " of " + detail::describe(a) + ": weights dim '" +
                           weights.dims()[static_cast<std::size_t>(i)] + "' has length " +
                           std::to_string(wv.shape[i]) + ", the data " + std::to_string(v.shape[ax]));
        wAxisOf[static_cast<std::size_t>(ax)] = i;
    }
    const Split s = splitDims(a, v, detail::axesOf(a, dims, what));
    const DType type = a.dtype() == DType::Float32 ? DType::Float32 : DType::Float64;
    const std::int64_t count = product(s.keptShape);
    Buffer out = detail::allocateOn(static_cast<std::size_t>(count) * sizeOf(type), a.device(), stream);
    detail::ReduceProblem p;
    p.in = s.in;
    p.kept = s.kept;
    p.op = ReduceOp::Mean;
    p.out = out.data();
    p.outType = type;
    p.weights = s.in;
    p.weights.data = wv.data;
    p.weights.dtype = wv.dtype;
    for (int i = 0; i < a.ndim(); ++i) {
        const int wa = wAxisOf[static_cast<std::size_t>(s.order[static_cast<std::size_t>(i)])];
        p.weights.strides[i] = wa >= 0 ? wv.strides[wa] : 0;
    }
    if (count > 0) {
        if (a.device().isHost()) {
            detail::weightedMeanCpu(p);
        } else {
#if STRATA_HAVE_CUDA
            detail::weightedMeanCuda(p, stream);
#else
            STRATA_FAIL(ValueError, what + ": CUDA data, but the CUDA backend is not built");
#endif
        }
    }
    return makeResult(a, s, type, std::move(out), resultAttrs(ReduceOp::Mean, a.attrs()));
}

DataArray weightedMean(const DataArray& a, const DataArray& weights, const std::vector<std::string>& dims) {
    return weightedMean(a, weights, dims, detail::streamOf(a));
}

} // namespace strata
