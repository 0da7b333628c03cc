#pragma once
// The operations. Each has one public function that checks its inputs and dispatches on where
// the data lives: host data to the CPU backend, CUDA data to the CUDA backend (the only place
// that knows there are two). Results are new arrays on the same device, ordered on `stream`
// (the overload without one uses the stream of the input's buffer).
// Float32 data is accumulated in double. NaN is skipped by default.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "strata/core/colour_range.h" // Rgba8
#include "strata/core/data_array.h"

namespace strata {

enum class ReduceOp { Sum, Mean, Min, Max, Std, Var, Count, ArgMin, ArgMax };
std::string_view name(ReduceOp op);       // "sum", "mean", ...
ReduceOp parseReduceOp(std::string_view); // throws ValueError listing the ops

// A contiguous (C order) copy of any view: the strided gather behind isel/transpose.
DataArray contiguous(const DataArray& a, Stream stream);
DataArray contiguous(const DataArray& a);

// Reduces over `dims` (any subset, order irrelevant; empty = no dims reduced). The result
// keeps the other dims in their order, and the coordinates along them.
// Result dtype: sum/mean/std/var → float32 for float32 data, float64 otherwise; min/max →
// the input's dtype; count/argmin/argmax → int64. NaN is skipped: an all-NaN (or empty)
// reduction gives NaN for mean/std/var/min/max, 0 for sum and count, -1 for argmin/argmax;
// min/max of integers over an empty dim throws ValueError. std/var have ddof = 0.
// argmin/argmax over several dims give the flat index over those dims (in the input's order).
DataArray reduce(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op, Stream stream);
DataArray reduce(const DataArray& a, const std::vector<std::string>& dims, ReduceOp op);

// sum(w·x) / sum(w) over `dims`, both sums over the elements where x (and w) are not NaN.
// `weights` has a subset of a's dims (by name, same lengths) and is broadcast over the rest;
// it must be on a's device. Result dtype as for mean. E.g. cos(lat) for an area mean.
DataArray weightedMean(const DataArray& a, const DataArray& weights, const std::vector<std::string>& dims,
                       Stream stream);
DataArray weightedMean(const DataArray& a, const DataArray& weights, const std::vector<std::string>& dims);

// The smallest and largest finite values (NaN and ±inf skipped), as a float64 array of shape
// {2} on a's device — stays there, so a frame's colour range needs no trip to the host.
// Both NaN when there is no finite value.
DataArray minmax(const DataArray& a, Stream stream);
DataArray minmax(const DataArray& a);
// The same, brought to the host (counted: 16 bytes device→host for device data).
std::pair<double, double> minmaxValues(const DataArray& a);

// Counts of finite values in `bins` equal bins over [lo, hi] (hi falls in the last bin;
// values outside and NaN are not counted). int64 array of shape {bins} on a's device.
DataArray histogram(const DataArray& a, int bins, double lo, double hi, Stream stream);

// Colour-maps a 2-D frame (any numeric dtype, any strides) into RGBA8, row-major, row 0 =
// frame row 0: t = (v − vmin) / (vmax − vmin) in double, index = clamp(floor(t · n), 0, n−1)
// for a LUT of n entries; NaN → colours.nan; v < vmin → colours.under and v > vmax →
// colours.over where those are set (else the end entries); vmax <= vmin maps every finite
// value to entry 0. `lut` is a uint8 array of shape {n, 4} on the frame's device (upload it
// once). The result is a uint8 array of shape {h, w, 4}.
DataArray colormap(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                   const OffScaleColours& colours, Stream stream);
// As above with the range read on the device from a minmax() result (no host round trip).
DataArray colormap(const DataArray& frame, const DataArray& lut, const DataArray& range,
                   const OffScaleColours& colours, Stream stream);
// Writes into caller-owned memory on the frame's device (h·w·4 bytes; e.g. a mapped GL buffer).
// `range` may be null (then vmin/vmax are used) or a minmax() result.
void colormapInto(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                  const DataArray* range, const OffScaleColours& colours, void* out, Stream stream);

} // namespace strata
