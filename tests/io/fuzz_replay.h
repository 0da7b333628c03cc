#pragma once
// The replay builds of the fuzz targets (STRATA_FUZZ_REPLAY): every file of the directories (or
// the files) named on the command line through LLVMFuzzerTestOneInput; a crash fails the test.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace fuzztest {

// Replays argv[1..]: a directory's files that `wanted` takes, or a file as named. Prints the
// count under `name`; 1 when there was nothing to replay.
inline int replay(int argc, char** argv, const char* name,
                  const std::function<bool(const std::filesystem::path&)>& wanted) {
    namespace fs = std::filesystem;
    int files = 0;
    for (int a = 1; a < argc; ++a) {
        std::vector<fs::path> inputs;
        if (fs::is_directory(argv[a])) {
            for (const auto& e : fs::directory_iterator(argv[a]))
                if (e.is_regular_file() && wanted(e.path())) inputs.push_back(e.path());
        } else {
            inputs.emplace_back(argv[a]);
        }
        for (const fs::path& p : inputs) {
            std::ifstream in(p, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
            ++files;
        }
    }
    std::printf("%s: %d inputs, no crash\n", name, files);
    return files > 0 ? 0 : 1;
}

} // namespace fuzztest
