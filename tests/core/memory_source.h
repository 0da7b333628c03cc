// A DataSource over values held in memory, for tests of what is read and when: it counts its
// reads and the bytes they return, can fail or call back on a given read, and is thread-safe.
#pragma once
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/error.h"
#include "test_util.h"

namespace test {

using namespace strata;

class MemorySource : public DataSource {
public:
    // `values` in C order over `shape`, stored as `packed`.
    MemorySource(Shape shape, DType packed, const std::vector<double>& values)
        : shape_(std::move(shape)), packed_(packed), elem_(sizeOf(packed)) {
        const DataArray a = makeArray(packed, dimNames(int(shape_.size())), shape_, values);
        bytes_.resize(values.size() * elem_);
        if (!bytes_.empty()) std::memcpy(bytes_.data(), a.variable().buffer()->data(), bytes_.size());
    }
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override {
        const int k = ++reads;
        if (onRead) onRead(k);
        if (failAt == k) throw NetcdfError(describe() + ": read failed (the test's damaged file)");
        const int nd = int(shape_.size());
        std::vector<std::int64_t> idx(nd, 0), strides(nd, 1);
        for (int i = nd - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape_[i + 1];
        std::int64_t n = 1;
        for (int i = 0; i < nd; ++i) n *= count[i];
        auto* o = static_cast<unsigned char*>(out);
        for (std::int64_t e = 0; e < n; ++e) {
            std::int64_t at = 0;
            for (int i = 0; i < nd; ++i) at += (start[i] + idx[i] * stride[i]) * strides[i];
            std::memcpy(o + e * elem_, bytes_.data() + at * elem_, elem_);
            for (int i = nd - 1; i >= 0; --i) {
                if (++idx[i] < count[i]) break;
                idx[i] = 0;
            }
        }
        bytesRead += std::uint64_t(n) * elem_;
    }
    std::string describe() const override { return "memory.nc: variable 'v'"; }

    mutable std::atomic<int> reads{0};
    mutable std::atomic<std::uint64_t> bytesRead{0};
    int failAt = 0;                       // the read that throws (0: none)
    std::function<void(int read)> onRead; // called before each read, with its number from 1

private:
    Shape shape_;
    DType packed_;
    std::size_t elem_;
    std::vector<unsigned char> bytes_;
};

// A lazy DataArray named `name` with dims t, y, x... over `source`, decoded by `enc`.
inline DataArray lazyArray(const std::shared_ptr<MemorySource>& source, const Shape& shape, CfEncoding enc,
                           std::string name = "v") {
    std::vector<std::string> dims;
    const char* names[] = {"t", "y", "x", "w", "v"};
    for (std::size_t i = 0; i < shape.size(); ++i)
        dims.push_back(shape.size() <= 3 ? names[i + 3 - shape.size()] : names[i]);
    return DataArray(std::move(name), Variable::lazy(dims, shape, enc, source));
}

// Identity encoding for `t` (stored as decoded, nothing masked).
inline CfEncoding plain(DType t) {
    CfEncoding e;
    e.packed = e.decoded = t;
    return e;
}

// int16 packed with scale, offset and a fill value, decoded to float32 (as ERA5 files are).
inline CfEncoding packedShort() {
    CfEncoding e;
    e.packed = DType::Int16;
    e.decoded = DType::Float32;
    e.scale = 0.5;
    e.offset = 270;
    e.scaled = true;
    e.fillValues = {-32767};
    return e;
}

} // namespace test
