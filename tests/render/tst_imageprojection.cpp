// Longitude/latitude frames on a map, on both painters (the raster view for host frames, the GL
// scene that draws device frames) and in PNG export: each sampled cell's colour where PROJ puts
// its centre, white off the map (not the missing colour), the graticule's labels, a baseline
// picture per projection and painter; a frame that is not lon/lat stays unprojected.
#include <QtTest/QtTest>

#include <QApplication>

#include "../../render/src/image_content.h"
#include "../../render/src/map_plan.h"
#include "../gpu_skip.h"
#include "image_compare.h"
#include "render_fixtures.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "strata/render/image_export.h"
#include "strata/render/image_view.h"
#include "strata/render/projection.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 720, kH = 420;

// Away from the graticule (3° off every 30°), its labels (at the equator and the map's left
// edge) and the cells a polar or conic map squeezes: where each projection is sampled.
struct Sampled {
    double lon0, lon1, lat0, lat1;
};
Sampled sampledFor(const std::string& name) {
    if (name == "NorthPolarStereo") return {-180, 180, 10, 40};
    if (name == "SouthPolarStereo") return {-180, 180, -40, -10};
    if (name == "LambertConformal") return {-160, -30, 10, 70};
    return {-120, 150, -50, 50};
}
bool nearGraticule(double v) { return std::fabs(std::remainder(v, 30.0)) < 3 || std::fabs(v) < 8; }

// The analytic field on 10° cells (centres 5°, 15°, ..., latitude descending), NaN in the
// fixtures' block: cells wide enough that a pixel half a pixel from a centre, on a map whose
// cells are skewed (Mollweide's curved meridians), is still in that cell.
DataArray coarseFrame() {
    std::vector<double> lon, lat;
    for (int i = 0; i < 36; ++i) lon.push_back(5 + 10.0 * i);
    for (int j = 0; j < 18; ++j) lat.push_back(85 - 10.0 * j);
    std::vector<float> v;
    for (double la : lat)
        for (double lo : lon) v.push_back(inNanBlock(lo, la) ? NAN : static_cast<float>(analytic(lo, la)));
    Coordinates cs;
    cs.set(axis("lat", lat, "degrees_north", "latitude"));
    cs.set(axis("lon", lon, "degrees_east", "longitude"));
    Variable var = DataArray::fromHost("f", {"lat", "lon"}, {18, 36}, v, cs).variable();
    var.attrs().set({"long_name", DType::Char, std::string("analytic field")});
    var.attrs().set({"units", DType::Char, std::string("1")});
    return DataArray("f", var, cs);
}

// Whether window pixel (x, y) is under one of `labels` (anchored at their left, about 60 ×
// 16 pixels at 12 pixels a letter's height).
bool underLabel(const std::vector<detail::TextItem>& labels, double x, double y) {
    for (const auto& t : labels) {
        const PixelRect b = detail::textBox(t); // a halo reaches a little beyond its text
        if (x >= b.x0 - 4 && x <= b.x1 + 4 && y >= b.y0 - 4 && y <= b.y1 + 4) return true;
    }
    return false;
}

} // namespace

class TestImageProjection : public QObject {
    Q_OBJECT

    // "raster" and "gl": the view painting a host frame or drawing it through GL; "cuda": the
    // frame on the GPU, drawn through GL (resampled onto the map on the device).
    QImage picture(const QString& painter, const DataArray& frame, const ImageViewSettings& s) {
        if (painter == "export") return renderImage({frame}, s, QSize(kW, kH));
        view_ = std::make_unique<ImageView>();
        view_->setPresentation(painter != "raster" ? ImagePresentation::Gl : ImagePresentation::Auto);
        view_->setFixedSize(kW, kH);
        view_->setSettings(s);
        if (painter == "cuda")
            view_->setFrame({frame.asDevice(Device::cuda(0), defaultStream(Device::cuda(0)))});
        else
            view_->setFrame({frame});
        view_->show();
        if (!QTest::qWaitForWindowExposed(painter != "raster" ? view_->glWindow() : view_->windowHandle()))
            return {};
        QImage shot;
        if (!QTest::qWaitFor([&] { return !(shot = view_->grabImage()).isNull(); })) return {};
        if (painter != "raster" && !view_->drawsWithGl()) return {};
        return shot.convertToFormat(QImage::Format_RGB32);
    }
    std::unique_ptr<ImageView> view_;

private slots:
    void initTestCase() {
        const char* d = std::getenv("DISPLAY");
        if (!d || !*d)
            QFAIL("the image tests draw through X: run them under xvfb-run (scripts/run-tests.sh)");
    }
    void cleanup() { view_.reset(); }

    void eachProjection_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("painter");
        for (const std::string& n : Projection::knownNames())
            for (const char* p : {"raster", "gl", "cuda"})
                QTest::addRow("%s %s", n.c_str(), p) << QString::fromStdString(n) << QString(p);
    }
    // The analytic field (2.5° cells, NaN in a block) on each map: at the pixel where PROJ's
    // forward puts a cell's centre, the colour of that cell's value; the map's corners (off the
    // globe for the world maps) white; the NaN block in the missing colour; a baseline.
    void eachProjection() {
        QFETCH(QString, name);
        QFETCH(QString, painter);
        if (painter == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const DataArray f = coarseFrame();
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        s.projection = name.toStdString();
        const auto before = transferCounters();
        const QImage img = picture(painter, f, s);
        QVERIFY(!img.isNull());
        // A device frame's picture is the GL painter's: its baseline, and the same cell checks.
        const QString baseline = "projection_" + name + "_" + (painter == "cuda" ? QString("gl") : painter);
        // Compared first, so that the picture reaches the build folder whatever fails below.
        const QString why = compareWithPainterBaseline(img, baseline, painter != "raster");
        if (painter == "cuda" && qEnvironmentVariable("STRATA_EXPECT_INTEROP") == "1")
            QCOMPARE(transferredSince(before).deviceToHost, 24u); // its extremes and count only
        detail::ImageContent content;                             // as the view lays it out
        content.setSettings(s);
        content.setFrame({f});
        QVERIFY2(content.map(), content.projectionProblem().c_str());
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const ViewWindow w = content.window();
        const Projection p = Projection::byName(name.toStdString());
        const auto table = colormapTable("viridis");
        const Sampled box = sampledFor(name.toStdString());
        const auto labels = content.annotations(l, table, {-1, 1}).mapLabels;
        std::vector<double> lon, lat;
        for (int j = 0; j < 18; ++j)
            for (int i = 0; i < 36; ++i) {
                double lo = 5 + 10.0 * i, la = 85 - 10.0 * j;
                const double rel = std::remainder(lo, 360.0);
                if (rel < box.lon0 || rel > box.lon1 || la < box.lat0 || la > box.lat1) continue;
                if (nearGraticule(rel) || nearGraticule(la) || std::fabs(std::fabs(la) - 90) < 1) continue;
                lon.push_back(lo);
                lat.push_back(la);
            }
        std::vector<double> x = lon, y = lat;
        p.forward(x, y);
        const ViewTransform t(l.plot, w);
        int checked = 0, missing = 0;
        for (std::size_t k = 0; k < lon.size(); ++k) {
            QVERIFY(!std::isnan(x[k]));
            const double v = inNanBlock(lon[k], lat[k]) ? NAN : analytic(lon[k], lat[k]);
            const Rgba8 want = expectedColour(table, static_cast<float>(v), -1, 1, s.colouring.nanColour);
            if (underLabel(labels, t.pixelX(x[k]), t.pixelY(y[k]))) continue;
            const Rgba8 got = colourAt(img, t.pixelX(x[k]), t.pixelY(y[k]));
            QVERIFY2(got == want, qPrintable(QString("lon %1 lat %2 at (%3, %4): %5, want %6")
                                                 .arg(lon[k])
                                                 .arg(lat[k])
                                                 .arg(t.pixelX(x[k]))
                                                 .arg(t.pixelY(y[k]))
                                                 .arg(str(got), str(want))));
            ++checked;
            missing += std::isnan(v);
        }
        QVERIFY2(checked > 25, qPrintable(QString::number(checked)));
        if (name == "Robinson" || name == "Mollweide" || name == "PlateCarree") {
            QVERIFY(missing >= 2);
            // Just inside the plot's corners: off the globe (PlateCarree fills its extent: its
            // corners are the poles' ends, drawn; checked off the map beside it instead).
            if (name != "PlateCarree") {
                const Rgba8 white{255, 255, 255, 255};
                QCOMPARE(str(colourAt(img, l.plot.x0 + 3, l.plot.y0 + 3)), str(white));
                QCOMPARE(str(colourAt(img, l.plot.x1 - 3, l.plot.y1 - 3)), str(white));
            }
        }
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // Labelled isolines of the analytic field on Robinson, with a dashed negative level, in a
    // chosen colour: the same picture from both painters, against baselines looked at.
    void contoursOnAMap_data() {
        QTest::addColumn<QString>("painter");
        QTest::newRow("raster") << QString("export");
        QTest::newRow("gl") << QString("gl");
    }
    void contoursOnAMap() {
        QFETCH(QString, painter);
        ImageViewSettings s;
        s.colouring.range = {RangeMode::Fixed, -1, 1};
        s.projection = "Robinson";
        s.contours = parseContourSpec("0.25:0");
        s.contourDashNegative = true;
        s.contourColour = Rgba8{120, 0, 40, 255};
        const QImage img = picture(painter, lonLatFrame(true, true), s);
        QVERIFY(!img.isNull());
        // Export draws through GL too (VTK offscreen): both rows have a GL's baselines.
        const QString why = compareWithPainterBaseline(
            img, "contours_Robinson_" + QString(painter == "gl" ? "gl" : "raster"), true);
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }

    // The graticule's labels, planned with the map: meridians every 30° and parallels.
    void graticuleLabels() {
        ImageViewSettings s;
        s.projection = "Robinson";
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({lonLatFrame(true, false)});
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto a = content.annotations(l, colormapTable("viridis"), {-1, 1});
        QVERIFY(a.map);
        QStringList labels;
        for (const auto& t : a.mapLabels) labels << QString::fromStdString(t.text);
        for (const char* want : {"0°", "30°E", "150°W", "60°N", "30°S"})
            QVERIFY2(labels.contains(QString::fromUtf8(want)), qPrintable(labels.join(", ")));
    }

    // The probe on a map: the pixel where PROJ puts a cell's centre picks that cell, with the
    // pixel's longitude and latitude; a pixel off the globe picks nothing.
    void pickReportsLonLat() {
        ImageViewSettings s;
        s.projection = "Robinson";
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({coarseFrame()});
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const ViewTransform t(l.plot, content.window());
        std::vector<double> x{205}, y{35}; // the cell of row 5, column 20
        Projection::byName("Robinson").forward(x, y);
        const Pick p = content.pick(l, t.pixelX(x[0]), t.pixelY(y[0]));
        QVERIFY(p.inside);
        QCOMPARE(p.row, 5);
        QCOMPARE(p.column, 20);
        QVERIFY2(std::fabs(std::remainder(p.x - 205, 360.0)) < 1e-6 && std::fabs(p.y - 35) < 1e-6,
                 qPrintable(QString("%1, %2").arg(p.x).arg(p.y)));
        QCOMPARE(p.xCentre, 205.0);
        QCOMPARE(p.yCentre, 35.0);
        QVERIFY(!content.pick(l, l.plot.x0 + 2, l.plot.y1 - 2).inside); // a corner, off the globe
    }

    // A frame whose axes are not longitude/latitude stays as it is, and says why.
    void notLonLatStaysUnprojected() {
        const DataArray f = DataArray::fromHost("v", {"y", "x"}, {4, 6}, std::vector<float>(24, 1.0f));
        ImageViewSettings s;
        s.projection = "Mollweide";
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({f});
        QVERIFY(!content.map());
        QVERIFY2(content.projectionProblem().find("longitude") != std::string::npos,
                 content.projectionProblem().c_str());
        QCOMPARE(content.xGrid().size(), 6);
        QVERIFY(!picture("raster", f, s).isNull()); // and drawn
    }
};

QTEST_MAIN(TestImageProjection)
#include "tst_imageprojection.moc"
