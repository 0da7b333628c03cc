#pragma once
// How a whole-variable load walks the variable's outer dim: slabs of rows, each read at once
// into a staging buffer. For a source stored in chunks along that dim (Zarr), the slabs are
// whole chunks, so that no chunk is fetched and decoded twice. Pure arithmetic: the CUDA
// upload (load.cpp) and the residency's load (load_whole.cpp) both follow it, and the tests
// check it on any machine.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace strata {

// Rows [first, first + count) of the load (0 is the load's first row).
struct SlabRows {
    std::int64_t first = 0, count = 0;
    bool operator==(const SlabRows&) const = default;
};

// Slabs covering rows [0, rows) of rowBytes each, at most `budget` bytes each (but at least
// one row). The load's row r is the source's row `sourceStart + r * step`; `chunkRows` is the
// source's chunk length along that dim (0: not chunked, or a step other than 1, which meets
// chunks unevenly: plain slabs of the budget).
// - A chunk row (chunkRows rows) that fits: slabs of as many whole chunks as fit, cut at chunk
//   boundaries (a load starting or ending inside a chunk has a shorter first or last slab).
// - A chunk row larger than the budget: each chunk is cut into the fewest near-equal slabs
//   within the budget, never across a chunk boundary: memory stays bounded, and such a chunk
//   is decoded once per slab.
std::vector<SlabRows> planSlabs(std::int64_t rows, std::size_t rowBytes, std::size_t budget,
                                std::int64_t sourceStart = 0, std::int64_t step = 1,
                                std::int64_t chunkRows = 0);

class Variable;

// The slabs Variable::load reads, one at a time into pinned staging, to move the not yet loaded
// `v` onto a CUDA device when its source does not offer its chunks to the device (Zarr, netCDF
// without the direct reader): planSlabs over v's outer source dim, within the upload budget
// (64 MiB, or a chunked source's parallelReadBytes when larger). Rows are v's source rows.
std::vector<SlabRows> uploadSlabPlan(const Variable& v);

// The largest slab of a plan, in rows.
std::int64_t largestSlab(const std::vector<SlabRows>& plan);

} // namespace strata
