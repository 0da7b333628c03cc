#pragma once
// A netCDF variable as a DataSource: hyperslab reads into the stored type.
#include <memory>
#include <mutex>
#include <vector>

#include "direct_layout.h"
#include "nc_file.h"
#include "strata/core/data_source.h"
#include "strata/core/dtype.h"

namespace strata::io::detail {

class NcVariableSource final : public DataSource {
public:
    // `label` is the variable's name, with its group path outside the root ("/g/sst").
    NcVariableSource(std::shared_ptr<const NcFile> file, int groupId, int varId, std::string label,
                     std::vector<std::int64_t> shape, DType stored);

    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override;
    std::string readPath() const override;
    std::size_t parallelReadBytes() const override;
    std::optional<ChunkPlan> planChunks(std::span<const std::int64_t> start,
                                        std::span<const std::int64_t> count) const override;
    std::vector<ChunkRef> inflateChunks(std::span<const std::int64_t> start,
                                        std::span<const std::int64_t> count, void* batch,
                                        std::uint64_t batchBytes) const override;

    // The chunk shape netCDF-C says the variable is stored in; empty when not chunked.
    std::vector<std::int64_t> storedChunkShape() const;

    // The parallel reader's layout, built at the first read (null: netCDF-C reads it). Throws
    // NetcdfError when the file's description of the variable is damaged.
    std::shared_ptr<const DirectLayout> layout() const;

private:
    void readNetcdf(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                    std::span<const std::int64_t> stride, void* out) const;
    struct LayoutState {
        std::once_flag once;
        std::shared_ptr<const DirectLayout> layout;
        std::string error; // the damage found while building it
    };
    std::unique_ptr<LayoutState> layoutState_ = std::make_unique<LayoutState>();

    std::shared_ptr<const NcFile> file_;
    int groupId_;
    int varId_;
    std::string label_;
    std::vector<std::int64_t> shape_;
    DType stored_;
};

// Adds one read of `bytes` to readCounters() (for sources other than NcVariableSource).
void countRead(std::uint64_t bytes);

// Throws NetcdfError, prefixed with `what`, unless the read of `count` elements from `start` every
// `stride` lies inside a dim of `length` (dim number `dim`, for the message). Any sources' reads.
void checkReadAlong(const std::string& what, std::size_t dim, std::int64_t start, std::int64_t count,
                    std::int64_t stride, std::int64_t length);

// "file.nc: variable 'sst'", the prefix of every message about a variable.
std::string describeVariable(const NcFile& file, const std::string& label);

} // namespace strata::io::detail
