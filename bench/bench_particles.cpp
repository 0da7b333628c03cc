// Particles moving in the image view, as the window's clock steps them (issue 33): the cost of
// one tick on the host side of the view (the set stepped on the pair's device, the new places
// turned into window pixels, the trails' lines made), on a 1440 × 721 lon/lat pair drawn on a
// plot of about 1600 × 800 pixels, at densities 1, 4 and 8 (8: about 100,000 particles). The
// painters' drawing of the lines is not in it.
//   bench_particles [--cpu] [--ticks N]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "image_content.h"
#include "strata/core/runtime.h"
#include "strata/render/colormaps.h"

using namespace strata;

namespace {

Coordinate axisOf(const std::string& name, std::vector<double> v, const char* units) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {std::int64_t(v.size())};
    c.values = std::move(v);
    c.attrs.set({"units", DType::Char, std::string(units)});
    return c;
}

} // namespace

int main(int argc, char** argv) {
    int ticks = 120;
    for (int k = 1; k < argc; ++k) {
        if (!std::strcmp(argv[k], "--cpu")) forceCpu(true);
        if (!std::strcmp(argv[k], "--ticks") && k + 1 < argc) ticks = std::atoi(argv[++k]);
    }
    const std::int64_t ny = 721, nx = 1440;
    std::vector<double> lat, lon;
    for (std::int64_t j = 0; j < ny; ++j) lat.push_back(-90 + 0.25 * double(j));
    for (std::int64_t i = 0; i < nx; ++i) lon.push_back(0.25 * double(i));
    Coordinates cs;
    cs.set(axisOf("lat", lat, "degrees_north"));
    cs.set(axisOf("lon", lon, "degrees_east"));
    // Jets and eddies, as bench_flow's, in another form: u = 20 cos 2φ + 6 sin 5λ cos φ,
    // v = 6 cos 4λ sin 2φ.
    std::vector<float> u(std::size_t(ny * nx)), v(u.size()), z(u.size());
    for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t i = 0; i < nx; ++i) {
            const double phi = lat[std::size_t(j)] * M_PI / 180, lam = lon[std::size_t(i)] * M_PI / 180;
            const std::size_t at = std::size_t(j * nx + i);
            u[at] = float(20 * std::cos(2 * phi) + 6 * std::sin(5 * lam) * std::cos(phi));
            v[at] = float(6 * std::cos(4 * lam) * std::sin(2 * phi));
            z[at] = float(std::sin(phi));
        }
    const Device device = computeDevice();
    auto put = [&](const char* name, const std::vector<float>& values) {
        const DataArray a = DataArray::fromHost(name, {"lat", "lon"}, {ny, nx}, values, cs);
        return device.isHost() ? a : a.asDevice(device, defaultStream(device));
    };
    ImageFrame frame{put("z", z)};
    frame.vectorU = put("ua", u);
    frame.vectorV = put("va", v);
    std::printf("bench_particles on %s: %lld x %lld pair, %d ticks a density\n", computeInfo().name.c_str(),
                (long long)ny, (long long)nx, ticks);
    for (const double density : {1.0, 4.0, 8.0}) {
        detail::ImageContent content;
        ImageViewSettings s;
        s.vectors = VectorStyle::Particles;
        s.coastlines = false;
        s.particleDensity = density;
        content.setSettings(s);
        content.setFrame(frame);
        const ViewLayout layout = content.layoutFor(1920, 1000, 1);
        const auto table = colormapTable("viridis");
        std::size_t lines = 0;
        auto tick = [&](std::uint64_t t) {
            s.particleTime = t;
            content.setSettings(s);
            const auto a = content.annotations(layout, table, {-1, 1});
            lines = a.vectors && a.vectors->size() == 4 ? (*a.vectors)[3].lines.size() : 0;
        };
        const double t0 = bench::now();
        tick(0); // seeded: the still
        const double seeded = bench::now() - t0;
        std::vector<double> each;
        for (int t = 1; t <= ticks; ++t) {
            const double a = bench::now();
            tick(std::uint64_t(t));
            each.push_back(bench::now() - a);
        }
        std::sort(each.begin(), each.end());
        std::printf(
            "density %g: plot %.0f x %.0f, %zu trails drawn; seeded %.1f ms; a tick %.2f ms median, %.2f ms "
            "90th percentile\n",
            density, layout.plot.width(), layout.plot.height(), lines, seeded * 1e3,
            each[each.size() / 2] * 1e3, each[each.size() * 9 / 10] * 1e3);
    }
    return 0;
}
