#include "nc_source.h"

#include <netcdf.h>

#include <atomic>
#include <cstddef>
#include <string>

#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/io/netcdf.h"

namespace strata::io {
namespace {
std::atomic<std::uint64_t> readsMade{0}, bytesRead{0};
} // namespace

ReadCounters readCounters() { return {readsMade.load(), bytesRead.load()}; }

namespace detail {

std::string describeVariable(const NcFile& file, const std::string& label) {
    return file.name() + ": variable '" + label + "'";
}

NcVariableSource::NcVariableSource(std::shared_ptr<const NcFile> file, int groupId, int varId,
                                   std::string label, std::vector<std::int64_t> shape, DType stored)
    : file_(std::move(file)), groupId_(groupId), varId_(varId), label_(std::move(label)),
      shape_(std::move(shape)), stored_(stored) {}

std::string NcVariableSource::describe() const { return describeVariable(*file_, label_); }

void NcVariableSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
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
        const bool ok =
            s >= 0 && c >= 0 && k >= 1 && (c == 0 || (s < shape_[i] && (c - 1) <= (shape_[i] - 1 - s) / k));
        STRATA_EXPECTS(ok, NetcdfError,
                       describe() + ": read outside the variable along dim " + std::to_string(i) +
                           " (start " + std::to_string(s) + ", count " + std::to_string(c) + ", stride " +
                           std::to_string(k) + ", length " + std::to_string(shape_[i]) + ")");
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
