// FrameKey: what decides a frame's values. Every field of a view that changes the frame changes
// the key (and its hash); the colouring and the zoom window do not; the order the indices are
// listed in does not.
#include <QtTest>

#include <functional>
#include <unordered_set>

#include "view_spec.h"

using namespace strata;
using strata::app::ViewSpec;

namespace {

ViewSpec base() {
    ViewSpec s;
    s.file = "/data/hgt.nc";
    s.variable = "HGT";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", 3}, {"level", 2}};
    s.reductions = {{"member", ReduceOp::Mean}, {"run", ReduceOp::Max}};
    return s;
}

struct Change {
    const char* name;
    std::function<void(ViewSpec&)> apply;
};

// Changes that give another frame.
const std::vector<Change>& frameChanges() {
    static const std::vector<Change> changes{
        {"file", [](ViewSpec& s) { s.file = "/data/other.nc"; }},
        {"variable", [](ViewSpec& s) { s.variable = "T"; }},
        {"x dim", [](ViewSpec& s) { s.xDim = "time"; }},
        {"y dim", [](ViewSpec& s) { s.yDim = "level"; }},
        {"no y dim", [](ViewSpec& s) { s.yDim.clear(); }},
        {"an index", [](ViewSpec& s) { s.indices[0].second = 4; }},
        {"an index's dim", [](ViewSpec& s) { s.indices[1].first = "depth"; }},
        {"one more index",
         [](ViewSpec& s) {
             s.indices.push_back({"depth", 1});
         }},
        {"one index less", [](ViewSpec& s) { s.indices.pop_back(); }},
        {"a reduce op", [](ViewSpec& s) { s.reductions[0].second = ReduceOp::Std; }},
        {"a reduced dim", [](ViewSpec& s) { s.reductions[1].first = "depth"; }},
        {"the reductions' order", [](ViewSpec& s) { std::swap(s.reductions[0], s.reductions[1]); }},
        {"one reduction less", [](ViewSpec& s) { s.reductions.pop_back(); }},
        {"area-weighted", [](ViewSpec& s) { s.areaWeighted = true; }},
    };
    return changes;
}

// Changes that keep the frame: only how it is coloured or seen.
const std::vector<Change>& viewOnlyChanges() {
    static const std::vector<Change> changes{
        {"colour map", [](ViewSpec& s) { s.colouring.colormap = "magma"; }},
        {"reversed", [](ViewSpec& s) { s.colouring.reversed = true; }},
        {"range mode", [](ViewSpec& s) { s.colouring.range.mode = RangeMode::Symmetric; }},
        {"fixed range",
         [](ViewSpec& s) {
             s.colouring.range = {RangeMode::Fixed, -3, 4};
         }},
        {"NaN colour",
         [](ViewSpec& s) {
             s.colouring.nanColour = {0, 0, 0, 255};
         }},
        {"window",
         [](ViewSpec& s) {
             s.window = ViewWindow{10, 20, 30, 40};
         }},
        {"projection", [](ViewSpec& s) { s.projection = "Mollweide"; }},
        {"indices listed in another order", [](ViewSpec& s) { std::swap(s.indices[0], s.indices[1]); }},
    };
    return changes;
}

std::size_t hashOf(const FrameKey& k) { return std::hash<FrameKey>{}(k); }

} // namespace

class TestFrameKey : public QObject {
    Q_OBJECT
private slots:
    void keyOfCopiesTheFramesFields() {
        const ViewSpec s = base();
        const FrameKey k = keyOf(s);
        QCOMPARE(k.file, s.file);
        QCOMPARE(k.variable, s.variable);
        QCOMPARE(k.xDim, s.xDim);
        QCOMPARE(k.yDim, s.yDim);
        QCOMPARE(k.reductions, s.reductions);
        QCOMPARE(k.areaWeighted, s.areaWeighted);
        // Indices sorted by dim.
        const std::vector<std::pair<std::string, std::int64_t>> sorted{{"level", 2}, {"time", 3}};
        QCOMPARE(k.indices, sorted);
    }

    void aChangeToTheFrameChangesTheKey_data() {
        QTest::addColumn<int>("change");
        for (int i = 0; i < int(frameChanges().size()); ++i) QTest::newRow(frameChanges()[i].name) << i;
    }
    void aChangeToTheFrameChangesTheKey() {
        QFETCH(int, change);
        ViewSpec s = base();
        frameChanges()[change].apply(s);
        QVERIFY(!(keyOf(s) == keyOf(base())));
        QVERIFY(hashOf(keyOf(s)) != hashOf(keyOf(base())));
    }

    void colouringAndWindowKeepTheKey_data() {
        QTest::addColumn<int>("change");
        for (int i = 0; i < int(viewOnlyChanges().size()); ++i) QTest::newRow(viewOnlyChanges()[i].name) << i;
    }
    void colouringAndWindowKeepTheKey() {
        QFETCH(int, change);
        ViewSpec s = base();
        viewOnlyChanges()[change].apply(s);
        // Another view of the same frame.
        QVERIFY(s != base());
        QVERIFY(keyOf(s) == keyOf(base()));
        QCOMPARE(hashOf(keyOf(s)), hashOf(keyOf(base())));
    }

    void keysInAnUnorderedSet() {
        // Every frame change is a key of its own; the view-only changes all land on base's.
        std::unordered_set<FrameKey> keys{keyOf(base())};
        for (const Change& c : frameChanges()) {
            ViewSpec s = base();
            c.apply(s);
            QVERIFY2(keys.insert(keyOf(s)).second, c.name);
        }
        for (const Change& c : viewOnlyChanges()) {
            ViewSpec s = base();
            c.apply(s);
            QVERIFY2(!keys.insert(keyOf(s)).second, c.name);
        }
        QCOMPARE(keys.size(), frameChanges().size() + 1);
    }
};

QTEST_APPLESS_MAIN(TestFrameKey)
#include "tst_framekey.moc"
