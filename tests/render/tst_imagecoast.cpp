// What the image view tells of its coastlines: the level it drew by zoom and where it comes
// from (ImageContent::coastDrawn, and coastlinesDrawn for exports), over a 0–360 longitude frame:
// the world draws GSHHG crude, the Great Lakes the 5 km level with Lake Michigan's shore inked,
// closer the 1 km and the full levels; none with coastlines off. Needs Debian's gmt-gshhg-*.
#include <QtTest/QtTest>

#include <cmath>
#include <filesystem>

#include "../../render/src/image_content.h"
#include "render_fixtures.h"
#include "strata/render/colormaps.h"
#include "strata/render/image_export.h"
#include "strata/render/projection.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 800, kH = 420;

bool haveGshhg() {
    for (char r : {'c', 'l', 'i', 'h', 'f'})
        if (!std::filesystem::exists(std::string("/usr/share/gmt-gshhg/binned_GSHHS_") + r + ".nc"))
            return false;
    return true;
}

struct Drawn {
    detail::ImageContent::CoastDrawn level;
    bool inkNear = false; // a planned line's point near the probe
};

// The annotations of the lon/lat frame over `window` (none: the whole frame), and whether
// a coast passes within `radius` pixels of (lon, lat).
Drawn drawn(std::optional<ViewWindow> window, bool coastlines, double lon = 0, double lat = 0,
            double radius = 2) {
    ImageViewSettings s;
    s.coastlines = coastlines;
    s.window = window;
    detail::ImageContent content;
    content.setSettings(s);
    content.setFrame({lonLatFrame(true, false)});
    const ViewLayout l = content.layoutFor(kW, kH, 1);
    const auto a = content.annotations(l, colormapTable("viridis"), {-1, 1});
    Drawn d{content.coastDrawn()};
    const ViewTransform t(l.plot, content.window());
    if (a.coast)
        for (const auto& p : *a.coast)
            for (std::size_t k = 0; k + 1 < p.xy.size(); k += 2)
                d.inkNear =
                    d.inkNear || std::hypot(p.xy[k] - t.pixelX(lon), p.xy[k + 1] - t.pixelY(lat)) < radius;
    return d;
}

} // namespace

class TestImageCoast : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() {
        if (!haveGshhg()) QSKIP("no GSHHG files (gmt-gshhg-*: scripts/setup.sh installs them)");
    }

    void levelFollowsTheZoom() {
        const Drawn world = drawn(std::nullopt, true, 20.0, -34.8); // Cape Agulhas
        QCOMPARE(world.level.resolution, 'c');
        QCOMPARE(world.level.description,
                 std::string("GSHHG 2.3.7 crude (25 km), /usr/share/gmt-gshhg (gmt-gshhg-low)"));
        QVERIFY(world.inkNear);
        // 93°W–75°W (267–285 on the frame's 0–360): about 3 km a pixel, 6 km two.
        const Drawn lakes = drawn(ViewWindow{267, 285, 40, 50}, true, 360 - 86.52, 44.05);
        QCOMPARE(lakes.level.resolution, 'l');
        QCOMPARE(lakes.level.path, std::string("/usr/share/gmt-gshhg/binned_GSHHS_l.nc"));
        QVERIFY(lakes.inkNear); // Lake Michigan's east shore
        // 6° across: about 1 km a pixel (the 1 km level); 0.4° across, about 65 m (the full one).
        QCOMPARE(drawn(ViewWindow{270, 276, 42, 46}, true).level.resolution, 'i');
        const Drawn bay = drawn(ViewWindow{273.3, 273.7, 43.95, 44.15}, true, 360 - 86.52, 44.05, 10);
        QCOMPARE(bay.level.resolution, 'f');
        QVERIFY2(bay.level.description.find("GSHHG 2.3.7 full (0.04 km)") == 0,
                 bay.level.description.c_str());
        QVERIFY(bay.inkNear);
    }

    // On a projected map the level follows the zoom too: the lines are those of the bins its
    // window shows (worked out through the projection's inverse), not a whole level. The world
    // on Robinson draws crude; the Great Lakes on LambertConformal a finer level than low, with
    // Lake Michigan's east shore inked where the projection puts it.
    void aProjectedMapReadsTheBinsItShows() {
        ImageViewSettings s;
        s.coastlines = true;
        s.projection = "Robinson";
        auto level = [&](int w, int h, double lon = 0, double lat = 0) {
            detail::ImageContent content;
            content.setSettings(s);
            content.setFrame({lonLatFrame(true, false)});
            const ViewLayout l = content.layoutFor(w, h, 1);
            const auto a = content.annotations(l, colormapTable("viridis"), {-1, 1});
            const Projection p = Projection::byName(s.projection);
            std::vector<double> x{lon}, y{lat};
            p.forward(x, y);
            const ViewTransform t(l.plot, content.window());
            bool ink = false;
            if (a.coast)
                for (const auto& line : *a.coast)
                    for (std::size_t k = 0; k + 1 < line.xy.size(); k += 2)
                        ink = ink ||
                              std::hypot(line.xy[k] - t.pixelX(x[0]), line.xy[k + 1] - t.pixelY(y[0])) < 3;
            return std::pair{content.coastDrawn().resolution, ink};
        };
        QCOMPARE(level(kW, kH).first, 'c');
        s.projection = "LambertConformal";
        std::vector<double> x{-88.5, -84.5}, y{41.5, 46.5};
        Projection::byName(s.projection).forward(x, y);
        s.window = ViewWindow{std::min(x[0], x[1]), std::max(x[0], x[1]), std::min(y[0], y[1]),
                              std::max(y[0], y[1])};
        const auto [lakes, ink] = level(kW, kH, -86.52, 44.05);
        QVERIFY2(lakes == 'i' || lakes == 'h' || lakes == 'f', std::string(1, lakes).c_str());
        QVERIFY(ink);
    }

    void noneWhenOff() {
        const Drawn off = drawn(ViewWindow{267, 285, 40, 50}, false);
        QCOMPARE(off.level.resolution, char(0));
        QVERIFY(off.level.description.empty());
    }

    // What an export is told it drew is what the content drew at that size.
    void exportsTellTheSame() {
        ImageViewSettings s;
        s.coastlines = true;
        s.window = ViewWindow{267, 285, 40, 50};
        QCOMPARE(coastlinesDrawn({lonLatFrame(true, false)}, s, QSize(kW, kH)),
                 drawn(s.window, true).level.description);
        s.coastlines = false;
        QCOMPARE(coastlinesDrawn({lonLatFrame(true, false)}, s, QSize(kW, kH)), std::string());
    }
};

QTEST_GUILESS_MAIN(TestImageCoast)
#include "tst_imagecoast.moc"
