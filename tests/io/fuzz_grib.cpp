// libFuzzer target over the GRIB reader: the message index (framing, lengths, ecCodes' keys of
// each message, the hypercubes made of them, their grids and grid mappings) and the decoding of
// small variables. The input's bytes are a GRIB file, written to a scratch file, opened, and
// read whole when small. A strata::Error is the expected answer to a bad file; anything else
// escaping (another exception, a crash, a sanitizer report) is a finding. Built with
// -DSTRATA_FUZZ=ON by clang (scripts/fuzz.sh, STRATA_FUZZ_TARGET=fuzz_grib); built as
// fuzz_grib_replay otherwise, which runs the fixtures of tests/data/grib (and any files it is
// given) as a test.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "strata/core/error.h"
#include "strata/io/grib.h"

using namespace strata;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kMaxLoadElements = std::int64_t(1) << 16;

fs::path scratch() {
    const char* dir = std::getenv("STRATA_FUZZ_DIR");
    return fs::path(dir && *dir ? dir : "/dev/shm") / ("strata-fuzz-" + std::to_string(getpid()) + ".grib2");
}

void readSmall(const Dataset& ds) {
    for (const auto& [name, v] : ds.variables) {
        if (v.size() > kMaxLoadElements || !v.source()) continue;
        std::vector<unsigned char> out(v.nbytes());
        const std::vector<std::int64_t> zero(v.shape().size(), 0), one(v.shape().size(), 1);
        v.source()->read(zero, v.shape(), one, out.data());
    }
    for (const Dataset& g : ds.groups) readSmall(g);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const fs::path path = scratch();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    }
    try {
        OpenNotes notes;
        const Dataset ds = openGrib(path.string(), notes);
        (void)ds.summary();
        readSmall(ds);
    } catch (const Error&) {
    }
    std::error_code ec;
    fs::remove(path, ec);
    return 0;
}

#ifdef STRATA_FUZZ_REPLAY
#include "fuzz_replay.h"

// Runs every file of the given directories (or files) through the target; a crash fails.
int main(int argc, char** argv) {
    return fuzztest::replay(argc, argv, "fuzz_grib_replay",
                            [](const fs::path& p) { return p.extension() != ".py"; });
}
#endif
