#pragma once
#include <cstring>

namespace strata {

template <class T>
DataArray DataArray::fromHost(std::string name, std::vector<std::string> dims, Shape shape,
                              const std::vector<T>& values, Coordinates coords) {
    Buffer buffer(values.size() * sizeof(T), Device::host(), Stream::host());
    if (!values.empty()) std::memcpy(buffer.data(), values.data(), values.size() * sizeof(T));
    Variable v(std::move(dims), std::move(shape), dtypeOf<T>(), std::move(buffer));
    STRATA_EXPECTS(v.size() == static_cast<std::int64_t>(values.size()), ValueError,
                   "DataArray::fromHost: shape does not match the number of values");
    return {std::move(name), std::move(v), std::move(coords)};
}

template <class T> std::vector<T> DataArray::values() const {
    STRATA_EXPECTS(device().isHost() && isLoaded(), ValueError,
                   "values() needs loaded host data: call asHost() first");
    std::vector<T> out;
    out.reserve(static_cast<std::size_t>(size()));
    if (size() == 0) return out;
    ArrayView v = variable_.view();
    visitNumeric(v.dtype, [&](auto tag) {
        using S = decltype(tag);
        const S* base = static_cast<const S*>(v.data);
        std::int64_t idx[kMaxDims] = {};
        for (std::int64_t n = 0; n < size(); ++n) {
            std::int64_t off = 0;
            for (int d = 0; d < v.ndim; ++d) off += idx[d] * v.strides[d];
            out.push_back(static_cast<T>(base[off]));
            for (int d = v.ndim - 1; d >= 0; --d) {
                if (++idx[d] < v.shape[d]) break;
                idx[d] = 0;
            }
        }
    });
    return out;
}

} // namespace strata
