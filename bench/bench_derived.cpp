// Derived variables on a resident record: a derived frame against a stored frame of the same
// size (hypot(u, v), an anomaly slice, a 30-step rolling mean), the whole-record monthly anomaly
// against the device's copy rate, and moving the base period (a new table and its frame).
//
//   bench_derived [--nt N] [--nlat N] [--nlon N] [--reps N] [--cpu] [--frames-only]
//
// Daily steps in the noleap calendar from 1850, float32 with 1 % NaN; u, v of N/4 steps for
// hypot. Prints one line per figure; bytes per element are counted in each line.
#include <cmath>
#include <cstdio>
#include <string>

#include "bench_timing.h"
#include "strata/core/colour_range.h"
#include "strata/core/derived.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/view.h"

using namespace strata;

namespace {

DataArray residentField(const std::string& name, std::int64_t nt, std::int64_t ny, std::int64_t nx,
                        Device device, std::uint32_t seed) {
    const std::size_t n = std::size_t(nt * ny * nx);
    Buffer host(n * 4, Device::host(), Stream::host());
    auto* v = static_cast<float*>(host.data());
    std::uint32_t s = seed;
    for (std::size_t i = 0; i < n; ++i) {
        s = s * 1664525u + 1013904223u;
        const double noise = double(s >> 8) / double(1u << 24) - 0.5;
        const std::int64_t t = std::int64_t(i) / (ny * nx);
        v[i] = (s & 127) == 0 ? NAN : float(280 + 10 * std::sin(double(t) * 2 * M_PI / 365) + 4 * noise);
    }
    Buffer data = device.isHost() ? std::move(host) : host.copyTo(device, defaultStream(device));
    if (device.isCuda()) defaultStream(device).synchronize();
    Variable var({"time", "lat", "lon"}, {nt, ny, nx}, DType::Float32, std::move(data));
    var.attrs().set({"units", DType::Char, std::string("K")});
    return DataArray(name, std::move(var));
}

Coordinate dailyTime(std::int64_t nt) {
    Coordinate c;
    c.name = "time";
    c.dims = {"time"};
    c.shape = {nt};
    TimeAxis axis;
    axis.units = parseTimeUnits("days since 1850-01-01");
    axis.calendar = Calendar::NoLeap;
    for (std::int64_t i = 0; i < nt; ++i) {
        c.values.push_back(double(i));
        axis.dates.push_back(decodeTime(double(i), axis.units, axis.calendar));
    }
    c.time = axis;
    return c;
}

} // namespace

int main(int argc, char** argv) {
    std::int64_t nt = 365 * 2, ny = 721, nx = 1440;
    int reps = 11;
    bool cpu = false, framesOnly = false;
    for (int i = 1; i < argc; ++i) {
        const std::string k = argv[i];
        if (k == "--nt" && i + 1 < argc)
            nt = std::stoll(argv[++i]);
        else if (k == "--nlat" && i + 1 < argc)
            ny = std::stoll(argv[++i]);
        else if (k == "--nlon" && i + 1 < argc)
            nx = std::stoll(argv[++i]);
        else if (k == "--reps" && i + 1 < argc)
            reps = std::stoi(argv[++i]);
        else if (k == "--cpu")
            cpu = true;
        else if (k == "--frames-only") // the frames alone (for a profiler)
            framesOnly = true;
    }
    if (cpu) forceCpu(true);
    const Device device = computeDevice();
    const Stream stream = device.isCuda() ? defaultStream(device) : Stream::host();
    std::printf("bench_derived on %s: tas %lld x %lld x %lld float32 (%.2f GB), u/v %lld steps\n",
                computeInfo().name.c_str(), (long long)nt, (long long)ny, (long long)nx,
                double(nt * ny * nx * 4) / 1e9, (long long)(nt / 4));

    Dataset ds;
    ds.path = "memory";
    ds.dims = {{"time", nt, true}, {"lat", ny, false}, {"lon", nx, false}};
    ds.coords.set(dailyTime(nt));
    const DataArray tas = residentField("tas", nt, ny, nx, device, 1);
    const std::int64_t nw = std::max<std::int64_t>(nt / 4, 1);
    Dataset winds = ds; // u and v on a shorter record (their own dataset: time is shorter)
    winds.dims[0].length = nw;
    winds.coords.set(dailyTime(nw));
    const DataArray u = residentField("u", nw, ny, nx, device, 2),
                    v = residentField("v", nw, ny, nx, device, 3);
    ds.variables.emplace_back("tas", tas.variable());
    winds.variables.emplace_back("u", u.variable());
    winds.variables.emplace_back("v", v.variable());
    derive(winds, "speed = hypot(u, v)");
    derive(ds, "anom = anomaly(tas, \"month\", 1851, 1851)");
    derive(ds, "smooth = rolling_mean(tas, \"time\", 30)");

    FallbackNote note;
    auto frameSpec = [](const std::string& var, std::int64_t t) {
        FrameSpec s;
        s.variable = var;
        s.xDim = "lon";
        s.yDim = "lat";
        s.indices = {{"time", t}};
        return s;
    };
    const double frameBytes = double(ny * nx * 4);
    auto frames = [&](const DataArray& var, const std::string& name, std::int64_t steps) {
        std::int64_t t = 0;
        return bench::timeIt(reps, [&] {
            t = (t + 37) % steps;
            (void)computeFrame(var, frameSpec(name, t), device, note);
        });
    };
    const bench::Timing stored = frames(ds["tas"].withName("tas"), "tas", nt);
    // Inputs are found resident: the variables above are loaded already (the lookup is the
    // window's; here they are the dataset's own loaded arrays).
    const bench::Timing speed = frames(winds["speed"], "speed", nw);
    const double first0 = bench::now();
    (void)computeFrame(ds["anom"], frameSpec("anom", 400), device, note); // includes the table
    const double firstAnomaly = bench::now() - first0;
    const bench::Timing anomaly = frames(ds["anom"], "anom", nt);
    const bench::Timing smooth = frames(ds["smooth"], "smooth", nt);
    // As the window shows it: the frame, its range on the device and its colours (RGBA8), so a
    // stored frame costs what it costs to see, not only its slice (a view of the record).
    Buffer lutHost(256 * 4, Device::host(), Stream::host());
    for (int i = 0; i < 256 * 4; ++i) static_cast<std::uint8_t*>(lutHost.data())[i] = std::uint8_t(i / 4);
    const DataArray lut("lut",
                        Variable({"entry", "rgba"}, {256, 4}, DType::UInt8,
                                 device.isHost() ? std::move(lutHost) : lutHost.copyTo(device, stream)));
    const OffScaleColours offScale(Rgba8{0, 0, 0, 0});
    auto shown = [&](const DataArray& var, const std::string& name, std::int64_t steps) {
        std::int64_t t = 0;
        return bench::timeIt(reps, [&] {
            t = (t + 37) % steps;
            const DataArray f = computeFrame(var, frameSpec(name, t), device, note);
            const DataArray rgba = colormap(f, lut, minmax(f, stream), offScale, stream);
            stream.synchronize();
        });
    };
    const bench::Timing storedShown = shown(ds["tas"].withName("tas"), "tas", nt);
    const bench::Timing speedShown = shown(winds["speed"], "speed", nw);
    const bench::Timing anomalyShown = shown(ds["anom"], "anom", nt);
    std::printf("frame %lld x %lld (%.1f MB): stored %.3f ms (median %.3f)\n", (long long)ny, (long long)nx,
                frameBytes / 1e6, stored.best * 1e3, stored.median * 1e3);
    std::printf(
        "  hypot(u, v)          %.3f ms (median %.3f), %.2fx stored; 8 B read + 4 B written per element\n",
        speed.best * 1e3, speed.median * 1e3, speed.best / stored.best);
    std::printf(
        "  anomaly slice        %.3f ms (median %.3f), %.2fx stored; 4 B + 4 B table read, 4 B written"
        " (first, with its table: %.1f ms)\n",
        anomaly.best * 1e3, anomaly.median * 1e3, anomaly.best / stored.best, firstAnomaly * 1e3);
    std::printf("  rolling_mean 30      %.3f ms (median %.3f), %.2fx stored; 30 x 4 B read, 4 B written\n",
                smooth.best * 1e3, smooth.median * 1e3, smooth.best / stored.best);

    std::printf("as shown (frame + range + colours): stored %.3f ms (median %.3f); hypot %.3f ms, %.2fx;"
                " anomaly %.3f ms, %.2fx\n",
                storedShown.best * 1e3, storedShown.median * 1e3, speedShown.best * 1e3,
                speedShown.best / storedShown.best, anomalyShown.best * 1e3,
                anomalyShown.best / storedShown.best);

    if (framesOnly) return 0;
    // The device's copy rate: a whole-record copy, read + write.
    const bench::Timing copy = bench::timeIt(std::max(3, reps / 3), [&] {
        const Buffer c = tas.variable().buffer()->copyTo(device, stream);
        stream.synchronize();
    });
    const double recordBytes = double(nt * ny * nx * 4);
    const double copyRate = 2 * recordBytes / copy.best;
    std::printf("copy of the record: %.1f ms, %.1f GB/s (read + write)\n", copy.best * 1e3, copyRate / 1e9);

    // The whole-record monthly anomaly: its table (one pass: 4 B read per element over the base
    // period — here the whole record) and the anomaly (4 B read, 4 B table read, 4 B written).
    const bench::Timing whole = bench::timeIt(std::max(3, reps / 3), [&] {
        Dataset d = ds;
        derive(d, "a = anomaly(tas, \"month\")"); // a new table each time
        const DataArray a = d["a"].load(device, stream);
        stream.synchronize();
    });
    const double wholeBytes = recordBytes * 3; // table pass + anomaly read + write (tables are small)
    std::printf(
        "whole-record monthly anomaly (table + anomaly): %.1f ms, %.1f GB/s counting 12 B per element,"
        " %.2f of the copy rate\n",
        whole.best * 1e3, wholeBytes / whole.best / 1e9, (wholeBytes / whole.best) / copyRate);

    { // the anomaly pass alone: the table kept from a first load
        Dataset d = ds;
        derive(d, "a = anomaly(tas, \"month\")");
        (void)d["a"].load(device, stream);
        stream.synchronize();
        const bench::Timing pass = bench::timeIt(std::max(3, reps / 3), [&] {
            const DataArray a = d["a"].load(device, stream);
            stream.synchronize();
        });
        std::printf(
            "  of which the anomaly pass (table kept): %.1f ms, %.1f GB/s counting 12 B per element\n",
            pass.best * 1e3, recordBytes * 3 / pass.best / 1e9);
    }

    // Moving the base period: a new statement (a new table of the base years) and the frame.
    int year = 1850;
    const int lastYear = 1850 + int(nt / 365) - 1;
    const bench::Timing move = bench::timeIt(reps, [&] {
        year = year >= lastYear ? 1850 : year + 1;
        Dataset d = ds;
        derive(d,
               "anom = anomaly(tas, \"month\", " + std::to_string(1850) + ", " + std::to_string(year) + ")");
        (void)computeFrame(d["anom"], frameSpec("anom", nt / 2), device, note);
    });
    std::printf("moving the base period (table of the base years + frame): %.1f ms (median %.1f)\n",
                move.best * 1e3, move.median * 1e3);
    if (!note.reason.empty()) std::printf("note: %s\n", note.reason.c_str());
    return 0;
}
