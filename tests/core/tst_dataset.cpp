// Dataset: variables as DataArrays with their coordinates, groups, and the summary.
#include <QtTest>

#include "strata/core/dataset.h"
#include "strata/core/error.h"

using namespace strata;

namespace {

Dataset twoGroups() {
    Dataset ds;
    ds.path = "/data/model.nc";
    ds.group = "/";
    ds.format = "netCDF-4";
    ds.dims = {{"y", 2, false}, {"x", 3, false}, {"time", 0, true}};
    Attributes units;
    units.set({"units", DType::Char, std::string("K")});
    Attributes named;
    named.set({"coordinates", DType::Char, std::string("lat nonexistent")});
    named.set({"units", DType::Char, std::string("K")});
    ds.variables.emplace_back(
        "x", Variable({"x"}, {3}, DType::Float64, Buffer(24, Device::host(), Stream::host())));
    ds.variables.emplace_back("t2m", Variable({"y", "x"}, {2, 3}, DType::Float32,
                                              Buffer(24, Device::host(), Stream::host()), named));
    Coordinate x;
    x.name = "x";
    x.dims = {"x"};
    x.shape = {3};
    x.values = {10, 20, 30};
    Coordinate lat;
    lat.name = "lat";
    lat.dims = {"y", "x"};
    lat.shape = {2, 3};
    lat.values = {1, 2, 3, 4, 5, 6};
    lat.attrs = units;
    ds.coords.set(x);
    ds.coords.set(lat);
    ds.attrs.set({"title", DType::Char, std::string("two groups")});
    Dataset child;
    child.path = ds.path;
    child.group = "/inner";
    Dataset grandchild;
    grandchild.path = ds.path;
    grandchild.group = "/inner/deep";
    grandchild.attrs.set({"level", DType::Int32, std::vector<std::int64_t>{3}});
    child.groups.push_back(grandchild);
    ds.groups.push_back(child);
    return ds;
}

} // namespace

class TestDataset : public QObject {
    Q_OBJECT
private slots:
    void variableComesWithItsCoordinates() {
        Dataset ds = twoGroups();
        DataArray t = ds["t2m"];
        QCOMPARE(t.name(), std::string("t2m"));
        QVERIFY(t.coords().contains("x"));   // index coordinate of its dim
        QVERIFY(t.coords().contains("lat")); // named by `coordinates`
        QCOMPARE(t.coords().size(), std::size_t(2));
        QCOMPARE(ds.dataVariables(), (std::vector<std::string>{"t2m"}));
    }

    void unknownVariableListsTheChoices() {
        Dataset ds = twoGroups();
        try {
            ds["tas"];
            QFAIL("no ValueError");
        } catch (const ValueError& e) {
            const QString m = e.what();
            QVERIFY(m.contains("model.nc"));
            QVERIFY(m.contains("'tas'"));
            QVERIFY(m.contains("t2m"));
        }
    }

    void groupsByPath() {
        Dataset ds = twoGroups();
        QCOMPARE(ds.findGroup("/inner/deep").attrs.number("level").value(), 3.0);
        QCOMPARE(&ds.findGroup("inner"), &ds.groups[0]);
        QVERIFY_THROWS_EXCEPTION(ValueError, ds.findGroup("/inner/missing"));
    }

    void summaryShowsDimsCoordsVariables() {
        const QString s = QString::fromStdString(twoGroups().summary());
        QVERIFY(s.contains("model.nc (netCDF-4)"));
        QVERIFY(s.contains("time: 0 unlimited"));
        QVERIFY(s.contains("* x"));
        QVERIFY(s.contains("10 … 30"));
        QVERIFY(s.contains("t2m"));
        QVERIFY(s.contains("float32"));
        QVERIFY(s.contains("2×3"));
        QVERIFY(s.contains("[K]"));
        QVERIFY(s.contains("title: two groups"));
        QVERIFY(s.contains("Group /inner/deep"));
        QVERIFY(s.contains("level: 3"));
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "tst_dataset.moc"
