#pragma once
// A lazy slab's reductions done by its source where its values are (a Dask graph on its
// cluster, DataSource::reduceBox, WeightedReduceSource for area-weighted means), so that only the result
// comes back. The frame pipeline asks before it reads the slab.
#include <optional>

#include "strata/core/data_array.h"
#include "strata/core/view.h"

namespace strata::detail {

// `slab` (lazy) reduced by spec.reductions as applyReductions would: the same dims, coords,
// dtype and attributes (an area-weighted mean named as applyReductions names it). nullopt
// where the source does not reduce, or the view is not one it is asked for (an area-weighted
// mean of a source that is no WeightedReduceSource, an op other than sum/mean/min/max/std, an
// integer or packed variable, a transposed slab).
std::optional<DataArray> reduceAtSource(const DataArray& slab, const FrameSpec& spec, Device device,
                                        Stream stream);

} // namespace strata::detail
