// Data on a mesh's nodes drawn as a map (issue 37): values interpolated across the faces of an
// ICON-like R2B<k> triangular mesh (mesh_fixture.h) into a 1920 x 1080 Robinson map. Prints the
// first map (each pixel's face, nodes and weights found on the host's threads) and then each
// step (the weighted gather: host threads, and where there is a GPU the device, the weights
// uploaded by its first step), median and best of 10, and whether the device's pixels are the
// host's bit for bit. Figures are kept in bench/RESULTS.md.
//
//   bench_mesh_nodes [K ...]     (R2B<K>, default 4 8)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "bench_timing.h"
#include "mesh_fixture.h"
#include "strata/core/runtime.h"
#include "strata/render/sphere_cells.h"

using namespace strata;

namespace {

constexpr int kWidth = 1920, kHeight = 1080;

} // namespace

int main(int argc, char** argv) {
    std::vector<int> levels;
    for (int i = 1; i < argc; ++i) levels.push_back(std::atoi(argv[i]));
    if (levels.empty()) levels = {4, 8};
    const Projection robinson = Projection::byName("Robinson");
    const MapExtent e = fitExtent(robinson.extent(), kWidth, kHeight);
    std::printf("Node values across ICON-like R2B<k> faces, %d x %d Robinson; host threads %d; compute %s\n",
                kWidth, kHeight, hostThreads(), computeInfo().name.c_str());
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<float> u(-50, 50);
    for (const int k : levels) {
        const std::shared_ptr<mesh::Mesh> m = benchmesh::icosahedral(benchmesh::icosahedralSplits(2, k));
        m->nodeDim = "vertex";
        double t0 = bench::now();
        const std::shared_ptr<const SphereCells> nodes = meshNodes(m);
        const double located = bench::now() - t0;
        std::vector<float> v(std::size_t(m->nodes()));
        for (float& x : v) x = rng() % 20 == 0 ? NAN : u(rng);
        const DataArray frame = cellsAsRow(DataArray::fromHost("v", {"vertex"}, {m->nodes()}, v), *nodes);
        const Reprojection host(robinson, nodes, e, kWidth, kHeight);
        t0 = bench::now();
        DataArray a = host.apply(host.resample(frame, Stream::host()), 0x7fc00000u, Stream::host());
        const double first = bench::now() - t0;
        const bench::Timing step = bench::timeIt(
            10, [&] { a = host.apply(host.resample(frame, Stream::host()), 0x7fc00000u, Stream::host()); });
        std::printf("R2B%d: %lld faces, %lld nodes; locator %.1f ms\n", k, static_cast<long long>(m->faces()),
                    static_cast<long long>(m->nodes()), located * 1e3);
        std::printf("  host: first map %8.1f ms (weights found); step median %7.2f ms, best %7.2f ms\n",
                    first * 1e3, step.median * 1e3, step.best * 1e3);
        if (cudaDeviceCount() == 0) continue;
        const Device gpu = Device::cuda(0);
        const Stream s = defaultStream(gpu);
        const DataArray onGpu = frame.asDevice(gpu, s);
        const Reprojection device(robinson, nodes, e, kWidth, kHeight);
        DataArray b;
        t0 = bench::now();
        b = device.apply(device.resample(onGpu, s), 0x7fc00000u, s);
        s.synchronize();
        const double firstDevice = bench::now() - t0;
        const bench::Timing deviceStep = bench::timeIt(10, [&] {
            b = device.apply(device.resample(onGpu, s), 0x7fc00000u, s);
            s.synchronize();
        });
        const DataArray back = b.asHost();
        const bool same = std::memcmp(a.variable().view().data, back.variable().view().data,
                                      std::size_t(kWidth) * kHeight * 4) == 0;
        std::printf("  device: first map %8.1f ms; step median %7.3f ms, best %7.3f ms; %s the host's\n",
                    firstDevice * 1e3, deviceStep.median * 1e3, deviceStep.best * 1e3,
                    same ? "bit for bit" : "NOT");
    }
    return 0;
}
