#pragma once
// What the frame service's tests share: HGT's frame at a time step of tests/data/hgt.nc, the
// core's own host frame of a view, and the wait for a request's answer.
#include <QSignalSpy>

#include <cstdint>
#include <memory>

#include "frame_service.h"

namespace {

const QString kHgt = QStringLiteral(STRATA_TEST_DATA "/hgt.nc");
using Result = std::shared_ptr<const strata::app::FrameResult>;

using strata::DataArray;
using strata::Dataset;
using strata::app::ViewSpec;

ViewSpec specAt(const Dataset& ds, std::int64_t t) {
    ViewSpec s;
    s.file = ds.path;
    s.variable = "HGT";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", t}};
    return s;
}

// The frame of `spec` computed by the core directly, on the host.
DataArray expected(const Dataset& ds, const ViewSpec& spec) {
    strata::FallbackNote note;
    return strata::computeFrame(strata::app::variableOf(ds, spec.variable), spec, strata::Device::host(),
                                note)
        .asHost();
}

bool sameValues(const DataArray& a, const DataArray& b) {
    const DataArray x = a.asHost(), y = b.asHost();
    return x.shape() == y.shape() && x.values<double>() == y.values<double>();
}

// Waits for the answer to request `id`.
Result waitFor(QSignalSpy& spy, std::uint64_t id) {
    for (int i = 0; i < 400; ++i) {
        for (const auto& args : spy) {
            Result r = args.at(0).value<Result>();
            if (r && r->id == id) return r;
        }
        spy.wait(25);
    }
    return nullptr;
}

} // namespace
