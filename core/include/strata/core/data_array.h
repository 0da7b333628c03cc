#pragma once
// DataArray: a Variable with a name and host-resident coordinates — the labelled array that
// every operation takes and returns. Copying a DataArray shares its data (like xarray).
#include <string>
#include <vector>

#include "strata/core/coordinate.h"
#include "strata/core/variable.h"

namespace strata {

class DataArray {
public:
    DataArray() = default;
    DataArray(std::string name, Variable variable, Coordinates coords = {});

    // A host array from values (C order), for tests and small inputs.
    template <class T>
    static DataArray fromHost(std::string name, std::vector<std::string> dims, Shape shape,
                              const std::vector<T>& values, Coordinates coords = {});

    const std::string& name() const { return name_; }
    const Variable& variable() const { return variable_; }
    const std::vector<std::string>& dims() const { return variable_.dims(); }
    const Shape& shape() const { return variable_.shape(); }
    DType dtype() const { return variable_.dtype(); }
    int ndim() const { return variable_.ndim(); }
    std::int64_t size() const { return variable_.size(); }
    const Attributes& attrs() const { return variable_.attrs(); }
    const Coordinates& coords() const { return coords_; }
    Device device() const { return variable_.device(); }
    bool isLoaded() const { return variable_.isLoaded(); }
    int axis(const std::string& dim) const { return variable_.axis(dim); }
    std::int64_t sizeOf(const std::string& dim) const { return shape()[axis(dim)]; }

    // Views, as in xarray: coordinates are sliced on the host alongside.
    DataArray isel(const std::vector<Indexer>& indexers) const;
    // The index nearest to `value` on dim's index coordinate (ValueError without one).
    DataArray sel(const std::string& dim, double value) const;
    // Nearest date on a time coordinate.
    DataArray sel(const std::string& dim, const DateTime& date) const;
    std::int64_t nearestIndex(const std::string& dim, double value) const;
    DataArray transpose(const std::vector<std::string>& order) const;

    // The only ways data moves (counted): the same labelled array with its data elsewhere.
    DataArray load(Device device, Stream stream) const {
        return {name_, variable_.load(device, stream), coords_};
    }
    DataArray asDevice(Device device, Stream stream) const { return load(device, stream); }
    DataArray asHost() const; // synchronises: the values must reach the host

    // Host values as T (converted); requires data on the host (call asHost() first).
    template <class T> std::vector<T> values() const;

    DataArray withName(std::string name) const { return {std::move(name), variable_, coords_}; }

private:
    std::string name_;
    Variable variable_;
    Coordinates coords_;
};

} // namespace strata

#include "strata/core/detail/data_array_impl.h"
