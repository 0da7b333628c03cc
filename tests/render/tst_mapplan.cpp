// The graticule of a projected map, labelled as cartopy labels it: outside the map's edge (no
// label inside the map but a polar map's parallels and Mollweide's meridians, which have no
// edge to go beyond), in the view's margins, clear of the colour bar and of the title's band,
// and no label over another. A zoomed map's lines are labelled where they leave the plot.
#include <QtTest>
#include <cmath>

#include "../../render/src/map_plan.h"
#include "strata/render/projection.h"

using namespace strata;
using namespace strata::detail;

namespace {

struct Planned {
    ViewLayout layout;
    LabelRoom room;
    Graticule g;
};

Planned plan(const Projection& proj, std::optional<ViewWindow> zoom = std::nullopt) {
    const MapExtent e = proj.extent();
    const ViewWindow w = zoom.value_or(ViewWindow{e.x0, e.x1, e.y0, e.y1});
    Planned out;
    out.layout = computeLayout(1024, 768, 1, w, true);
    out.room.area = PixelRect{0, 0, 1024, out.layout.plot.y1};
    out.room.avoid = PixelRect{out.layout.colourBar.x0, 0, 1024, 768};
    out.g = planGraticule(proj.params(), ViewTransform(out.layout.plot, w), 12, out.room);
    return out;
}

bool overlap(const PixelRect& a, const PixelRect& b) {
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

// Whether the pixel is on the map: its inverse is a point of the globe the map draws.
bool onMap(const Projection& proj, const ViewTransform& t, double px, double py) {
    double lon = 0, lat = 0;
    return projInverse(proj.params(), t.dataX(px), t.dataY(py), lon, lat);
}

} // namespace

class TestMapPlan : public QObject {
    Q_OBJECT
private slots:
    // A line across the seam of a map centred on 0° (here 179°E to 179°W) is cut there: two
    // pieces, one at each side of the map, not a stroke across the whole globe.
    void linesAreCutAtTheSeam() {
        const Projection proj = Projection::byName("Robinson");
        const Planned p = plan(proj);
        const MapExtent e = proj.extent();
        const ViewTransform t(p.layout.plot, ViewWindow{e.x0, e.x1, e.y0, e.y1});
        LonLatLine l;
        l.lon = {160, 170, 179, -179, -170, -160};
        l.lat = {10, 10, 10, 10, 10, 10};
        const std::vector<PixelPolyline> out = planProjectedLines({l}, proj.params(), t, 0);
        QCOMPARE(out.size(), std::size_t(2));
        for (const PixelPolyline& piece : out) {
            double x0 = 1e300, x1 = -1e300;
            for (std::size_t i = 0; i < piece.xy.size(); i += 2) {
                x0 = std::min(x0, piece.xy[i]);
                x1 = std::max(x1, piece.xy[i]);
            }
            QVERIFY2(x1 - x0 < p.layout.plot.width() / 4, qPrintable(QString("%1..%2").arg(x0).arg(x1)));
        }
    }

    void labelsGoOutsideTheMap_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("meridians"); // at least this many meridian labels
        QTest::addColumn<int>("parallels"); // not counting the equator's "0°"
        QTest::addColumn<bool>("edge");     // labels outside the edge (else some inside, on a halo)
        QTest::newRow("PlateCarree") << "PlateCarree" << 10 << 4 << true; // and both 0°s
        QTest::newRow("Robinson") << "Robinson" << 5 << 4 << true;
        QTest::newRow("LambertConformal") << "LambertConformal" << 4 << 2 << true;
        QTest::newRow("Mollweide") << "Mollweide" << 6 << 4 << false;
        QTest::newRow("NorthPolarStereo") << "NorthPolarStereo" << 3 << 2 << false;
        QTest::newRow("SouthPolarStereo") << "SouthPolarStereo" << 3 << 2 << false;
    }
    void labelsGoOutsideTheMap() {
        QFETCH(QString, name);
        QFETCH(int, meridians);
        QFETCH(int, parallels);
        QFETCH(bool, edge);
        const Projection proj = Projection::byName(name.toStdString());
        const Planned p = plan(proj);
        const ViewTransform t(p.layout.plot, ViewWindow{proj.extent().x0, proj.extent().x1, proj.extent().y0,
                                                        proj.extent().y1});
        int lons = 0, lats = 0;
        std::vector<PixelRect> boxes;
        for (const TextItem& l : p.g.labels) {
            const bool lon = l.text.find_first_of("EW") != std::string::npos || l.text == "180°";
            const bool lat = l.text.find_first_of("NS") != std::string::npos;
            lons += lon;
            lats += lat;
            const PixelRect b = textBox(l);
            QVERIFY2(
                b.x0 >= 0 && b.x1 <= 1024 && b.y0 >= 0 && b.y1 <= p.layout.plot.y1,
                qPrintable(QString::fromStdString(l.text) + " leaves the view or enters the title's band"));
            QVERIFY2(!overlap(b, *p.room.avoid),
                     qPrintable(QString::fromStdString(l.text) + " is on the colour bar"));
            for (const PixelRect& o : boxes)
                QVERIFY2(!overlap(b, o),
                         qPrintable(QString::fromStdString(l.text) + " covers another label"));
            boxes.push_back(b);
            // Outside the map: no corner or centre of its box on the map, unless it is a label on
            // a halo (a polar map's parallel, a Mollweide meridian).
            if (!l.halo) {
                for (double fx : {0.0, 0.5, 1.0})
                    for (double fy : {0.0, 0.5, 1.0}) {
                        QVERIFY2(!onMap(proj, t, b.x0 + fx * (b.x1 - b.x0), b.y0 + fy * (b.y1 - b.y0)),
                                 qPrintable(QString::fromStdString(l.text) + " lies on the map"));
                    }
            }
            QVERIFY(edge ? !l.halo : true);
        }
        QVERIFY2(lons >= meridians && lats >= parallels,
                 qPrintable(QString("%1 meridian and %2 parallel labels").arg(lons).arg(lats)));
    }

    // Zoomed into Europe on Robinson: the map's edge is out of the plot, so the lines are labelled
    // where they leave it, below its bottom and left of its left side.
    void aZoomedMapIsLabelledAtThePlotsEdges() {
        const Projection proj = Projection::byName("Robinson");
        std::vector<double> lon{-15, 40}, lat{35, 65};
        proj.forward(lon, lat);
        const ViewWindow w{lon[0], lon[1], lat[0], lat[1]};
        const Planned p = plan(proj, w);
        int below = 0, left = 0;
        for (const TextItem& l : p.g.labels) {
            const PixelRect b = textBox(l);
            below += b.y1 <= p.layout.plot.y0 && l.text.find_first_of("EW") != std::string::npos;
            left += b.x1 <= p.layout.plot.x0 && l.text.find_first_of("NS") != std::string::npos;
        }
        QVERIFY2(below >= 1 && left >= 1, qPrintable(QString("%1 below, %2 left").arg(below).arg(left)));
    }
};

QTEST_GUILESS_MAIN(TestMapPlan)
#include "tst_mapplan.moc"
