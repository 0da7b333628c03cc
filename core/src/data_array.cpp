#include "strata/core/data_array.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "strata/core/error.h"

namespace strata {
namespace {

// Slices a host coordinate with the indexers that name its dims (others are ignored).
Coordinate sliceCoordinate(const Coordinate& c, const std::vector<Indexer>& indexers) {
    std::vector<Indexer> own;
    for (const auto& ix : indexers)
        if (std::find(c.dims.begin(), c.dims.end(), ix.dim) != c.dims.end()) own.push_back(ix);
    if (own.empty()) return c;
    // Reuse Variable's index arithmetic on a view of the coordinate's values' positions.
    std::vector<double> positions(c.values.size());
    for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = double(i);
    DataArray index = DataArray::fromHost("", c.dims, c.shape, positions);
    DataArray sliced = index.isel(own);
    Coordinate out = c;
    out.dims = sliced.dims();
    out.shape = sliced.shape();
    out.values.clear();
    std::vector<DateTime> dates;
    for (double p : sliced.values<double>()) {
        const auto i = static_cast<std::size_t>(p);
        out.values.push_back(c.values[i]);
        if (c.time && i < c.time->dates.size()) dates.push_back(c.time->dates[i]);
    }
    if (out.time) out.time->dates = std::move(dates);
    return out;
}

} // namespace

DataArray::DataArray(std::string name, Variable variable, Coordinates coords)
    : name_(std::move(name)), variable_(std::move(variable)), coords_(std::move(coords)) {}

DataArray DataArray::isel(const std::vector<Indexer>& indexers) const {
    DataArray out(name_, variable_.isel(indexers));
    for (const auto& c : coords_) out.coords_.set(sliceCoordinate(c, indexers));
    return out;
}

std::int64_t DataArray::nearestIndex(const std::string& dim, double value) const {
    axis(dim);
    const Coordinate* c = coords_.find(dim);
    STRATA_EXPECTS(c && c->isIndex(), ValueError,
                   "sel along '" + dim + "' needs an index coordinate '" + dim + "', and " +
                       (name_.empty() ? std::string("the array") : "'" + name_ + "'") + " has none");
    STRATA_EXPECTS(std::isfinite(value), ValueError, "sel along '" + dim + "' needs a finite value");
    std::int64_t best = -1;
    double bestDistance = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < c->values.size(); ++i) {
        const double d = std::abs(c->values[i] - value);
        if (d < bestDistance) {
            bestDistance = d;
            best = std::int64_t(i);
        }
    }
    STRATA_EXPECTS(best >= 0, ValueError, "sel along '" + dim + "': the coordinate has no finite value");
    return best;
}

DataArray DataArray::sel(const std::string& dim, double value) const {
    return isel({{dim, nearestIndex(dim, value)}});
}

DataArray DataArray::sel(const std::string& dim, const DateTime& date) const {
    const Coordinate* c = coords_.find(dim);
    STRATA_EXPECTS(c && c->time, ValueError, "sel by date along '" + dim + "' needs a time coordinate");
    return sel(dim, encodeTime(date, c->time->units, c->time->calendar));
}

DataArray DataArray::transpose(const std::vector<std::string>& order) const {
    return {name_, variable_.transpose(order), coords_};
}

DataArray DataArray::asHost() const {
    if (device().isHost() && isLoaded()) return *this;
    const Stream s = isLoaded() && variable_.buffer() ? variable_.buffer()->stream() : Stream::host();
    return load(Device::host(), s);
}

} // namespace strata
