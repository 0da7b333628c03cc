// pixelFootprint: the arc one screen pixel spans on the sphere, what a HEALPix pyramid's zoom is
// chosen by. Plate carrée's is known exactly (a pixel up is its degrees of latitude at any
// place); other maps against arcs between the pixels' own inverse-projected places; off the map
// it is not a number.
#include <QtTest>

#include <cmath>
#include <numbers>

#include "strata/render/pixel_footprint.h"

using namespace strata;

namespace {

constexpr double kDeg = std::numbers::pi / 180;

// The window of `p` spanning lon0..lon1, lat0..lat1 (through its forward transform).
MapExtent windowOf(const Projection& p, double lon0, double lon1, double lat0, double lat1) {
    std::vector<double> x{lon0, lon1}, y{lat0, lat1};
    p.forward(x, y);
    return {x[0], x[1], y[0], y[1]};
}

} // namespace

class TestPixelFootprint : public QObject {
    Q_OBJECT
private slots:
    void plateCarreesPixelIsItsDegreesUp() {
        const Projection p = Projection::byName("PlateCarree");
        // The whole world over 1440 × 720 pixels: a quarter degree a pixel, up and (on the
        // equator) to the right.
        const MapExtent world = windowOf(p, -180, 180, -90, 90);
        QVERIFY(std::fabs(pixelFootprint(p, world, 1440, 720) - 0.25 * kDeg) < 1e-9);
        // Eight times as many pixels, or a window an eighth as wide: an eighth of that.
        QVERIFY(std::fabs(pixelFootprint(p, world, 11520, 5760) - 0.25 / 8 * kDeg) < 1e-10);
        const MapExtent zoomed = windowOf(p, 0, 45, 0, 22.5);
        QVERIFY(std::fabs(pixelFootprint(p, zoomed, 1440, 720) - 0.25 / 8 * kDeg) < 1e-10);
        // Pixels wider than tall (a degree across, a quarter up): the larger span counts, and the
        // smallest over the places, at 72° (the places are 36° apart): a degree of longitude there.
        QVERIFY(std::fabs(pixelFootprint(p, world, 360, 720) - std::cos(72 * kDeg) * kDeg) < 1e-6);
    }

    void otherMapsMeasureTheirPixels() {
        const Projection p = Projection::byName("Robinson");
        const MapExtent world = p.extent();
        const double f = pixelFootprint(p, world, 1920, 1080);
        // Robinson stretches nothing by more than a few tens of percent near the centre.
        const double degreesPerPixel = 360.0 / 1920;
        QVERIFY2(f > 0.6 * degreesPerPixel * kDeg && f < 1.2 * degreesPerPixel * kDeg,
                 qPrintable(QString::number(f)));
        // Zoomed in tenfold about the centre, where Robinson's x is 0.8487 R λ over a map 2 ×
        // 0.8487 π R wide: a pixel spans 2π / 19200 there.
        const MapExtent tenth{world.x0 / 10, world.x1 / 10, world.y0 / 10, world.y1 / 10};
        const double t = pixelFootprint(p, tenth, 1920, 1080);
        QVERIFY2(std::fabs(t - 2 * std::numbers::pi / 19200) < 0.02 * t, qPrintable(QString::number(t)));
        QVERIFY(t < f);
        // Polar stereographic about the pole.
        const Projection n = Projection::byName("NorthPolarStereo");
        const MapExtent pole{-1e6, 1e6, -1e6, 1e6}; // 2000 km across
        const double g = pixelFootprint(n, pole, 1000, 1000);
        QVERIFY2(g > 0.8 * 2000.0 / 1000 / 6371 && g < 1.1 * 2000.0 / 1000 / 6371,
                 qPrintable(QString::number(g)));
    }

    void offTheMapIsNotANumber() {
        const Projection p = Projection::byName("Robinson");
        const MapExtent world = p.extent();
        const MapExtent outside{world.x1 * 2, world.x1 * 3, world.y1 * 2, world.y1 * 3};
        QVERIFY(std::isnan(pixelFootprint(p, outside, 800, 600)));
        QVERIFY(std::isnan(pixelFootprint(p, world, 0, 600)));
        QVERIFY(std::isnan(pixelFootprint(p, MapExtent{}, 800, 600)));
    }
};

QTEST_GUILESS_MAIN(TestPixelFootprint)
#include "tst_pixelfootprint.moc"
