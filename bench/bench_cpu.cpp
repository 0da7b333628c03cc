// The CPU backend on the operations of /work/shared/bench/peer_xarray.py: a float32
// time × lat × lon array (N(280, 10), 1 % NaN); medians after a warm-up; GB/s with the
// peer's byte counts. Usage: bench_cpu [--time 60] [--lat 721] [--lon 1440] [--reps 10]
// [--json PATH]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "strata/core/ops.h"
#include "strata/core/runtime.h"

using namespace strata;

namespace {

struct Row {
    std::string op;
    double ms = 0, gbps = 0;
};

double medianMs(const std::function<void()>& fn, int reps) {
    fn(); // warm-up
    std::vector<double> ts;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        fn();
        ts.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ts.begin(), ts.end());
    return ts.size() % 2 ? ts[ts.size() / 2] : 0.5 * (ts[ts.size() / 2 - 1] + ts[ts.size() / 2]);
}

// The peer's generator idea: normal·10 + 280, 1 % NaN (a fast generator of our own).
DataArray makeAir(std::int64_t nt, std::int64_t nlat, std::int64_t nlon) {
    const std::int64_t n = nt * nlat * nlon;
    std::vector<float> v(static_cast<std::size_t>(n));
    std::mt19937_64 rng(0);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (auto& x : v) x = u(rng) < 0.01f ? NAN : normal(rng) * 10.0f + 280.0f;
    Coordinates coords;
    Coordinate lat;
    lat.name = "lat";
    lat.dims = {"lat"};
    lat.shape = {nlat};
    for (std::int64_t i = 0; i < nlat; ++i)
        lat.values.push_back(-90.0 + 180.0 * double(i) / double(nlat - 1));
    coords.set(lat);
    Coordinate lon;
    lon.name = "lon";
    lon.dims = {"lon"};
    lon.shape = {nlon};
    for (std::int64_t i = 0; i < nlon; ++i) lon.values.push_back(360.0 * double(i) / double(nlon));
    coords.set(lon);
    return DataArray::fromHost("air", {"time", "lat", "lon"}, {nt, nlat, nlon}, v, coords);
}

} // namespace

int main(int argc, char** argv) {
    std::int64_t nt = 60, nlat = 721, nlon = 1440;
    int reps = 10;
    std::string json;
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string k = argv[i];
        if (k == "--time")
            nt = std::stoll(argv[i + 1]);
        else if (k == "--lat")
            nlat = std::stoll(argv[i + 1]);
        else if (k == "--lon")
            nlon = std::stoll(argv[i + 1]);
        else if (k == "--reps")
            reps = std::max(10, std::stoi(argv[i + 1]));
        else if (k == "--json")
            json = argv[i + 1];
    }
    forceCpu(true);
    std::printf("strata CPU backend, %d threads, float32 %lldx%lldx%lld\n", hostThreads(), (long long)nt,
                (long long)nlat, (long long)nlon);
    const DataArray air = makeAir(nt, nlat, nlon);
    const double n = double(air.size()), b = 4, frame = double(nlat * nlon) * b;

    std::vector<std::uint8_t> lutValues(256 * 4);
    std::mt19937 lrng(1);
    for (auto& c : lutValues) c = static_cast<std::uint8_t>(lrng() & 0xff);
    const DataArray lut = DataArray::fromHost("lut", {"entry", "rgba"}, {256, 4}, lutValues);
    std::vector<double> w;
    for (double lat : air.coords().find("lat")->values) w.push_back(std::cos(lat * M_PI / 180.0));
    const DataArray weights = DataArray::fromHost("w", {"lat"}, {nlat}, w);

    std::vector<Row> rows;
    auto bench = [&](const std::string& op, double bytes, int r, const std::function<void()>& fn) {
        const double ms = medianMs(fn, r);
        rows.push_back({op, ms, bytes / (ms * 1e-3) / 1e9});
        std::printf("%-44s %10.3f ms %9.1f GB/s\n", op.c_str(), ms, rows.back().gbps);
        std::fflush(stdout);
    };
    volatile std::size_t sink = 0;
    auto keep = [&](const DataArray& a) { sink = sink + a.variable().nbytes(); };

    bench("isel(time=t) -> frame (contiguous)", frame * 2, std::max(50, reps), [&] {
        keep(contiguous(air.isel({{"time", nt / 2}})));
    });
    bench("isel(lon=k) -> time x lat (strided)", double(nt * nlat) * b * 2, reps, [&] {
        keep(contiguous(air.isel({{"lon", nlon / 2}})));
    });
    bench("frame -> minmax -> RGBA colormap", frame * 3 + double(nlat * nlon) * 4, std::max(50, reps), [&] {
        const DataArray f = air.isel({{"time", nt / 2}});
        keep(colormap(f, lut, minmax(f), Rgba8{0, 0, 0, 0}, Stream::host()));
    });
    bench("mean('time') skipna", n * b, reps, [&] { keep(reduce(air, {"time"}, ReduceOp::Mean)); });
    bench("max('time') skipna", n * b, reps, [&] { keep(reduce(air, {"time"}, ReduceOp::Max)); });
    bench("std('time') skipna", n * b, reps, [&] { keep(reduce(air, {"time"}, ReduceOp::Std)); });
    bench("mean('lon') skipna (zonal mean)", n * b, reps,
          [&] { keep(reduce(air, {"lon"}, ReduceOp::Mean)); });
    bench("weighted(cos lat).mean(lat,lon)", n * b, reps, [&] {
        keep(weightedMean(air, weights, {"lat", "lon"}));
    });

    if (!json.empty()) {
        FILE* f = std::fopen(json.c_str(), "w");
        if (!f) {
            std::fprintf(stderr, "cannot write %s\n", json.c_str());
            return 1;
        }
        std::fprintf(f, "{\"shape\": [%lld, %lld, %lld], \"threads\": %d, \"rows\": [\n", (long long)nt,
                     (long long)nlat, (long long)nlon, hostThreads());
        for (std::size_t i = 0; i < rows.size(); ++i)
            std::fprintf(f,
                         " {\"op\": \"%s\", \"backend\": \"strata-cpu\", \"ms\": %.6f, \"GBps\": %.6f}%s\n",
                         rows[i].op.c_str(), rows[i].ms, rows[i].gbps, i + 1 < rows.size() ? "," : "");
        std::fprintf(f, "]}\n");
        std::fclose(f);
    }
    return 0;
}
