// GRIB: indexing a file's messages (what opening it costs before any value is read), the whole
// open (index, hypercubes, grid coordinates), and one variable's values decoded on the CPU.
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
#include "raw_file.h"
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
    if (argc > 3 && std::string(argv[3]) == "index") return 0; // for a profile of the index alone
    // The reference: every message read whole and all its keys asked of ecCodes (as before
    // the shortcut).
    const bench::Timing whole = bench::timeIt(
        reps, [&] { messages = io::detail::indexGribFile(*file, path, false).messages.size(); });
    std::printf("index, every message whole: best %.3f s, median %.3f s\n", whole.best, whole.median);
    std::printf("index   %zu messages, %.3f GB: best %.3f s, median %.3f s (%.2f GB/s)\n", messages, gb,
                index.best, index.median, gb / index.best);
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
    return 0;
}
