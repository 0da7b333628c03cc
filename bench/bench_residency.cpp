// Residency benchmark: what a user of the window feels on a real file, from the file (each
// frame read and decoded anew: the path before residency) and from the resident copy, in one
// process per mode so that peak memory is each mode's own. Headless: the frame pipeline the
// window and the command line share (computeFrame), plus the colour map.
//
//   bench_residency FILE [--var air] [--mode file|resident|stream] [--steps 20] [--cpu]
//
// file, resident: time to first frame (a map, read as a slab), the whole load (resident only:
//   seconds and GB/s), then medians over distinct steps: a map step, a Hovmöller step (lon ×
//   time, stepping lat), a reduction switch over time (mean → max → std), a step of a slider
//   under a reduction (mean over lat, stepping time); then peak RSS.
// stream: a budget of a quarter of the variable; the mean over time streamed slab by slab,
//   against reading the same slabs alone (loaded onto the device and dropped).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "strata/core/ops.h"
#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/core/streaming.h"
#include "strata/core/view.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

double nowMs() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double timeMs(const std::function<void()>& f) {
    const double t0 = nowMs();
    f();
    return nowMs() - t0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

double peakRssMb() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024;
    return 0;
}

// The frame of `spec` and its colours, finished: what a step costs before the paint.
double frameAndColours(const DataArray& var, const FrameSpec& spec, Device device, const DataArray& lut) {
    return timeMs([&] {
        FallbackNote note;
        const DataArray f = computeFrame(var, spec, device, note);
        if (f.ndim() == 2) {
            const Stream s = f.device().isHost() ? Stream::host() : defaultStream(f.device());
            const DataArray range = minmax(f, s);
            const DataArray rgba = colormap(f, lut, range, Rgba8{255, 0, 255, 255}, s);
            s.synchronize();
        }
    });
}

FrameSpec view(std::string var, std::string x, std::string y) {
    FrameSpec s;
    s.variable = std::move(var);
    s.xDim = std::move(x);
    s.yDim = std::move(y);
    return s;
}

} // namespace

int main(int argc, char** argv) {
    std::string file, name = "air", mode = "resident";
    int steps = 20;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--var" && i + 1 < argc)
            name = argv[++i];
        else if (a == "--mode" && i + 1 < argc)
            mode = argv[++i];
        else if (a == "--steps" && i + 1 < argc)
            steps = std::stoi(argv[++i]);
        else if (a == "--cpu")
            forceCpu(true);
        else
            file = a;
    }
    if (file.empty()) {
        std::fprintf(
            stderr,
            "usage: bench_residency FILE [--var air] [--mode file|resident|stream] [--steps N] [--cpu]\n");
        return 2;
    }
    const Device device = computeDevice();
    const Dataset ds = io::openDataset(file);
    const DataArray lazy = ds[name];
    const auto& dims = lazy.dims(); // time, lat, lon
    const double gb = double(lazy.variable().nbytes()) / 1e9;
    std::printf("{\"file\": \"%s\", \"mode\": \"%s\", \"device\": \"%s\", \"variable_gb\": %.3f",
                file.c_str(), mode.c_str(), computeInfo().name.c_str(), gb);
    std::vector<std::uint8_t> table(256 * 4);
    for (int i = 0; i < 256; ++i)
        table[4 * i] = table[4 * i + 1] = table[4 * i + 2] = std::uint8_t(i), table[4 * i + 3] = 255;
    const DataArray lutHost = DataArray::fromHost("lut", {"entry", "rgba"}, {256, 4}, table);
    const DataArray lut = lutHost.load(device, device.isHost() ? Stream::host() : defaultStream(device));

    if (mode == "stream") {
        const std::size_t budget = lazy.variable().nbytes() / 4;
        const std::size_t slab = std::min<std::size_t>(budget / 16, std::size_t(64) << 20);
        const std::int64_t rows = lazy.shape()[0];
        const std::int64_t rowBytes = std::int64_t(lazy.variable().nbytes()) / rows;
        const std::int64_t step = std::max<std::int64_t>(1, std::int64_t(slab) / rowBytes);
        const Stream s = device.isHost() ? Stream::host() : defaultStream(device);
        const double readMs = timeMs([&] {
            for (std::int64_t r = 0; r < rows; r += step) {
                const DataArray part =
                    lazy.isel({Indexer{dims[0], Slice{r, std::min(rows, r + step), 1}}}).load(device, s);
                s.synchronize();
            }
        });
        const double reduceMs = timeMs([&] {
            const DataArray m = reduceStreamed(lazy, dims[0], ReduceOp::Mean, device, s, slab);
            s.synchronize();
        });
        std::printf(
            ", \"budget_gb\": %.3f, \"slab_mb\": %.1f, \"read_alone_s\": %.3f, \"streamed_mean_s\": %.3f, "
            "\"ratio\": %.3f, \"peak_rss_mb\": %.0f}\n",
            double(budget) / 1e9, double(slab) / 1e6, readMs / 1e3, reduceMs / 1e3, reduceMs / readMs,
            peakRssMb());
        return 0;
    }

    FrameSpec map = view(name, dims[2], dims[1]);
    map.indices = {{dims[0], 0}};
    const double ttff = frameAndColours(lazy, map, device, lut);
    std::printf(", \"ttff_ms\": %.1f", ttff);

    DataArray var = lazy;
    if (mode == "resident") {
        Residency residency(defaultResidentBudget(device));
        const double loadMs = timeMs([&] {
            residency.request(name, lazy, device);
            residency.wait();
        });
        const ResidencyStatus st = residency.status(name);
        if (st.state != Residence::Resident) {
            std::printf(", \"error\": \"%s\"}\n", st.describe().c_str());
            return 1;
        }
        var = *residency.get(name);
        std::printf(", \"load_s\": %.3f, \"load_gbps\": %.2f", loadMs / 1e3, gb / (loadMs / 1e3));
        residency.clear(); // `var` keeps the data
    }
    const std::int64_t nt = lazy.shape()[0], ny = lazy.shape()[1];
    const io::ReadCounters before = io::readCounters();
    std::vector<double> mapSteps, hovSteps, underSteps;
    for (int k = 1; k <= steps; ++k) {
        FrameSpec s = map;
        s.indices = {{dims[0], (k * 7) % nt}};
        mapSteps.push_back(frameAndColours(var, s, device, lut));
    }
    for (int k = 1; k <= steps; ++k) {
        FrameSpec s = view(name, dims[2], dims[0]);
        s.indices = {{dims[1], (k * 13) % ny}};
        hovSteps.push_back(frameAndColours(var, s, device, lut));
    }
    // Switching the reduction over time, mean → max → std, five rounds: the medians (the first
    // round alone is also kept: it includes each kernel's first launch).
    std::vector<double> switches, firstRound;
    std::vector<std::vector<double>> rounds(3);
    for (int round = 0; round < 5; ++round) {
        int i = 0;
        for (ReduceOp op : {ReduceOp::Mean, ReduceOp::Max, ReduceOp::Std}) {
            FrameSpec s = view(name, dims[2], dims[1]);
            s.reductions = {{dims[0], op}};
            const double ms = frameAndColours(var, s, device, lut);
            if (round == 0) firstRound.push_back(ms);
            rounds[i++].push_back(ms);
        }
    }
    for (const auto& r : rounds) switches.push_back(median(r));
    for (int k = 1; k <= steps; ++k) {
        FrameSpec s = view(name, dims[2], "");
        s.reductions = {{dims[1], ReduceOp::Mean}};
        s.indices = {{dims[0], (k * 5) % nt}};
        underSteps.push_back(frameAndColours(var, s, device, lut));
    }
    std::printf(
        ", \"map_step_ms\": %.3f, \"hovmoller_step_ms\": %.3f, \"switch_mean_ms\": %.2f, "
        "\"switch_max_ms\": %.2f, \"switch_std_ms\": %.2f, \"first_switches_ms\": [%.2f, %.2f, %.2f], "
        "\"step_under_reduction_ms\": %.3f, \"reads_after_load\": %llu, \"peak_rss_mb\": %.0f}\n",
        median(mapSteps), median(hovSteps), switches[0], switches[1], switches[2], firstRound[0],
        firstRound[1], firstRound[2], median(underSteps),
        static_cast<unsigned long long>(io::readCounters().reads - before.reads), peakRssMb());
    return 0;
}
