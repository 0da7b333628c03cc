// PrefetchPlan: the steps around a frame, nearest first, in both directions, wrapping round the
// ends of the dim, each once and never the frame itself; a new view gets one step along its
// first slider's dim. The expected lists are written out by hand from the rule in the header.
#include <QtTest>

#include "prefetch_plan.h"

using namespace strata;
using namespace strata::app;

namespace {

using Indices = std::vector<std::int64_t>;
const std::vector<std::string> kDims{"time", "level", "lat", "lon"};
const std::vector<std::int64_t> kShape{21, 5, 73, 144};

FrameSpec mapAt(std::int64_t time, std::int64_t level = 0) {
    FrameSpec s;
    s.variable = "HGT";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", time}, {"level", level}};
    return s;
}

} // namespace

class TestPrefetchPlan : public QObject {
    Q_OBJECT
private slots:
    void forwardsInTheMiddle() {
        const auto steps = PrefetchPlan(8, 2).around(mapAt(10), kDims, kShape, "time", +1);
        QCOMPARE(steps.dim, std::string("time"));
        // two ahead, one behind, six more ahead, one more behind
        QCOMPARE(steps.indices, (Indices{11, 12, 9, 13, 14, 15, 16, 17, 18, 8}));
    }

    void backwardsInTheMiddle() {
        const auto steps = PrefetchPlan(3, 2).around(mapAt(10), kDims, kShape, "time", -1);
        QCOMPARE(steps.indices, (Indices{9, 8, 11, 7, 12}));
    }

    // Play loops: past the last step comes the first, before the first the last.
    void theEndsWrapRound() {
        const auto atEnd = PrefetchPlan(3, 1).around(mapAt(20), kDims, kShape, "time", +1);
        QCOMPARE(atEnd.indices, (Indices{0, 1, 19, 2}));
        const auto atStart = PrefetchPlan(3, 2).around(mapAt(0), kDims, kShape, "time", -1);
        QCOMPARE(atStart.indices, (Indices{20, 19, 1, 18, 2}));
    }

    // A dim shorter than the steps asked for: each step once, never the frame shown.
    void aShortDimGivesEachStepOnce() {
        const auto steps = PrefetchPlan(8, 2).around(mapAt(10, 1), kDims, kShape, "level", +1);
        QCOMPARE(steps.dim, std::string("level"));
        QCOMPARE(steps.indices, (Indices{2, 3, 0, 4}));
        const std::vector<std::int64_t> one{21, 1, 73, 144};
        const auto none = PrefetchPlan(8, 2).around(mapAt(3), kDims, one, "level", +1);
        QCOMPARE(none.dim, std::string("level"));
        QVERIFY(none.indices.empty());
    }

    // A new view (no direction): the next step of the first sliced dim only, or of the dim named.
    void aNewViewGetsOneStep() {
        const auto first = PrefetchPlan(8, 2).around(mapAt(20, 4), kDims, kShape, "", 0);
        QCOMPARE(first.dim, std::string("time"));
        QCOMPARE(first.indices, (Indices{0}));
        const auto named = PrefetchPlan(8, 2).around(mapAt(20, 4), kDims, kShape, "level", 0);
        QCOMPARE(named.dim, std::string("level"));
        QCOMPARE(named.indices, (Indices{0}));
    }

    void nothingToPlan() {
        QVERIFY(PrefetchPlan(0, 0).around(mapAt(3), kDims, kShape, "time", +1).dim.empty());
        QCOMPARE(PrefetchPlan(0, 2).around(mapAt(3), kDims, kShape, "time", +1).indices, (Indices{2, 1}));
        QVERIFY(PrefetchPlan(8, 2).around(mapAt(3), kDims, kShape, "height", +1).dim.empty());
        FrameSpec all; // every dim shown: nothing sliced
        all.xDim = "lon";
        all.yDim = "lat";
        const std::vector<std::string> dims{"lat", "lon"};
        QVERIFY(PrefetchPlan(8, 2).around(all, dims, {73, 144}, "", 0).dim.empty());
    }
};

QTEST_APPLESS_MAIN(TestPrefetchPlan)
#include "tst_prefetchplan.moc"
