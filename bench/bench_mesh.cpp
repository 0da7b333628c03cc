// The face locator on ICON-like triangular meshes (issue 37: a 5 M-face mesh, "the pixel→face
// map built in ≤ 200 ms on the H200, then each frame ≤ 2 ms"): R2B<k> made in memory
// (mesh_fixture.h); the locator's build on the host; the pixel centres of a 1920 x 1080 plate
// carrée map found on the host's threads (findAll) and, where there is a GPU, on the device
// (findOnDevice, the points already there): the first call, which uploads the tables, then the
// median and best of 10. Prints figures and whether the device's faces are the host's; figures
// are kept in bench/RESULTS.md.
//
//   bench_mesh [K ...]     (R2B<K>, default 4 8)
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench_timing.h"
#include "mesh_fixture.h"
#include "strata/core/buffer.h"
#include "strata/core/face_locator.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

using namespace strata;

namespace {

constexpr int kWidth = 1920, kHeight = 1080;

void onDevice(const mesh::FaceLocator& locator, const std::vector<double>& lon,
              const std::vector<double>& lat, const std::vector<std::int64_t>& host) {
    const Device gpu = Device::cuda(0);
    const Stream s = defaultStream(gpu);
    const std::size_t n = lon.size();
    Buffer dLon(n * sizeof(double), gpu, s), dLat(n * sizeof(double), gpu, s);
    Buffer dOut(n * sizeof(std::int64_t), gpu, s);
    copyBytes(dLon.data(), gpu, lon.data(), Device::host(), n * sizeof(double), s);
    copyBytes(dLat.data(), gpu, lat.data(), Device::host(), n * sizeof(double), s);
    s.synchronize();
    const auto search = [&] {
        locator.findOnDevice(static_cast<const double*>(dLon.data()), static_cast<const double*>(dLat.data()),
                             std::int64_t(n), static_cast<std::int64_t*>(dOut.data()), s);
        s.synchronize();
    };
    const TransferCounters before = transferCounters();
    const double t0 = bench::now();
    search();
    const double first = bench::now() - t0;
    const double uploaded = double(transferredSince(before).hostToDevice) / 1e6;
    const bench::Timing t = bench::timeIt(10, search);
    std::vector<std::int64_t> got(n);
    copyBytes(got.data(), Device::host(), dOut.data(), gpu, n * sizeof(std::int64_t), s);
    s.synchronize();
    std::size_t differ = 0;
    for (std::size_t i = 0; i < n; ++i) differ += got[i] != host[i];
    std::printf("  device: first call %8.2f ms (tables up: %.0f MB); then median %7.3f ms, best %7.3f ms; "
                "%zu faces differ from the host's\n",
                first * 1e3, uploaded, t.median * 1e3, t.best * 1e3, differ);
}

} // namespace

int main(int argc, char** argv) {
    std::vector<int> levels;
    for (int i = 1; i < argc; ++i) levels.push_back(std::atoi(argv[i]));
    if (levels.empty()) levels = {4, 8};
    std::vector<double> lon, lat;
    for (int j = 0; j < kHeight; ++j)
        for (int i = 0; i < kWidth; ++i)
            lon.push_back(-180 + (i + 0.5) * 360 / kWidth), lat.push_back(-90 + (j + 0.5) * 180 / kHeight);
    std::printf(
        "Face locator, ICON-like R2B<k> meshes, %d x %d plate carree pixels; host threads %d; compute %s\n",
        kWidth, kHeight, hostThreads(), computeInfo().name.c_str());
    for (const int k : levels) {
        double t0 = bench::now();
        const auto m = benchmesh::icosahedral(benchmesh::icosahedralSplits(2, k));
        const double made = bench::now() - t0;
        t0 = bench::now();
        const mesh::FaceLocator locator(m);
        const double built = bench::now() - t0;
        std::printf("R2B%d: %lld faces, %lld nodes (made in %.2f s)\n", k, static_cast<long long>(m->faces()),
                    static_cast<long long>(m->nodes()), made);
        std::printf("  host: locator built in %8.1f ms (%d x %d bins)\n", built * 1e3, locator.binsAcross(),
                    locator.binsDown());
        std::vector<std::int64_t> found;
        const bench::Timing host =
            bench::timeIt(5, [&] { found = locator.findAll(lon.data(), lat.data(), lon.size()); });
        std::size_t missed = 0;
        for (const std::int64_t f : found) missed += f < 0;
        std::printf("  host: findAll median %8.2f ms, best %8.2f ms (%zu pixels in no face)\n",
                    host.median * 1e3, host.best * 1e3, missed);
        if (cudaDeviceCount() > 0) onDevice(locator, lon, lat, found);
    }
    return 0;
}
