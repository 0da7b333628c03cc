// A HEALPix frame drawn as a Robinson map (issue 37): the whole sky at zoom (level) 8 and 10,
// nest order, into 1920 x 1080 pixels; the host's threads and, where there is one, the device
// (the frame resident there, the image written there). Prints the host's first frame (each
// pixel's cell found, then kept) and the median and best of the 10 frames after it (a step: a
// gather); the device finds the cells for every frame. Peer: healpy's cartview (a plate carrée PNG through
// matplotlib), timed by bench/peer_healpix.py.
//
//   bench_healpix [LEVEL ...]     (default 8 10)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "bench_timing.h"
#include "strata/core/runtime.h"
#include "strata/render/healpix_map.h"

using namespace strata;

int main(int argc, char** argv) {
    std::vector<int> levels;
    for (int i = 1; i < argc; ++i) levels.push_back(std::atoi(argv[i]));
    if (levels.empty()) levels = {8, 10};
    const int W = 1920, H = 1080;
    std::printf("HEALPix whole sky, nest, %dx%d; host threads %d; compute %s\n", W, H, hostThreads(),
                computeInfo().name.c_str());
    for (const char* projection : {"Robinson", "Mollweide", "PlateCarree"})
        for (int level : levels) {
            const Projection p = Projection::byName(projection);
            const MapExtent e = fitExtent(p.extent(), W, H);
            std::printf("%s\n", projection);
            healpix::Grid g;
            g.nside = std::int64_t(1) << level;
            g.order = healpix::Order::Nest;
            g.dim = "cell";
            const std::int64_t n = healpix::cellCount(g.nside);
            std::vector<float> v(static_cast<std::size_t>(n));
            std::mt19937 rng(level);
            std::uniform_real_distribution<float> u(200, 320);
            for (float& x : v) x = u(rng);
            const DataArray frame = DataArray::fromHost("tas", {"cell"}, {n}, v);
            const HealpixMap map(p, g, e, W, H);
            const double t0 = bench::now();
            (void)map.apply(frame, 0x7fc00000u, Stream::host()); // the pixels' cells worked out
            std::printf("level %2d: host   first frame %8.2f ms (each pixel's cell found)\n", level,
                        (bench::now() - t0) * 1e3);
            const bench::Timing host =
                bench::timeIt(10, [&] { (void)map.apply(frame, 0x7fc00000u, Stream::host()); });
            std::printf("level %2d (%lld cells, %.1f MB): host   median %8.2f ms  best %8.2f ms\n", level,
                        static_cast<long long>(n), double(n) * 4 / 1e6, host.median * 1e3, host.best * 1e3);
            if (cudaDeviceCount() == 0) continue;
            const Device gpu = Device::cuda(0);
            const Stream s = defaultStream(gpu);
            const DataArray resident = frame.asDevice(gpu, s);
            (void)map.apply(resident, 0x7fc00000u, s);
            s.synchronize();
            const bench::Timing device = bench::timeIt(10, [&] {
                (void)map.apply(resident, 0x7fc00000u, s);
                s.synchronize();
            });
            std::printf("level %2d (%lld cells, %.1f MB): device median %8.3f ms  best %8.3f ms\n", level,
                        static_cast<long long>(n), double(n) * 4 / 1e6, device.median * 1e3,
                        device.best * 1e3);
        }
    return 0;
}
