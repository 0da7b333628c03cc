// libFuzzer target over the reader: the input's bytes become a file, which is opened
// (metadata, coordinates, dates), summarised, and whose small numeric variables are loaded and
// decoded on the host. A strata::Error is the expected answer to a bad file; anything else
// escaping (another exception, a crash, a sanitizer report, an allocation over the fuzzer's
// limit) is a finding. Built only with -DSTRATA_FUZZ=ON by clang (scripts/fuzz.sh).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "strata/core/error.h"
#include "strata/core/memory_budget.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

// Variables larger than this are not loaded (the fuzzer looks for bugs, not for big reads).
constexpr std::int64_t kMaxLoadElements = std::int64_t(1) << 18;

std::string scratchPath() {
    const char* dir = std::getenv("STRATA_FUZZ_DIR");
    return std::string(dir && *dir ? dir : "/dev/shm") + "/strata-fuzz-" + std::to_string(getpid()) + ".nc";
}

bool writeFile(const std::string& path, const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

void exercise(const Dataset& ds) {
    (void)ds.summary();
    for (const Coordinate& c : ds.coords)
        for (std::int64_t i = 0; i < std::int64_t(c.values.size()) && i < 4; ++i) (void)c.label(i);
    for (const auto& [name, v] : ds.variables) {
        if (!isNumeric(v.encoding().packed) || v.size() > kMaxLoadElements) continue;
        try {
            const DataArray a = ds[name];
            (void)a.load(Device::host(), Stream::host());
            if (a.ndim() > 0 && a.shape()[0] > 0) {
                const DataArray first = a.isel({{a.dims()[0], std::int64_t(0)}});
                (void)first.load(Device::host(), Stream::host());
            }
        } catch (const Error&) { // a clear refusal for this variable; go on with the next
        }
    }
    for (const Dataset& g : ds.groups) exercise(g);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    setMemoryBudget(std::size_t(256) << 20); // loads above this are refused, not attempted
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::string path = scratchPath();
    if (!writeFile(path, data, size)) return 0;
    try {
        OpenNotes notes;
        const Dataset ds = openDataset(path, notes);
        exercise(ds);
    } catch (const Error&) { // the expected outcome for a bad file
    }
    return 0;
}
