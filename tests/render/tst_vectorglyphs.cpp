// Vector glyphs and directions: barbs against cases drawn by hand (WMO: 50 kn pennants, 10 kn
// barbs, 5 kn half barbs, on the side of low pressure), arrows, the reference speed, map
// directions against PROJ's own partial derivatives (proj_factors), and grid-relative vectors
// turned to the earth on a grid turned by a known angle.
#include <QtTest>

#include <proj.h>

#include <cmath>

#include "../../render/src/vector_glyphs.h"
#include "strata/render/projection.h"

using namespace strata;
using namespace strata::detail;

namespace {

double angleBetween(double ax, double ay, double bx, double by) {
    return std::abs(std::remainder(std::atan2(ay, ax) - std::atan2(by, bx), 2 * M_PI)) * 180 / M_PI;
}

} // namespace

class TestVectorGlyphs : public QObject {
    Q_OBJECT

private slots:
    // Rounded to 5 kn, then pennants, barbs and a half barb; calm below 2.5 kn.
    void barbPartsCountByTheWmoRule() {
        QCOMPARE(barbParts(0), (BarbParts{0, 0, 0, true}));
        QCOMPARE(barbParts(2.4), (BarbParts{0, 0, 0, true}));
        QCOMPARE(barbParts(2.6), (BarbParts{0, 0, 1, false}));
        QCOMPARE(barbParts(10), (BarbParts{0, 1, 0, false}));
        QCOMPARE(barbParts(15), (BarbParts{0, 1, 1, false}));
        QCOMPARE(barbParts(48), (BarbParts{1, 0, 0, false}));
        QCOMPARE(barbParts(65), (BarbParts{1, 1, 1, false}));
        QCOMPARE(barbParts(103), (BarbParts{2, 0, 1, false}));
    }

    // A 65 kn westerly at (100, 100), staff 70 long, drawn by hand: the staff runs west to
    // (30, 100), where the wind comes from; the pennant sits at its end and the barb and half
    // barb inward, all on the north side (low pressure, left of the wind) in the north, on the
    // south side in the south; the half barb is half as long as the barb.
    void aBarbIsDrawnAsByHand() {
        for (const bool southern : {false, true}) {
            Glyphs g;
            addBarb(g, 100, 100, 3, 0, 65, 70, southern);
            QCOMPARE(g.fills.size(), std::size_t(1));
            QCOMPARE(g.lines.size(), std::size_t(3)); // staff, barb, half barb
            QCOMPARE(g.lines[0].xy, (std::vector<double>{100, 100, 30, 100}));
            const std::vector<double>& pennant = g.fills[0].xy;
            QCOMPARE(pennant.size(), std::size_t(8));  // a closed triangle
            QCOMPARE(pennant[0], 30.0);                // from the staff's end
            QVERIFY(std::abs(pennant[4] - 40) < 1e-9); // to a seventh of the staff in
            const double side = southern ? -1 : 1;
            QVERIFY(side * (pennant[3] - 100) > 30); // its point out on the low side
            const auto& barb = g.lines[1].xy;
            const auto& half = g.lines[2].xy;
            QVERIFY(barb[0] > 40 && barb[0] < half[0]); // inward of the pennant, then the half barb
            QVERIFY(side * (barb[3] - 100) > 25 && side * (half[3] - 100) > 12);
            const double lb = std::hypot(barb[2] - barb[0], barb[3] - barb[1]),
                         lh = std::hypot(half[2] - half[0], half[3] - half[1]);
            QVERIFY(std::abs(lh / lb - 0.5) < 1e-9);
            QVERIFY(barb[2] < barb[0]); // slanted out toward the staff's end
        }
    }

    // 5 kn alone: a half barb set a place in from the end (not to be read as 10 kn); a
    // southerly's staff points south; calm is a circle around the station.
    void aHalfBarbAloneAndCalm() {
        Glyphs g;
        addBarb(g, 0, 0, 0, 1, 5, 70, false); // blowing north: from the south
        QCOMPARE(g.lines.size(), std::size_t(2));
        QCOMPARE(g.lines[0].xy, (std::vector<double>{0, 0, 0, -70}));
        QVERIFY(std::abs(g.lines[1].xy[1] - (-60)) < 1e-9); // a seventh in from the end
        QVERIFY(g.lines[1].xy[2] < 0); // west of a southerly's staff: its left, in the north
        Glyphs calm;
        addBarb(calm, 5, 5, 1, 1, 1, 70, false);
        QCOMPARE(calm.lines.size(), std::size_t(1));
        for (std::size_t k = 0; k + 1 < calm.lines[0].xy.size(); k += 2)
            QVERIFY(std::abs(std::hypot(calm.lines[0].xy[k] - 5, calm.lines[0].xy[k + 1] - 5) - 10.5) < 1e-9);
    }

    // An arrow: its shaft from the foot to the head's base, the head a triangle with its point
    // at foot + vector; nothing for a vector under half a pixel.
    void arrowsPointAlongTheirVector() {
        Glyphs g;
        addArrow(g, 10, 20, 30, 40, 10);
        QCOMPARE(g.lines.size(), std::size_t(1));
        QCOMPARE(g.fills.size(), std::size_t(1));
        QCOMPARE(g.fills[0].xy[0], 40.0);
        QCOMPARE(g.fills[0].xy[1], 60.0);
        QVERIFY(std::abs(g.lines[0].xy[2] - (40 - 6)) < 1e-9 && std::abs(g.lines[0].xy[3] - (60 - 8)) < 1e-9);
        Glyphs none;
        addArrow(none, 0, 0, 0.3, 0.3, 5);
        QVERIFY(none.lines.empty() && none.fills.empty());
    }

    // The smallest 1, 2 or 5 × 10^k at or above the 95th percentile.
    void referenceSpeedIsANiceNumber() {
        std::vector<double> s;
        for (int k = 1; k <= 100; ++k) s.push_back(k);
        QCOMPARE(referenceSpeed(s), 100.0);
        QCOMPARE(referenceSpeed({0.3, NAN}), 0.5);
        QCOMPARE(referenceSpeed({12, 14, 17}), 20.0);
        QCOMPARE(referenceSpeed({0, NAN}), 0.0);
    }

    // On each map, the direction a vector takes through our finite differences is the one
    // PROJ's partial derivatives give: ue · (∂x/∂λ, ∂y/∂λ) / cos φ + vn · (∂x/∂φ, ∂y/∂φ).
    void mapDirectionsAgreeWithProjFactors() {
        PJ_CONTEXT* ctx = proj_context_create();
        for (const std::string name : {"Robinson", "LambertConformal", "NorthPolarStereo", "Mollweide"}) {
            const Projection map = Projection::byName(name);
            PJ* pj = proj_create(ctx, map.projString().c_str());
            QVERIFY2(pj, name.c_str());
            LonLatPlace place = [&](double lon, double lat, double& x, double& y) {
                std::vector<double> a{lon}, b{lat};
                map.forward(a, b);
                x = a[0];
                y = b[0];
                return std::isfinite(x) && std::isfinite(y);
            };
            int checked = 0;
            for (double lat : {-47.0, -22.0, 12.0, 37.0, 62.0, 78.0}) // off Robinson's table nodes (every 5°)
                for (double lon : {-150.0, -60.0, 0.0, 45.0, 120.0}) {
                    if (name == "NorthPolarStereo" && lat < 10) continue;
                    if (name == "LambertConformal" && (lat < 10 || std::abs(lon) > 70)) continue;
                    const PJ_FACTORS f =
                        proj_factors(pj, proj_coord(lon * M_PI / 180, lat * M_PI / 180, 0, 0));
                    QVERIFY2(proj_errno(pj) == 0, qPrintable(QString::fromStdString(name)));
                    const double c = std::cos(lat * M_PI / 180);
                    for (const auto& [ue, vn] :
                         {std::pair{1.0, 0.0}, std::pair{0.0, 1.0}, std::pair{7.0, -3.0}}) {
                        double dx, dy;
                        QVERIFY(planeDirection(place, lon, lat, ue, vn, dx, dy));
                        const double ex = ue * f.dx_dlam / c + vn * f.dx_dphi,
                                     ey = ue * f.dy_dlam / c + vn * f.dy_dphi;
                        QVERIFY2(angleBetween(dx, dy, ex, ey) < 0.05,
                                 qPrintable(QString("%1 at (%2, %3): %4° from PROJ's")
                                                .arg(QString::fromStdString(name))
                                                .arg(lon)
                                                .arg(lat)
                                                .arg(angleBetween(dx, dy, ex, ey))));
                        ++checked;
                    }
                }
            QVERIFY(checked >= 30);
            proj_destroy(pj);
        }
        proj_context_destroy(ctx);
    }

    // A grid turned by 30° about a point on the equator: a vector along its x is 30° north of
    // east on the ground, one along its y 30° west of north.
    void gridRelativeVectorsTurnToTheEarth() {
        const double a = 30 * M_PI / 180;
        auto lonLat = [&](double i, double j, double& lon, double& lat) {
            lon = 0.1 * (i * std::cos(a) - j * std::sin(a));
            lat = 0.1 * (i * std::sin(a) + j * std::cos(a));
            return true;
        };
        double ue, vn;
        QVERIFY(gridToEarth(lonLat, 3, 4, 10, 0, ue, vn));
        QVERIFY(std::abs(ue - 10 * std::cos(a)) < 1e-3 && std::abs(vn - 10 * std::sin(a)) < 1e-3);
        QVERIFY(gridToEarth(lonLat, 3, 4, 0, 10, ue, vn));
        QVERIFY(std::abs(ue + 10 * std::sin(a)) < 1e-3 && std::abs(vn - 10 * std::cos(a)) < 1e-3);
    }
};

QTEST_GUILESS_MAIN(TestVectorGlyphs)
#include "tst_vectorglyphs.moc"
