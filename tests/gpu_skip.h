#pragma once
// A test row that needs a CUDA device skips where there is none, unless STRATA_REQUIRE_GPU is
// set (not "0"): on the GPU machine a row that would skip fails instead, so that a GPU run
// cannot pass by skipping.
#include <QtTest>

#include <cstdlib>
#include <cstring>

namespace test {
inline bool requireGpu() {
    const char* e = std::getenv("STRATA_REQUIRE_GPU");
    return e && *e && std::strcmp(e, "0") != 0;
}
} // namespace test

// Leaves the test function: QFAIL under STRATA_REQUIRE_GPU, else QSKIP. `why` is a literal.
#define STRATA_SKIP_WITHOUT_GPU(why)                                                                         \
    do {                                                                                                     \
        if (::test::requireGpu()) QFAIL("STRATA_REQUIRE_GPU is set, but " why);                              \
        QSKIP(why);                                                                                          \
    } while (0)
