#include "strata/core/variable.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "strata/core/error.h"

namespace strata {
namespace {

std::string listDims(const std::vector<std::string>& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
    return s + ")";
}

void checkDims(const std::vector<std::string>& dims, const Shape& shape) {
    STRATA_EXPECTS(dims.size() == shape.size(), ValueError,
                   "dims " + listDims(dims) + " do not match a shape of " + std::to_string(shape.size()) +
                       " dims");
    std::set<std::string> seen;
    for (const auto& d : dims)
        STRATA_EXPECTS(seen.insert(d).second, ValueError, "dim '" + d + "' appears twice");
    for (auto n : shape) STRATA_EXPECTS(n >= 0, ValueError, "negative dim length");
}

std::vector<std::int64_t> contiguousStrides(const Shape& shape) {
    std::vector<std::int64_t> strides(shape.size(), 1);
    for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
    return strides;
}

// Resolves a Python-style slice on a dim of length n: the first index, the count.
std::pair<std::int64_t, std::int64_t> resolve(const Slice& s, std::int64_t n, const std::string& dim) {
    STRATA_EXPECTS(s.step > 0, ValueError, "slice step along '" + dim + "' must be positive");
    auto clampIndex = [n](std::int64_t i) {
        if (i < 0) i += n;
        return std::clamp<std::int64_t>(i, 0, n);
    };
    const std::int64_t start = s.start ? clampIndex(*s.start) : 0;
    const std::int64_t stop = s.stop ? clampIndex(*s.stop) : n;
    const std::int64_t count = stop > start ? (stop - start + s.step - 1) / s.step : 0;
    return {start, count};
}

std::int64_t resolveIndex(std::int64_t i, std::int64_t n, const std::string& dim) {
    const std::int64_t j = i < 0 ? i + n : i;
    STRATA_EXPECTS(j >= 0 && j < n, IndexError,
                   "index " + std::to_string(i) + " is out of range for dim '" + dim + "' of length " +
                       std::to_string(n));
    return j;
}

} // namespace

Variable::Variable(std::vector<std::string> dims, Shape shape, DType dtype,
                   std::shared_ptr<const Buffer> buffer, std::vector<std::int64_t> strides,
                   std::int64_t offset, Attributes attrs)
    : dims_(std::move(dims)), shape_(std::move(shape)), dtype_(dtype), attrs_(std::move(attrs)),
      buffer_(std::move(buffer)), strides_(std::move(strides)), offset_(offset) {
    checkDims(dims_, shape_);
    STRATA_EXPECTS(strides_.size() == shape_.size(), ValueError, "strides do not match the shape");
    encoding_.packed = encoding_.decoded = dtype_;
}

Variable::Variable(std::vector<std::string> dims, Shape shape, DType dtype, Buffer buffer, Attributes attrs)
    : dims_(std::move(dims)), shape_(std::move(shape)), dtype_(dtype), attrs_(std::move(attrs)) {
    checkDims(dims_, shape_);
    STRATA_EXPECTS(buffer.size() >= nbytes(), ValueError,
                   "buffer of " + std::to_string(buffer.size()) + " bytes is too small for " +
                       std::to_string(nbytes()));
    strides_ = contiguousStrides(shape_);
    buffer_ = std::make_shared<const Buffer>(std::move(buffer));
    encoding_.packed = encoding_.decoded = dtype_;
}

Variable Variable::lazy(std::vector<std::string> dims, Shape shape, CfEncoding encoding,
                        std::shared_ptr<const DataSource> source, Attributes attrs) {
    checkDims(dims, shape);
    Variable v;
    v.dims_ = std::move(dims);
    v.shape_ = std::move(shape);
    v.dtype_ = encoding.decoded;
    v.encoding_ = std::move(encoding);
    v.attrs_ = std::move(attrs);
    v.source_ = std::move(source);
    const std::size_t n = v.shape_.size();
    v.sourceStart_.assign(n, 0);
    v.sourceStep_.assign(n, 1);
    v.sourceCount_ = v.shape_;
    v.sourceKeep_.assign(n, true);
    v.sourceAxis_.resize(n);
    std::iota(v.sourceAxis_.begin(), v.sourceAxis_.end(), 0);
    v.strides_ = contiguousStrides(v.shape_);
    return v;
}

std::int64_t Variable::size() const {
    std::int64_t n = 1;
    for (auto s : shape_) n *= s;
    return n;
}

bool Variable::isContiguous() const {
    if (!buffer_) return false;
    std::int64_t expected = 1;
    for (int i = ndim() - 1; i >= 0; --i) {
        if (shape_[i] != 1 && strides_[i] != expected) return false;
        expected *= shape_[i];
    }
    return true;
}

Device Variable::device() const { return buffer_ ? buffer_->device() : Device::host(); }

int Variable::axis(const std::string& dim) const {
    auto it = std::find(dims_.begin(), dims_.end(), dim);
    STRATA_EXPECTS(it != dims_.end(), ValueError, "no dim '" + dim + "' in " + listDims(dims_));
    return static_cast<int>(it - dims_.begin());
}

Variable Variable::isel(const std::vector<Indexer>& indexers) const {
    Variable v = *this;
    std::set<std::string> seen;
    for (const auto& ix : indexers)
        STRATA_EXPECTS(seen.insert(ix.dim).second, ValueError, "dim '" + ix.dim + "' is indexed twice");
    std::vector<bool> drop(dims_.size(), false);
    for (const auto& ix : indexers) {
        const int a = axis(ix.dim);
        const std::int64_t n = shape_[a];
        std::int64_t start = 0, count = 1, step = 1;
        if (const auto* i = std::get_if<std::int64_t>(&ix.index)) {
            start = resolveIndex(*i, n, ix.dim);
            drop[a] = true;
        } else {
            const Slice& s = std::get<Slice>(ix.index);
            std::tie(start, count) = resolve(s, n, ix.dim);
            step = s.step;
        }
        if (buffer_) {
            v.offset_ += start * strides_[a];
            v.strides_[a] = strides_[a] * step;
        } else {
            const int sa = sourceAxis_[a];
            v.sourceStart_[sa] += start * sourceStep_[sa];
            v.sourceStep_[sa] *= step;
            v.sourceCount_[sa] = count;
            if (drop[a]) v.sourceKeep_[sa] = false;
        }
        v.shape_[a] = count;
    }
    // Drop the dims indexed by an integer.
    Variable out = v;
    out.dims_.clear();
    out.shape_.clear();
    out.strides_.clear();
    out.sourceAxis_.clear();
    for (std::size_t a = 0; a < dims_.size(); ++a) {
        if (drop[a]) continue;
        out.dims_.push_back(v.dims_[a]);
        out.shape_.push_back(v.shape_[a]);
        out.strides_.push_back(v.strides_[a]);
        if (!buffer_) out.sourceAxis_.push_back(v.sourceAxis_[a]);
    }
    return out;
}

Variable Variable::transpose(const std::vector<std::string>& order) const {
    STRATA_EXPECTS(order.size() == dims_.size(), ValueError,
                   "transpose needs every dim of " + listDims(dims_) + ", got " + listDims(order));
    Variable out = *this;
    std::set<std::string> seen;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const int a = axis(order[i]);
        STRATA_EXPECTS(seen.insert(order[i]).second, ValueError, "dim '" + order[i] + "' appears twice");
        out.dims_[i] = dims_[a];
        out.shape_[i] = shape_[a];
        out.strides_[i] = strides_[a];
        if (!buffer_) out.sourceAxis_[i] = sourceAxis_[a];
    }
    return out;
}

ArrayView Variable::view() const {
    STRATA_EXPECTS(isLoaded(), ValueError, "variable is not loaded: call load() first");
    STRATA_EXPECTS(ndim() <= kMaxDims, ValueError,
                   "operations take at most " + std::to_string(kMaxDims) + " dims, this variable has " +
                       std::to_string(ndim()));
    ArrayView v;
    v.dtype = dtype_;
    v.ndim = ndim();
    for (int i = 0; i < v.ndim; ++i) {
        v.shape[i] = shape_[i];
        v.strides[i] = strides_[i];
    }
    v.data = buffer_ ? static_cast<const char*>(buffer_->data()) +
                           offset_ * static_cast<std::int64_t>(sizeOf(dtype_))
                     : nullptr;
    return v;
}

} // namespace strata
