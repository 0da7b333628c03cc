// Contours of a 1440 x 721 frame at 20 levels: marching squares on the compute device (the
// segments, linked, on the host), joining them into lines, and a step of a resident record as
// the window shows it (frame, range, colours) with and without its contours.
//
//   bench_contour [--nlat N] [--nlon N] [--levels N] [--reps N] [--cpu]
//
// The field is bench/peer_contour.py's, so that contourpy (matplotlib's engine) times the same
// lines: 280 + 30 cos(lat) + 6 sin(3 lon) cos(2 lat) + 0.5 sin(37 lon + 11 lat), float32, with
// a 12 x 12 hole of NaN every 97 columns along the equator.
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_timing.h"
#include "strata/core/colour_range.h"
#include "strata/core/contour.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/view.h"

using namespace strata;

namespace {

float sample(std::int64_t t, std::int64_t j, std::int64_t i, std::int64_t ny, std::int64_t nx) {
    const double lat = (-90 + 180.0 * double(j) / double(ny - 1)) * M_PI / 180;
    const double lon = (360.0 * double(i) / double(nx)) * M_PI / 180 + 0.05 * double(t);
    if (std::abs(j - ny / 2) < 6 && i % 97 < 12) return NAN;
    return float(280 + 30 * std::cos(lat) + 6 * std::sin(3 * lon) * std::cos(2 * lat) +
                 0.5 * std::sin(37 * lon + 11 * lat));
}

} // namespace

int main(int argc, char** argv) {
    std::int64_t ny = 721, nx = 1440, nt = 16;
    int reps = 21, nlevels = 20;
    bool cpu = false;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--nlat" && i + 1 < argc)
            ny = std::stoll(argv[++i]);
        else if (k == "--nlon" && i + 1 < argc)
            nx = std::stoll(argv[++i]);
        else if (k == "--levels" && i + 1 < argc)
            nlevels = std::stoi(argv[++i]);
        else if (k == "--reps" && i + 1 < argc)
            reps = std::stoi(argv[++i]);
        else if (k == "--cpu")
            cpu = true;
    }
    if (cpu) forceCpu(true);
    const Device device = computeDevice();
    const Stream stream = device.isCuda() ? defaultStream(device) : Stream::host();

    // A resident record of nt steps; step 0 is the peer's field.
    Buffer host(std::size_t(nt * ny * nx) * 4, Device::host(), Stream::host());
    auto* v = static_cast<float*>(host.data());
    for (std::int64_t t = 0; t < nt; ++t)
        for (std::int64_t j = 0; j < ny; ++j)
            for (std::int64_t i = 0; i < nx; ++i) v[(t * ny + j) * nx + i] = sample(t, j, i, ny, nx);
    Buffer data = device.isHost() ? std::move(host) : host.copyTo(device, stream);
    stream.synchronize();
    const DataArray record("tas",
                           Variable({"time", "lat", "lon"}, {nt, ny, nx}, DType::Float32, std::move(data)));
    const DataArray frame = record.isel({{"time", std::int64_t(0)}});
    const auto [lo, hi] = minmaxValues(frame);
    const std::vector<double> levels = contourLevels(ContourSpec{ContourSpec::Kind::Count, nlevels}, lo, hi);

    std::printf("bench_contour on %s: %lld x %lld float32, %zu levels in [%.2f, %.2f]\n",
                computeInfo().name.c_str(), (long long)ny, (long long)nx, levels.size(), lo, hi);
    ContourSegments segments;
    const bench::Timing seg = bench::timeIt(reps, [&] { segments = contourSegments(frame, levels); });
    std::vector<Isoline> lines;
    const bench::Timing join = bench::timeIt(reps, [&] { lines = joinSegments(segments, levels); });
    const bench::Timing whole = bench::timeIt(reps, [&] { lines = isolines(frame, levels); });
    std::size_t points = 0;
    for (const Isoline& l : lines) points += l.xy.size() / 2;
    std::printf(
        "segments: %zu, %.3f ms (median %.3f) marching squares and links, with the copy to the host\n",
        segments.size(), seg.best * 1e3, seg.median * 1e3);
    std::printf("join into lines: %zu lines, %zu points, %.3f ms (median %.3f)\n", lines.size(), points,
                join.best * 1e3, join.median * 1e3);
    std::printf("isolines (both): %.3f ms (median %.3f)\n", whole.best * 1e3, whole.median * 1e3);

    // A step as the window shows it: the frame of step t, its range and colours; then the same
    // with its isolines at the same levels.
    Buffer lutHost(256 * 4, Device::host(), Stream::host());
    for (int i = 0; i < 256 * 4; ++i) static_cast<std::uint8_t*>(lutHost.data())[i] = std::uint8_t(i / 4);
    const DataArray lut("lut",
                        Variable({"entry", "rgba"}, {256, 4}, DType::UInt8,
                                 device.isHost() ? std::move(lutHost) : lutHost.copyTo(device, stream)));
    const OffScaleColours offScale(Rgba8{0, 0, 0, 0});
    FallbackNote note;
    auto step = [&](bool withContours) {
        std::int64_t t = 0;
        return bench::timeIt(reps, [&] {
            t = (t + 5) % nt;
            FrameSpec s;
            s.variable = "tas";
            s.xDim = "lon";
            s.yDim = "lat";
            s.indices = {{"time", t}};
            const DataArray f = computeFrame(record, s, device, note);
            const DataArray rgba = colormap(f, lut, minmax(f, stream), offScale, stream);
            if (withContours) (void)isolines(f, levels);
            stream.synchronize();
        });
    };
    const bench::Timing plain = step(false), contoured = step(true);
    std::printf("step as shown: %.3f ms (median %.3f); with contours %.3f ms (median %.3f), %.2fx\n",
                plain.best * 1e3, plain.median * 1e3, contoured.best * 1e3, contoured.median * 1e3,
                contoured.best / plain.best);
    return 0;
}
