#include "cuda/plan.h"

#include <algorithm>
#include <numeric>

namespace strata::cuda {
namespace {

struct Dim {
    std::int64_t shape, stride, wstride;
};

Dims merge(const Dim* dims, int count) {
    Dims out;
    for (int i = 0; i < count; ++i) {
        const Dim d = dims[i];
        if (d.shape == 1) continue;
        if (out.n > 0) {
            const int j = out.n - 1;
            // The outer dim j steps exactly one whole inner dim: the two walk memory as one.
            if (out.stride[j] == d.stride * d.shape && out.wstride[j] == d.wstride * d.shape) {
                out.shape[j] *= d.shape;
                out.stride[j] = d.stride;
                out.wstride[j] = d.wstride;
                continue;
            }
        }
        out.shape[out.n] = d.shape;
        out.stride[out.n] = d.stride;
        out.wstride[out.n] = d.wstride;
        ++out.n;
    }
    return out;
}

} // namespace

Dims collapse(const ArrayView& v, const ArrayView& w, int first, int last) {
    Dim dims[kMaxDims];
    int count = 0;
    for (int i = first; i < last; ++i) {
        dims[count++] = {v.shape[i], v.strides[i], w.data ? w.strides[i] : 0};
        if (v.shape[i] == 0) { // an empty group: one dim of length 0
            Dims empty;
            empty.n = 1;
            return empty;
        }
    }
    return merge(dims, count);
}

Dims collapseAnyOrder(const ArrayView& v) {
    Dim dims[kMaxDims];
    for (int i = 0; i < v.ndim; ++i) dims[i] = {v.shape[i], v.strides[i], 0};
    std::stable_sort(dims, dims + v.ndim, [](const Dim& a, const Dim& b) { return a.stride > b.stride; });
    for (int i = 0; i < v.ndim; ++i) {
        if (dims[i].shape == 0) {
            Dims empty;
            empty.n = 1;
            return empty;
        }
    }
    return merge(dims, v.ndim);
}

ReducePlan planReduce(const detail::ReduceProblem& p) {
    ReducePlan plan;
    plan.data = p.in.data;
    plan.dtype = p.in.dtype;
    plan.weights = p.weights.data;
    plan.wtype = p.weights.dtype;
    plan.kept = collapse(p.in, p.weights, 0, p.kept);
    plan.reduced = collapse(p.in, p.weights, p.kept, p.in.ndim);
    plan.nOut = plan.kept.size();
    plan.nRed = plan.reduced.size();
    plan.out = p.out;
    plan.outType = p.outType;
    plan.op = p.op;
    return plan;
}

ReducePlan planWhole(const ArrayView& v) {
    ReducePlan plan;
    plan.data = v.data;
    plan.dtype = v.dtype;
    plan.reduced = collapseAnyOrder(v);
    plan.nOut = 1;
    plan.nRed = plan.reduced.size();
    return plan;
}

} // namespace strata::cuda
