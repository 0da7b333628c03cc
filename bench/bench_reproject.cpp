// Reprojecting a 1440 × 721 float32 frame (0–360, latitude descending, 2 % NaN) into a
// 1920 × 1080 Robinson image. Host: PROJ inverse-projects the 2.07 M pixels once (the plan),
// then each frame is a gather; both timed. Device (when there is one): the kernel
// inverse-projects every pixel each frame; timed as one launch waited for, and as 200
// launches back to back (per frame). Medians of several runs after a warm-up.
// Usage: bench_reproject [projection]   (default Robinson)
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "strata/core/runtime.h"
#include "strata/render/projection.h"

using namespace strata;

int main(int argc, char** argv) {
    const std::string name = argc > 1 ? argv[1] : "Robinson";
    const int nlon = 1440, nlat = 721, W = 1920, H = 1080;
    std::vector<double> lon(nlon), lat(nlat);
    for (int i = 0; i < nlon; ++i) lon[static_cast<std::size_t>(i)] = 0.25 * i;
    for (int j = 0; j < nlat; ++j) lat[static_cast<std::size_t>(j)] = 90 - 0.25 * j;
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> v(200, 320);
    std::bernoulli_distribution nan(0.02);
    std::vector<float> values(static_cast<std::size_t>(nlon) * nlat);
    for (float& f : values) f = nan(rng) ? std::nanf("") : v(rng);
    const DataArray frame = DataArray::fromHost("t2m", {"lat", "lon"}, {nlat, nlon}, values);
    const Projection p = Projection::byName(name);
    const MapExtent e = fitExtent(p.extent(), W, H);
    std::printf("{\"projection\": \"%s\", \"frame\": [%d, %d], \"image\": [%d, %d]", p.name().c_str(), nlat,
                nlon, H, W);

    {
        Reprojection r(p, lon, lat, e, W, H);
        const double t0 = bench::now();
        (void)r.hostCells();
        const double planMs = (bench::now() - t0) * 1e3;
        const bench::Timing g = bench::timeIt(20, [&] { (void)r.apply(frame, kNanFloat32, Stream::host()); });
        std::size_t onMap = 0;
        for (std::int64_t c : r.hostCells()) onMap += c >= 0;
        std::printf(",\n \"host\": {\"plan_ms\": %.1f, \"frame_ms_median\": %.2f, \"frame_ms_best\": %.2f, "
                    "\"pixels_with_data\": %zu}",
                    planMs, g.median * 1e3, g.best * 1e3, onMap);
    }
    if (cudaDeviceCount() > 0) {
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const DataArray d = frame.asDevice(gpu, s);
        Reprojection r(p, lon, lat, e, W, H);
        (void)r.apply(d, kNanFloat32, s);
        s.synchronize();
        const bench::Timing one = bench::timeIt(50, [&] {
            (void)r.apply(d, kNanFloat32, s);
            s.synchronize();
        });
        const int n = 200;
        const bench::Timing many = bench::timeIt(5, [&] {
            for (int k = 0; k < n; ++k) (void)r.apply(d, kNanFloat32, s);
            s.synchronize();
        });
        std::printf(
            ",\n \"device\": {\"one_frame_waited_us_median\": %.1f, \"per_frame_back_to_back_us\": %.1f, "
            "\"per_frame_back_to_back_best_us\": %.1f}",
            one.median * 1e6, many.median * 1e6 / n, many.best * 1e6 / n);
    } else {
        std::printf(",\n \"device\": null");
    }
    std::printf("}\n");
    return 0;
}
