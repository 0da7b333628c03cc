// The app's ViewSpec as a value: equality and a hash over every field (the frame's, the
// colouring, the zoom window and the projection), and the Colouring it holds.
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
    s.reductions = {{"member", ReduceOp::Mean}};
    s.colouring.range = {RangeMode::Fixed, -1, 1};
    s.window = ViewWindow{0, 180, -45, 45};
    return s;
}

struct Change {
    const char* name;
    std::function<void(ViewSpec&)> apply;
};

const std::vector<Change>& changes() {
    static const std::vector<Change> all{
        {"file", [](ViewSpec& s) { s.file = "/data/other.nc"; }},
        {"variable", [](ViewSpec& s) { s.variable = "T"; }},
        {"x dim", [](ViewSpec& s) { s.xDim = "time"; }},
        {"y dim", [](ViewSpec& s) { s.yDim.clear(); }},
        {"an index", [](ViewSpec& s) { s.indices[0].second = 4; }},
        {"the indices' order", [](ViewSpec& s) { std::swap(s.indices[0], s.indices[1]); }},
        {"a reduce op", [](ViewSpec& s) { s.reductions[0].second = ReduceOp::Min; }},
        {"area-weighted", [](ViewSpec& s) { s.areaWeighted = true; }},
        {"colour map", [](ViewSpec& s) { s.colouring.colormap = "RdBu"; }},
        {"reversed", [](ViewSpec& s) { s.colouring.reversed = true; }},
        {"range mode", [](ViewSpec& s) { s.colouring.range.mode = RangeMode::Frame; }},
        {"fixed min", [](ViewSpec& s) { s.colouring.range.fixedMin = -2; }},
        {"fixed max", [](ViewSpec& s) { s.colouring.range.fixedMax = 2; }},
        {"NaN colour", [](ViewSpec& s) { s.colouring.nanColour.g = 200; }},
        {"under colour",
         [](ViewSpec& s) {
             s.colouring.underColour = Rgba8{0, 0, 0, 255};
         }},
        {"over colour",
         [](ViewSpec& s) {
             s.colouring.overColour = Rgba8{0, 0, 0, 255};
         }},
        {"NaN alpha", [](ViewSpec& s) { s.colouring.nanColour.a = 0; }},
        {"window x0", [](ViewSpec& s) { s.window->x0 = 10; }},
        {"window y1", [](ViewSpec& s) { s.window->y1 = 40; }},
        {"no window", [](ViewSpec& s) { s.window.reset(); }},
        {"files",
         [](ViewSpec& s) {
             s.files = {"/data/a.nc", "/data/b.nc"};
         }},
        {"projection", [](ViewSpec& s) { s.projection = "Robinson"; }},
    };
    return all;
}

std::size_t hashOf(const ViewSpec& s) { return std::hash<ViewSpec>{}(s); }

} // namespace

class TestViewSpec : public QObject {
    Q_OBJECT
private slots:
    void equalCopiesHashAlike() {
        const ViewSpec a = base(), b = base();
        QVERIFY(a == b);
        QCOMPARE(hashOf(a), hashOf(b));
        QVERIFY(ViewSpec() == ViewSpec());
        QCOMPARE(hashOf(ViewSpec()), hashOf(ViewSpec()));
    }

    void everyFieldCounts_data() {
        QTest::addColumn<int>("change");
        for (int i = 0; i < int(changes().size()); ++i) QTest::newRow(changes()[i].name) << i;
    }
    void everyFieldCounts() {
        QFETCH(int, change);
        ViewSpec s = base();
        changes()[change].apply(s);
        QVERIFY(s != base());
        QVERIFY(hashOf(s) != hashOf(base()));
    }

    void specsInAnUnorderedSet() {
        std::unordered_set<ViewSpec> specs{base()};
        QVERIFY(!specs.insert(base()).second);
        for (const Change& c : changes()) {
            ViewSpec s = base();
            c.apply(s);
            QVERIFY2(specs.insert(s).second, c.name);
        }
        QCOMPARE(specs.size(), changes().size() + 1);
    }

    void colouringDefaults() {
        // The colouring a view starts with: viridis, not reversed, per frame, NaN in a neutral
        // grey (not a loud colour that looks like data), no under or over colour.
        const Colouring c;
        QCOMPARE(c.colormap, std::string("viridis"));
        QVERIFY(!c.reversed);
        QCOMPARE(c.range.mode, RangeMode::Frame);
        QVERIFY(c.nanColour.r == c.nanColour.g && c.nanColour.g == c.nanColour.b);
        QVERIFY(!c.underColour && !c.overColour);
        QVERIFY(ViewSpec().colouring == c);
        QVERIFY(!ViewSpec().window);
        Colouring other = c;
        other.nanColour.b = 0;
        QVERIFY(other != c);
        other = c;
        other.overColour = Rgba8{1, 2, 3, 255};
        QVERIFY(other != c);
    }
};

QTEST_APPLESS_MAIN(TestViewSpec)
#include "tst_viewspec.moc"
