// A HEALPix frame drawn as a map (issue 37): the whole sky at zoom (level) 8 and 10, nest
// order, into 1920 x 1080 pixels, as the image view draws it (Reprojection over the grid's
// SphereCells); the host's threads and, where there is one, the device (the frame resident there,
// the image written there). Prints the first frame on a new map (each pixel's cell found: on the
// device by a kernel) and the median and best of the 10 frames after it (a step: a gather by
// that index). Peer: healpy's cartview (a plate carrée PNG through matplotlib), timed by
// bench/peer_healpix.py.
//
//   bench_healpix [LEVEL ...]     (default 8 10; 13 needs 3.2 GB on the host and the device)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "bench_timing.h"
#include "strata/core/runtime.h"
#include "strata/render/sphere_cells.h"

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
            std::minstd_rand rng(level);
            for (float& x : v) x = 200 + float(rng() % 12000) / 100;
            const std::shared_ptr<const SphereCells> cells = healpixCells(g);
            const DataArray frame = cellsAsRow(DataArray::fromHost("tas", {"cell"}, {n}, v), *cells);
            v = {};
            double t0 = bench::now();
            const Reprojection map(p, cells, e, W, H);
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
            s.synchronize();
            t0 = bench::now();
            const Reprojection onDevice(p, cells, e, W, H);
            (void)onDevice.apply(resident, 0x7fc00000u, s);
            s.synchronize();
            std::printf("level %2d: device first frame %8.3f ms (each pixel's cell found by the kernel)\n",
                        level, (bench::now() - t0) * 1e3);
            const bench::Timing device = bench::timeIt(10, [&] {
                (void)onDevice.apply(resident, 0x7fc00000u, s);
                s.synchronize();
            });
            std::printf("level %2d (%lld cells, %.1f MB): device median %8.3f ms  best %8.3f ms\n", level,
                        static_cast<long long>(n), double(n) * 4 / 1e6, device.median * 1e3,
                        device.best * 1e3);
        }
    return 0;
}
