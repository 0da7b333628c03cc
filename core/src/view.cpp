#include "strata/core/view.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "source_reduce.h"
#include "strata/core/area.h"
#include "strata/core/error.h"
#include "strata/core/startup_trace.h"
#include "strata/core/streaming.h"
#include "strata/core/units.h"

namespace strata {

std::vector<std::string> FrameSpec::slicedDims(const std::vector<std::string>& varDims) const {
    std::vector<std::string> out;
    for (const auto& d : varDims) {
        const bool reduced =
            std::any_of(reductions.begin(), reductions.end(), [&](auto& r) { return r.first == d; });
        if (d != xDim && d != yDim && !reduced) out.push_back(d);
    }
    return out;
}

std::int64_t FrameSpec::indexOf(const std::string& dim) const {
    for (const auto& [d, i] : indices)
        if (d == dim) return i;
    return 0;
}

std::vector<std::string> FrameSpec::areaMeanDims() const {
    std::vector<std::string> out;
    if (areaWeighted)
        for (const auto& [d, op] : reductions)
            if (op == ReduceOp::Mean) out.push_back(d);
    return out;
}

void validate(const FrameSpec& spec, const DataArray& var) {
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
    if (const auto dims = spec.areaMeanDims(); !dims.empty()) checkAreaWeights(var, dims);
}

DataArray applyReductions(const DataArray& a, const FrameSpec& spec, Stream stream) {
    const std::vector<std::string> areaDims = spec.areaMeanDims();
    std::optional<AreaWeights> weights;
    if (!areaDims.empty())
        weights = areaWeights(a, areaDims, a.device(), stream); // before any reduction drops attrs
    DataArray out = a;
    for (const auto& [d, op] : spec.reductions) {
        if (op == ReduceOp::Mean && weights) {
            if (weights->weights.ndim() == 0) continue; // done where the first mean was
            out = weightedMean(out, weights->weights, areaDims, stream)
                      .withName(a.name() + " (area-weighted mean)");
            weights->weights = DataArray();
            continue;
        }
        out = reduce(out, {d}, op, stream);
    }
    return out;
}

DataArray computeView(const DataArray& var, const FrameSpec& spec, Device device, Stream stream) {
    validate(spec, var);
    std::vector<Indexer> indexers;
    for (const auto& d : spec.slicedDims(var.dims())) indexers.push_back({d, spec.indexOf(d)});
    DataArray a = applyReductions(var.isel(indexers).load(device, stream), spec, stream);
    std::vector<std::string> order;
    if (!spec.yDim.empty()) order.push_back(spec.yDim);
    order.push_back(spec.xDim);
    return contiguous(a.transpose(order), stream);
}

namespace {
Stream streamFor(Device d) { return d.isHost() ? Stream::host() : defaultStream(d); }
} // namespace

namespace {

// computeFrame before the display units.
DataArray computeStoredFrame(const DataArray& var, const FrameSpec& spec, Device device, FallbackNote& note,
                             const ViewLimits& limits) {
    std::vector<Indexer> indexers;
    for (const auto& d : spec.slicedDims(var.dims())) indexers.push_back({d, spec.indexOf(d)});
    const DataArray slab =
        var.isel(indexers); // a view of a resident variable; else lazy: only this hyperslab
    FrameSpec rest = spec;
    rest.indices.clear(); // the sliced dims are gone
    if (!slab.isLoaded()) {
        // A source that reduces where its values are (Dask) sends the result alone.
        const Stream s = streamFor(device);
        if (std::optional<DataArray> r = detail::reduceAtSource(slab, rest, device, s)) {
            FrameSpec after = rest;
            after.reductions.clear();
            DataArray f = computeView(*r, after, device, s);
            s.synchronize(); // drawn or copied next
            return f;
        }
    }
    if (!slab.isLoaded() && !spec.reductions.empty() && slab.variable().nbytes() > limits.loadAtOnce &&
        slab.ndim() > 0) {
        // Too large to load at once: streamed along the first dim, when that dim is kept (each
        // slab reduced whole, the results concatenated) or reduced first by an op whose partial
        // results merge exactly. Otherwise (the first dim in an area-weighted mean, or reduced
        // after another dim) it is loaded whole as before.
        const std::string& first = slab.dims()[0];
        std::set<std::string> reduced;
        for (const auto& [d, op] : spec.reductions) reduced.insert(d);
        const std::string dim0 =
            spec.reductions.front().first; // not a structured binding: lambdas capture it
        const ReduceOp op0 = spec.reductions.front().second;
        const bool kept = !reduced.count(first);
        const bool mergeable = dim0 == first && !(spec.areaWeighted && op0 == ReduceOp::Mean);
        if (kept || mergeable) {
            FrameSpec after = rest;
            if (mergeable) after.reductions.erase(after.reductions.begin());
            return runWithFallback(
                device, slab,
                [&](Device d) {
                    const Stream s = streamFor(d);
                    DataArray f;
                    if (kept) {
                        const DataArray reducedView = mapStreamed(
                            slab, [&](const DataArray& part) { return applyReductions(part, rest, s); }, d, s,
                            limits.slabBytes, limits.cancel, limits.progress);
                        FrameSpec none = rest;
                        none.reductions.clear();
                        f = computeView(reducedView, none, d, s);
                    } else {
                        const DataArray r = reduceStreamed(slab, dim0, op0, d, s, limits.slabBytes,
                                                           limits.cancel, limits.progress);
                        f = computeView(r, after, d, s);
                    }
                    s.synchronize();
                    return f;
                },
                note);
        }
    }
    const DataArray resident = loadWithFallback(slab, device, streamFor(device), note);
    startup::mark(startup::Milestone::SlabRead);
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

} // namespace

DataArray computeFrame(const DataArray& var, const FrameSpec& spec, Device device, FallbackNote& note,
                       const ViewLimits& limits) {
    validate(spec, var);
    const std::optional<std::string> stored = var.attrs().text("units");
    STRATA_EXPECTS(spec.units.empty() || (stored && !stored->empty()), ValueError,
                   "'" + var.name() + "' has no units to show in " + spec.units);
    std::optional<UnitConversion> conversion;
    if (!spec.units.empty() && stored && *stored != spec.units) { // checked before any work
        std::vector<ReduceOp> ops;
        for (const auto& r : spec.reductions) ops.push_back(r.second);
        conversion = conversionAfter(unitConversion(*stored, spec.units), ops, var.name());
    }
    DataArray frame = computeStoredFrame(var, spec, device, note, limits);
    if (!conversion || frame.attrs().text("units") != stored) return frame; // a count has no units
    const Stream s = streamFor(frame.device());
    frame = convertUnits(frame, *conversion, s);
    s.synchronize(); // drawn or copied next
    return frame;
}

} // namespace strata
