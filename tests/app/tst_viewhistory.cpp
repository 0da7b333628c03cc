// ViewHistory: what Undo and Redo keep of the views a user went through.
#include <QtTest>

#include "view_history.h"

using namespace strata;
using namespace strata::app;

namespace {

ViewSpec sample() {
    ViewSpec s;
    s.variable = "tas";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", 5}};
    return s;
}

} // namespace

class TestViewHistory : public QObject {
    Q_OBJECT
private slots:
    void undoAndRedoWalkTheChanges() {
        ViewHistory h;
        ViewSpec a = sample(), b = a, c = a;
        b.reductions = {{"time", ReduceOp::Mean}};
        b.indices.clear();
        c.colouring.colormap = "magma";
        h.record(a, b);
        h.record(b, c);
        ViewSpec out;
        QVERIFY(h.undo(c, out));
        QCOMPARE(out, b);
        QVERIFY(h.undo(b, out));
        QCOMPARE(out, a); // with the time index it had
        QVERIFY(!h.undo(a, out));
        QVERIFY(h.redo(a, out));
        QCOMPARE(out, b);
        QVERIFY(h.redo(b, out));
        QCOMPARE(out, c);
        QVERIFY(!h.canRedo());
    }

    void aNewChangeForgetsRedo() {
        ViewHistory h;
        ViewSpec a = sample(), b = a, c = a;
        b.yDim = "time";
        c.colouring.reversed = true;
        h.record(a, b);
        ViewSpec out;
        QVERIFY(h.undo(b, out));
        h.record(a, c);
        QVERIFY(!h.canRedo());
    }

    void stepsAreNoEntries() {
        ViewHistory h;
        ViewSpec a = sample(), b = a;
        b.indices = {{"time", 6}};
        h.record(a, b);
        QVERIFY(!h.canUndo());
        QVERIFY(differsOnlyInIndices(a, b));
        b.colouring.colormap = "magma";
        QVERIFY(!differsOnlyInIndices(a, b));
    }

    void aZoomGestureIsOneEntry() {
        ViewHistory h;
        ViewSpec a = sample(), b = a, c = a, d = a;
        b.window = ViewWindow{0, 100, -50, 50};
        c.window = ViewWindow{10, 90, -40, 40};
        d.window = ViewWindow{20, 80, -30, 30};
        h.record(a, b);
        h.record(b, c);
        h.record(c, d);
        ViewSpec out;
        QVERIFY(h.undo(d, out));
        QCOMPARE(out, a);
        QVERIFY(!h.canUndo());
    }

    // What Undo names: the two foremost changes, or "View".
    void aChangeIsDescribedByWhatChanged() {
        const ViewSpec a = sample();
        ViewSpec b = a;
        QCOMPARE(describeChange(a, b), std::string("View"));
        b.colouring.colormap = "magma";
        QCOMPARE(describeChange(a, b), std::string("Colour Map"));
        b.colouring.range = {RangeMode::Fixed, 250, 300};
        QCOMPARE(describeChange(a, b), std::string("Colour Map and Colour Range"));
        b = a;
        b.reductions = {{"time", ReduceOp::Mean}};
        b.indices.clear();
        QCOMPARE(describeChange(a, b), std::string("Reduction and Slice"));
        b = a;
        b.yDim = "time";
        b.window = ViewWindow{0, 1, 0, 1};
        b.projection = "Robinson";
        QCOMPARE(describeChange(a, b), std::string("Axes and Projection")); // zoom is third
        b = a;
        b.variable = "pr";
        QCOMPARE(describeChange(b, a), std::string("Variable"));
        b = a;
        b.colouring.nanColour = {1, 2, 3, 4};
        QCOMPARE(describeChange(a, b), std::string("Colours"));
        b = a;
        b.areaWeighted = true;
        QCOMPARE(describeChange(a, b), std::string("Area Weighting"));
    }
};

QTEST_APPLESS_MAIN(TestViewHistory)
#include "tst_viewhistory.moc"
