#include "nc_source.h"

#include <netcdf.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <string>

#include "direct_read.h"
#include "io_pool.h"
#include "nc_call.h"
#include "strata/core/array_view.h"
#include "strata/core/error.h"
#include "strata/core/settings.h"
#include "strata/io/netcdf.h"

namespace strata::io {
namespace {
std::atomic<std::uint64_t> readsMade{0}, bytesRead{0};

ReadMode initialMode() {
    return settings::reader() == settings::Reader::NetcdfC ? ReadMode::NetcdfC : ReadMode::Parallel;
}
std::atomic<ReadMode> mode{initialMode()};
} // namespace

ReadCounters readCounters() { return {readsMade.load(), bytesRead.load()}; }
void setReadMode(ReadMode m) { mode = m; }
ReadMode readMode() { return mode.load(); }

namespace detail {

void countRead(std::uint64_t bytes) {
    readsMade.fetch_add(1, std::memory_order_relaxed);
    bytesRead.fetch_add(bytes, std::memory_order_relaxed);
}

void checkReadAlong(const std::string& what, std::size_t dim, std::int64_t s, std::int64_t c, std::int64_t k,
                    std::int64_t length) {
    const bool ok = s >= 0 && c >= 0 && k >= 1 && (c == 0 || (s < length && (c - 1) <= (length - 1 - s) / k));
    STRATA_EXPECTS(ok, NetcdfError,
                   what + ": read outside the variable along dim " + std::to_string(dim) + " (start " +
                       std::to_string(s) + ", count " + std::to_string(c) + ", stride " + std::to_string(k) +
                       ", length " + std::to_string(length) + ")");
}

std::string describeVariable(const NcFile& file, const std::string& label) {
    return file.name() + ": variable '" + label + "'";
}

NcVariableSource::NcVariableSource(std::shared_ptr<const NcFile> file, int groupId, int varId,
                                   std::string label, std::vector<std::int64_t> shape, DType stored)
    : file_(std::move(file)), groupId_(groupId), varId_(varId), label_(std::move(label)),
      shape_(std::move(shape)), stored_(stored) {}

std::string NcVariableSource::describe() const { return describeVariable(*file_, label_); }

std::shared_ptr<const DirectLayout> NcVariableSource::layout() const {
    LayoutState& st = *layoutState_;
    std::call_once(st.once, [&] {
        NetcdfLock lock(netcdfMutex());
        int format = 0, mode = 0; // the dispatch model (NC_FORMATX_*) and the open mode
        check(nc_inq_format_extended(groupId_, &format, &mode), describe() + ": its format");
        try {
            DirectLayout l;
            if (!isNumeric(stored_))
                l.reason = "not numeric";
            else if (shape_.size() > std::size_t(kMaxDims))
                l.reason = "more dims than the parallel reader takes";
            else if (format == NC_FORMATX_NC3)
                l = classicLayout(file_->path(), varId_, shape_, stored_, describe());
            else if (format == NC_FORMATX_NC_HDF5)
                l = hdf5Layout(file_->path(), groupId_, varId_, shape_, stored_, describe());
            else
                l.reason = "not a local netCDF-3 or netCDF-4 file";
            st.layout = std::make_shared<const DirectLayout>(std::move(l));
        } catch (const NetcdfError& e) {
            st.error = e.what();
        }
    });
    if (!st.error.empty()) throw NetcdfError(st.error);
    return st.layout;
}

std::string NcVariableSource::readPath() const {
    if (readMode() == ReadMode::NetcdfC) return "netCDF-C: chosen (STRATA_READ=netcdf-c)";
    try {
        const auto l = layout();
        return (l->kind == DirectLayout::Kind::NetcdfC ? "netCDF-C: " : "parallel: ") + l->reason;
    } catch (const NetcdfError& e) {
        return std::string("damaged: ") + e.what();
    }
}

std::size_t NcVariableSource::parallelReadBytes() const {
    if (readMode() == ReadMode::NetcdfC) return 0;
    try {
        const auto l = layout();
        if (l->kind == DirectLayout::Kind::NetcdfC) return 0;
        const std::size_t each =
            l->kind == DirectLayout::Kind::Chunked
                ? std::max<std::size_t>(std::size_t(l->chunkBytes()), std::size_t(4) << 20)
                : std::size_t(8) << 20;
        return each * std::size_t(ioThreads());
    } catch (const NetcdfError&) {
        return 0;
    }
}

std::optional<DataSource::ChunkPlan> NcVariableSource::planChunks(std::span<const std::int64_t> start,
                                                                  std::span<const std::int64_t> count) const {
    if (readMode() != ReadMode::Parallel || start.size() != shape_.size() || count.size() != shape_.size() ||
        shape_.empty())
        return std::nullopt;
    const auto l = layout();
    if (l->kind != DirectLayout::Kind::Chunked) return std::nullopt;
    for (std::size_t i = 0; i < shape_.size(); ++i)
        if (start[i] < 0 || count[i] < 1 || start[i] > shape_[i] || count[i] > shape_[i] - start[i])
            return std::nullopt;
    ChunkPlan p;
    p.grid.ndim = int(shape_.size());
    for (int i = 0; i < p.grid.ndim; ++i) {
        p.grid.origin[i] = start[std::size_t(i)];
        p.grid.shape[i] = count[std::size_t(i)];
        p.grid.chunk[i] = l->chunk[std::size_t(i)];
    }
    p.grid.elemSize = l->elemSize;
    p.grid.shuffled = l->deferShuffle;
    p.grid.swap = l->swap;
    p.fill = l->fill;
    p.chunkBytes = l->chunkBytes();
    p.storedChunks = selectChunks(*l, start, count).stored;
    return p;
}

std::vector<ChunkRef> NcVariableSource::inflateChunks(std::span<const std::int64_t> start,
                                                      std::span<const std::int64_t> count, void* batch,
                                                      std::uint64_t batchBytes) const {
    const auto l = layout();
    STRATA_EXPECTS(l->kind == DirectLayout::Kind::Chunked, NetcdfError,
                   describe() + ": not stored in chunks");
    const auto refs =
        detail::inflateChunks(*l, selectChunks(*l, start, count), batch, batchBytes, describe());
    std::uint64_t elements = 1;
    for (std::int64_t c : count) elements *= std::uint64_t(c);
    readsMade.fetch_add(1, std::memory_order_relaxed);
    bytesRead.fetch_add(elements * sizeOf(stored_), std::memory_order_relaxed);
    return refs;
}

void NcVariableSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                            std::span<const std::int64_t> stride, void* out) const {
    if (readMode() == ReadMode::Parallel &&
        std::all_of(stride.begin(), stride.end(), [](auto k) { return k == 1; }) &&
        start.size() == shape_.size() && count.size() == shape_.size() && out != nullptr) {
        const auto l = layout(); // throws for a damaged chunk index
        bool inside = true;
        std::uint64_t elements = 1;
        for (std::size_t i = 0; i < shape_.size(); ++i) {
            inside = inside && start[i] >= 0 && count[i] >= 0 && start[i] <= shape_[i] &&
                     count[i] <= shape_[i] - start[i];
            elements *= std::uint64_t(std::max<std::int64_t>(count[i], 0));
        }
        if (inside && l->kind != DirectLayout::Kind::NetcdfC && directReadPays(*l, start, count)) {
            directRead(*l, start, count, out, describe());
            readsMade.fetch_add(1, std::memory_order_relaxed);
            bytesRead.fetch_add(elements * sizeOf(stored_), std::memory_order_relaxed);
            return;
        }
    }
    readNetcdf(start, count, stride, out);
}

std::vector<std::int64_t> NcVariableSource::storedChunkShape() const {
    std::vector<std::size_t> sizes(shape_.size());
    int storage = NC_CONTIGUOUS;
    {
        NetcdfLock lock(netcdfMutex());
        if (nc_inq_var_chunking(groupId_, varId_, &storage, sizes.data()) != NC_NOERR) return {};
    }
    if (storage != NC_CHUNKED) return {};
    return std::vector<std::int64_t>(sizes.begin(), sizes.end());
}

void NcVariableSource::readNetcdf(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                                  std::span<const std::int64_t> stride, void* out) const {
    const std::size_t n = shape_.size();
    STRATA_EXPECTS(start.size() == n && count.size() == n && stride.size() == n, NetcdfError,
                   describe() + ": a read needs " + std::to_string(n) + " starts, counts and strides, got " +
                       std::to_string(start.size()) + ", " + std::to_string(count.size()) + " and " +
                       std::to_string(stride.size()));
    STRATA_EXPECTS(stored_ != DType::String, NetcdfError,
                   describe() + ": a string variable is metadata only; its values cannot be loaded");
    std::vector<std::size_t> st(n), co(n);
    std::vector<std::ptrdiff_t> sd(n);
    bool unitStride = true;
    for (std::size_t i = 0; i < n; ++i) {
        const std::int64_t s = start[i], c = count[i], k = stride[i];
        checkReadAlong(describe(), i, s, c, k, shape_[i]);
        if (c == 0) return; // nothing to read
        st[i] = static_cast<std::size_t>(s);
        co[i] = static_cast<std::size_t>(c);
        sd[i] = static_cast<std::ptrdiff_t>(k);
        unitStride = unitStride && k == 1;
    }
    STRATA_EXPECTS(out != nullptr, NetcdfError, describe() + ": read into a null buffer");
    int rc;
    {
        NetcdfLock lock(netcdfMutex());
        rc = unitStride ? nc_get_vara(groupId_, varId_, st.data(), co.data(), out)
                        : nc_get_vars(groupId_, varId_, st.data(), co.data(), sd.data(), out);
    }
    check(rc, describe() + ": reading failed");
    std::uint64_t elements = 1;
    for (std::size_t c : co) elements *= c;
    readsMade.fetch_add(1, std::memory_order_relaxed);
    bytesRead.fetch_add(elements * sizeOf(stored_), std::memory_order_relaxed);
}

} // namespace detail
} // namespace strata::io
