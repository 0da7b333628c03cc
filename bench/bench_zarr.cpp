// Zarr ingest benchmark: a whole variable of a Zarr store (page cache warm) read by Strata's
// own reader, to host memory and onto the compute device, and the time to the first frame
// (open the store, read one 2-D slab), side by side with bench/peer_zarr.py in the same run:
//
//   bench_zarr STORE [--var data] [--reps 3]
//
// Prints JSON lines (seconds, GB/s of decoded values). bench/make_zarr_store.py writes the
// 1.5 GB blosc-lz4 store (zarr-python's default compressor) the issue asks for. Where the
// compute device is a GPU, the store also goes to the device: the first frame (open + one 2-D
// slab onto the device), the residency's load (loadWhole) and Variable::load (pinned slabs cut
// at the store's chunks, each chunk decoded once: core/include/strata/core/load_plan.h).
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/io/zarr.h"

#include "bench_timing.h"

using namespace strata;

namespace {

using bench::now;
using bench::timeIt;
using bench::Timing;

void line(const std::string& what, const Timing& t, double bytes) {
    std::printf("{\"measure\": \"%s\", \"mode\": \"strata\", \"best_s\": %.4f, \"median_s\": %.4f, "
                "\"gb_per_s\": %.2f}\n",
                what.c_str(), t.best, t.median, bytes / t.best / 1e9);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_zarr STORE [--var NAME] [--reps N]\n");
        return 2;
    }
    const std::string path = argv[1];
    std::string varName = "data";
    int reps = 3;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::string(argv[i]) == "--var") varName = argv[i + 1];
        if (std::string(argv[i]) == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    }
    // Time to the first frame: open, then the first 2-D slab along the leading dims.
    std::vector<unsigned char> frame;
    const Timing first = timeIt(reps, [&] {
        OpenNotes notes;
        const Dataset ds = openZarr(path, notes);
        const Variable& v = *ds.findVariable(varName);
        const std::size_t nd = v.shape().size();
        std::array<std::int64_t, kMaxDims> start{}, count{}, stride{};
        std::size_t n = sizeOf(v.encoding().packed);
        for (std::size_t d = 0; d < nd && d < std::size_t(kMaxDims); ++d) {
            stride[d] = 1;
            count[d] = d + 2 >= nd ? v.shape()[d] : 1;
            n *= std::size_t(count[d]);
        }
        frame.resize(n);
        v.source()->read(std::span(start.data(), nd), std::span(count.data(), nd),
                         std::span(stride.data(), nd), frame.data());
    });
    OpenNotes notes;
    const Dataset ds = openZarr(path, notes);
    const DataArray var = ds[varName];
    const Variable& v = var.variable();
    const std::size_t bytes = v.nbytes();
    std::printf(
        "{\"store\": \"%s\", \"var\": \"%s\", \"bytes\": %zu, \"read_path\": \"%s\", \"device\": \"%s\"}\n",
        path.c_str(), varName.c_str(), bytes, v.source()->readPath().c_str(), computeInfo().name.c_str());
    line("time to first frame (open + one 2-D slab)", first, double(frame.size()));
    const std::vector<std::int64_t> start(v.shape().size(), 0), count(v.shape().begin(), v.shape().end()),
        stride(v.shape().size(), 1);
    std::vector<unsigned char> host(bytes);
    v.source()->read(start, count, stride, host.data()); // warms the page cache
    line("read to host", timeIt(reps, [&] { v.source()->read(start, count, stride, host.data()); }),
         double(bytes));
    host = {};
    const Device device = computeDevice();
    const CancelToken cancel;
    std::optional<DataArray> loaded;
    line("load onto " + device.toString(),
         timeIt(reps,
                [&] {
                    const Stream s = defaultStream(device);
                    loaded = loadWhole(var, device, s, nullptr, cancel);
                    s.synchronize();
                }),
         double(bytes));
    if (device.isHost()) return 0;
    const Timing firstOnDevice = timeIt(reps, [&] {
        OpenNotes n;
        const Dataset d = openZarr(path, n);
        DataArray a = d[varName];
        while (a.ndim() > 2) a = a.isel({Indexer{a.dims()[0], std::int64_t(0)}});
        const Stream s = defaultStream(device);
        const DataArray f = a.load(device, s);
        s.synchronize();
    });
    line("time to first frame on " + device.toString() + " (open + one 2-D slab onto the device)",
         firstOnDevice, double(frame.size()));
    line("Variable::load onto " + device.toString() + " (pinned slabs of whole chunks)",
         timeIt(reps,
                [&] {
                    const Stream s = defaultStream(device);
                    loaded = var.load(device, s);
                    s.synchronize();
                }),
         double(bytes));
    return 0;
}
