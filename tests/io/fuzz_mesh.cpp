// libFuzzer target over the mesh readers (mesh.h) and the face locator (face_locator.h): the
// input's bytes become a netCDF file, which is opened; meshOf is asked about every variable,
// and each mesh found is indexed by a FaceLocator and asked for a few points (its first faces'
// centres, the poles, the antimeridian) and their node weights. A strata::Error is the expected
// answer to a bad file; anything else escaping (another exception, a crash, a sanitizer report,
// an allocation over the fuzzer's limit) is a finding. Built with -DSTRATA_FUZZ=ON by clang
// (scripts/fuzz.sh, STRATA_FUZZ_TARGET=fuzz_mesh); built as fuzz_mesh_replay otherwise, which
// runs the mesh files in tests/data/mesh (and any files it is given) as a test.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "strata/core/error.h"
#include "strata/core/face_locator.h"
#include "strata/core/memory_budget.h"
#include "strata/core/mesh.h"
#include "strata/io/netcdf.h"

using namespace strata;
namespace fs = std::filesystem;

namespace {

std::string scratchPath() {
    const char* dir = std::getenv("STRATA_FUZZ_DIR");
    return std::string(dir && *dir ? dir : "/dev/shm") + "/strata-fuzz-mesh-" + std::to_string(getpid()) +
           ".nc";
}

bool writeFile(const std::string& path, const std::uint8_t* data, std::size_t size) {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) return false;
    const bool ok = std::fwrite(data, 1, size, f) == size;
    return std::fclose(f) == 0 && ok;
}

void probe(const mesh::Placement& p) {
    const auto m = std::make_shared<const mesh::Mesh>(p.mesh);
    const mesh::FaceLocator locator(m);
    std::vector<double> lon{0, 180, -180, 45, 0, 0, 359.999}, lat{0, 10, -10, 45, 90, -90, 0};
    for (std::int64_t f = 0; f < m->faces() && f < 8; ++f) {
        lon.push_back(m->faceLon[std::size_t(f)]);
        lat.push_back(m->faceLat[std::size_t(f)]);
    }
    std::vector<double> w(std::size_t(m->maxNodes));
    for (std::size_t i = 0; i < lon.size(); ++i) {
        const std::int64_t f = locator.find(lon[i], lat[i]);
        if (f >= 0) (void)locator.weights(f, lon[i], lat[i], w.data());
    }
    (void)locator.findAll(lon.data(), lat.data(), lon.size());
}

void exercise(const Dataset& ds) {
    for (const auto& [name, v] : ds.variables) {
        try {
            if (const auto p = mesh::meshOf(ds, ds[name])) probe(*p);
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
        exercise(openDataset(path, notes));
    } catch (const Error&) { // the expected outcome for a bad file
    }
    return 0;
}

#ifdef STRATA_FUZZ_REPLAY
#include "fuzz_replay.h"

// Runs every file of the given directories (or files) through the target; a crash fails.
int main(int argc, char** argv) {
    LLVMFuzzerInitialize(&argc, &argv);
    const int status = fuzztest::replay(argc, argv, "fuzz_mesh_replay", [](const fs::path& p) {
        return p.extension() == ".nc" || p.extension() == ".ug";
    });
    std::remove(scratchPath().c_str());
    return status;
}
#endif
