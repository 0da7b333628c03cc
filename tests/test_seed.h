#pragma once
// A replayable seed for tests that draw random inputs: STRATA_TEST_SEED when it is set, else a
// fresh one, the same for the whole process. Each test function seeds its own generator from
// it, so that `STRATA_TEST_SEED=<n> tst_x function` repeats a failed run alone. The seed is
// printed at its first use and again after each test function that failed (call
// test::reportSeedOnFailure() from the test class's cleanup() slot).
#include <QRandomGenerator>
#include <QtTest>

#include <cstdint>
#include <cstdlib>

namespace test {

inline std::uint64_t testSeed() {
    static const std::uint64_t seed = [] {
        const char* fixed = std::getenv("STRATA_TEST_SEED");
        const std::uint64_t s =
            fixed && *fixed ? std::strtoull(fixed, nullptr, 10) : QRandomGenerator::global()->generate64();
        qInfo("random inputs from seed %llu (STRATA_TEST_SEED=%llu repeats them)",
              static_cast<unsigned long long>(s), static_cast<unsigned long long>(s));
        return s;
    }();
    return seed;
}

inline void reportSeedOnFailure() {
    if (QTest::currentTestFailed())
        qWarning("%s failed with random inputs from seed %llu: STRATA_TEST_SEED=%llu repeats them",
                 QTest::currentTestFunction(), static_cast<unsigned long long>(testSeed()),
                 static_cast<unsigned long long>(testSeed()));
}

} // namespace test
