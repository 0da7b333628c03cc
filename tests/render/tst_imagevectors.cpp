// A vector pair over the image view's frame (ImageViewSettings::vectors), on real heights: the
// geostrophic wind of NCEP's 500 hPa heights (tests/data/geostrophic_500.nc) runs along the
// height isolines, so each arrow drawn must be square to the heights' gradient as the picture
// shows them — on plain axes and on a map, where the arrows are turned into its directions. A
// uniform westerly given grid relative on a rotated grid's cells points where the same wind
// given earth relative does. Baselines of each style, raster and GL, looked at; pairs on
// another grid refused with both named.
#include <QtTest/QtTest>

#include <QApplication>
#include <cmath>

#include "../../render/src/image_content.h"
#include "../../render/src/projection_math.h"
#include "../nc_read.h"
#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/render/image_export.h"
#include "strata/render/image_view.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 800, kH = 500;
const std::string kData = STRATA_TEST_DATA;

// Time 0 of `name` in geostrophic_500.nc, on its lat/lon axes.
DataArray geostrophic(const std::string& name) {
    const auto v = nctest::readNcFloats(kData + "/geostrophic_500.nc", name);
    const auto lat = nctest::readNcFloats(kData + "/geostrophic_500.nc", "lat");
    const auto lon = nctest::readNcFloats(kData + "/geostrophic_500.nc", "lon");
    if (v.shape.size() != 3) return {};
    Coordinates cs;
    cs.set(
        axis("lat", std::vector<double>(lat.values.begin(), lat.values.end()), "degrees_north", "latitude"));
    cs.set(
        axis("lon", std::vector<double>(lon.values.begin(), lon.values.end()), "degrees_east", "longitude"));
    const std::vector<float> first(v.values.begin(), v.values.begin() + std::ptrdiff_t(73 * 144));
    DataArray a = DataArray::fromHost(name, {"lat", "lon"}, {73, 144}, first, cs);
    Variable var = a.variable();
    var.attrs().set({"units", DType::Char, std::string(name == "zg" ? "m" : "m s-1")});
    return DataArray(name, var, cs);
}

ImageFrame windFrame() {
    ImageFrame f{geostrophic("zg")};
    f.vectorU = geostrophic("ua");
    f.vectorV = geostrophic("va");
    return f;
}

// `name` of rotated_winds.nc on its 2-D lat/lon (a curvilinear grid's cells).
DataArray rotated(const std::string& name) {
    const std::string path = kData + "/rotated_winds.nc";
    const auto v = nctest::readNcFloats(path, name), lat = nctest::readNcFloats(path, "lat"),
               lon = nctest::readNcFloats(path, "lon");
    if (v.shape.size() != 2) return {};
    auto coord = [&](const char* n, const std::vector<float>& values, const char* units) {
        Coordinate c;
        c.name = n;
        c.dims = {"rlat", "rlon"};
        c.shape = {26, 27};
        c.values.assign(values.begin(), values.end());
        c.attrs.set({"units", DType::Char, std::string(units)});
        return c;
    };
    Coordinates cs;
    cs.set(coord("lon", lon.values, "degrees_east"));
    cs.set(coord("lat", lat.values, "degrees_north"));
    return DataArray::fromHost(name, {"rlat", "rlon"}, {26, 27}, v.values, cs);
}

// The arrows' shafts (two-point lines from each glyph's foot) of the content's vector glyphs.
std::vector<std::array<double, 4>> shafts(const detail::ImageContent& c, const ViewLayout& l) {
    const auto a = c.annotations(l, colormapTable("viridis"), {5000, 5900});
    std::vector<std::array<double, 4>> out;
    if (!a.vectors) return out;
    for (const auto& g : *a.vectors)
        if (!g.filled)
            for (const auto& line : g.lines)
                if (line.xy.size() == 4) out.push_back({line.xy[0], line.xy[1], line.xy[2], line.xy[3]});
    return out;
}

// Bilinear heights at (lon, lat) on the fixture's grid (lat -90..90 every 2.5°, lon 0..357.5).
double heightAt(const DataArray& zg, double lon, double lat) {
    static std::vector<double> v;
    if (v.empty()) v = zg.values<double>();
    const double x = std::fmod(std::fmod(lon, 360) + 360, 360) / 2.5, y = (lat + 90) / 2.5;
    const auto i = std::int64_t(std::floor(x)), j = std::min<std::int64_t>(std::int64_t(std::floor(y)), 71);
    const double fx = x - double(i), fy = y - double(j);
    auto at = [&](std::int64_t jj, std::int64_t ii) { return v[std::size_t(jj * 144 + (ii % 144))]; };
    return (1 - fy) * ((1 - fx) * at(j, i) + fx * at(j, i + 1)) +
           fy * ((1 - fx) * at(j + 1, i) + fx * at(j + 1, i + 1));
}

} // namespace

class TestImageVectors : public QObject {
    Q_OBJECT

    QImage picture(const QString& painter, const ImageFrame& frame, const ImageViewSettings& s) {
        if (painter == "export") return renderImage(frame, s, QSize(kW, kH));
        view_ = std::make_unique<ImageView>();
        view_->setPresentation(ImagePresentation::Gl);
        view_->setFixedSize(kW, kH);
        view_->setSettings(s);
        view_->setFrame(frame);
        view_->show();
        if (!QTest::qWaitForWindowExposed(view_->glWindow())) return {};
        QImage shot;
        if (!QTest::qWaitFor([&] { return !(shot = view_->grabImage()).isNull(); })) return {};
        if (!view_->drawsWithGl()) return {};
        return shot.convertToFormat(QImage::Format_RGB32);
    }
    std::unique_ptr<ImageView> view_;

    // Each arrow (its shaft's ends are not rounded to pixels: short ones point true too) is square to the
    // heights' gradient as drawn, within 12°, for nine in ten of them at least; `heightAtPixel` the heights
    // at a window pixel.
    void checkAlongIsolines(const std::vector<std::array<double, 4>>& arrows,
                            const std::function<double(double px, double py)>& heightAtPixel) {
        int checked = 0, along = 0;
        for (const auto& a : arrows) {
            const double dx = a[2] - a[0], dy = a[3] - a[1], n = std::hypot(dx, dy);
            if (n < 0.2) continue;
            const double h = 2; // pixels
            const double gx = heightAtPixel(a[0] + h, a[1]) - heightAtPixel(a[0] - h, a[1]);
            const double gy = heightAtPixel(a[0], a[1] + h) - heightAtPixel(a[0], a[1] - h);
            const double g = std::hypot(gx, gy);
            if (!(g > 0)) continue;
            ++checked;
            along += std::abs(dx * gx + dy * gy) / (n * g) < std::sin(12 * M_PI / 180);
        }
        QVERIFY2(checked >= 150, qPrintable(QString::number(checked)));
        QVERIFY2(along >= checked * 9 / 10,
                 qPrintable(QString("%1 of %2 along the isolines").arg(along).arg(checked)));
    }

private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d)
            QFAIL("the image tests draw through X: run them under xvfb-run (scripts/run-tests.sh)");
        QVERIFY2(geostrophic("zg").ndim() == 2, "tests/data/geostrophic_500.nc is not readable");
    }

    // On plain longitude/latitude axes: the geostrophic arrows follow the height isolines; with
    // u and v swapped they would not (the check can fail).
    void geostrophicArrowsFollowTheIsolines() {
        ImageViewSettings s;
        s.vectors = VectorStyle::Arrows;
        s.vectorSpacing = 20;
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame(windFrame());
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const ViewTransform t(l.plot, content.window());
        const DataArray zg = geostrophic("zg");
        auto height = [&](double px, double py) { return heightAt(zg, t.dataX(px), t.dataY(py)); };
        checkAlongIsolines(shafts(content, l), height);
        QVERIFY(content.vectorProblem().empty());
        ImageFrame swapped = windFrame();
        std::swap(swapped.vectorU, swapped.vectorV);
        content.setFrame(swapped);
        int across = 0, all = 0;
        for (const auto& a : shafts(content, l)) {
            const double dx = a[2] - a[0], dy = a[3] - a[1], n = std::hypot(dx, dy);
            const double gx = height(a[0] + 1, a[1]) - height(a[0] - 1, a[1]);
            const double gy = height(a[0], a[1] + 1) - height(a[0], a[1] - 1);
            if (n < 0.2 || !(std::hypot(gx, gy) > 0)) continue;
            ++all;
            across += std::abs(dx * gx + dy * gy) / (n * std::hypot(gx, gy)) > 0.5;
        }
        QVERIFY(across > all / 2);
    }

    // On Robinson and on the north polar stereographic map: the arrows, turned into the map's
    // directions, follow the isolines as the map draws them.
    void onAMapTheyAreTurnedIntoItsDirections() {
        for (const char* name : {"Robinson", "NorthPolarStereo"}) {
            ImageViewSettings s;
            s.vectors = VectorStyle::Arrows;
            s.vectorSpacing = 20;
            s.projection = name;
            detail::ImageContent content;
            content.setSettings(s);
            content.setFrame(windFrame());
            QVERIFY2(content.map(), content.projectionProblem().c_str());
            const ViewLayout l = content.layoutFor(kW, kH, 1);
            const ViewTransform t(l.plot, content.window());
            const detail::ProjParams& p = content.map()->projection().params();
            const DataArray zg = geostrophic("zg");
            checkAlongIsolines(shafts(content, l), [&](double px, double py) {
                double lon, lat;
                if (!detail::projInverse(p, t.dataX(px), t.dataY(py), lon, lat)) return double(NAN);
                return heightAt(zg, lon * 180 / M_PI, lat * 180 / M_PI);
            });
        }
    }

    // A uniform westerly on the rotated pole grid's cells: given grid relative (x_wind, y_wind)
    // it is turned to the earth by the grid's own directions and drawn as the earth-relative
    // pair (ua, va) is, each arrow within a degree; both point east on the lon/lat plane.
    void gridRelativeWindIsTurnedToTheEarth() {
        ImageViewSettings s;
        s.vectors = VectorStyle::Arrows;
        s.grid = GridSpace::LonLat;
        s.vectorSpacing = 20;
        auto arrows = [&](const char* u, const char* v, bool gridRelative) {
            ImageFrame f{rotated("ua")};
            f.vectorU = rotated(u);
            f.vectorV = rotated(v);
            f.vectorsGridRelative = gridRelative;
            detail::ImageContent content;
            content.setSettings(s);
            content.setFrame(f);
            return shafts(content, content.layoutFor(kW, kH, 1));
        };
        const auto earth = arrows("ua", "va", false), grid = arrows("x_wind", "y_wind", true),
                   wrong = arrows("x_wind", "y_wind", false);
        QVERIFY(earth.size() > 100);
        QCOMPARE(grid.size(), earth.size());
        double worst = 0, wrongWorst = 0;
        for (std::size_t k = 0; k < earth.size(); ++k) {
            const auto& e = earth[k];
            const auto& g = grid[k];
            const auto& w = wrong[k];
            auto angle = [](const std::array<double, 4>& a) { return std::atan2(a[3] - a[1], a[2] - a[0]); };
            worst = std::max(worst, std::abs(std::remainder(angle(e) - angle(g), 2 * M_PI)) * 180 / M_PI);
            wrongWorst =
                std::max(wrongWorst, std::abs(std::remainder(angle(e) - angle(w), 2 * M_PI)) * 180 / M_PI);
            QVERIFY(std::abs(angle(e)) < 1e-6); // east on the lon/lat plane
        }
        QVERIFY2(worst < 1, qPrintable(QString("%1°").arg(worst)));
        QVERIFY2(wrongWorst > 10, qPrintable(QString("%1°").arg(wrongWorst))); // the turn matters here
    }

    // Barbs take their hemisphere's side: each barb (a line from a point of its staff) lies
    // clockwise of the staff in the north, anticlockwise in the south (low pressure's side).
    void barbsTakeTheirHemispheresSide() {
        ImageViewSettings s;
        s.vectors = VectorStyle::Barbs;
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame(windFrame());
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const ViewTransform t(l.plot, content.window());
        const auto a = content.annotations(l, colormapTable("viridis"), {5000, 5900});
        QVERIFY(a.vectors && !a.vectors->empty());
        int north = 0, south = 0;
        const std::vector<double>* staff = nullptr;
        for (const auto& line : (*a.vectors)[0].lines) {
            const auto& p = line.xy;
            if (p.size() != 4) continue; // a calm ring
            if (staff) {
                const auto& q = *staff;
                const double sx = q[2] - q[0], sy = q[3] - q[1];
                const double along = ((p[0] - q[0]) * sx + (p[1] - q[1]) * sy) / (sx * sx + sy * sy);
                const double off = std::abs((p[0] - q[0]) * sy - (p[1] - q[1]) * sx) / std::hypot(sx, sy);
                if (along > 0.5 && along <= 1 + 1e-9 && off < 1e-6) { // a barb on this staff
                    const double cross = sx * (p[3] - p[1]) - sy * (p[2] - p[0]);
                    const bool northern = t.dataY(q[1]) > 0;
                    QVERIFY2(northern ? cross < 0 : cross > 0,
                             qPrintable(QString("at latitude %1").arg(t.dataY(q[1]))));
                    (northern ? north : south) += 1;
                    continue;
                }
            }
            staff = &p;
        }
        QVERIFY2(north > 50 && south > 50,
                 qPrintable(QString("%1 barbs north, %2 south").arg(north).arg(south)));
    }

    // A pair on another grid, or none, is refused with both grids named; nothing is drawn.
    void aPairOnAnotherGridIsRefused() {
        ImageViewSettings s;
        s.vectors = VectorStyle::Barbs;
        ImageFrame f = windFrame();
        f.vectorV = rotated("va");
        const QString why = QString::fromStdString(vectorsProblem(f, s));
        QVERIFY2(why.contains("'ua' (lat 73, lon 144)") && why.contains("'va' (rlat 26, rlon 27)"),
                 qPrintable(why));
        QVERIFY(QString::fromStdString(vectorsProblem({geostrophic("zg")}, s)).contains("no vector pair"));
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame(f);
        QVERIFY(!content.annotations(content.layoutFor(kW, kH, 1), colormapTable("viridis"), {0, 1}).vectors);
    }

    // Particles in the window move a step each particleTime: stepping one at a time draws what a
    // jump over the same steps draws; each step moves them; a jump further than the trails can
    // follow seeds them afresh, as a fresh view (export's still) does. Their speed scales the
    // trails' steps; their density the count.
    void particlesMoveStepByStep() {
        ImageViewSettings s;
        s.vectors = VectorStyle::Particles;
        const auto inkAt = [&](detail::ImageContent& c, std::uint64_t tick, double speed = 1,
                               double density = 1) {
            ImageViewSettings t = s;
            t.particleTime = tick;
            t.particleSpeed = speed;
            t.particleDensity = density;
            c.setSettings(t);
            const auto a = c.annotations(c.layoutFor(kW, kH, 1), colormapTable("viridis"), {5000, 5900});
            return a.vectors ? *a.vectors : std::vector<detail::InkLines>{};
        };
        detail::ImageContent one, jump, fresh;
        for (auto* c : {&one, &jump, &fresh}) c->setFrame(windFrame());
        const auto still = inkAt(fresh, 0);
        QCOMPARE(still.size(), std::size_t(4)); // four groups, older ones fainter
        QVERIFY(still[0].colour.a < still[3].colour.a);
        QVERIFY(still[3].lines.size() > 1000);
        QCOMPARE(inkAt(one, 0), still);
        std::vector<detail::InkLines> previous = still, now;
        for (std::uint64_t t = 1; t <= 10; ++t) {
            now = inkAt(one, t);
            QVERIFY(now != previous); // they moved
            previous = now;
        }
        inkAt(jump, 0);
        QCOMPARE(inkAt(jump, 10), now);
        for (std::uint64_t t = 11; t <= 60; ++t) now = inkAt(one, t);
        QCOMPARE(inkAt(jump, 60), now);    // beyond the trail's 24 steps, within 4 trails: followed
        QCOMPARE(inkAt(one, 1000), still); // too far: seeded afresh
        // Speed: the newest steps twice as long; density: four times as many trails.
        const auto meanStep = [](const detail::InkLines& g) {
            double sum = 0;
            long n = 0;
            for (const auto& l : g.lines)
                for (std::size_t k = 2; k + 1 < l.xy.size(); k += 2, ++n)
                    sum += std::hypot(l.xy[k] - l.xy[k - 2], l.xy[k + 1] - l.xy[k - 1]);
            return n ? sum / double(n) : 0.0;
        };
        detail::ImageContent fast, dense;
        fast.setFrame(windFrame());
        dense.setFrame(windFrame());
        const double ratio = meanStep(inkAt(fast, 0, 2)[3]) / meanStep(still[3]);
        QVERIFY2(ratio > 1.7 && ratio < 2.3, qPrintable(QString::number(ratio)));
        const double more = double(inkAt(dense, 0, 1, 4)[3].lines.size()) / double(still[3].lines.size());
        QVERIFY2(more > 3.5 && more < 4.5, qPrintable(QString::number(more)));
    }

    // Particles are seeded and born again uniformly on the screen, not in index space: on the
    // north polar map the rows near the pole cover few pixels, and get as few particles. The
    // newest points of the trails, counted in 4 × 4 tiles about the pole, are alike.
    void particlesAreUniformOnTheScreen() {
        ImageViewSettings s;
        s.vectors = VectorStyle::Particles;
        s.projection = "NorthPolarStereo";
        s.particleDensity = 4;
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame(windFrame());
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto a = content.annotations(l, colormapTable("viridis"), {5000, 5900});
        QVERIFY(a.vectors && a.vectors->size() == 4);
        const double cx = 0.5 * (l.plot.x0 + l.plot.x1), cy = 0.5 * (l.plot.y0 + l.plot.y1),
                     half = 0.2 * std::min(l.plot.width(), l.plot.height());
        std::vector<int> tiles(16, 0);
        for (const auto& line : (*a.vectors)[3].lines) {
            const double x = line.xy[line.xy.size() - 2], y = line.xy.back();
            const int i = int(std::floor((x - cx + half) / (half / 2))),
                      j = int(std::floor((y - cy + half) / (half / 2)));
            if (i >= 0 && i < 4 && j >= 0 && j < 4) ++tiles[std::size_t(j * 4 + i)];
        }
        const auto [lo, hi] = std::minmax_element(tiles.begin(), tiles.end());
        QString counts;
        for (int t : tiles) counts += QString::number(t) + " ";
        QVERIFY2(*lo > 20 && *hi < 1.6 * *lo, qPrintable(counts));
    }

    // Each style from both painters, against baselines looked at.
    void baselines_data() {
        QTest::addColumn<QString>("painter");
        QTest::addColumn<QString>("style");
        QTest::addColumn<QString>("projection");
        QTest::newRow("arrows Robinson raster") << "export"
                                                << "arrows"
                                                << "Robinson";
        QTest::newRow("arrows Robinson gl") << "gl"
                                            << "arrows"
                                            << "Robinson";
        QTest::newRow("barbs raster") << "export"
                                      << "barbs"
                                      << "";
        QTest::newRow("streamlines NorthPolarStereo raster") << "export"
                                                             << "streamlines"
                                                             << "NorthPolarStereo";
        QTest::newRow("streamlines NorthPolarStereo gl") << "gl"
                                                         << "streamlines"
                                                         << "NorthPolarStereo";
        QTest::newRow("particles raster") << "export"
                                          << "particles"
                                          << "";
    }
    void baselines() {
        QFETCH(QString, painter);
        QFETCH(QString, style);
        QFETCH(QString, projection);
        ImageViewSettings s;
        s.vectors = parseVectorStyle(style.toStdString());
        s.projection = projection.toStdString();
        if (style == "barbs") s.window = ViewWindow{270, 350, -65, 65}; // the Atlantic, both hemispheres
        const QImage img = picture(painter, windFrame(), s);
        QVERIFY(!img.isNull());
        const QString name = "vectors_" + style + (projection.isEmpty() ? "" : "_" + projection) + "_" +
                             (painter == "gl" ? "gl" : "raster");
        // Export draws through GL too (VTK offscreen): every row has a GL's baselines.
        const QString why = compareWithPainterBaseline(img, name, true);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    TestImageVectors t;
    return QTest::qExec(&t, argc, argv);
}
#include "tst_imagevectors.moc"
