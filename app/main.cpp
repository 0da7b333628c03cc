// strata: the command line. With --info or --export-* it runs headless; otherwise (until the
// GUI lands) it prints the summary of FILE, the bundled sample by default.
#include <cstdio>
#include <string>
#include <vector>

#include "batch.h"
#include "cli.h"
#include "strata/core/runtime.h"

#ifndef STRATA_SAMPLE
#define STRATA_SAMPLE "resources/sample/tas_rectilinear_grid_2D.nc"
#endif

int main(int argc, char** argv) {
    using namespace strata::app;
    CliOptions options;
    try {
        options = parseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const UsageError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    }
    if (options.help) {
        std::fputs(helpText().c_str(), stdout);
        return 0;
    }
    if (options.version) {
        std::printf("strata %s\n", STRATA_VERSION);
        return 0;
    }
    if (options.cpu) strata::forceCpu(true);
    if (options.file.empty()) options.file = STRATA_SAMPLE;
    if (!options.batch()) options.info = true; // the GUI comes with the app issue
    const int status = runBatch(options);
    if (status == 0 && !options.batch()) {
        const auto& info = strata::computeInfo();
        std::printf("Compute: %s (%s)\n", info.name.c_str(), info.reason.c_str());
    }
    return status;
}
