// planSlabs, the slabs of a whole-variable load: plain slabs of the budget for an unchunked
// source; for a chunked one (Zarr), slabs cut at chunk boundaries so that no chunk is read
// twice, and a chunk larger than the budget cut into slabs within it. Expected plans are
// worked out by hand; the properties (cover every row once, within the budget, no slab across
// a chunk boundary) are checked over many shapes by the test's own arithmetic.
#include <QtTest>

#include "strata/core/load_plan.h"

using namespace strata;

namespace {
using Plan = std::vector<SlabRows>;
}

class TestLoadPlan : public QObject {
    Q_OBJECT
private slots:
    void unchunked() {
        // 64 MiB of 1440 x 721 float32 steps: 16 steps a slab (the old plan, chunks unknown).
        const std::size_t step = 1440 * 721 * 4;
        const Plan p = planSlabs(40, step, std::size_t(64) << 20);
        QVERIFY((p == Plan{{0, 16}, {16, 16}, {32, 8}}));
        QVERIFY((planSlabs(3, 100, 10) == Plan{{0, 1}, {1, 1}, {2, 1}})); // at least one row
        QVERIFY(planSlabs(0, 100, 1000).empty());
    }

    // The case: chunks of 10 steps, a budget of 15 steps: slabs of one chunk, not 15
    // steps that split every other chunk.
    void wholeChunks() {
        const std::size_t step = 1440 * 721 * 4;
        QVERIFY((planSlabs(45, step, 15 * step, 0, 1, 10) ==
                 Plan{{0, 10}, {10, 10}, {20, 10}, {30, 10}, {40, 5}}));
        QVERIFY((planSlabs(45, step, 25 * step, 0, 1, 10) == Plan{{0, 20}, {20, 20}, {40, 5}}));
        // A load of source steps 7 to 37 with room for two chunks: the first slab ends at 20
        // (the end of the chunk after the partial one), the next at the load's end.
        QVERIFY((planSlabs(31, step, 20 * step, 7, 1, 10) == Plan{{0, 13}, {13, 18}}));
        // A step other than 1 meets chunks unevenly: plain slabs.
        QVERIFY((planSlabs(10, step, 4 * step, 0, 2, 10) == Plan{{0, 4}, {4, 4}, {8, 2}}));
    }

    // Chunks of 10 steps, a budget of 3: each chunk in near-equal slabs of 2 or 3, never across.
    void chunkLargerThanBudget() {
        QVERIFY((planSlabs(15, 8, 24, 0, 1, 10) == Plan{{0, 2}, {2, 3}, {5, 2}, {7, 3}, {10, 2}, {12, 3}}));
        // A row larger than the budget: one row a slab.
        QVERIFY((planSlabs(4, 1000, 10, 0, 1, 2) == Plan{{0, 1}, {1, 1}, {2, 1}, {3, 1}}));
    }

    void properties() {
        for (std::int64_t rows = 1; rows <= 40; ++rows)
            for (std::int64_t start = 0; start < 12; ++start)
                for (std::int64_t chunk = 1; chunk <= 13; ++chunk)
                    for (std::int64_t budgetRows = 1; budgetRows <= 30; budgetRows += 3) {
                        const Plan p = planSlabs(rows, 4, std::size_t(budgetRows) * 4, start, 1, chunk);
                        std::int64_t next = 0;
                        std::vector<int> slabsMeeting((start + rows) / chunk + 1, 0);
                        for (const SlabRows& s : p) {
                            QCOMPARE(s.first, next); // contiguous, in order
                            QVERIFY(s.count >= 1 && s.count <= budgetRows);
                            const std::int64_t a = start + s.first, b = a + s.count - 1;
                            if (chunk <= budgetRows) // whole chunks fit: no slab ends inside one
                                QVERIFY(b + 1 == start + rows || (b + 1) % chunk == 0);
                            else // a slab never crosses a chunk boundary
                                QCOMPARE(a / chunk, b / chunk);
                            for (std::int64_t c = a / chunk; c <= b / chunk; ++c)
                                ++slabsMeeting[std::size_t(c)];
                            next += s.count;
                        }
                        QCOMPARE(next, rows);
                        if (chunk <= budgetRows) // each chunk read by exactly one slab
                            for (std::int64_t c = start / chunk; c <= (start + rows - 1) / chunk; ++c)
                                QCOMPARE(slabsMeeting[std::size_t(c)], 1);
                    }
    }
};

QTEST_GUILESS_MAIN(TestLoadPlan)
#include "tst_loadplan.moc"
