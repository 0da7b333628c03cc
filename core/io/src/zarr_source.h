#pragma once
// A Zarr array as a DataSource: the chunks a read meets are fetched and decoded on the
// reader's threads, each placed straight into the caller's buffer; chunks the store lacks
// read as the fill value.
#include <atomic>
#include <memory>
#include <string>

#include "strata/core/data_source.h"
#include "zarr_meta.h"
#include "zarr_store.h"

namespace strata::io::detail {

class ZarrSource final : public DataSource {
public:
    // `path` is the array's key prefix in the store ("" for a root array, "g/sst"); `label`
    // names it in messages ("g/sst").
    ZarrSource(std::shared_ptr<const ZarrStore> store, std::string path, std::string label,
               ZarrArrayMeta meta);

    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override;
    std::string describe() const override;
    std::string readPath() const override;
    std::size_t parallelReadBytes() const override;
    std::vector<std::int64_t> chunkShape() const override { return meta_.chunk; }

    // The store key of the chunk at chunk-grid position `index`.
    std::string chunkKey(std::span<const std::int64_t> index) const;
    // Stored chunks decoded so far by this source's reads (tests see that a whole load decodes
    // each chunk once).
    std::uint64_t chunksDecoded() const { return decoded_.load(); }

private:
    std::shared_ptr<const ZarrStore> store_;
    std::string path_, label_;
    ZarrArrayMeta meta_;
    mutable std::atomic<std::uint64_t> decoded_{0};
};

} // namespace strata::io::detail
