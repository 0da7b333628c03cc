// The window's state without a window (no QApplication): a view applied to a dataset says what
// changed, is refused whole when it does not fit, is kept for Undo and Redo, and another
// dataset starts from nothing but the projection.
#include <QtTest>

#include "strata/io/netcdf.h"
#include "workspace.h"

using namespace strata;
using namespace strata::app;

namespace {
const std::string kData = STRATA_TEST_DATA;

std::shared_ptr<const Dataset> open(const char* name) {
    return std::make_shared<Dataset>(openDataset(kData + "/" + name));
}

// HGT (time 21, lat 73, lon 144) of hgt.nc as a map at time `t`.
ViewSpec hgtMap(std::int64_t t = 0) {
    ViewSpec s;
    s.variable = "HGT";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", t}};
    return s;
}
} // namespace

class TestWorkspace : public QObject {
    Q_OBJECT
private slots:
    void applyTakesTheDatasetsFileAndSaysWhatChanged() {
        Workspace ws;
        ws.setDataset(open("hgt.nc"));
        ViewSpec wanted = hgtMap();
        wanted.file = "/somewhere/else.nc"; // the dataset's file wins
        ViewChange c = ws.apply(wanted);
        QCOMPARE(ws.view().file, kData + "/hgt.nc");
        QCOMPARE(ws.variable().name(), std::string("HGT"));
        QVERIFY(c.variable && c.roles && c.frame);

        c = ws.apply(hgtMap(5)); // a step: the frame, nothing else
        QVERIFY(c.frame);
        QVERIFY(!c.variable && !c.roles && !c.colouring && !c.window && !c.projection);
        QCOMPARE(c.before.indexOf("time"), 0);

        ViewSpec coloured = ws.view();
        coloured.colouring.colormap = "magma";
        c = ws.apply(coloured);
        QVERIFY(c.colouring);
        QVERIFY(!c.frame && !c.roles);

        ViewSpec zoomed = ws.view();
        zoomed.window = ViewWindow{0, 90, -30, 30};
        c = ws.apply(zoomed);
        QVERIFY(c.window && !c.frame && !c.colouring);

        ViewSpec mapped = ws.view();
        mapped.projection = "Robinson";
        c = ws.apply(mapped);
        QVERIFY(c.projection && !c.frame);

        ViewSpec reduced = ws.view();
        reduced.indices.clear();
        reduced.reductions = {{"time", ReduceOp::Mean}};
        c = ws.apply(reduced);
        QVERIFY(c.roles && c.frame && !c.variable);
    }

    void aViewThatDoesNotFitChangesNothing() {
        Workspace ws;
        QVERIFY_THROWS_EXCEPTION(Error, ws.apply(hgtMap())); // no dataset
        ws.setDataset(open("hgt.nc"));
        ws.apply(hgtMap(3));
        const ViewSpec before = ws.view();
        ViewSpec bad = hgtMap(3);
        bad.indices = {{"time", 21}}; // one past the end
        QVERIFY_THROWS_EXCEPTION(Error, ws.apply(bad));
        ViewSpec missing = hgtMap();
        missing.variable = "nope";
        QVERIFY_THROWS_EXCEPTION(Error, ws.apply(missing));
        QVERIFY(ws.view() == before);
        QCOMPARE(ws.variable().name(), std::string("HGT"));
        QVERIFY(!ws.canRedo());
    }

    void undoAndRedoWalkTheViews() {
        Workspace ws;
        ws.setDataset(open("hgt.nc"));
        ws.apply(hgtMap());
        ws.forgetHistory(); // the first view is no change to undo
        QVERIFY(!ws.canUndo());
        ViewSpec coloured = ws.view();
        coloured.colouring.reversed = true;
        ws.apply(coloured);
        ViewSpec step = ws.view();
        step.indices = {{"time", 7}};
        ws.apply(step); // a step only: not an entry of its own
        QVERIFY(ws.canUndo());
        const std::optional<ViewSpec> back = ws.undo();
        QVERIFY(back.has_value());
        QVERIFY(!back->colouring.reversed);
        ws.apply(*back, false); // an undone view is not recorded again
        QVERIFY(!ws.canUndo());
        QVERIFY(ws.canRedo());
        const std::optional<ViewSpec> again = ws.redo();
        QVERIFY(again && again->colouring.reversed);
        QVERIFY(!ws.redo()); // nothing left
    }

    void undoReturnsToTheLastView() {
        Workspace ws;
        ws.setDataset(open("hgt.nc"));
        ws.apply(hgtMap());
        ws.forgetHistory();
        const ViewSpec first = ws.view();
        ViewSpec reduced = first;
        reduced.indices.clear();
        reduced.reductions = {{"time", ReduceOp::Max}};
        ws.apply(reduced);
        QVERIFY(ws.undoReturnsTo(first));
        QVERIFY(!ws.undoReturnsTo(reduced));
    }

    void anotherDatasetKeepsOnlyTheProjection() {
        Workspace ws;
        ws.setDataset(open("hgt.nc"));
        ViewSpec mapped = hgtMap(4);
        mapped.projection = "Mollweide";
        mapped.colouring.colormap = "magma";
        ws.apply(mapped);
        ws.awaitFrame(12);
        ws.showFrame({ws.view(), DataArray(), std::nullopt, std::nullopt});
        QVERIFY(ws.awaitsFrame(12));

        ws.setDataset(open("reduced.nc"));
        QVERIFY(ws.view().variable.empty());
        QVERIFY(ws.view().colouring == Colouring{});
        QCOMPARE(ws.view().projection, std::string("Mollweide"));
        QVERIFY(!ws.screen().view.has_value());
        QVERIFY(!ws.awaitsFrame(12)); // an answer for the other dataset is not this view's
        QVERIFY(!ws.canUndo());
    }

    void aNewerVersionKeepsTheView() {
        Workspace ws;
        ws.setDataset(open("hgt.nc"));
        ws.apply(hgtMap(9));
        ws.setDataset(open("hgt.nc"), true);
        QCOMPARE(ws.view().indexOf("time"), 9);
        QVERIFY(!ws.apply(hgtMap(9)).roles); // the same roles on the newer data
    }
};

QTEST_APPLESS_MAIN(TestWorkspace)
#include "tst_workspace.moc"
