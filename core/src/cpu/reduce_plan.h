#pragma once
// A ReduceProblem simplified for the CPU loops: length-1 dims dropped, neighbouring dims
// merged where memory allows, and the layout classified into one of three loop shapes.
#include <cstdint>

#include "backend.h"

namespace strata::detail::cpu {

enum class ReduceShape {
    Columns, // a kept dim is contiguous: accumulate a block of columns, loop the reduced dims
    Rows,    // the innermost reduced dim is contiguous: per-row vector loops
    Strided, // anything else: rows along the innermost reduced dim, with a stride
};

struct ReducePlan {
    // Kept dims (the contiguous one last for Columns): length, input stride, weight stride,
    // output stride (in output elements).
    int nk = 0;
    std::int64_t kn[kMaxDims] = {}, ks[kMaxDims] = {}, kws[kMaxDims] = {}, kos[kMaxDims] = {};
    // Reduced dims in the input's order (so flat indices are the input's): length, stride,
    // weight stride.
    int nr = 0;
    std::int64_t rn[kMaxDims] = {}, rs[kMaxDims] = {}, rws[kMaxDims] = {};
    std::int64_t outCount = 1; // product of kept lengths
    std::int64_t redCount = 1; // product of reduced lengths (flat index range)
    ReduceShape shape = ReduceShape::Strided;

    // The innermost reduced dim is the "row"; rows() counts the rest.
    std::int64_t rowLength() const { return nr > 0 ? rn[nr - 1] : 1; }
    std::int64_t rowStride() const { return nr > 0 ? rs[nr - 1] : 0; }
    std::int64_t rowWeightStride() const { return nr > 0 ? rws[nr - 1] : 0; }
    std::int64_t rows() const { return rowLength() > 0 ? redCount / rowLength() : 0; }
};

// `weighted`: the problem's weights view takes part in the merging.
ReducePlan makePlan(const ReduceProblem& p, bool weighted);

// Steps through C-order multi-indices over up to kMaxDims dims, keeping the offsets of up to
// three strided arrays up to date.
struct Odometer {
    int n = 0;
    std::int64_t len[kMaxDims] = {}, s0[kMaxDims] = {}, s1[kMaxDims] = {}, s2[kMaxDims] = {};
    std::int64_t idx[kMaxDims] = {};
    std::int64_t off0 = 0, off1 = 0, off2 = 0;

    void next() {
        for (int d = n - 1; d >= 0; --d) {
            off0 += s0[d];
            off1 += s1[d];
            off2 += s2[d];
            if (++idx[d] < len[d]) return;
            off0 -= s0[d] * len[d];
            off1 -= s1[d] * len[d];
            off2 -= s2[d] * len[d];
            idx[d] = 0;
        }
    }
    // Moves to the multi-index of flat position `flat`.
    void seek(std::int64_t flat) {
        off0 = off1 = off2 = 0;
        for (int d = n - 1; d >= 0; --d) {
            idx[d] = len[d] > 0 ? flat % len[d] : 0;
            flat = len[d] > 0 ? flat / len[d] : 0;
            off0 += idx[d] * s0[d];
            off1 += idx[d] * s1[d];
            off2 += idx[d] * s2[d];
        }
    }
};

// Over the plan's reduced dims except the innermost (the rows): input and weight offsets.
Odometer rowOdometer(const ReducePlan& plan);
// Over all the plan's reduced dims: input and weight offsets.
Odometer reducedOdometer(const ReducePlan& plan);
// Over the plan's kept dims: input, weight and output offsets.
Odometer keptOdometer(const ReducePlan& plan);

} // namespace strata::detail::cpu
