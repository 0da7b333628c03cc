// GRIB: indexing a file's messages (what opening it costs before any value is read), the whole
// open (index, hypercubes, grid coordinates), one variable's values decoded on the CPU (by
// ecCodes, as a host load does, and by Strata's simple-packing loop), and, where there is a
// CUDA device, every variable loaded onto it (decoded there: simple_unpack.h).
// Input: bench/make_grib_bench.py's file (1,000 simple-packed messages, about 1 GB).
//
//     bench_grib FILE [reps] [index]
//
// Figures go to bench/RESULTS.md, with the machine and the peer (bench/peer_grib.py) of the
// same run.
#include <cstdio>
#include <string>

#include "bench_timing.h"
#include "grib_index.h"
#include "grib_simple.h"
#include "raw_file.h"
#include "strata/core/runtime.h"
#include "strata/core/simple_unpack.h"
#include "strata/core/stream.h"
#include "strata/io/grib.h"

using namespace strata;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_grib FILE [reps]\n");
        return 2;
    }
    const std::string path = argv[1];
    const int reps = argc > 2 ? std::stoi(argv[2]) : 5;
    auto file = io::detail::RawFile::open(path, path);
    const double gb = double(file->size()) / 1e9;
    std::size_t messages = 0;
    const bench::Timing index =
        bench::timeIt(reps, [&] { messages = io::detail::indexGribFile(*file, path).messages.size(); });
    std::printf("index   %zu messages, %.3f GB: best %.3f s, median %.3f s (%.2f GB/s)\n", messages, gb,
                index.best, index.median, gb / index.best);
    if (argc > 3 && std::string(argv[3]) == "index") return 0; // for a profile of the index alone
    // The reference: every message read whole and all its keys asked of ecCodes (as before
    // the shortcut).
    const bench::Timing whole = bench::timeIt(
        reps, [&] { messages = io::detail::indexGribFile(*file, path, false).messages.size(); });
    std::printf("index, every message whole: best %.3f s, median %.3f s\n", whole.best, whole.median);
    Dataset ds;
    const bench::Timing open = bench::timeIt(reps, [&] {
        OpenNotes notes;
        ds = openGrib(path, notes);
    });
    std::printf("open    best %.3f s, median %.3f s\n", open.best, open.median);
    // The first variable: its messages decoded by the CPU path into float32 on the host.
    const Dataset& cube = ds.groups.empty() ? ds : ds.groups.front();
    const std::string name = cube.dataVariables().front();
    const DataArray var = cube[name];
    const auto& shape = var.shape();
    const double perField = double(shape[shape.size() - 1]) * double(shape[shape.size() - 2]);
    const double fields = double(var.size()) / perField;
    const double bytes = fields * double(file->size()) / double(messages); // of GRIB, about
    const bench::Timing read = bench::timeIt(std::max(1, reps / 2), [&] { (void)var.asHost(); });
    std::printf(
        "decode  '%s': %.0f fields of %.2f M values, CPU: best %.3f s (%.2f GB/s of GRIB, %.0f Mvalues/s)\n",
        name.c_str(), fields, perField / 1e6, read.best, bytes / 1e9 / read.best,
        double(var.size()) / read.best / 1e6);
    // Strata's own CPU loop on the same fields (the reference of the device's kernel).
    {
        io::detail::GribFiles files;
        files.files.push_back(file);
        files.paths.push_back(path);
        const io::detail::GribIndex idx = io::detail::indexGribFile(*file, path);
        std::vector<io::detail::GribField> first;
        for (const auto& m : idx.messages)
            if (m.paramId == idx.messages.front().paramId) first.push_back({m.span, true, m.alternativeRows});
        std::string why;
        const auto batch = io::detail::gribSimpleBatch(files, first, std::int64_t(perField), why);
        if (!batch) {
            std::printf("unpack  not simple packing: %s\n", why.c_str());
        } else {
            const bench::Timing t = bench::timeIt(std::max(1, reps / 2), [&] {
                (void)unpackSimple(batch->bytes, batch->fields, std::int64_t(perField), Device::host(),
                                   Stream::host());
            });
            std::printf(
                "unpack  %zu fields, Strata's CPU loop (one thread): best %.3f s (%.2f GB/s of GRIB)\n",
                first.size(), t.best, double(batch->bytes.size()) / 1e9 / t.best);
        }
    }
    if (cudaDeviceCount() == 0) {
        std::printf("device  no CUDA device here: the device's figure is the GPU machine's\n");
        return 0;
    }
    // Every variable of every hypercube onto the device: the messages' bytes read and copied,
    // decoded there.
    const Device gpu = Device::cuda(0);
    const Stream stream = defaultStream(gpu);
    std::vector<const Dataset*> cubes{&ds};
    if (!ds.groups.empty()) cubes.clear();
    for (const Dataset& g : ds.groups) cubes.push_back(&g);
    std::vector<DataArray> all;
    for (const Dataset* g : cubes)
        for (const std::string& v : g->dataVariables()) all.push_back((*g)[v]);
    const bench::Timing dev = bench::timeIt(reps, [&] {
        for (const DataArray& a : all) (void)a.load(gpu, stream);
        stream.synchronize();
    });
    std::printf("device  %zu variables onto %s: best %.3f s, median %.3f s (%.2f GB/s of GRIB)\n", all.size(),
                gpu.toString().c_str(), dev.best, dev.median, gb / dev.best);
    return 0;
}
