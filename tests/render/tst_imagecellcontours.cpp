// Isolines over frames on cells of the sphere (issue 37): traced in the map's own pixels, the
// frame as the map shows it (a HEALPix grid's or a mesh's faces gathered, a mesh's node values
// interpolated across its faces). A field that is each cell's (or node's) own latitude has its
// isoline on the parallel its level names, to within a cell (HEALPix nside 32: cells about 1.8°
// across) or the planes of the faces (the nodes' z across triangles about 7° across), wherever
// Robinson puts it; and all round the globe, not in one piece of it.
#include <QtTest/QtTest>

#include <cmath>

#include "../../bench/mesh_fixture.h"
#include "../../render/src/image_content.h"
#include "../../render/src/projection_math.h"
#include "strata/core/contour.h"
#include "strata/core/healpix.h"
#include "strata/render/colormaps.h"
#include "strata/render/sphere_cells.h"

using namespace strata;

namespace {

constexpr int kW = 800, kH = 450;

// The latitudes the isolines of `frame` at `level` pass through on a Robinson map, and the
// longitudes they reach: each point inverse-projected from its window pixel.
struct Crossings {
    double worst = 0; // the largest |latitude - want|
    double lonMin = 1e9, lonMax = -1e9;
    std::size_t points = 0;
    bool ok = true;
};

Crossings crossings(const ImageFrame& frame, const char* level, double want) {
    ImageViewSettings s;
    s.contours = parseContourSpec(level);
    s.projection = "Robinson";
    detail::ImageContent content;
    content.setSettings(s);
    content.setFrame(frame);
    Crossings c;
    if (!content.map() || !content.contourProblem().empty()) {
        c.ok = false;
        return c;
    }
    const ViewLayout l = content.layoutFor(kW, kH, 1);
    const auto a = content.annotations(l, colormapTable("viridis"), {-90, 90});
    if (!a.contours) {
        c.ok = false;
        return c;
    }
    const ViewTransform t(l.plot, content.window());
    const detail::ProjParams& p = content.map()->projection().params();
    for (const auto& line : *a.contours)
        for (std::size_t k = 0; k + 1 < line.xy.size(); k += 2, ++c.points) {
            double lon = 0, lat = 0;
            if (!detail::projInverse(p, t.dataX(line.xy[k]), t.dataY(line.xy[k + 1]), lon, lat)) {
                c.ok = false;
                continue;
            }
            c.worst = std::max(c.worst, std::fabs(lat * 180 / M_PI - want));
            c.lonMin = std::min(c.lonMin, lon * 180 / M_PI);
            c.lonMax = std::max(c.lonMax, lon * 180 / M_PI);
        }
    return c;
}

// Empty when `c` found lines all round the globe (over 100 points, from west of 170°W to east
// of 170°E) within `within` degrees of their parallel; else what is wrong.
QString offParallel(const Crossings& c, double within) {
    if (!c.ok) return "no isolines, or a point off the map";
    if (c.points <= 100) return QString("%1 points").arg(c.points);
    if (!(c.worst < within)) return QString("%1 degrees off the parallel").arg(c.worst);
    if (!(c.lonMin < -170 && c.lonMax > 170)) return QString("only %1..%2 E").arg(c.lonMin).arg(c.lonMax);
    return {};
}

// A whole-sky HEALPix grid (nside 32, nest, dim "cell") and each cell's centre in degrees.
struct HealpixSky {
    healpix::Grid grid;
    std::vector<float> lat, lon;
};

HealpixSky healpixSky() {
    HealpixSky h;
    h.grid.nside = 32;
    h.grid.order = healpix::Order::Nest;
    h.grid.dim = "cell";
    const std::int64_t n = healpix::cellCount(32);
    for (std::int64_t k = 0; k < n; ++k) {
        double lon = 0, lat = 0;
        healpix::centreOf(32, healpix::Order::Nest, k, lon, lat);
        h.lat.push_back(float(lat));
        h.lon.push_back(float(lon));
    }
    return h;
}

} // namespace

class TestImageCellContours : public QObject {
    Q_OBJECT
private slots:
    void healpixIsolinesFollowTheParallel() {
        const HealpixSky sky = healpixSky();
        ImageFrame f;
        f.frame = DataArray::fromHost("lat", {"cell"}, {std::int64_t(sky.lat.size())}, sky.lat);
        f.cells = healpixCells(sky.grid);
        const Crossings c = crossings(f, "30.25", 30.25); // "30" would ask for 30 levels
        const QString why = offParallel(c, 2.5);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Another variable's isolines over a HEALPix map (--contour-var): the colours are one
    // field's (the cells' longitude), the lines the latitude field's, on its parallel.
    void anotherVariablesIsolinesOverCells() {
        const HealpixSky sky = healpixSky();
        const std::int64_t n = std::int64_t(sky.lat.size());
        ImageFrame f;
        f.frame = DataArray::fromHost("lon", {"cell"}, {n}, sky.lon);
        f.contourFrame = DataArray::fromHost("lat", {"cell"}, {n}, sky.lat);
        f.cells = healpixCells(sky.grid);
        const Crossings c = crossings(f, "30.25", 30.25);
        const QString why = offParallel(c, 2.5);
        QVERIFY2(why.isEmpty(), qPrintable(why));

        // Along other cells (another dim, or as many values as a coarser grid has): not drawn,
        // and the reason names both.
        for (const auto& [dim, size] : {std::pair<const char*, std::int64_t>{"ncells", n},
                                        std::pair<const char*, std::int64_t>{"cell", n / 4}}) {
            ImageFrame other = f;
            other.contourFrame =
                DataArray::fromHost("lat", {dim}, {size}, std::vector<float>(std::size_t(size), 1.f));
            ImageViewSettings s;
            s.contours = parseContourSpec("30.25");
            s.projection = "Robinson";
            detail::ImageContent content;
            content.setSettings(s);
            content.setFrame(other);
            const std::string why = content.contourProblem();
            QVERIFY2(why.find("another grid") != std::string::npos || why.find("is not") != std::string::npos,
                     why.c_str());
            QVERIFY2(why.find("lat") != std::string::npos && why.find("lon") != std::string::npos,
                     why.c_str());
        }
    }

    void meshNodeIsolinesFollowTheParallel() {
        const std::shared_ptr<mesh::Mesh> m = benchmesh::icosahedral(8);
        m->nodeDim = "vertex";
        std::vector<double> z;
        for (std::int64_t k = 0; k < m->nodes(); ++k)
            z.push_back(std::sin(m->nodeLat[std::size_t(k)] * M_PI / 180));
        ImageFrame f;
        f.frame = DataArray::fromHost("z", {"vertex"}, {m->nodes()}, z);
        f.cells = meshNodes(m);
        const Crossings c = crossings(f, "0.5", 30);
        const QString why = offParallel(c, 1.5);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

QTEST_MAIN(TestImageCellContours)
#include "tst_imagecellcontours.moc"
