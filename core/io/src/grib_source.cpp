#include "grib_source.h"

#include <cmath>
#include <limits>

#include "grib_handle.h"
#include "grib_simple.h"
#include "io_pool.h"
#include "strata/core/cancel.h"
#include "strata/core/error.h"

namespace strata::io::detail {
namespace {

// Each reader thread's buffer for the messages it decodes, one after another.
thread_local std::vector<unsigned char> scratch;

// Checks a read's box against `shape`; throws NetcdfError naming `what`.
void checkBox(const std::vector<std::int64_t>& shape, std::span<const std::int64_t> start,
              std::span<const std::int64_t> count, std::span<const std::int64_t> stride,
              const std::string& what) {
    STRATA_EXPECTS(
        start.size() == shape.size() && count.size() == shape.size() && stride.size() == shape.size(),
        NetcdfError, what + ": a read needs " + std::to_string(shape.size()) + " starts, counts and strides");
    for (std::size_t d = 0; d < shape.size(); ++d) {
        const std::int64_t s = start[d], c = count[d], k = stride[d], n = shape[d];
        STRATA_EXPECTS(s >= 0 && c >= 0 && k >= 1 && (c == 0 || (s < n && (c - 1) <= (n - 1 - s) / k)),
                       NetcdfError, what + ": read outside its shape along dim " + std::to_string(d));
    }
}

} // namespace

GribSource::GribSource(std::shared_ptr<const GribFiles> files, std::string what, std::string label,
                       std::vector<std::int64_t> axes, std::vector<GribField> fields, long nj, long ni,
                       bool flat)
    : files_(std::move(files)), what_(std::move(what)), label_(std::move(label)), axes_(std::move(axes)),
      fields_(std::move(fields)), nj_(flat ? 1 : nj), ni_(ni), flat_(flat) {}

std::vector<std::int64_t> GribSource::shape() const {
    std::vector<std::int64_t> shape = axes_;
    if (!flat_) shape.push_back(nj_);
    shape.push_back(ni_);
    return shape;
}

std::string GribSource::readPath() const {
    std::size_t present = 0;
    for (const GribField& f : fields_) present += f.present;
    return "ecCodes (CPU; simple packing onto a GPU decoded there): " + std::to_string(present) +
           " messages of " + std::to_string(fields_.size()) + " fields";
}

std::vector<std::int64_t> GribSource::chunkShape() const {
    std::vector<std::int64_t> shape(axes_.size(), 1);
    if (!flat_) shape.push_back(nj_);
    shape.push_back(ni_);
    return shape;
}

std::size_t GribSource::cellOf(std::size_t k, std::span<const std::int64_t> start,
                               std::span<const std::int64_t> count,
                               std::span<const std::int64_t> stride) const {
    // k's digits over the box's counts, mapped into the axes.
    std::int64_t cell = 0, rest = std::int64_t(k), scale = 1;
    for (std::size_t d = axes_.size(); d-- > 0;) {
        cell += (start[d] + (rest % count[d]) * stride[d]) * scale;
        rest /= count[d];
        scale *= axes_[d];
    }
    return std::size_t(cell);
}

std::optional<Buffer> GribSource::evaluate(std::span<const std::int64_t> start,
                                           std::span<const std::int64_t> count,
                                           std::span<const std::int64_t> stride, Device device,
                                           Stream stream) const {
    if (!device.isCuda()) return std::nullopt;
    const std::vector<std::int64_t> full = shape();
    checkBox(full, start, count, stride, describe());
    const std::size_t lead = axes_.size();
    for (std::size_t d = lead; d < full.size(); ++d) // whole fields only
        if (start[d] != 0 || count[d] != full[d] || stride[d] != 1) return std::nullopt;
    std::size_t fields = 1;
    for (std::size_t d = 0; d < lead; ++d) fields *= std::size_t(count[d]);
    std::vector<GribField> box(fields);
    for (std::size_t k = 0; k < fields; ++k) box[k] = fields_[cellOf(k, start, count, stride)];
    std::string why;
    const auto batch = gribSimpleBatch(*files_, box, std::int64_t(nj_) * ni_, why);
    if (!batch) return std::nullopt; // ecCodes reads it on the host
    return unpackSimple(batch->bytes, batch->fields, std::int64_t(nj_) * ni_, device, stream);
}

void GribSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                      std::span<const std::int64_t> stride, void* out) const {
    checkBox(shape(), start, count, stride, describe());
    const std::size_t lead = axes_.size();
    std::int64_t fields = 1;
    for (std::size_t d = 0; d < lead; ++d) fields *= count[d];
    // A flat field reads as one row.
    const std::size_t col = flat_ ? lead : lead + 1;
    const std::int64_t rows = flat_ ? 1 : count[lead], cols = count[col];
    const std::int64_t row0 = flat_ ? 0 : start[lead], rowStride = flat_ ? 1 : stride[lead];
    const std::int64_t plane = rows * cols;
    if (fields == 0 || plane == 0) return;
    auto* o = static_cast<float*>(out);
    ioParallel(std::size_t(fields), [&](std::size_t k) {
        const std::size_t cell = cellOf(k, start, count, stride);
        if (const CancelToken* cancel = CancelScope::current())
            cancel->throwIfCancelled("reading " + describe());
        float* dst = o + std::int64_t(k) * plane;
        const GribField& f = fields_[cell];
        if (!f.present) {
            std::fill(dst, dst + plane, std::numeric_limits<float>::quiet_NaN());
            return;
        }
        const GribHandle h =
            GribHandle::read(*files_->files[f.span.file], f.span, files_->paths[f.span.file], scratch);
        const std::vector<double> v = h.values(std::size_t(nj_ * ni_), ni_, f.alternativeRows);
        for (std::int64_t r = 0; r < rows; ++r) {
            const double* src = v.data() + (row0 + r * rowStride) * ni_ + start[col];
            for (std::int64_t c = 0; c < cols; ++c) dst[r * cols + c] = float(src[c * stride[col]]);
        }
    });
}

void GribValuesSource::read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                            std::span<const std::int64_t> stride, void* out) const {
    checkBox(shape_, start, count, stride, what_);
    const std::vector<double> made = make_ ? make_() : std::vector<double>();
    const std::vector<double>& values = make_ ? made : values_;
    std::int64_t size = 1;
    for (std::int64_t n : shape_) size *= n;
    STRATA_EXPECTS(std::int64_t(values.size()) == size, NetcdfError,
                   what_ + ": " + std::to_string(values.size()) + " values made for " + std::to_string(size) +
                       " places");
    auto* o = static_cast<double*>(out);
    std::int64_t total = 1;
    for (std::int64_t c : count) total *= c;
    const std::size_t nd = shape_.size();
    for (std::int64_t k = 0; k < total; ++k) {
        std::int64_t rest = k, at = 0, scale = 1;
        for (std::size_t d = nd; d-- > 0;) {
            at += (start[d] + (rest % count[d]) * stride[d]) * scale;
            rest /= count[d];
            scale *= shape_[d];
        }
        o[k] = values[std::size_t(at)];
    }
}

} // namespace strata::io::detail
