// The curvilinear grid model: which frames are curvilinear, their cells' corners from bounds or
// derived from the centres (unwrapped at the 0/360 and ±180 seams), the cell under a point, and
// the polygon fill the raster painter uses. Expected corners are worked out by hand here.
#include <QtTest/QtTest>

#include <cmath>

#include "../../render/src/curvilinear_raster.h"
#include "strata/core/error.h"
#include "strata/render/curvilinear_grid.h"

using namespace strata;

namespace {

Coordinate coord(const std::string& name, std::vector<std::string> dims, std::vector<std::int64_t> shape,
                 std::vector<double> v, const char* units) {
    Coordinate c;
    c.name = name;
    c.dims = std::move(dims);
    c.shape = std::move(shape);
    c.values = std::move(v);
    if (units) c.attrs.set({"units", DType::Char, std::string(units)});
    return c;
}

// A 3 × 4 frame (y, x) with lon = lon0 + 10 i (wrapped into [0, 360)), lat = 5 j.
DataArray frame(double lon0, bool transposedCoords = false, const char* east = "degrees_east",
                const char* north = "degrees_north") {
    std::vector<double> lon, lat;
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 4; ++i) {
            lon.push_back(std::fmod(lon0 + 10 * i + 360, 360));
            lat.push_back(5.0 * j);
        }
    Coordinates cs;
    if (transposedCoords) { // the coordinates stored (x, y): the same cells
        std::vector<double> lonT, latT;
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 3; ++j) {
                lonT.push_back(lon[static_cast<std::size_t>(j * 4 + i)]);
                latT.push_back(lat[static_cast<std::size_t>(j * 4 + i)]);
            }
        cs.set(coord("glon", {"x", "y"}, {4, 3}, lonT, east));
        cs.set(coord("glat", {"x", "y"}, {4, 3}, latT, north));
    } else {
        cs.set(coord("glon", {"y", "x"}, {3, 4}, lon, east));
        cs.set(coord("glat", {"y", "x"}, {3, 4}, lat, north));
    }
    return DataArray::fromHost("v", {"y", "x"}, {3, 4}, std::vector<float>(12, 1.0f), cs);
}

} // namespace

class TestCurvilinear : public QObject {
    Q_OBJECT
private slots:
    void recognisesTwoDimensionalLonLat() {
        QVERIFY(curvilinearGrid(frame(0)).has_value());
        QVERIFY(curvilinearGrid(frame(0, true)).has_value());
        // 1-D index coordinates are not curvilinear; nor is a 2-D coordinate without CF units.
        Coordinates cs;
        cs.set(coord("x", {"x"}, {4}, {0, 1, 2, 3}, "degrees_east"));
        cs.set(coord("y", {"y"}, {3}, {0, 1, 2}, "degrees_north"));
        QVERIFY(!curvilinearGrid(DataArray::fromHost("v", {"y", "x"}, {3, 4}, std::vector<float>(12), cs)));
        Coordinates plain;
        plain.set(coord("a", {"y", "x"}, {3, 4}, std::vector<double>(12), "m"));
        plain.set(coord("b", {"y", "x"}, {3, 4}, std::vector<double>(12), "m"));
        QVERIFY(
            !curvilinearGrid(DataArray::fromHost("v", {"y", "x"}, {3, 4}, std::vector<float>(12), plain)));
    }

    // CF compares units without regard to case: "Degrees_East" / "Degrees_North" alone make
    // 2-D coordinates a longitude and a latitude, as they do for area means.
    void recognisesCfUnitsInAnyCase() {
        QVERIFY(curvilinearGrid(frame(0, false, "Degrees_East", "Degrees_North")).has_value());
        QVERIFY(curvilinearGrid(frame(0, true, "DEGREESE", "degreeN")).has_value());
        QVERIFY(!curvilinearGrid(frame(0, false, "degrees", "degrees")).has_value());
    }

    void derivesCornersFromCentres() {
        for (bool transposed : {false, true}) {
            const CurvilinearGrid g = *curvilinearGrid(frame(20, transposed));
            QCOMPARE(g.rows, std::int64_t(3));
            QCOMPARE(g.columns, std::int64_t(4));
            QVERIFY(!g.fromBounds);
            // Cell (1, 2): centre (40, 5); corners halfway to its neighbours: lon 35/45, lat 2.5/7.5,
            // anticlockwise from (j-½, i-½).
            const std::size_t k = (1 * 4 + 2) * 4;
            const double lon[4] = {35, 45, 45, 35}, lat[4] = {2.5, 2.5, 7.5, 7.5};
            for (std::size_t c = 0; c < 4; ++c) {
                QVERIFY2(std::abs(g.cornerLon[k + c] - lon[c]) < 1e-9,
                         qPrintable(QString::number(g.cornerLon[k + c])));
                // (Means on the sphere: 2.51° and 7.53° rather than 2.5° and 7.5°.)
                QVERIFY2(std::abs(g.cornerLat[k + c] - lat[c]) < 0.05,
                         qPrintable(QString::number(g.cornerLat[k + c])));
            }
            // The outer corners extrapolated half a step along great circles: lon about 15..55, lat
            // about -2.5..12.5.
            QVERIFY(std::abs(g.extent.x0 - 15) < 0.01 && std::abs(g.extent.x1 - 55) < 0.01);
            QVERIFY(std::abs(g.extent.y0 + 2.5) < 0.05 && std::abs(g.extent.y1 - 12.5) < 0.05);
        }
    }

    // Centres 340, 350, 0, 10 (0–360) or −20, −10, 0, 10: no cell spans the globe; the one
    // centred on 0 reaches from 355 (or −5) to 5 about its own centre.
    void unwrapsCellsAtTheSeam() {
        const CurvilinearGrid g = *curvilinearGrid(frame(340));
        for (std::int64_t k = 0; k < g.cells(); ++k) {
            const auto at = static_cast<std::size_t>(k * 4);
            const auto [lo, hi] =
                std::minmax({g.cornerLon[at], g.cornerLon[at + 1], g.cornerLon[at + 2], g.cornerLon[at + 3]});
            QVERIFY2(hi - lo < 10.01, qPrintable(QString("cell %1 spans %2..%3").arg(k).arg(lo).arg(hi)));
        }
        const std::size_t zero = (1 * 4 + 2) * 4; // lon 0
        QVERIFY(std::abs(g.cornerLon[zero] + 5) < 1e-9 && std::abs(g.cornerLon[zero + 1] - 5) < 1e-9);
        const std::size_t west = (1 * 4 + 1) * 4; // lon 350
        QVERIFY(std::abs(g.cornerLon[west] - 345) < 1e-9 && std::abs(g.cornerLon[west + 1] - 355) < 1e-9);
    }

    // The same about ±180: centres 160, 170, -180, -170; the cell centred on -180 reaches from
    // -185 to -175, not from -175 across the globe to 175.
    void unwrapsCellsAtTheDateLine() {
        DataArray f = frame(160);
        Coordinates cs = f.coords();
        Coordinate lon = *cs.find("glon");
        for (double& v : lon.values) v = v >= 180 ? v - 360 : v;
        cs.set(lon);
        const CurvilinearGrid g = *curvilinearGrid(DataArray("v", f.variable(), cs));
        const std::size_t dateLine = (1 * 4 + 2) * 4;
        QCOMPARE(g.lon[(1 * 4 + 2)], -180.0);
        QVERIFY2(std::abs(g.cornerLon[dateLine] + 185) < 1e-6 &&
                     std::abs(g.cornerLon[dateLine + 1] + 175) < 1e-6,
                 qPrintable(QString("%1 %2").arg(g.cornerLon[dateLine]).arg(g.cornerLon[dateLine + 1])));
        const std::size_t east = (1 * 4 + 1) * 4; // 170: 165..175
        QVERIFY(std::abs(g.cornerLon[east] - 165) < 1e-6 && std::abs(g.cornerLon[east + 1] - 175) < 1e-6);
        QCOMPARE(CellLocator(g).find(-183, 6), std::int64_t(1 * 4 + 2));
    }

    void readsCornersFromBounds() {
        DataArray f = frame(340); // centres 340, 350, 0, 10
        Coordinates cs = f.coords();
        Coordinate lon = *cs.find("glon"), lat = *cs.find("glat");
        lon.attrs.set({"bounds", DType::Char, std::string("glon_b")});
        lat.attrs.set({"bounds", DType::Char, std::string("glat_b")});
        // Corners 4° either side of each centre, written in [0, 360) as a file would; latitudes
        // -k - c/2, any values: they are what is drawn.
        std::vector<double> lb, ab;
        const double side[4] = {-4, 4, 4, -4};
        for (int k = 0; k < 12; ++k)
            for (int c = 0; c < 4; ++c) {
                lb.push_back(std::fmod(lon.values[static_cast<std::size_t>(k)] + side[c] + 360, 360));
                ab.push_back(-k - 0.5 * c);
            }
        cs.set(lon);
        cs.set(lat);
        cs.set(coord("glon_b", {"y", "x", "nv"}, {3, 4, 4}, lb, nullptr));
        cs.set(coord("glat_b", {"y", "x", "nv"}, {3, 4, 4}, ab, nullptr));
        const CurvilinearGrid g = *curvilinearGrid(DataArray("v", f.variable(), cs));
        QVERIFY(g.fromBounds);
        QCOMPARE(g.cornerLat[5 * 4 + 2], -6.0);
        // Cell 6 is centred on 0: its corners 356 and 4 are drawn at -4 and 4, not across the globe.
        QCOMPARE(g.cornerLon[6 * 4 + 0], -4.0);
        QCOMPARE(g.cornerLon[6 * 4 + 1], 4.0);
        QCOMPARE(g.cornerLon[5 * 4 + 1], 354.0);
        // Bounds of another shape are refused, naming the variable and the bounds.
        cs.set(coord("glat_b", {"y", "x", "nv"}, {3, 4, 2}, std::vector<double>(24), nullptr));
        try {
            (void)curvilinearGrid(DataArray("v", f.variable(), cs));
            QFAIL("bounds of 2 vertices accepted");
        } catch (const ValueError& e) {
            QVERIFY2(QString(e.what()).contains("'v'") && QString(e.what()).contains("glat_b"), e.what());
        }
    }

    void tooFewCentresIsAClearError() {
        Coordinates cs;
        cs.set(coord("glon", {"y", "x"}, {1, 4}, {0, 10, 20, 30}, "degrees_east"));
        cs.set(coord("glat", {"y", "x"}, {1, 4}, {0, 0, 0, 0}, "degrees_north"));
        QVERIFY_THROWS_EXCEPTION(ValueError, curvilinearGrid(DataArray::fromHost("v", {"y", "x"}, {1, 4},
                                                                                 std::vector<float>(4), cs)));
    }

    void findsTheCellUnderAPoint() {
        const CurvilinearGrid g = *curvilinearGrid(frame(340));
        const CellLocator at(g);
        QCOMPARE(at.find(-3, 6), std::int64_t(1 * 4 + 2));  // the cell centred on 0, west of 0
        QCOMPARE(at.find(3, 6), std::int64_t(1 * 4 + 2));   // and east of it
        QCOMPARE(at.find(341, 1), std::int64_t(0 * 4 + 0)); // 340
        QCOMPARE(at.find(12, 11), std::int64_t(2 * 4 + 3)); // 10, the top row
        QCOMPARE(at.find(100, 5), std::int64_t(-1));        // nothing there
        QCOMPARE(at.find(NAN, 5), std::int64_t(-1));
    }

    // An ORCA-like global grid: centres -280..90 in 10° steps, its last two columns repeating its
    // first two (38 columns), so that its cells span more than a turn (drawn over 405° before,
    // with an empty strip). They are put in one turn from -180, drawn across it with no gap at
    // its edge (the cell centred on -180 is drawn a turn east too), and found on both sides.
    void aGridOfMoreThanATurnWraps() {
        std::vector<double> lon, lat;
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 38; ++i) {
                lon.push_back(-280 + 10.0 * i);
                lat.push_back(-10 + 10.0 * j);
            }
        const CurvilinearGrid g = gridFromCentres(3, 38, lon, lat);
        QVERIFY(g.wraps);
        QCOMPARE(g.extent.x0, -180.0);
        QCOMPARE(g.extent.x1, 180.0);
        for (double v : g.lon) QVERIFY2(v >= -180 && v < 180, qPrintable(QString::number(v)));
        // One pixel a degree over the middle row's band: every pixel painted.
        const ViewTransform t(PixelRect{0, 0, 360, 8}, ViewWindow{-180, 180, -4, 4});
        std::vector<std::uint32_t> px(360 * 8, 0);
        const std::vector<std::uint32_t> colours(3 * 38, 7);
        detail::PixelBlock block{px.data(), 360, 8, 360, 0, 8};
        detail::rasteriseCells(g, colours.data(), t, block);
        const auto unpainted = std::count(px.begin(), px.end(), 0u);
        QVERIFY2(unpainted == 0, qPrintable(QString("%1 pixels unpainted").arg(unpainted)));
        const CellLocator at(g);
        QCOMPARE(at.find(-178, 0), std::int64_t(1 * 38 + 10)); // centred on -180
        QCOMPARE(at.find(178, 0), std::int64_t(1 * 38 + 10));  // the same cell, a turn east
        QCOMPARE(at.find(172, 0), std::int64_t(1 * 38 + 9));   // centred on 170
        // A grid within a turn is left where it is.
        QVERIFY(!curvilinearGrid(frame(340))->wraps);
    }

    // The raster fill: pixels whose centres are inside a cell take its colour, others stay.
    void fillsPixelsWhoseCentresAreInside() {
        const CurvilinearGrid g = gridFromCentres(2, 2, {0.5, 1.5, 0.5, 1.5}, {0.5, 0.5, 1.5, 1.5});
        // Corners at 0, 1, 2 (lat by the sphere's mean: within 1e-4 of those).
        std::vector<std::uint32_t> px(8 * 8, 0);
        const std::uint32_t colours[4] = {1, 2, 3, 4};
        // 4 pixels per degree, the window (0..2, 0..2) over the 8 × 8 block.
        const ViewTransform t(PixelRect{0, 0, 8, 8}, ViewWindow{0, 2, 0, 2});
        detail::PixelBlock block{px.data(), 8, 8, 8, 0, 8};
        QCOMPARE(detail::rasteriseCells(g, colours, t, block), std::int64_t(4));
        // Row 0 of the block is the top (lat 2): cells 2 (west) and 3 (east).
        QCOMPARE(px[0], 3u);
        QCOMPARE(px[7], 4u);
        QCOMPARE(px[7 * 8 + 0], 1u);
        QCOMPARE(px[7 * 8 + 7], 2u);
        QCOMPARE(px[3 * 8 + 3], 3u); // just above and west of the middle
        QCOMPARE(px[4 * 8 + 4], 2u); // just below and east
        QVERIFY(std::none_of(px.begin(), px.end(), [](std::uint32_t v) { return v == 0; }));
    }
};

QTEST_GUILESS_MAIN(TestCurvilinear)
#include "tst_curvilinear.moc"
