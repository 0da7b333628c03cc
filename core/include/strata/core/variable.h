#pragma once
// Variable: named dims, a shape, a dtype, attrs, and data — either a strided view of a
// Buffer shared with other views, or a lazy hyperslab of a DataSource not yet read.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "strata/core/array_view.h"
#include "strata/core/attributes.h"
#include "strata/core/buffer.h"
#include "strata/core/cf.h"
#include "strata/core/data_source.h"

namespace strata {

using Shape = std::vector<std::int64_t>;

// One indexer along a dim: a single index (the dim is dropped) or a slice start:stop:step
// with Python's rules (negative start/stop count from the end, stop clamped; step > 0).
struct Slice {
    std::optional<std::int64_t> start, stop;
    std::int64_t step = 1;
};
struct Indexer {
    std::string dim;
    std::variant<std::int64_t, Slice> index;
};

class Variable {
public:
    Variable() = default;
    // Loaded: a view of `buffer` (shape, strides in elements, offset in elements).
    Variable(std::vector<std::string> dims, Shape shape, DType dtype, std::shared_ptr<const Buffer> buffer,
             std::vector<std::int64_t> strides, std::int64_t offset, Attributes attrs = {});
    // Loaded, contiguous C order over the whole buffer.
    Variable(std::vector<std::string> dims, Shape shape, DType dtype, Buffer buffer, Attributes attrs = {});
    // Lazy: the whole of `source`'s variable, with its CF encoding (dtype is the decoded type).
    static Variable lazy(std::vector<std::string> dims, Shape shape, CfEncoding encoding,
                         std::shared_ptr<const DataSource> source, Attributes attrs = {});

    const std::vector<std::string>& dims() const { return dims_; }
    const Shape& shape() const { return shape_; }
    DType dtype() const { return dtype_; }
    int ndim() const { return static_cast<int>(dims_.size()); }
    std::int64_t size() const; // elements
    std::size_t nbytes() const { return static_cast<std::size_t>(size()) * sizeOf(dtype_); }
    const Attributes& attrs() const { return attrs_; }
    Attributes& attrs() { return attrs_; }
    const CfEncoding& encoding() const { return encoding_; }

    bool isLoaded() const { return buffer_ != nullptr || size() == 0; }
    bool isContiguous() const;
    Device device() const; // host for lazy variables
    // Position of `dim` in dims(); throws ValueError naming the dim and the dims there are.
    int axis(const std::string& dim) const;

    // Views (no data moves). Lazy variables stay lazy: isel narrows the hyperslab to read.
    Variable isel(const std::vector<Indexer>& indexers) const;
    Variable transpose(const std::vector<std::string>& order) const;

    // Reads (if lazy) and decodes onto `device`, ordered on `stream`: packed values cross to
    // the device in their stored type through pinned, double-buffered staging and are masked
    // and unpacked there. A loaded variable is moved with copyTo (or returned as is when it
    // is already on `device`). Throws OutOfMemoryError when it cannot fit.
    Variable load(Device device, Stream stream) const;

    // For kernels and loops; requires isLoaded().
    ArrayView view() const;
    const std::shared_ptr<const Buffer>& buffer() const { return buffer_; }
    std::int64_t offset() const { return offset_; }
    const std::vector<std::int64_t>& strides() const { return strides_; }
    // Lazy hyperslab (meaningful when !isLoaded()).
    const std::shared_ptr<const DataSource>& source() const { return source_; }
    const std::vector<std::int64_t>& sourceStart() const { return sourceStart_; }
    const std::vector<std::int64_t>& sourceStep() const { return sourceStep_; }
    const std::vector<std::int64_t>& sourceCount() const { return sourceCount_; }
    const std::vector<int>& sourceAxis() const { return sourceAxis_; }

private:
    std::vector<std::string> dims_;
    Shape shape_;
    DType dtype_ = DType::Float32;
    Attributes attrs_;
    CfEncoding encoding_;
    std::shared_ptr<const Buffer> buffer_;
    std::vector<std::int64_t> strides_;
    std::int64_t offset_ = 0;
    std::shared_ptr<const DataSource> source_;
    // Hyperslab of the source's full variable: for each source dim, the first index, the step
    // and the count; a dim dropped by an integer index has count 1 and sourceKeep_ false.
    // sourceAxis_[i] is the source dim shown as dims()[i] (transpose reorders it).
    std::vector<std::int64_t> sourceStart_, sourceStep_, sourceCount_;
    std::vector<bool> sourceKeep_;
    std::vector<int> sourceAxis_;

    friend Variable loadVariable(const Variable&, Device, Stream);
};

} // namespace strata
