#pragma once
// Where a lazily loaded variable's stored values come from (implemented by strata_io for
// netCDF). Reads return values in the stored (packed) type, C order, contiguous.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "strata/core/buffer.h"
#include "strata/core/chunks.h"

namespace strata {

enum class ReduceOp; // strata/core/ops.h

class DataSource {
public:
    virtual ~DataSource() = default;
    // Reads, along every dim i, count[i] values from start[i] in steps of stride[i] (>= 1)
    // into `out`, which holds product(count) elements of the stored type. Thread-safe.
    // Throws NetcdfError naming the file, the variable and the problem.
    virtual void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                      std::span<const std::int64_t> stride, void* out) const = 0;
    // "file.nc: variable 'sst'", for messages.
    virtual std::string describe() const = 0;
    // How reads go, in words, for -v and the dataset panel: "parallel: 365 chunks, deflate +
    // shuffle" or "netCDF-C: szip filter". Empty when there is nothing to say.
    virtual std::string readPath() const { return {}; }
    // Reads of at least this many bytes are spread over threads; callers that can choose (a
    // whole-variable load) ask for at least this much at a time. 0: reads are serial.
    virtual std::size_t parallelReadBytes() const { return 0; }
    // The shape of the chunks the source fetches and decodes whole (source dim order), so that
    // a whole-variable load reads in slabs of whole chunks (load_plan.h). Empty: a read costs
    // the same wherever it starts.
    virtual std::vector<std::int64_t> chunkShape() const { return {}; }
    // Why the variable is never loaded whole (residency streams it box by box), for sources
    // whose reads are computed elsewhere on demand (a Dask graph on a cluster). Empty: it may be.
    virtual std::string wholeLoadRefusal() const { return {}; }

    // Sources that compute their values (derived variables): the box evaluated on `device`, a
    // new contiguous buffer of the decoded type ordered on `stream`. nullopt: read() it instead.
    virtual std::optional<Buffer> evaluate(std::span<const std::int64_t> start,
                                           std::span<const std::int64_t> count,
                                           std::span<const std::int64_t> stride, Device device,
                                           Stream stream) const {
        (void)start, (void)count, (void)stride, (void)device, (void)stream;
        return std::nullopt;
    }

    // Sources that reduce where their values are (a Dask graph on its cluster): the box reduced
    // by each (source axis, op) in turn, NaN skipped as reduce() skips it, so that only the
    // result comes back: a new contiguous buffer on `device` of the decoded (floating) type, the
    // axes left in source order. Asked only for sum, mean, min, max and std. nullopt: the box is
    // read and reduced here.
    struct Reduction {
        int axis = 0;
        ReduceOp op;
    };
    virtual std::optional<Buffer> reduceBox(std::span<const std::int64_t> start,
                                            std::span<const std::int64_t> count,
                                            std::span<const std::int64_t> stride,
                                            std::span<const Reduction> reductions, Device device,
                                            Stream stream) const {
        (void)start, (void)count, (void)stride, (void)reductions, (void)device, (void)stream;
        return std::nullopt;
    }

    // Sources stored in filtered chunks: the box [start, start + count) as chunks for a device
    // to place (chunks.h), so that the CPU only inflates. nullopt: read() it instead.
    struct ChunkPlan {
        ChunkGrid grid;                  // origin and shape are the box's
        std::vector<unsigned char> fill; // grid.elemSize bytes
        std::uint64_t chunkBytes = 0;
        std::uint64_t storedChunks = 0; // inflateChunks needs storedChunks * chunkBytes bytes
    };
    virtual std::optional<ChunkPlan> planChunks(std::span<const std::int64_t> start,
                                                std::span<const std::int64_t> count) const {
        (void)start, (void)count;
        return std::nullopt;
    }
    // Inflates the box's stored chunks into `batch` (host memory) and returns a ref for every
    // chunk meeting the box. Only after planChunks gave a plan for the same box.
    virtual std::vector<ChunkRef> inflateChunks(std::span<const std::int64_t> start,
                                                std::span<const std::int64_t> count, void* batch,
                                                std::uint64_t batchBytes) const {
        (void)start, (void)count, (void)batch, (void)batchBytes;
        return {};
    }
};

} // namespace strata
