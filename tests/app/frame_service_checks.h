#pragma once
// What the frame service's tests share: HGT's frame at a time step of tests/data/hgt.nc, the
// core's own host frame of a view and netCDF-C's (nc_frame.h), the wait for a request's answer,
// and for the service to settle.
#include <QSignalSpy>

#include <cstdint>
#include <memory>

#include "frame_service.h"
#include "nc_frame.h"

namespace {

const QString kHgt = QStringLiteral(STRATA_TEST_DATA "/hgt.nc");
using Result = std::shared_ptr<const strata::app::FrameResult>;

using strata::DataArray;
using strata::Dataset;
using strata::app::FrameService;
using strata::app::ViewSpec;

inline ViewSpec specAt(const Dataset& ds, std::int64_t t) {
    ViewSpec s;
    s.file = ds.path;
    s.variable = "HGT";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", t}};
    return s;
}

// The frame of `spec` computed by the core directly, on the host.
inline DataArray expected(const Dataset& ds, const ViewSpec& spec) {
    strata::FallbackNote note;
    return strata::computeFrame(strata::app::variableOf(ds, spec.variable), spec, strata::Device::host(),
                                note)
        .asHost();
}

inline bool sameValues(const DataArray& a, const DataArray& b) {
    const DataArray x = a.asHost(), y = b.asHost();
    return x.shape() == y.shape() && x.values<double>() == y.values<double>();
}

// Waits for the answer to request `id`.
inline Result waitFor(QSignalSpy& spy, std::uint64_t id) {
    for (int i = 0; i < 400; ++i) {
        for (const auto& args : spy) {
            Result r = args.at(0).value<Result>();
            if (r && r->id == id) return r;
        }
        spy.wait(25);
    }
    return nullptr;
}

// `spec`'s frame of the file from netCDF-C, sliced and reduced by plain loops (nc_frame.h).
inline std::optional<nctest::NdValues> oracleOf(const Dataset& ds, const ViewSpec& spec) {
    std::vector<std::pair<std::string, std::string>> reductions;
    for (const auto& [dim, op] : spec.reductions) reductions.emplace_back(dim, std::string(strata::name(op)));
    if (!spec.units.empty()) return std::nullopt;
    return nctest::frameOf(ds.path, spec.variable, spec.xDim, spec.yDim, spec.indices, reductions,
                           spec.areaWeighted);
}

// Whether `frame` is `spec`'s frame of the file: netCDF-C's values sliced and reduced by plain
// loops (to a relative 1e-5: the frame may be reduced in float32), and the core's, exactly.
inline bool isFrameOf(const DataArray& frame, const Dataset& ds, const ViewSpec& spec) {
    const auto oracle = oracleOf(ds, spec);
    if (!oracle) return false;
    const DataArray x = frame.asHost();
    if (x.dims() != oracle->dims) return false;
    const auto v = x.values<double>();
    if (v.size() != oracle->values.size()) return false;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const double e = oracle->values[i];
        if (std::isnan(v[i]) != std::isnan(e)) return false;
        if (!std::isnan(e) && std::fabs(v[i] - e) > 1e-5 * std::max(1.0, std::fabs(e))) return false;
    }
    return sameValues(frame, expected(ds, spec));
}

// Waits until `service` does nothing more on its own (FrameService::isIdle): what it has
// computed then is all it computes without a new request or frameShown.
inline bool settled(FrameService& service) {
    QSignalSpy idle(&service, &FrameService::idle);
    while (!service.isIdle())
        if (!idle.wait(20000)) return service.isIdle();
    return true;
}

// The frame asked for last is on the screen, as the window says once it presents it: the worker
// then starts the load of its variable (a load waits for the screen), or declines to; true once
// it has, the load (if any) has ended, and the worker has done what its end asks (the table of
// frame ranges of a variable resident on a GPU).
inline bool shownAndLoaded(FrameService& service) {
    service.frameShown();
    if (!settled(service)) return false;
    service.waitForLoads();
    return settled(service);
}

} // namespace
