// The rules of the dimension bar, without a window: default roles (CF lat/lon first), moving
// a dim to X, Y, Slice or Reduce with swaps, refusals, and fitting a saved view to a file.
#include <QtTest>

#include "strata/io/netcdf.h"
#include "view_roles.h"

using namespace strata;
using namespace strata::app;

namespace {
const QString kData = QStringLiteral(STRATA_TEST_DATA);
const std::vector<std::string> kDims{"time", "level", "lat", "lon"};

ViewSpec base() {
    ViewSpec s;
    s.variable = "v";
    s.xDim = "lon";
    s.yDim = "lat";
    s.indices = {{"time", 3}, {"level", 2}};
    return s;
}
} // namespace

class TestViewRoles : public QObject {
    Q_OBJECT
private slots:
    void withIndexSetsInPlaceOrAdds() {
        using Indices = std::vector<std::pair<std::string, std::int64_t>>;
        QCOMPARE(withIndex(base(), "time", 7).indices, (Indices{{"time", 7}, {"level", 2}})); // in place
        QCOMPARE(withIndex(base(), "level", 0).indices, (Indices{{"time", 3}, {"level", 0}}));
        ViewSpec none = base();
        none.indices = {{"level", 2}};
        QCOMPARE(withIndex(none, "time", 5).indices, (Indices{{"level", 2}, {"time", 5}})); // added
        QCOMPARE(withIndex(base(), "time", 7).xDim, std::string("lon")); // nothing else changes
    }
    void defaultsFromCfAttributes() {
        // hgt: (time, lat, lon) with degrees_north/east units.
        const Dataset hgt = openDataset((kData + "/hgt.nc").toStdString());
        QCOMPARE(latitudeLikeDim(hgt["HGT"]), std::string("lat"));
        QCOMPARE(longitudeLikeDim(hgt["HGT"]), std::string("lon"));
        ViewSpec v = defaultView(hgt, "HGT");
        QCOMPARE(v.xDim, std::string("lon"));
        QCOMPARE(v.yDim, std::string("lat"));
        QCOMPARE(v.slicedDims(hgt["HGT"].dims()), std::vector<std::string>{"time"});
        // reduced.nc stores (time, zlev, lat, lon): lat/lon recognised, the rest sliced.
        const Dataset sst = openDataset((kData + "/reduced.nc").toStdString());
        v = defaultView(sst, "sst");
        QCOMPARE(v.yDim, std::string("lat"));
        QCOMPARE(v.xDim, std::string("lon"));
        QCOMPARE(defaultVariable(sst), std::string("sst"));
        // The sample: tas, not one of the bounds variables.
        QCOMPARE(defaultVariable(openDataset((kData + "/tas_rectilinear_grid_2D.nc").toStdString())),
                 std::string("tas"));
    }

    void ontoOccupiedXSwapsWithWhereItCameFrom() {
        ViewSpec s = assignRole(base(), kDims, "time", Role::X);
        QCOMPARE(s.xDim, std::string("time"));
        QCOMPARE(s.yDim, std::string("lat"));
        QCOMPARE(roleOf(s, "lon"), Role::Slice); // lon took time's place
        QCOMPARE(s.indexOf("lon"), 0);
        QCOMPARE(s.indexOf("level"), 2); // untouched
        QVERIFY(std::none_of(s.indices.begin(), s.indices.end(), [](auto& p) { return p.first == "time"; }));
        // X and Y swap.
        s = assignRole(base(), kDims, "lat", Role::X);
        QCOMPARE(s.xDim, std::string("lat"));
        QCOMPARE(s.yDim, std::string("lon"));
    }

    void ontoReduceAndOps() {
        ViewSpec s = assignRole(base(), kDims, "level", Role::Reduce, ReduceOp::Mean);
        QCOMPARE(s.reductions.size(), std::size_t(1));
        QCOMPARE(s.reductions[0], (std::pair<std::string, ReduceOp>{"level", ReduceOp::Mean}));
        s = assignRole(s, kDims, "level", Role::Reduce, ReduceOp::Std); // the op changes in place
        QCOMPARE(s.reductions[0].second, ReduceOp::Std);
        // A reduced dim dragged onto Y swaps with lat, which goes to Reduce with the same op.
        s = assignRole(s, kDims, "level", Role::Y);
        QCOMPARE(s.yDim, std::string("level"));
        QCOMPARE(s.reductions[0], (std::pair<std::string, ReduceOp>{"lat", ReduceOp::Std}));
    }

    void leavingXEmpty() {
        // X onto Slice: Y moves to X, a line.
        ViewSpec s = assignRole(base(), kDims, "lon", Role::Slice);
        QCOMPARE(s.xDim, std::string("lat"));
        QVERIFY(s.yDim.empty());
        // Y onto Slice: a line along X.
        s = assignRole(base(), kDims, "lat", Role::Slice);
        QCOMPARE(s.xDim, std::string("lon"));
        QVERIFY(s.yDim.empty());
        // X onto an empty Y: the first sliced dim fills X.
        s = assignRole(s, kDims, "lon", Role::Y);
        QCOMPARE(s.yDim, std::string("lon"));
        QCOMPARE(s.xDim, std::string("time"));
        // The last displayed dim cannot leave: refused, unchanged.
        ViewSpec line;
        line.variable = "v";
        line.xDim = "t";
        const ViewSpec same = assignRole(line, {"t"}, "t", Role::Reduce);
        QCOMPARE(same.xDim, std::string("t"));
        QVERIFY(same.reductions.empty());
        // Unknown dims change nothing.
        QCOMPARE(assignRole(base(), kDims, "nope", Role::X).xDim, std::string("lon"));
    }

    void theWindowGoesWithTheAxes() {
        // The zoom and pan window is in X's and Y's coordinates: kept while they stay, dropped
        // when either changes.
        ViewSpec zoomed = base();
        zoomed.window = ViewWindow{10, 20, -5, 5};
        ViewSpec s = assignRole(zoomed, kDims, "level", Role::Reduce, ReduceOp::Mean);
        QVERIFY(s.window == zoomed.window);
        s = assignRole(s, kDims, "level", Role::Reduce, ReduceOp::Max); // another op
        QVERIFY(s.window == zoomed.window);
        s = assignRole(s, kDims, "time", Role::Slice); // already sliced: unchanged
        QVERIFY(s.window == zoomed.window);
        QVERIFY(!assignRole(zoomed, kDims, "lat", Role::X).window);     // X and Y swap
        QVERIFY(!assignRole(zoomed, kDims, "time", Role::Y).window);    // another Y
        QVERIFY(!assignRole(zoomed, kDims, "lat", Role::Slice).window); // a line
        // Fitting a saved view to a file: kept, unless Y is dropped (a line then).
        const Dataset hgt = openDataset((kData + "/hgt.nc").toStdString());
        ViewSpec saved = defaultView(hgt, "HGT");
        saved.window = ViewWindow{100, 200, 0, 40};
        ViewSpec out;
        QVERIFY(fitViewTo(saved, hgt, out));
        QVERIFY(out.window == saved.window);
        saved.yDim = "level"; // not in the file
        QVERIFY(fitViewTo(saved, hgt, out));
        QVERIFY(out.yDim.empty());
        QVERIFY(!out.window);
    }

    void fittingASavedView() {
        const Dataset hgt = openDataset((kData + "/hgt.nc").toStdString());
        ViewSpec saved = defaultView(hgt, "HGT");
        saved.indices = {{"time", 500}, {"ghost", 1}}; // out of range, and a dim the file lacks
        ViewSpec out;
        QVERIFY(fitViewTo(saved, hgt, out));
        QCOMPARE(out.indexOf("time"), 20); // clamped to the last
        QVERIFY(
            std::none_of(out.indices.begin(), out.indices.end(), [](auto& p) { return p.first == "ghost"; }));
        saved.variable = "missing";
        QVERIFY(!fitViewTo(saved, hgt, out));
        saved = defaultView(hgt, "HGT");
        saved.xDim = "level";
        QVERIFY(!fitViewTo(saved, hgt, out));
    }
};

QTEST_GUILESS_MAIN(TestViewRoles)
#include "tst_viewroles.moc"
