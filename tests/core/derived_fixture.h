#pragma once
// The derived-variable tests' inputs (tst_derived, tst_derived_time): a (time, lat, lon) dataset
// of random u, v and tas with NaNs and a (lat, lon) w, stored lazily or loaded on the host, with
// a CF time axis in any calendar; a derived variable evaluated whole on a backend; values
// compared with NaN and infinities in their places.
#include <QtTest>

#include <cmath>
#include <limits>
#include <random>

#include "memory_source.h"
#include "strata/core/derived.h"
#include "strata/core/runtime.h"
#include "test_util.h"

namespace derivedtest {

using namespace strata;
using namespace test;

inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// (time, lat, lon) with a CF time axis of daily steps in `calendar`; u, v, tas (K) random with
// NaNs; w (lat, lon); each stored lazily (a memory source) or loaded on the host.
struct Fixture {
    Dataset ds;
    std::int64_t nt = 0, ny = 4, nx = 12; // rows of 12: the CPU runs them as blocks
    std::vector<double> u, v, tas, w;
    std::vector<DateTime> dates;
};

inline Coordinate timeCoordinate(std::int64_t nt, double step, const std::string& units, Calendar calendar,
                                 std::vector<DateTime>& dates) {
    Coordinate c;
    c.name = "time";
    c.dims = {"time"};
    c.shape = {nt};
    TimeAxis axis;
    axis.units = parseTimeUnits(units);
    axis.calendar = calendar;
    for (std::int64_t i = 0; i < nt; ++i) {
        c.values.push_back(double(i) * step);
        axis.dates.push_back(decodeTime(c.values.back(), axis.units, calendar));
    }
    dates = axis.dates;
    c.time = axis;
    c.attrs.set({"units", DType::Char, units});
    return c;
}

inline Coordinate indexCoordinate(const std::string& name, std::int64_t n, double first, double step) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {n};
    for (std::int64_t i = 0; i < n; ++i) c.values.push_back(first + step * double(i));
    return c;
}

inline Variable stored(bool lazy, const std::vector<std::string>& dims, const Shape& shape,
                       const std::vector<double>& values, const std::string& units) {
    Attributes attrs;
    if (!units.empty()) attrs.set({"units", DType::Char, units});
    if (lazy) {
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, values);
        return Variable::lazy(dims, shape, plain(DType::Float32), source, attrs);
    }
    Variable v = makeArray(DType::Float32, dims, shape, values).variable();
    v.attrs() = attrs;
    return v;
}

inline Fixture makeFixture(std::uint64_t seed, bool lazy, std::int64_t nt = 3 * 365 + 40, double step = 1.0,
                           const std::string& units = "days since 1990-01-01",
                           Calendar calendar = Calendar::NoLeap) {
    Fixture f;
    f.nt = nt;
    std::mt19937_64 rng(seed);
    const Shape shape{f.nt, f.ny, f.nx};
    const std::int64_t n = product(shape);
    auto floats = [&](std::int64_t count, double nanFraction) {
        std::vector<double> out = randomValues(rng, DType::Float32, count, nanFraction);
        return out;
    };
    f.u = floats(n, 0.05);
    f.v = floats(n, 0.05);
    f.tas = floats(n, 0.05);
    f.w = floats(f.ny * f.nx, 0.1);
    for (auto& x : f.u) x = float(x - 280.0); // winds around 0
    for (auto& x : f.v) x = float(x - 280.0);
    f.ds.path = "memory.nc";
    f.ds.dims = {{"time", f.nt, true}, {"lat", f.ny, false}, {"lon", f.nx, false}};
    f.ds.coords.set(timeCoordinate(f.nt, step, units, calendar, f.dates));
    f.ds.coords.set(indexCoordinate("lat", f.ny, -45, 30));
    f.ds.coords.set(indexCoordinate("lon", f.nx, 0, 30));
    const std::vector<std::string> dims{"time", "lat", "lon"};
    f.ds.variables.emplace_back("u", stored(lazy, dims, shape, f.u, "m s-1"));
    f.ds.variables.emplace_back("v", stored(lazy, dims, shape, f.v, "m s-1"));
    f.ds.variables.emplace_back("tas", stored(lazy, dims, shape, f.tas, "K"));
    f.ds.variables.emplace_back("w", stored(lazy, {"lat", "lon"}, {f.ny, f.nx}, f.w, ""));
    return f;
}

// The derived variable evaluated whole on the backend's device, as host values.
inline std::vector<double> evaluate(const Dataset& ds, const std::string& name, bool cuda) {
    const Device device = cuda ? Device::cuda(0) : Device::host();
    const Stream stream = cuda ? defaultStream(device) : Stream::host();
    return ds[name].load(device, stream).asHost().values<double>();
}

inline bool sameValues(const std::vector<double>& actual, const std::vector<double>& expected,
                       double rel = 2e-6, double abs = 1e-5) {
    if (actual.size() != expected.size()) {
        qWarning("sizes differ: %zu vs %zu", actual.size(), expected.size());
        return false;
    }
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const double a = actual[i], e = expected[i];
        if (std::isnan(a) && std::isnan(e)) continue;
        if (std::isinf(a) && a == e) continue;
        if (std::isnan(a) || std::isnan(e) || std::fabs(a - e) > abs + rel * std::fabs(e)) {
            qWarning("element %zu: %.9g, expected %.9g", i, a, e);
            return false;
        }
    }
    return true;
}

} // namespace derivedtest
