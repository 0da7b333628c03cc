// Ingest benchmark: a whole variable from a file (page cache warm) into memory, through
// netCDF-C's own serial read and through Strata's parallel reader, side by side in one process:
//
//   bench_ingest FILE [--var air] [--reps 3]
//
// Prints JSON lines: host reads (seconds, GB/s of decoded values), loads onto the compute
// device (the residency's loadWhole), and for chunked variables the two halves of the device
// path timed apart: the CPU pool inflating every chunk into pinned memory, and the device
// copying and placing them (placeChunks). The share of the load the device spends waiting is
// 1 - place / load. Every parallel result is compared byte for byte with netCDF-C's.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/chunks.h"
#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

#include "bench_timing.h"

using namespace strata;

namespace {

using bench::now;
using bench::timeIt;
using bench::Timing;

void line(const std::string& what, const std::string& mode, const Timing& t, double bytes,
          const std::string& extra = "") {
    std::printf("{\"measure\": \"%s\", \"mode\": \"%s\", \"best_s\": %.4f, \"median_s\": %.4f, \"gb_per_s\": "
                "%.2f%s}\n",
                what.c_str(), mode.c_str(), t.best, t.median, bytes / t.best / 1e9, extra.c_str());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_ingest FILE [--var NAME] [--reps N]\n");
        return 2;
    }
    const std::string path = argv[1];
    std::string varName = "air";
    int reps = 3;
    for (int i = 2; i + 1 < argc; i += 2) {
        if (std::string(argv[i]) == "--var") varName = argv[i + 1];
        if (std::string(argv[i]) == "--reps") reps = std::max(1, std::atoi(argv[i + 1]));
    }
    const Dataset ds = openDataset(path);
    const DataArray var = ds[varName];
    const Variable& v = var.variable();
    const DataSource& src = *v.source();
    const std::size_t bytes = v.nbytes();
    const std::vector<std::int64_t> start(v.shape().size(), 0), count(v.shape().begin(), v.shape().end()),
        stride(v.shape().size(), 1);
    std::printf(
        "{\"file\": \"%s\", \"var\": \"%s\", \"bytes\": %zu, \"read_path\": \"%s\", \"device\": \"%s\"}\n",
        path.c_str(), varName.c_str(), bytes, src.readPath().c_str(), computeInfo().name.c_str());

    // Host reads of the stored values, both ways; the first read also warms the page cache.
    std::vector<unsigned char> reference(bytes), mine(bytes);
    io::setReadMode(io::ReadMode::NetcdfC);
    src.read(start, count, stride, reference.data());
    line("read to host", "netCDF-C", timeIt(reps, [&] { src.read(start, count, stride, reference.data()); }),
         double(bytes));
    io::setReadMode(io::ReadMode::Parallel);
    const Timing par = timeIt(reps, [&] { src.read(start, count, stride, mine.data()); });
    bool same = std::memcmp(reference.data(), mine.data(), bytes) == 0;
    line("read to host", "parallel", par, double(bytes),
         std::string(", \"identical\": ") + (same ? "true" : "false"));

    // Whole loads onto the compute device, as the residency does them.
    const Device device = computeDevice();
    for (io::ReadMode mode : {io::ReadMode::NetcdfC, io::ReadMode::Parallel}) {
        io::setReadMode(mode);
        const CancelToken cancel;
        std::optional<DataArray> loaded;
        const Timing t = timeIt(reps, [&] {
            const Stream s = defaultStream(device);
            loaded = loadWhole(var, device, s, nullptr, cancel);
            s.synchronize();
        });
        // The values that arrived, against netCDF-C's read (the benchmark's files are not packed).
        std::string check;
        if (loaded && v.encoding().isIdentity()) {
            const Variable& lv = loaded->variable();
            const Buffer back = lv.buffer()->copyTo(Device::host(), defaultStream(device));
            defaultStream(device).synchronize();
            const bool ok = lv.offset() == 0 && back.size() >= bytes &&
                            std::memcmp(back.data(), reference.data(), bytes) == 0;
            check = std::string(", \"identical\": ") + (ok ? "true" : "false");
            same = same && ok;
        }
        line("load onto " + device.toString(), mode == io::ReadMode::NetcdfC ? "netCDF-C" : "parallel", t,
             double(v.nbytes()), check);
    }

    // The chunked device path's halves, timed apart.
    io::setReadMode(io::ReadMode::Parallel);
    const auto plan = src.planChunks(start, count);
    if (plan && device.isCuda()) {
        const std::size_t batchBytes = std::size_t(plan->storedChunks * plan->chunkBytes);
        Buffer pinned(batchBytes, Device::host(), Stream::host(), HostMemory::Pinned);
        std::vector<ChunkRef> refs;
        line("inflate to pinned host memory", "parallel",
             timeIt(reps, [&] { refs = src.inflateChunks(start, count, pinned.data(), pinned.size()); }),
             double(bytes));
        const Stream s = defaultStream(device);
        Buffer onDevice(batchBytes, device, s), out(bytes, device, s);
        line("copy and place on the device", "parallel",
             timeIt(reps,
                    [&] {
                        copyBytes(onDevice.data(), device, pinned.data(), Device::host(), batchBytes, s);
                        placeChunks(plan->grid, onDevice.data(), refs, plan->fill.data(), out.data(), device,
                                    s);
                        s.synchronize();
                    }),
             double(bytes));
        line("place on the device (chunks already there)", "parallel",
             timeIt(reps,
                    [&] {
                        placeChunks(plan->grid, onDevice.data(), refs, plan->fill.data(), out.data(), device,
                                    s);
                        s.synchronize();
                    }),
             double(bytes));
    }
    return same ? 0 : 1;
}
