// strata: until the GUI lands, prints the summary of a netCDF file (the bundled sample by
// default).
#include <cstdio>
#include <exception>
#include <string>

#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

#ifndef STRATA_SAMPLE
#define STRATA_SAMPLE "resources/sample/tas_rectilinear_grid_2D.nc"
#endif

int main(int argc, char** argv) {
    std::string path = STRATA_SAMPLE;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::printf("usage: strata [FILE] [--info] [--cpu]\n"
                        "  prints FILE's summary (default: the bundled sample)\n");
            return 0;
        }
        if (arg == "--cpu") strata::forceCpu(true);
        else if (arg == "--info") continue;
        else if (!arg.empty() && arg[0] == '-') {
            std::fprintf(stderr, "strata: unknown option %s (see --help)\n", arg.c_str());
            return 2;
        } else path = arg;
    }
    try {
        const strata::Dataset ds = strata::openDataset(path);
        std::fputs(ds.summary().c_str(), stdout);
        const auto& info = strata::computeInfo();
        std::printf("Compute: %s — %s\n", info.name.c_str(), info.reason.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 1;
    }
    return 0;
}
