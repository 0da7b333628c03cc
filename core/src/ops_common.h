#pragma once
// Shared checks and result building for the operation dispatchers (ops_*.cpp).
#include <string>
#include <string_view>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/error.h"
#include "strata/core/ops.h"

namespace strata::detail {

// "'air' (time, lat, lon)", for messages.
std::string describe(const DataArray& a);
std::string listDims(const std::vector<std::string>& dims);

// The stream a result is ordered on when the caller gives none: the input buffer's.
Stream streamOf(const DataArray& a);

// The data of `a` for the backends: loaded, numeric, at most kMaxDims dims; `stream`
// must belong to a's device when that is a CUDA device. Throws ValueError naming `op`.
ArrayView checkedView(const DataArray& a, std::string_view op, Stream stream);
void checkSameDevice(const DataArray& a, const DataArray& b, std::string_view op, std::string_view what);

// Axes of `dims` in a; ValueError for an unknown dim (listing a's dims) or a repeated one.
std::vector<int> axesOf(const DataArray& a, const std::vector<std::string>& dims, std::string_view op);

// The coordinates of `a` whose dims all are among `kept`.
Coordinates keptCoords(const DataArray& a, const std::vector<std::string>& kept);
// units, long_name and standard_name of `attrs` (the attributes that label a plot).
Attributes labelAttrs(const Attributes& attrs);

// An output buffer on `device`, ordered on `stream`.
Buffer allocateOn(std::size_t bytes, Device device, Stream stream);

// reduce() with its result written as `type` instead of the usual result type (the backends
// accumulate in double either way): a streamed reduction keeps its partial sums and moments of
// float32 data in double, so that merging them loses nothing.
DataArray reduceAs(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op, DType type,
                   Stream stream);

} // namespace strata::detail
