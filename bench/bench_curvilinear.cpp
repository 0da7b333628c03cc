// Curvilinear grids: the cost of making a grid's cells (corners derived from the 2-D centres, or
// read from bounds), of the probe's bucket grid, of the raster painter's polygon fill into a
// 1920 × 1080 plot, and of the GL mesh's vertex arrays (four vertices per cell; uploaded by VTK
// at the next render, not timed here). Two grids: NCEP Stage IV (118 × 87, from the test file)
// and a tripolar-like 1440 × 1080 grid made here (a quarter-degree band to 60°N, a folded cap
// above). Best and median of several runs, this process alone. Usage: bench_curvilinear [FILE]
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "bench_timing.h"
#include "curvilinear_actor.h"
#include "curvilinear_raster.h"
#include "strata/io/netcdf.h"
#include "strata/render/curvilinear_grid.h"

using namespace strata;

namespace {

struct Centres {
    std::int64_t rows, columns;
    std::vector<double> lon, lat;
};

Centres tripolarLike(std::int64_t nx, std::int64_t ny) {
    const std::int64_t band = ny * 4 / 5, cap = ny - band;
    std::vector<double> lon(static_cast<std::size_t>(nx * ny)), lat(lon.size());
    for (std::int64_t j = 0; j < ny; ++j)
        for (std::int64_t i = 0; i < nx; ++i) {
            const double phi = 80 + 360.0 * static_cast<double>(i) / static_cast<double>(nx);
            const auto k = static_cast<std::size_t>(j * nx + i);
            if (j < band) {
                lon[k] = std::fmod(phi, 360);
                lat[k] = -78 + 138 * (static_cast<double>(j) + 0.5) / static_cast<double>(band);
            } else {
                const double s = (static_cast<double>(j - band) + 0.5) / static_cast<double>(cap);
                const double a = (phi - 80) * M_PI / 180, px = 30 * std::cos(a),
                             py = (1 - s) * 30 * std::sin(a);
                lon[k] = std::fmod(80 + std::atan2(py, px) * 180 / M_PI + 360, 360);
                lat[k] = 90 - std::hypot(px, py);
            }
        }
    return {ny, nx, std::move(lon), std::move(lat)};
}

void report(const char* name, const char* what, const bench::Timing& t) {
    std::printf("%-22s %-34s best %9.3f ms  median %9.3f ms\n", name, what, t.best * 1e3, t.median * 1e3);
}

void run(const char* name, const std::function<CurvilinearGrid()>& make, int reps) {
    CurvilinearGrid g = make();
    report(name, "cells (corners, extent)", bench::timeIt(reps, [&] { g = make(); }));
    report(name, "probe buckets", bench::timeIt(reps, [&] { CellLocator l(g); }));
    std::vector<std::uint32_t> colours(static_cast<std::size_t>(g.cells()));
    for (std::size_t k = 0; k < colours.size(); ++k)
        colours[k] = 0xFF000000u | static_cast<std::uint32_t>(k * 2654435761u);
    const int w = 1920, h = 1080;
    std::vector<std::uint32_t> px(static_cast<std::size_t>(w) * h);
    const ViewTransform t(PixelRect{0, 0, w, h}, g.extent);
    detail::PixelBlock block{px.data(), w, h, w, 0, h};
    report(name, "raster fill, whole grid 1920x1080",
           bench::timeIt(reps, [&] { detail::rasteriseCells(g, colours.data(), t, block); }));
    detail::CurvilinearActor mesh;
    report(name, "GL mesh arrays (4 vertices a cell)", bench::timeIt(reps, [&] { mesh.setGrid(g); }));
}

} // namespace

int main(int argc, char** argv) {
    const std::string file = argc > 1 ? argv[1] : STRATA_TEST_DATA "/test_stageiv_xyt.nc";
    const Dataset ds = io::openDataset(file);
    const DataArray frame = ds["Total_precipitation_surface_1_Hour_Accumulation"].isel({{"time", 0}});
    std::printf("bench_curvilinear: %s\n", file.c_str());
    run(
        "stageiv 118x87", [&] { return *curvilinearGrid(frame); }, 50);
    const Centres c = tripolarLike(1440, 1080);
    run(
        "tripolar 1440x1080", [&] { return gridFromCentres(c.rows, c.columns, c.lon, c.lat); }, 5);
    return 0;
}
