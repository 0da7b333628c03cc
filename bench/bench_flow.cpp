// A vector pair of 1440 x 721 on the compute device, as the image view draws it on a plot of
// 1600 x 800 pixels: the samples of an arrow lattice (every 36 pixels), streamlines traced from
// lattices of seeds every 48, 24 and 12 pixels where there is room (steps of 1.5 pixels, lines
// up to 800 pixels each way), kept evenly spaced on the host, and particles advected a step at a time.
//
//   bench_flow [--nlat N] [--nlon N] [--particles N] [--reps N] [--cpu]
//
// The pair: jets and eddies, u = 20 cos(2 lat) + 8 sin(3 lon) sin(4 lat), v = 8 cos(3 lon)
// sin(2 lat) + 2 sin(17 lon + 5 lat) (m s-1, float32), NaN in a 12 x 12 hole every 97 columns
// along the equator.
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_timing.h"
#include "strata/core/flow.h"
#include "strata/core/runtime.h"

using namespace strata;

namespace {

DataArray component(const char* name, std::int64_t ny, std::int64_t nx, Device device, Stream stream,
                    bool isU) {
    Buffer host(std::size_t(ny * nx) * 4, Device::host(), Stream::host());
    auto* v = static_cast<float*>(host.data());
    for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t i = 0; i < nx; ++i) {
            const double lat = (-90 + 180.0 * double(j) / double(ny - 1)) * M_PI / 180;
            const double lon = (360.0 * double(i) / double(nx)) * M_PI / 180;
            double x = isU ? 20 * std::cos(2 * lat) + 8 * std::sin(3 * lon) * std::sin(4 * lat)
                           : 8 * std::cos(3 * lon) * std::sin(2 * lat) + 2 * std::sin(17 * lon + 5 * lat);
            if (std::abs(j - ny / 2) < 6 && i % 97 < 12) x = NAN;
            v[j * nx + i] = float(x);
        }
    Buffer data = device.isHost() ? std::move(host) : host.copyTo(device, stream);
    stream.synchronize();
    return DataArray(name, Variable({"lat", "lon"}, {ny, nx}, DType::Float32, std::move(data)));
}

} // namespace

int main(int argc, char** argv) {
    std::int64_t ny = 721, nx = 1440, particles = 100000;
    int reps = 11;
    bool cpu = false;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--nlat" && i + 1 < argc)
            ny = std::stoll(argv[++i]);
        else if (k == "--nlon" && i + 1 < argc)
            nx = std::stoll(argv[++i]);
        else if (k == "--particles" && i + 1 < argc)
            particles = std::stoll(argv[++i]);
        else if (k == "--reps" && i + 1 < argc)
            reps = std::stoi(argv[++i]);
        else if (k == "--cpu")
            cpu = true;
    }
    if (cpu) forceCpu(true);
    const Device device = computeDevice();
    const Stream stream = device.isCuda() ? defaultStream(device) : Stream::host();
    const DataArray u = component("ua", ny, nx, device, stream, true),
                    v = component("va", ny, nx, device, stream, false);
    std::vector<double> lon, lat;
    for (std::int64_t i = 0; i < nx; ++i) lon.push_back(360.0 * double(i) / double(nx));
    for (std::int64_t j = 0; j < ny; ++j) lat.push_back(-90 + 180.0 * double(j) / double(ny - 1));
    const FlowMetric metric = lonLatMetric(lon, lat);
    std::printf("bench_flow on %s: %lld x %lld float32 pair, plot 1600 x 800 pixels\n",
                computeInfo().name.c_str(), (long long)ny, (long long)nx);

    // Index space to the plot's pixels: the whole grid over 1600 x 800.
    const double sx = 1600.0 / double(nx - 1), sy = 800.0 / double(ny - 1);
    auto lattice = [&](double step) {
        std::vector<double> xy;
        for (double py = step / 2; py < 800; py += step)
            for (double px = step / 2; px < 1600; px += step) xy.insert(xy.end(), {px / sx, py / sy});
        return xy;
    };

    const std::vector<double> arrows = lattice(36);
    FlowSamples samples;
    const bench::Timing sample =
        bench::timeIt(reps, [&] { samples = sampleFlow(u, v, arrows, metric.wrapX); });
    std::printf("arrow samples: %zu points, %.3f ms (median %.3f)\n", arrows.size() / 2, sample.best * 1e3,
                sample.median * 1e3);

    // Streamlines as the view draws them: lattices of seeds every 48, 24 and 12 pixels where there
    // is still room, traced on the device, kept 12 pixels apart on the host.
    const double step = 1.5 / sx; // index units of 1.5 pixels
    StreamPlane plane{0,
                      0,
                      1600,
                      800,
                      [&](double x, double y, double& ix, double& iy) {
                          ix = x / sx;
                          iy = y / sy;
                          return true;
                      },
                      [&](double ix, double iy, double& x, double& y) {
                          x = ix * sx;
                          y = iy * sy;
                          return true;
                      }};
    std::vector<std::vector<double>> kept;
    const bench::Timing even =
        bench::timeIt(reps, [&] { kept = evenStreamlines(u, v, metric, plane, 12, 36, step, 533, 2); });
    const std::vector<double> seeds = lattice(48);
    StreamlineTraces traces;
    const bench::Timing trace =
        bench::timeIt(reps, [&] { traces = traceStreamlines(u, v, metric, seeds, step, 533, 2); });
    std::size_t points = 0;
    for (std::int32_t c : traces.count) points += std::size_t(c);
    std::printf("streamlines: %zu kept 12 pixels apart, %.3f ms (median %.3f) in all; of which the first "
                "lattice's %lld seeds traced (%zu points) and copied to the host: %.3f ms (median %.3f)\n",
                kept.size(), even.best * 1e3, even.median * 1e3, (long long)traces.seeds, points,
                trace.best * 1e3, trace.median * 1e3);

    // Particles: a step at a time, as a display would ask at its rate; the positions are read
    // back once at the end (a still), and that is timed apart.
    ParticleSet set(particles, 1, device);
    const ParticleBox box{0, 0, double(nx), double(ny - 1)};
    set.seed(box, 100);
    // A step moves the fastest (about 30 m s-1 at the jets) 1.5 pixels: dt in seconds.
    const double seconds = 1.5 / sx / (30 * metric.xScale[0]);
    const int steps = 100;
    const bench::Timing advect = bench::timeIt(3, [&] {
        for (int k = 0; k < steps; ++k) set.advect(u, v, metric, seconds, 1, box, 100);
        stream.synchronize();
    });
    ParticleSet::Host h;
    const bench::Timing read = bench::timeIt(reps, [&] { h = set.toHost(); });
    std::printf("particles: %lld, a step %.4f ms (best of 3 runs of %d steps); read back %.3f ms\n",
                (long long)particles, advect.best * 1e3 / steps, steps, read.best * 1e3);
    return 0;
}
