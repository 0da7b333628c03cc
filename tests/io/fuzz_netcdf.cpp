// libFuzzer target over the reader: the input's bytes become a file, which is opened
// (metadata, coordinates, dates), summarised, and whose small numeric variables are loaded and
// decoded on the host. Each such variable is also read whole by both readers, the parallel one
// (chunk index, inflation, filters) and netCDF-C's: when both succeed their bytes must agree,
// or the target aborts. A strata::Error is the expected answer to a bad file; anything else
// escaping (another exception, a crash, a sanitizer report, an allocation over the fuzzer's
// limit) is a finding. Built only with -DSTRATA_FUZZ=ON by clang (scripts/fuzz.sh).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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

// Reads `v` whole in `mode`; false when that reader refused it (a strata::Error).
bool readWhole(const Variable& v, io::ReadMode mode, std::vector<unsigned char>& out) {
    io::setReadMode(mode);
    out.assign(v.nbytes(), 0);
    std::vector<std::int64_t> start(v.shape().size(), 0), count(v.shape().begin(), v.shape().end()),
        stride(v.shape().size(), 1);
    try {
        (void)v.source()->readPath();
        v.source()->read(start, count, stride, out.data());
        return true;
    } catch (const Error&) {
        return false;
    }
}

void compareReaders(const Variable& v) {
    if (!v.source() || v.size() == 0) return;
    std::vector<unsigned char> mine, theirs;
    const bool parallel = readWhole(v, io::ReadMode::Parallel, mine);
    const bool netcdf = readWhole(v, io::ReadMode::NetcdfC, theirs);
    io::setReadMode(io::ReadMode::Parallel);
    if (parallel && netcdf && mine != theirs) {
        std::fprintf(stderr, "fuzz_netcdf: %s: the parallel reader (%s) and netCDF-C disagree\n",
                     v.source()->describe().c_str(), v.source()->readPath().c_str());
        std::abort();
    }
}

void exercise(const Dataset& ds) {
    (void)ds.summary();
    for (const Coordinate& c : ds.coords)
        for (std::int64_t i = 0; i < std::int64_t(c.values.size()) && i < 4; ++i) (void)c.label(i);
    for (const auto& [name, v] : ds.variables) {
        if (!isNumeric(v.encoding().packed) || v.size() > kMaxLoadElements) continue;
        try {
            const DataArray a = ds[name];
            compareReaders(v);
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
