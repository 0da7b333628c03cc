#pragma once
// Reductions of variables larger than memory allows: read from the file slab by slab along the
// first dim, the next slab read while the last one reduces, partial results merged exactly
// (sums and counts added, means and M2 by Chan's parallel merge in double, extremes and their
// indices compared), so that the memory held is a few slabs and the accumulators.
#include <cstddef>
#include <functional>
#include <string>
#include <utility>

#include "strata/core/cancel.h"
#include "strata/core/data_array.h"
#include "strata/core/ops.h"

namespace strata {

// Told how far a streamed pass has gone after each of its slabs: the fraction of the slabs
// done, rising to 1. Called on the thread that runs the pass.
using StreamProgress = std::function<void(double fraction)>;

// reduce(a, {dim}, op) for a lazy `a` (dims in the file's order), computed on `device` from slabs
// of at most `slabBytes` decoded bytes. Equal to the in-memory reduce within float32 rounding,
// with the same dims, dtype, coords and attrs. Throws CancelledError once `cancel` is cancelled
// (its reads over the network, on whichever thread, abort then too). Each function tells
// `progress`, when given, after every slab.
DataArray reduceStreamed(const DataArray& a, const std::string& dim, ReduceOp op, Device device,
                         Stream stream, std::size_t slabBytes, const CancelToken& cancel = CancelToken(),
                         const StreamProgress& progress = {});

// f applied to `a` (lazy) slab by slab along its first dim, each slab loaded onto `device` first,
// and the results concatenated along that dim: for work that keeps the first dim (a series of
// area means, a zonal mean against time). f must return its result with that dim first, and
// the same shape for every slab but along it. Throws CancelledError once `cancel` is cancelled.
DataArray mapStreamed(const DataArray& a, const std::function<DataArray(const DataArray& slab)>& f,
                      Device device, Stream stream, std::size_t slabBytes,
                      const CancelToken& cancel = CancelToken(), const StreamProgress& progress = {});

// The smallest and largest finite values of `a` (as minmaxValues), read slab by slab along its
// first dim when `a` is lazy (each slab loaded onto `device`, or the host when the device fails,
// reduced there and dropped); in one pass when it is loaded. Both NaN when none is finite.
// Throws CancelledError once `cancel` is cancelled.
std::pair<double, double> minmaxStreamed(const DataArray& a, Device device, std::size_t slabBytes,
                                         const CancelToken& cancel = CancelToken(),
                                         const StreamProgress& progress = {});

} // namespace strata
