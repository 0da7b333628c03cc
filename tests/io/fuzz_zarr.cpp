// libFuzzer target over the Zarr reader: metadata parsing (JSON, shapes, types, fill values,
// codec chains) and the decoding of one chunk. The input is a one-array store:
//   '2' or '3' (the Zarr version), then NUL-separated parts: the array's metadata (.zarray or
//   zarr.json), .zattrs (v2), a chunk key (digits, 'c', '.' and '/'), and that chunk's bytes.
// It is written to a scratch directory, opened, and read whole when small. A strata::Error is
// the expected answer to a bad store; anything else escaping (another exception, a crash, a
// sanitizer report) is a finding. Built with -DSTRATA_FUZZ=ON by clang (scripts/fuzz.sh,
// STRATA_FUZZ_TARGET=fuzz_zarr); built as fuzz_zarr_replay otherwise, which runs the seed
// corpus in tests/data/zarr_fuzz (and any files it is given) as a test.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "strata/core/error.h"
#include "strata/io/zarr.h"

using namespace strata;
namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kMaxLoadElements = std::int64_t(1) << 16;

fs::path scratch() {
    const char* dir = std::getenv("STRATA_FUZZ_DIR");
    return fs::path(dir && *dir ? dir : "/dev/shm") / ("strata-fuzz-zarr-" + std::to_string(getpid()));
}

void write(const fs::path& p, const std::string& bytes) {
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

bool plainKey(const std::string& key) {
    if (key.empty() || key.size() > 24 || key.find("..") != std::string::npos || key[0] == '/') return false;
    for (char c : key)
        if (!(std::isdigit(static_cast<unsigned char>(c)) || c == 'c' || c == '.' || c == '/')) return false;
    return key.back() != '/';
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1 || (data[0] != '2' && data[0] != '3')) return 0;
    std::vector<std::string> parts(1);
    for (std::size_t i = 1; i < size; ++i) {
        if (data[i] == 0 && parts.size() < 4)
            parts.emplace_back();
        else
            parts.back() += char(data[i]);
    }
    parts.resize(4);
    const fs::path store = scratch();
    std::error_code ec;
    fs::remove_all(store, ec);
    fs::create_directories(store, ec);
    write(store / (data[0] == '2' ? ".zarray" : "zarr.json"), parts[0]);
    if (data[0] == '2' && !parts[1].empty()) write(store / ".zattrs", parts[1]);
    if (plainKey(parts[2])) {
        fs::create_directories((store / parts[2]).parent_path(), ec);
        write(store / parts[2], parts[3]);
    }
    try {
        OpenNotes notes;
        const Dataset ds = openZarr(store.string(), notes);
        (void)ds.summary();
        for (const auto& [name, v] : ds.variables) {
            if (v.size() > kMaxLoadElements) continue;
            std::vector<unsigned char> out(v.nbytes());
            const std::vector<std::int64_t> zero(v.shape().size(), 0), one(v.shape().size(), 1);
            v.source()->read(zero, v.shape(), one, out.data());
        }
    } catch (const Error&) {
    }
    fs::remove_all(store, ec);
    return 0;
}

#ifdef STRATA_FUZZ_REPLAY
#include "fuzz_replay.h"

// Runs every file of the given directories (or files) through the target; a crash fails.
int main(int argc, char** argv) {
    return fuzztest::replay(argc, argv, "fuzz_zarr_replay", [](const fs::path&) { return true; });
}
#endif
