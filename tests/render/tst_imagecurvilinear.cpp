// Curvilinear grids in the image view: a frame with 2-D longitude/latitude drawn as its cells in
// lon/lat space, painted (host frames, raster engine), through GL (host frames uploaded) and
// through GL from a frame on the GPU (CUDA-GL interop: the cuda row, run on the GPU machine with
// STRATA_REQUIRE_GPU=1). The fixtures (tests/data/make_curvilinear_fixtures.py) are a
// tripolar-like grid (0/360 seam inside its rows, a folded cap) and a Lambert conformal grid with
// CF bounds. The oracle: each fixture's exact corners read here with netCDF-C, and a point-in-
// quadrilateral search of this file's own; the colour a cell's value gets from the map's table.
#include <QtTest/QtTest>

#include <QApplication>

#include "../crash_trace.h"
#include "../gpu_skip.h"
#include "../nc_read.h"
#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/render/image_view.h"

using namespace strata;
using namespace test;

namespace {

const std::string kData = STRATA_TEST_DATA;
constexpr int kW = 720, kH = 420;

// A fixture as the test reads it: centres, exact corners, the first time step's values.
struct Fixture {
    std::size_t ny = 0, nx = 0;
    std::vector<float> lon, lat, cornerLon, cornerLat, v;
    bool linkBounds = false; // the file's lat/lon name their corners as CF bounds
    // The cell (row-major index) whose exact corners hold (x, y): this file's own even–odd test.
    long cellAt(double x, double y) const {
        for (std::size_t k = 0; k < ny * nx; ++k) {
            bool in = false;
            for (std::size_t e = 0; e < 4; ++e) {
                const std::size_t f = (e + 1) % 4;
                double xa = cornerLon[k * 4 + e], xb = cornerLon[k * 4 + f];
                const double ya = cornerLat[k * 4 + e], yb = cornerLat[k * 4 + f];
                // Corners about the cell's centre longitude (a cell at the seam is not the globe).
                const double c = lon[k];
                xa -= 360 * std::round((xa - c) / 360);
                xb -= 360 * std::round((xb - c) / 360);
                if ((ya > y) != (yb > y) && x < xa + (y - ya) * (xb - xa) / (yb - ya)) in = !in;
            }
            if (in) return static_cast<long>(k);
        }
        return -1;
    }
};

Fixture readFixture(const std::string& file, const char* cornerLonName, const char* cornerLatName,
                    bool linkBounds) {
    const std::string path = kData + "/" + file;
    Fixture f;
    const nctest::NcValues lon = nctest::readNcFloats(path, "lon"), lat = nctest::readNcFloats(path, "lat");
    const nctest::NcValues cl = nctest::readNcFloats(path, cornerLonName),
                           ca = nctest::readNcFloats(path, cornerLatName);
    const nctest::NcValues v = nctest::readNcFloats(path, "v");
    if (lon.shape.size() != 2 || v.shape.size() != 3) return f;
    f.ny = lon.shape[0];
    f.nx = lon.shape[1];
    f.lon = lon.values;
    f.lat = lat.values;
    f.cornerLon = cl.values;
    f.cornerLat = ca.values;
    f.v.assign(v.values.begin(), v.values.begin() + static_cast<long>(f.ny * f.nx));
    f.linkBounds = linkBounds;
    return f;
}

Coordinate coord2d(const std::string& name, std::vector<std::string> dims, std::vector<std::int64_t> shape,
                   const std::vector<float>& values, const char* units, const char* standardName) {
    Coordinate c;
    c.name = name;
    c.dims = std::move(dims);
    c.shape = std::move(shape);
    c.values.assign(values.begin(), values.end());
    if (units) c.attrs.set({"units", DType::Char, std::string(units)});
    if (standardName) c.attrs.set({"standard_name", DType::Char, std::string(standardName)});
    return c;
}

// The fixture's first step as a frame (y, x) with its 2-D lat/lon (and bounds when it links them).
DataArray frameOf(const Fixture& f) {
    const auto ny = static_cast<std::int64_t>(f.ny), nx = static_cast<std::int64_t>(f.nx);
    Coordinates cs;
    Coordinate lon = coord2d("lon", {"y", "x"}, {ny, nx}, f.lon, "degrees_east", nullptr);
    Coordinate lat = coord2d("lat", {"y", "x"}, {ny, nx}, f.lat, "degrees_north", nullptr);
    if (f.linkBounds) {
        lon.attrs.set({"bounds", DType::Char, std::string("lon_bnds")});
        lat.attrs.set({"bounds", DType::Char, std::string("lat_bnds")});
        cs.set(coord2d("lon_bnds", {"y", "x", "nv"}, {ny, nx, 4}, f.cornerLon, nullptr, nullptr));
        cs.set(coord2d("lat_bnds", {"y", "x", "nv"}, {ny, nx, 4}, f.cornerLat, nullptr, nullptr));
    }
    cs.set(lon);
    cs.set(lat);
    DataArray a = DataArray::fromHost("v", {"y", "x"}, {ny, nx}, f.v, cs);
    Variable var = a.variable();
    var.attrs().set({"long_name", DType::Char, std::string("test pattern")});
    var.attrs().set({"units", DType::Char, std::string("1")});
    return DataArray("v", var, cs);
}

enum class Mode { Raster, Gl, Cuda };

} // namespace

class TestImageCurvilinear : public QObject {
    Q_OBJECT
public:
    explicit TestImageCurvilinear(Mode m) : mode_(m) {}

private:
    const Mode mode_;
    QString tag() const { return mode_ == Mode::Raster ? "raster" : mode_ == Mode::Gl ? "gl" : "cuda"; }

    ImageViewSettings settingsFor(const ViewWindow& w) const {
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, 0, 1};
        s.grid = GridSpace::LonLat;
        s.aspect = AspectMode::Fill;
        s.window = w;
        return s;
    }
    // Where the data window `w` lands, placed by hand from the layout's stated geometry
    // (view_layout.cpp, .h): margins of 84 left, 58 below, 40 above, 118 right; stretched (the
    // aspect not kept), the plot is the whole area, x 84…720 − 118 = 602, y 58…420 − 40 = 380,
    // whatever the window (none of these windows is a regular frame shown whole, so no snapping
    // to whole pixels per cell).
    static ViewTransform transformFor(const ViewWindow& w) { return ViewTransform(kPlot, w); }
    static constexpr PixelRect kPlot{84, 58, 602, 380};
    // The layout agrees (a second opinion: the pixels above come from kPlot, not from it).
    static bool layoutAgrees(const ViewWindow& w) { return computeLayout(kW, kH, 1, w, false).plot == kPlot; }
    // Shows `frame` (moved to the GPU for the cuda row) and returns what is on the screen.
    QImage show(ImageView& view, const DataArray& frame, const ImageViewSettings& s) const {
        view.setPresentation(mode_ == Mode::Raster ? ImagePresentation::Auto : ImagePresentation::Gl);
        view.setFixedSize(kW, kH);
        view.setSettings(s);
        if (mode_ == Mode::Cuda)
            view.setFrame({frame.asDevice(Device::cuda(0), defaultStream(Device::cuda(0)))});
        else
            view.setFrame({frame});
        view.show();
        if (!QTest::qWaitForWindowExposed(mode_ != Mode::Raster ? view.glWindow() : view.windowHandle()))
            return {};
        QImage shot;
        if (!QTest::qWaitFor([&] { return !(shot = view.grabImage()).isNull(); })) return {};
        return shot.convertToFormat(QImage::Format_RGB32);
    }

    // At each cell's centre well inside its cell (every pixel within 3 of it in the same cell, by
    // the exact corners): the pixel has that cell's colour, and the probe names that cell.
    // Returns how many cells were checked (0 with a failure already reported).
    int checkCells(const ImageView& view, const QImage& img, const Fixture& f, const ViewTransform& t,
                   int& capCells, int& seamCells) {
        const auto table = colormapTable("viridis");
        int checked = 0;
        capCells = seamCells = 0;
        for (std::size_t k = 0; k < f.ny * f.nx; ++k) {
            const double px = t.pixelX(f.lon[k]), py = t.pixelY(f.lat[k]);
            if (!t.plot().contains(px - 4, py - 4) || !t.plot().contains(px + 4, py + 4)) continue;
            const double cx = std::floor(px) + 0.5, cy = std::floor(py) + 0.5; // the pixel's centre
            bool clear = true;
            for (int dy = -3; dy <= 3 && clear; ++dy)
                for (int dx = -3; dx <= 3 && clear; ++dx)
                    clear = f.cellAt(t.dataX(cx + dx), t.dataY(cy + dy)) == static_cast<long>(k);
            if (!clear) continue;
            const Rgba8 want = expectedColour(table, f.v[k], 0, 1, Rgba8{255, 0, 255, 255});
            const Rgba8 got = colourAt(img, cx, cy);
            if (!(got == want)) {
                QTest::qFail(qPrintable(QString("cell y=%1 x=%2 at lon %3 lat %4: %5, want %6")
                                            .arg(k / f.nx)
                                            .arg(k % f.nx)
                                            .arg(f.lon[k])
                                            .arg(f.lat[k])
                                            .arg(str(got), str(want))),
                             __FILE__, __LINE__);
                return 0;
            }
            const Pick p = view.pickAt(QPointF(cx, kH - cy));
            if (!p.inside || p.row != static_cast<std::int64_t>(k / f.nx) ||
                p.column != static_cast<std::int64_t>(k % f.nx)) {
                QTest::qFail(qPrintable(QString("the probe at cell y=%1 x=%2 says y=%3 x=%4")
                                            .arg(k / f.nx)
                                            .arg(k % f.nx)
                                            .arg(p.row)
                                            .arg(p.column)),
                             __FILE__, __LINE__);
                return 0;
            }
            ++checked;
            capCells += f.lat[k] > 62;
            seamCells += f.lon[k] == 0 || f.lon[k] == 350;
        }
        return checked;
    }

private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d) QFAIL("the view needs an X display: run under xvfb-run (scripts/run-tests.sh)");
        if (mode_ == Mode::Cuda && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
    }

    // The tripolar-like grid: every band cell and the cap's cells where their lon/lat say,
    // the cells either side of the 0/360 seam included (none spans the globe).
    void tripolarCellsWhereTheirLonLatSay() {
        const Fixture f = readFixture("tripolar_like.nc", "lon_corner", "lat_corner", false);
        QCOMPARE(f.nx, std::size_t(36));
        const ViewWindow w{-20, 370, -65, 95};
        ImageView view;
        const QImage img = show(view, frameOf(f), settingsFor(w));
        QVERIFY(!img.isNull());
        QVERIFY2(view.lastError().isEmpty(), qPrintable(view.lastError()));
        if (mode_ == Mode::Cuda) QCOMPARE(view.framePath().path, FramePath::Interop);
        int cap = 0, seam = 0;
        const int checked = checkCells(view, img, f, transformFor(w), cap, seam);
        if (QTest::currentTestFailed()) return;
        QVERIFY2(
            checked >= 400 && cap >= 20 && seam >= 24,
            qPrintable(
                QString("%1 cells checked, %2 in the cap, %3 at the seam").arg(checked).arg(cap).arg(seam)));
        // West of 0°E (cells centred on 0°E reach to 5°W): cell x=28 of the band's row 6, not grey.
        const ViewTransform t = transformFor(w);
        const Rgba8 west = colourAt(img, t.pixelX(-3), t.pixelY(5));
        QVERIFY(west == expectedColour(colormapTable("viridis"), f.v[6 * 36 + 28], 0, 1, {}));
        const bool gl = mode_ != Mode::Raster;
        const QString why =
            compareWithPainterBaseline(img, "curvilinear_tripolar_" + QString(gl ? "gl" : "raster"), gl);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(layoutAgrees(w));
    }

    // Coastlines over the cells in the same longitude/latitude: ink within 2 pixels of Cape
    // Agulhas (20.0°E, 34.8°S) where this test's own mapping puts it, none within 4 of the Sahara
    // (20°E, 22°N); nothing changes outside the plot's coasts.
    void coastlinesLineUpWithTheCells() {
        const Fixture f = readFixture("tripolar_like.nc", "lon_corner", "lat_corner", false);
        const ViewWindow w{-20, 370, -65, 95};
        ImageView view;
        ImageViewSettings s = settingsFor(w);
        const QImage without = show(view, frameOf(f), s);
        s.coastlines = true;
        view.setSettings(s);
        QImage with;
        QTRY_VERIFY(!(with = view.grabImage().convertToFormat(QImage::Format_RGB32)).isNull() &&
                    with != without);
        const ViewTransform t = transformFor(w);
        auto inkNear = [&](double lon, double lat, int r) {
            const int px = int(std::floor(t.pixelX(lon))), py = kH - 1 - int(std::floor(t.pixelY(lat)));
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx)
                    if (with.pixel(px + dx, py + dy) != without.pixel(px + dx, py + dy)) return true;
            return false;
        };
        QVERIFY(inkNear(20.0, -34.8, 2));
        QVERIFY(!inkNear(20.0, 22.0, 4));
        QVERIFY(layoutAgrees(w));
    }

    // The Lambert conformal grid with CF bounds: cells at their bounds.
    void lambertCellsAtTheirBounds() {
        const Fixture f = readFixture("lambert_2d.nc", "lon_bnds", "lat_bnds", true);
        QCOMPARE(f.nx, std::size_t(20));
        const ViewWindow w{-116, -84, 30, 50};
        ImageView view;
        const QImage img = show(view, frameOf(f), settingsFor(w));
        QVERIFY(!img.isNull());
        int cap = 0, seam = 0;
        const int checked = checkCells(view, img, f, transformFor(w), cap, seam);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(checked, 20 * 16);
        // Outside every cell: the plot's grey.
        const ViewTransform t = transformFor(w);
        QCOMPARE(colourAt(img, t.pixelX(-115), t.pixelY(31)), (Rgba8{209, 209, 209, 255}));
        // Up to the plot's corner pixel, and not a pixel past it (there the border is drawn).
        QCOMPARE(colourAt(img, kPlot.x0 + 0.5, kPlot.y0 + 0.5), (Rgba8{209, 209, 209, 255}));
        const bool gl = mode_ != Mode::Raster;
        const QString why =
            compareWithPainterBaseline(img, "curvilinear_lambert_" + QString(gl ? "gl" : "raster"), gl);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QVERIFY(layoutAgrees(w));
    }

    // Index space: the same frame as rows and columns (x, y in km), its cells found by index.
    void indexSpaceStaysAvailable() {
        const Fixture f = readFixture("lambert_2d.nc", "lon_bnds", "lat_bnds", true);
        ImageView view;
        ImageViewSettings s = settingsFor({-116, -84, 30, 50});
        const QImage lonLat = show(view, frameOf(f), s);
        s.grid = GridSpace::Index;
        // Without an index coordinate the frame's axes are the indices 0..19 and 0..15.
        // (A window short of the whole frame: the view does not snap the plot to whole cells.)
        const ViewWindow w{-1, 20, -1, 16};
        s.window = w;
        view.setSettings(s);
        QImage index;
        QTRY_VERIFY(!(index = view.grabImage().convertToFormat(QImage::Format_RGB32)).isNull() &&
                    index != lonLat);
        const ViewTransform t = transformFor(w);
        const Pick p = view.pickAt(QPointF(t.pixelX(7), kH - t.pixelY(3)));
        QVERIFY(p.inside);
        QCOMPARE(p.row, std::int64_t(3));
        QCOMPARE(p.column, std::int64_t(7));
        QVERIFY(colourAt(index, t.pixelX(7), t.pixelY(3)) ==
                expectedColour(colormapTable("viridis"), f.v[3 * 20 + 7], 0, 1, {}));
        // The window reaches half a cell past the frame on every side (−1 against −0.5, 20
        // against 19.5, ...): the plot's four corner pixels are its grey, a plot a pixel off fails.
        for (const auto& [px, py] : {std::pair{kPlot.x0 + 0.5, kPlot.y0 + 0.5},
                                     {kPlot.x1 - 0.5, kPlot.y0 + 0.5},
                                     {kPlot.x0 + 0.5, kPlot.y1 - 0.5},
                                     {kPlot.x1 - 0.5, kPlot.y1 - 0.5}})
            QVERIFY2(colourAt(index, px, py) == (Rgba8{209, 209, 209, 255}),
                     qPrintable(QString("(%1, %2): %3").arg(px).arg(py).arg(str(colourAt(index, px, py)))));
        QVERIFY(layoutAgrees(w));
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestImageCurvilinear raster(Mode::Raster), gl(Mode::Gl), cuda(Mode::Cuda);
    int failed = QTest::qExec(&raster, argc, argv);
    failed += QTest::qExec(&gl, argc, argv);
    failed += QTest::qExec(&cuda, argc, argv);
    test::traceCrashes();
    return failed;
}
#include "tst_imagecurvilinear.moc"
