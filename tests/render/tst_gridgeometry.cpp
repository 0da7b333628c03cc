// Cell edges from midpoints, the cell under a value, and a frame's axis grids.
#include <QtTest/QtTest>

#include "strata/core/error.h"
#include "strata/render/grid_geometry.h"

using namespace strata;

namespace {

Coordinate coord(const std::string& name, std::vector<double> v, const char* units = nullptr,
                 const char* longName = nullptr) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {static_cast<std::int64_t>(v.size())};
    c.values = std::move(v);
    if (units) c.attrs.set({"units", DType::Char, std::string(units)});
    if (longName) c.attrs.set({"long_name", DType::Char, std::string(longName)});
    return c;
}

} // namespace

class TestGridGeometry : public QObject {
    Q_OBJECT
private slots:
    void edgesFromMidpoints() {
        QCOMPARE(cellEdges({0, 1, 2}), (std::vector<double>{-0.5, 0.5, 1.5, 2.5}));
        QCOMPARE(cellEdges({90, 60, 30}), (std::vector<double>{105, 75, 45, 15}));
        QCOMPARE(cellEdges({0, 1, 3}), (std::vector<double>{-0.5, 0.5, 2, 4}));
        QCOMPARE(cellEdges({5}), (std::vector<double>{4.5, 5.5}));
        // 0.25° latitudes from -90 to 90: edges half a step beyond the poles.
        std::vector<double> lat;
        for (int i = 0; i < 721; ++i) lat.push_back(-90 + 0.25 * i);
        auto e = cellEdges(lat);
        QCOMPARE(e.size(), std::size_t(722));
        QCOMPARE(e.front(), -90.125);
        QCOMPARE(e.back(), 90.125);
        QCOMPARE(e[1], -89.875);
    }
    void badMidpoints() {
        QVERIFY_THROWS_EXCEPTION(ValueError, cellEdges({}));
        QVERIFY_THROWS_EXCEPTION(ValueError, cellEdges({0, 1, 1}));
        QVERIFY_THROWS_EXCEPTION(ValueError, cellEdges({0, 2, 1}));
        QVERIFY_THROWS_EXCEPTION(ValueError, cellEdges({0, NAN}));
    }
    void cellUnderAValue() {
        const std::vector<double> up{-0.5, 0.5, 1.5, 2.5};
        QCOMPARE(cellIndex(up, -0.5), 0);
        QCOMPARE(cellIndex(up, 0.49), 0);
        QCOMPARE(cellIndex(up, 0.5), 1);
        QCOMPARE(cellIndex(up, 2.5), 2);
        QCOMPARE(cellIndex(up, 2.51), -1);
        QCOMPARE(cellIndex(up, -0.6), -1);
        QCOMPARE(cellIndex(up, NAN), -1);
        const std::vector<double> down{105, 75, 45, 15};
        QCOMPARE(cellIndex(down, 100), 0);
        QCOMPARE(cellIndex(down, 75), 1);
        QCOMPARE(cellIndex(down, 16), 2);
        QCOMPARE(cellIndex(down, 14), -1);
        QCOMPARE(cellIndex(down, 106), -1);
    }
    void uniformity() {
        QVERIFY(isUniform({0, 1, 2, 3}));
        QVERIFY(isUniform({3, 2, 1}));
        QVERIFY(!isUniform({-0.5, 0.5, 2, 4}));
    }
    void gridsOfAFrame() {
        Coordinates cs;
        cs.set(coord("lat", {60, 30, 0}, "degrees_north", "latitude"));
        cs.set(coord("lon", {0, 90, 180, 270}, "degrees_east"));
        std::vector<float> v(12, 1.f);
        DataArray f = DataArray::fromHost("t", {"lat", "lon"}, {3, 4}, v, cs);
        AxisGrid y = axisGrid(f, 0), x = axisGrid(f, 1);
        QCOMPARE(QString::fromStdString(y.title), QString("latitude [degrees_north]"));
        QCOMPARE(QString::fromStdString(x.title), QString("lon [degrees_east]"));
        QVERIFY(y.descending());
        QCOMPARE(y.lo(), -15.0);
        QCOMPARE(y.hi(), 75.0);
        QCOMPARE(x.edges, (std::vector<double>{-45, 45, 135, 225, 315}));
        QCOMPARE(QString::fromStdString(x.label(2)), QString("180°E"));
        QVERIFY(!x.fromIndices);
    }
    void gridWithoutCoordinate() {
        std::vector<double> v(6, 0.0);
        DataArray f = DataArray::fromHost("t", {"y", "x"}, {2, 3}, v);
        AxisGrid x = axisGrid(f, 1);
        QVERIFY(x.fromIndices);
        QCOMPARE(x.edges, (std::vector<double>{-0.5, 0.5, 1.5, 2.5}));
        QCOMPARE(QString::fromStdString(x.title), QString("x"));
        QCOMPARE(QString::fromStdString(x.label(1)), QString("1"));
    }
    void unusableCoordinateFallsBackToIndices() {
        Coordinates cs;
        cs.set(coord("x", {0, 2, 1}));
        std::vector<double> v(3, 0.0);
        DataArray f = DataArray::fromHost("t", {"y", "x"}, {1, 3}, v, cs);
        AxisGrid x = axisGrid(f, 1);
        QVERIFY(x.fromIndices);
        QVERIFY(QString::fromStdString(x.problem).contains("monotonic"));
    }
    void notTwoDimensional() {
        std::vector<double> v(3, 0.0);
        DataArray f = DataArray::fromHost("t", {"x"}, {3}, v);
        QVERIFY_THROWS_EXCEPTION(ValueError, axisGrid(f, 0));
    }
};

QTEST_APPLESS_MAIN(TestGridGeometry)
#include "tst_gridgeometry.moc"
