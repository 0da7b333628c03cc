#include "strata/core/view.h"

#include <algorithm>
#include <map>

#include "strata/core/error.h"
#include "strata/core/streaming.h"

namespace strata {

std::vector<std::string> ViewSpec::slicedDims(const std::vector<std::string>& varDims) const {
    std::vector<std::string> out;
    for (const auto& d : varDims) {
        const bool reduced =
            std::any_of(reductions.begin(), reductions.end(), [&](auto& r) { return r.first == d; });
        if (d != xDim && d != yDim && !reduced) out.push_back(d);
    }
    return out;
}

std::int64_t ViewSpec::indexOf(const std::string& dim) const {
    for (const auto& [d, i] : indices)
        if (d == dim) return i;
    return 0;
}

void validate(const ViewSpec& spec, const DataArray& var) {
    const std::string what = "variable '" + var.name() + "'";
    STRATA_EXPECTS(!spec.xDim.empty(), ValueError, "no dim on X for " + what);
    std::map<std::string, std::string> roles;
    auto claim = [&](const std::string& dim, const std::string& role) {
        var.axis(dim); // throws ValueError naming the dim and the array's dims
        auto [it, fresh] = roles.emplace(dim, role);
        STRATA_EXPECTS(fresh, ValueError,
                       "dim '" + dim + "' is given two roles: " + it->second + " and " + role);
    };
    claim(spec.xDim, "x");
    if (!spec.yDim.empty()) claim(spec.yDim, "y");
    for (const auto& [d, op] : spec.reductions) claim(d, "reduce");
    for (const auto& [d, i] : spec.indices) {
        claim(d, "slice");
        const std::int64_t n = var.sizeOf(d);
        STRATA_EXPECTS(i >= 0 && i < n, IndexError,
                       "index " + std::to_string(i) + " is out of range for dim '" + d + "' of length " +
                           std::to_string(n));
    }
}

DataArray computeView(const DataArray& var, const ViewSpec& spec, Device device, Stream stream) {
    validate(spec, var);
    std::vector<Indexer> indexers;
    for (const auto& d : spec.slicedDims(var.dims())) indexers.push_back({d, spec.indexOf(d)});
    DataArray a = var.isel(indexers).load(device, stream);
    for (const auto& [d, op] : spec.reductions) a = reduce(a, {d}, op, stream);
    std::vector<std::string> order;
    if (!spec.yDim.empty()) order.push_back(spec.yDim);
    order.push_back(spec.xDim);
    return contiguous(a.transpose(order), stream);
}

namespace {
Stream streamFor(Device d) { return d.isHost() ? Stream::host() : defaultStream(d); }
} // namespace

DataArray computeFrame(const DataArray& var, const ViewSpec& spec, Device device, FallbackNote& note,
                       const ViewLimits& limits) {
    validate(spec, var);
    std::vector<Indexer> indexers;
    for (const auto& d : spec.slicedDims(var.dims())) indexers.push_back({d, spec.indexOf(d)});
    const DataArray slab =
        var.isel(indexers); // a view of a resident variable; else lazy: only this hyperslab
    ViewSpec rest = spec;
    rest.indices.clear(); // the sliced dims are gone
    if (!slab.isLoaded() && !spec.reductions.empty() && slab.variable().nbytes() > limits.loadAtOnce) {
        ViewSpec after = rest;
        after.reductions.erase(after.reductions.begin());
        const auto& [dim, op] = spec.reductions.front();
        return runWithFallback(
            device, slab,
            [&](Device d) {
                const Stream s = streamFor(d);
                const DataArray reduced =
                    reduceStreamed(slab, dim, op, d, s, limits.slabBytes, limits.cancel);
                DataArray f = computeView(reduced, after, d, s);
                s.synchronize();
                return f;
            },
            note);
    }
    const DataArray resident = loadWithFallback(slab, device, streamFor(device), note);
    FallbackNote loadNote = note;
    DataArray frame = computeWithFallback(
        slab, resident,
        [&](const DataArray& a) {
            const Stream s = streamFor(a.device());
            DataArray f = computeView(a, rest, a.device(), s);
            s.synchronize(); // drawn or copied next
            return f;
        },
        note);
    if (!note.fellBack && loadNote.fellBack) note = loadNote;
    return frame;
}

} // namespace strata
