// Isolines over the image view's frame (ImageViewSettings::contours): where the content plans
// them, checked on a field whose value is its column (each isoline a vertical line at the
// x its level names, through the axis' own coordinates), inked there in the rendered picture,
// automatic levels in the colour range, and on maps: the isoline of a field that is its own
// latitude on that parallel, projected, and over a curvilinear grid's cells.
#include <QtTest/QtTest>

#include <QApplication>
#include <cmath>
#include <functional>

#include "../../render/src/contour_labels.h"
#include "../../render/src/image_content.h"
#include "../../render/src/map_plan.h"
#include "../../render/src/projection_math.h"
#include "render_fixtures.h"
#include "strata/render/image_export.h"
#include "strata/render/image_view.h"

using namespace strata;
using namespace test;

namespace {

constexpr int kW = 640, kH = 400;

// f(j, i) = i on 30 columns (x = 100 + 2 i) and 20 rows (y = 10 + j).
DataArray columnFrame() {
    std::vector<double> x, y;
    for (int i = 0; i < 30; ++i) x.push_back(100 + 2.0 * i);
    for (int j = 0; j < 20; ++j) y.push_back(10 + j);
    std::vector<float> v;
    for (int j = 0; j < 20; ++j)
        for (int i = 0; i < 30; ++i) v.push_back(float(i));
    Coordinates cs;
    cs.set(axis("x", x, "km", "distance east"));
    cs.set(axis("y", y, "km", "distance north"));
    return DataArray::fromHost("f", {"y", "x"}, {20, 30}, v, cs);
}

// f(lon, lat) (degrees) on the global 2.5° lon/lat grid of lonLatFrame (lon 0..357.5).
DataArray globalFrame(const std::function<double(double lon, double lat)>& f) {
    const DataArray g = lonLatFrame(true, false);
    std::vector<float> v;
    for (int j = 0; j < 73; ++j)
        for (int i = 0; i < 144; ++i) v.push_back(float(f(2.5 * i, -90 + 2.5 * j)));
    return DataArray::fromHost("f", {"lat", "lon"}, {73, 144}, v, g.coords());
}

// f = latitude.
DataArray latitudeFrame() {
    return globalFrame([](double, double lat) { return lat; });
}

// A sheared curvilinear grid (40 × 30 cells: lon = 10 + i + 0.3 j, lat = 20 + j - 0.2 i) whose
// value is its own latitude.
DataArray curvilinearLatFrame() {
    std::vector<double> lon, lat;
    std::vector<float> v;
    for (int j = 0; j < 30; ++j)
        for (int i = 0; i < 40; ++i) {
            lon.push_back(10 + i + 0.3 * j);
            lat.push_back(20 + j - 0.2 * i);
            v.push_back(float(lat.back()));
        }
    auto coord = [](const char* name, std::vector<double> values, const char* units) {
        Coordinate c;
        c.name = name;
        c.dims = {"y", "x"};
        c.shape = {30, 40};
        c.values = std::move(values);
        c.attrs.set({"units", DType::Char, std::string(units)});
        return c;
    };
    Coordinates cs;
    cs.set(coord("lon", lon, "degrees_east"));
    cs.set(coord("lat", lat, "degrees_north"));
    return DataArray::fromHost("f", {"y", "x"}, {30, 40}, v, cs);
}

// The content showing columnFrame() with `s`, laid out at kW × kH.
ViewLayout laidOut(detail::ImageContent& content, const ImageViewSettings& s) {
    content.setSettings(s);
    content.setFrame({columnFrame()});
    return content.layoutFor(kW, kH, 1);
}

} // namespace

class TestImageContours : public QObject {
    Q_OBJECT
private slots:
    void isolinesLieWhereTheirLevelsSay() {
        ImageViewSettings s;
        s.contours = parseContourSpec("3.5,10.25");
        detail::ImageContent content;
        const ViewLayout l = laidOut(content, s);
        const auto a = content.annotations(l, colormapTable("viridis"), {0, 29});
        QVERIFY(content.contourProblem().empty());
        QVERIFY(a.contours);
        QCOMPARE(a.contours->size(), std::size_t(2));
        const ViewTransform t(l.plot, content.window());
        // Index 3.5 is x = 107, index 10.25 is x = 120.5: every point on one of those columns,
        // the line from the bottom row's y to the top row's.
        for (const auto& line : *a.contours) {
            const double want = std::abs(line.xy[0] - t.pixelX(107)) < 1e-6 ? t.pixelX(107) : t.pixelX(120.5);
            double yLo = 1e300, yHi = -1e300;
            for (std::size_t k = 0; k + 1 < line.xy.size(); k += 2) {
                QVERIFY2(std::abs(line.xy[k] - want) < 1e-6, qPrintable(QString::number(line.xy[k])));
                yLo = std::min(yLo, line.xy[k + 1]);
                yHi = std::max(yHi, line.xy[k + 1]);
            }
            QVERIFY(std::abs(yLo - t.pixelY(10)) < 1e-6 && std::abs(yHi - t.pixelY(29)) < 1e-6);
        }
        // Off: none planned.
        s.contours.reset();
        content.setSettings(s);
        QVERIFY(!content.annotations(l, colormapTable("viridis"), {0, 29}).contours);
    }

    // The picture has the isoline's grey down the column x = 107 and not a column away from it;
    // with its label, the label's halo breaks the line for the label's height.
    void theRenderedPictureInksThem() {
        ImageViewSettings s;
        s.contours = parseContourSpec("3.5");
        s.contourLabels = false;
        detail::ImageContent content;
        const ViewLayout l = laidOut(content, s);
        const ViewTransform t(l.plot, content.window());
        const QImage img = renderImage({columnFrame()}, s, QSize(kW, kH));
        const int px = int(std::floor(t.pixelX(107)));
        auto inked = [&](int x) {
            int n = 0;
            for (int y = int(kH - l.plot.y1) + 4; y < int(kH - l.plot.y0) - 4; ++y) {
                const QColor c = img.pixelColor(x, y);
                n += c.red() == detail::kContourInk[0] && c.green() == detail::kContourInk[0] &&
                     c.blue() == detail::kContourInk[0];
            }
            return n;
        };
        const int rows = int(l.plot.y1 - l.plot.y0) - 8;
        QVERIFY2(std::max({inked(px - 1), inked(px), inked(px + 1)}) > rows * 9 / 10,
                 qPrintable(QString("%1 of %2 rows inked")
                                .arg(std::max({inked(px - 1), inked(px), inked(px + 1)}))
                                .arg(rows)));
        QCOMPARE(inked(px + 40), 0);
        s.contourLabels = true;
        const QImage labelled = renderImage({columnFrame()}, s, QSize(kW, kH));
        const ViewLayout labels = laidOut(content, s);
        const auto a = content.annotations(labels, colormapTable("viridis"), {0, 29});
        QCOMPARE(a.contourLabels.size(), std::size_t(1));
        const int ly = kH - int(std::lround(a.contourLabels[0].y)); // the label's middle, image rows down
        int grey = 0;
        for (int y = ly - 3; y <= ly + 3; ++y)
            for (int x = px - 1; x <= px + 1; ++x) {
                const QColor c = labelled.pixelColor(x, y);
                grey += c.red() == detail::kContourInk[0] && c.green() == detail::kContourInk[0];
            }
        QCOMPARE(grey, 0);
    }

    // auto follows the colour range: 0..29 gives 5, 10, ..., 25 (a step of 5).
    void autoLevelsFollowTheColourRange() {
        ImageViewSettings s;
        s.contours = parseContourSpec("auto");
        detail::ImageContent content;
        const ViewLayout l = laidOut(content, s);
        QCOMPARE(content.annotations(l, colormapTable("viridis"), {0, 29}).contours->size(), std::size_t(5));
        QCOMPARE(content.annotations(l, colormapTable("viridis"), {0, 9}).contours->size(),
                 std::size_t(8)); // 1..8
    }

    // On a map: the isoline of a field that is its own latitude lies on that parallel wherever
    // it is projected to; both for a longitude/latitude grid and for a curvilinear one.
    void onAProjectionTheyFollowTheParallel() {
        for (const bool curvilinear : {false, true}) {
            ImageViewSettings s;
            s.contours = parseContourSpec(curvilinear ? "30.5" : "31.25");
            s.projection = "Robinson";
            s.grid = GridSpace::LonLat;
            detail::ImageContent content;
            content.setSettings(s);
            content.setFrame({curvilinear ? curvilinearLatFrame() : latitudeFrame()});
            QVERIFY2(content.map(), content.projectionProblem().c_str());
            const ViewLayout l = content.layoutFor(kW, kH, 1);
            const auto a = content.annotations(l, colormapTable("viridis"), {-90, 90});
            QVERIFY(a.contours && !a.contours->empty());
            const ViewTransform t(l.plot, content.window());
            const detail::ProjParams& p = content.map()->projection().params();
            std::size_t points = 0;
            for (const auto& line : *a.contours)
                for (std::size_t k = 0; k + 1 < line.xy.size(); k += 2, ++points) {
                    double lon = 0, lat = 0;
                    QVERIFY(detail::projInverse(p, t.dataX(line.xy[k]), t.dataY(line.xy[k + 1]), lon, lat));
                    lat *= 180 / M_PI;
                    QVERIFY2(std::abs(lat - (curvilinear ? 30.5 : 31.25)) < 1e-6,
                             qPrintable(QString::number(lat)));
                }
            QVERIFY(points > 20);
            QVERIFY(contoursProblem({curvilinear ? curvilinearLatFrame() : latitudeFrame()}, s).empty());
        }
    }

    // A curvilinear grid's cells in the longitude/latitude plane: the isoline of its latitude
    // is the parallel there too, though the grid's rows are sheared across it.
    void onCurvilinearCellsTheyFollowTheParallel() {
        ImageViewSettings s;
        s.contours = parseContourSpec("30.5");
        s.grid = GridSpace::LonLat;
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({curvilinearLatFrame()});
        QVERIFY(content.curvilinear());
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto a = content.annotations(l, colormapTable("viridis"), {0, 90});
        QVERIFY(a.contours && !a.contours->empty());
        const ViewTransform t(l.plot, content.window());
        double lonLo = 1e300, lonHi = -1e300;
        for (const auto& line : *a.contours)
            for (std::size_t k = 0; k + 1 < line.xy.size(); k += 2) {
                QVERIFY2(std::abs(t.dataY(line.xy[k + 1]) - 30.5) < 1e-6,
                         qPrintable(QString::number(t.dataY(line.xy[k + 1]))));
                lonLo = std::min(lonLo, t.dataX(line.xy[k]));
                lonHi = std::max(lonHi, t.dataX(line.xy[k]));
            }
        QVERIFY(lonHi - lonLo > 20); // across the grid, not a piece of it
    }

    // Labels: the levels' values in the decimals their spacing needs, placed on their lines,
    // inside the plot and clear of one another; none on a line too short to hold three.
    void labelsSitOnTheirLines() {
        QCOMPARE(detail::contourLabelTexts({275, 280, 285}), (std::vector<std::string>{"275", "280", "285"}));
        QCOMPARE(detail::contourLabelTexts({-0.05, -0.025, 0, 0.025}),
                 (std::vector<std::string>{"-0.050", "-0.025", "0.000", "0.025"}));
        QCOMPARE(detail::contourLabelTexts({-1.5, 0, 1.5}), (std::vector<std::string>{"-1.5", "0.0", "1.5"}));
        QCOMPARE(detail::contourLabelTexts({3.5}), (std::vector<std::string>{"3.5"}));

        ImageViewSettings s;
        s.contours = parseContourSpec("3:0.5"); // 3.5, 6.5, ..., 27.5: nine vertical lines
        detail::ImageContent content;
        const ViewLayout l = laidOut(content, s);
        const auto a = content.annotations(l, colormapTable("viridis"), {0, 29});
        QVERIFY(a.contours);
        QVERIFY2(
            a.contourLabels.size() >= 9,
            qPrintable(QString("%1 labels, %2 lines").arg(a.contourLabels.size()).arg(a.contours->size())));
        const ViewTransform t(l.plot, content.window());
        std::vector<PixelRect> boxes;
        for (const detail::TextItem& label : a.contourLabels) {
            QVERIFY(label.halo);
            const double level = std::stod(label.text);
            QVERIFY2(std::abs(label.x - t.pixelX(100 + 2 * level)) < 1e-6,
                     label.text.c_str()); // on its column
            const PixelRect b = detail::textBox(label);
            QVERIFY(b.x0 >= l.plot.x0 && b.x1 <= l.plot.x1 && b.y0 >= l.plot.y0 && b.y1 <= l.plot.y1);
            for (const PixelRect& o : boxes)
                QVERIFY(b.x1 <= o.x0 || o.x1 <= b.x0 || b.y1 <= o.y0 || o.y1 <= b.y0);
            boxes.push_back(b);
        }
        // Off, or in a view too small for a label's line: none.
        s.contourLabels = false;
        content.setSettings(s);
        QVERIFY(content.annotations(l, colormapTable("viridis"), {0, 29}).contourLabels.empty());
        s.contourLabels = true;
        content.setSettings(s);
        const ViewLayout tiny = content.layoutFor(200, 90, 1);
        QVERIFY(content.annotations(tiny, colormapTable("viridis"), {0, 29}).contourLabels.empty());
    }

    // Dashed below zero: the lines of negative levels come in dashes of 6 pixels, the others whole.
    // f = sin(lon) on the global 2.5° grid: 0.5 at 30° and 150°, -0.5 at 210° and 330°.
    void negativeLevelsDashed() {
        ImageViewSettings s;
        s.contours = parseContourSpec("-0.5,0.5");
        s.contourDashNegative = true;
        s.contourLabels = false;
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({globalFrame([](double lon, double) { return std::sin(lon * M_PI / 180); })});
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto a = content.annotations(l, colormapTable("viridis"), {-1, 1});
        QVERIFY(a.contours);
        const ViewTransform t(l.plot, content.window());
        int dashes = 0, whole = 0;
        for (const auto& line : *a.contours) {
            double length = 0;
            for (std::size_t k = 2; k + 1 < line.xy.size(); k += 2)
                length += std::hypot(line.xy[k] - line.xy[k - 2], line.xy[k + 1] - line.xy[k - 1]);
            const double lon = t.dataX(line.xy[0]);
            if (lon > 180) { // the level -0.5
                QVERIFY2(length <= 6 + 1e-9, qPrintable(QString::number(length)));
                ++dashes;
            } else {
                QVERIFY(length > 100);
                ++whole;
            }
        }
        QCOMPARE(whole, 2);
        QVERIFY(dashes > 40);
    }

    // A whole turn of longitude: the isoline of a peak on the 0°/360° seam is one closed line
    // round it, over the cells between the last column (357.5°) and the first, drawn on both
    // sides of the plot, and no line runs across the plot.
    void aGlobalGridsLinesCrossTheSeam() {
        ImageViewSettings s;
        s.contours = parseContourSpec("0.5,");
        s.contourLabels = false;
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({globalFrame(
            [](double lon, double lat) { return std::cos(lon * M_PI / 180) * std::cos(lat * M_PI / 180); })});
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto a = content.annotations(l, colormapTable("viridis"), {-1, 1});
        QVERIFY(a.contours);
        const ViewTransform t(l.plot, content.window());
        // The circle's west part by 357.5° and its east part by 0° (a part cut in two where the
        // line began), each reaching the plot's side, none wider than the circle.
        QVERIFY(a.contours->size() >= 2 && a.contours->size() <= 4);
        double beyondLast = -1e300;
        for (const auto& line : *a.contours) {
            double lo = 1e300, hi = -1e300;
            for (std::size_t k = 0; k + 1 < line.xy.size(); k += 2) {
                lo = std::min(lo, t.dataX(line.xy[k]));
                hi = std::max(hi, t.dataX(line.xy[k]));
            }
            QVERIFY2(hi - lo < 70, qPrintable(QString("%1..%2").arg(lo).arg(hi)));
            QVERIFY(lo < 1 || hi > 356);
            // Past the last column (357.5°) to the plot's edge: only a line over the seam is.
            beyondLast = std::max(beyondLast, hi);
        }
        QVERIFY2(beyondLast > 358, qPrintable(QString::number(beyondLast)));
    }

    // Another variable's isolines over the frame's colours: g(j, i) = j on the same grid gives
    // horizontal lines, at levels in its own range (0..19), not the frame's (0..29). On another
    // grid it is refused, both grids named.
    void anotherVariablesIsolines() {
        const DataArray f = columnFrame();
        std::vector<float> rows;
        for (int j = 0; j < 20; ++j)
            for (int i = 0; i < 30; ++i) rows.push_back(float(j));
        const DataArray g = DataArray::fromHost("g", {"y", "x"}, {20, 30}, rows, f.coords());
        ImageViewSettings s;
        s.contours = parseContourSpec("auto");
        detail::ImageContent content;
        content.setSettings(s);
        ImageFrame frame{f};
        frame.contourFrame = g;
        content.setFrame(frame);
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        const auto a = content.annotations(l, colormapTable("viridis"), {0, 29});
        QVERIFY(content.contourProblem().empty());
        QVERIFY(a.contours);
        QCOMPARE(a.contours->size(), std::size_t(9)); // 2, 4, ..., 18: a step of 2 in 0..19
        const ViewTransform t(l.plot, content.window());
        for (const auto& line : *a.contours)
            for (std::size_t k = 1; k < line.xy.size(); k += 2) QCOMPARE(line.xy[k], line.xy[1]); // level
        QVERIFY(std::abs(t.dataY((*a.contours)[0].xy[1]) - std::round(t.dataY((*a.contours)[0].xy[1]))) <
                1e-9);

        const DataArray other =
            DataArray::fromHost("h", {"y", "x"}, {20, 29}, std::vector<float>(20 * 29, 1.f));
        QCOMPARE(contourFrameProblem(f, other),
                 std::string("the contour variable 'h' (y 20, x 29) is on another grid than 'f' (y 20, x 30) "
                             "(its dims, sizes or coordinate values differ)"));
        DataArray shifted = columnFrame();
        Coordinates cs = f.coords();
        std::vector<double> x;
        for (int i = 0; i < 30; ++i) x.push_back(101 + 2.0 * i);
        cs.set(axis("x", x, "km", "distance east"));
        const DataArray moved = DataArray::fromHost("m", {"y", "x"}, {20, 30}, rows, cs);
        QVERIFY(contourFrameProblem(f, moved).find("another grid") != std::string::npos);
        frame.contourFrame = moved;
        content.setFrame(frame);
        QVERIFY(content.contourProblem().find("'m' (y 20, x 30)") != std::string::npos);
        QVERIFY(!content.annotations(l, colormapTable("viridis"), {0, 29}).contours);
    }

    // A chosen colour and width: the line down x = 107 in red, three pixels wide.
    void colourAndWidthAsChosen() {
        ImageViewSettings s;
        s.contours = parseContourSpec("3.5");
        s.contourLabels = false;
        s.contourColour = Rgba8{220, 20, 40, 255};
        s.contourWidth = 3;
        detail::ImageContent content;
        const ViewLayout l = laidOut(content, s);
        const ViewTransform t(l.plot, content.window());
        const QImage img = renderImage({columnFrame()}, s, QSize(kW, kH));
        const int px = int(std::floor(t.pixelX(107))), y = kH / 2;
        int red = 0;
        for (int x = px - 4; x <= px + 4; ++x) {
            const QColor c = img.pixelColor(x, y);
            red += c.red() == 220 && c.green() == 20 && c.blue() == 40;
        }
        QCOMPARE(red, 3);
    }

    // Nothing to draw, said: a constant field; and levels that cross a noisy frame more often
    // than can be drawn give the reason, not a crash, and the next levels are drawn again.
    void aConstantFieldAndTooManyCrossingsAreSaid() {
        ImageViewSettings s;
        s.contours = parseContourSpec("auto");
        detail::ImageContent content;
        content.setSettings(s);
        content.setFrame({DataArray::fromHost("flat", {"y", "x"}, {4, 5}, std::vector<float>(20, 2.5f))});
        QCOMPARE(content.contourProblem(), std::string("'flat' is 2.5 everywhere here: it has no isolines"));
        const ViewLayout small = content.layoutFor(kW, kH, 1);
        QVERIFY(!content.annotations(small, colormapTable("viridis"), {2.5, 2.5}).contours);

        std::vector<float> noise(400 * 400);
        std::uint32_t r = 7;
        for (float& v : noise) v = float((r = r * 1664525u + 1013904223u) >> 8) / float(1u << 24);
        content.setFrame({DataArray::fromHost("noise", {"y", "x"}, {400, 400}, noise)});
        s.contours = parseContourSpec("1000");
        content.setSettings(s);
        const ViewLayout l = content.layoutFor(kW, kH, 1);
        QVERIFY(!content.annotations(l, colormapTable("viridis"), {0, 1}).contours);
        QVERIFY2(content.contourProblem().find("choose fewer levels") != std::string::npos,
                 content.contourProblem().c_str());
        s.contours = parseContourSpec("0.5,");
        content.setSettings(s);
        QVERIFY(content.annotations(l, colormapTable("viridis"), {0, 1}).contours);
        QVERIFY(content.contourProblem().empty());
    }

    // Filled contours band the colours: on f = column (0..29, range per frame) every 5, each
    // cell takes the map's colour at the middle of its band (7.5 for 5..10, 2.5 below 5, 27 above
    // 25), from both painters, and the colour bar shows the six bands.
    void filledContoursBandTheColours_data() {
        QTest::addColumn<bool>("gl");
        QTest::newRow("raster") << false;
        QTest::newRow("gl") << true;
    }
    void filledContoursBandTheColours() {
        QFETCH(bool, gl);
        ImageViewSettings s;
        s.filledContours = true;
        s.fillLevels = parseContourSpec("5:0");
        QImage img;
        std::unique_ptr<ImageView> view;
        if (!gl) {
            img = renderImage({columnFrame()}, s, QSize(kW, kH));
        } else {
            view = std::make_unique<ImageView>();
            view->setPresentation(ImagePresentation::Gl);
            view->setFixedSize(kW, kH);
            view->setSettings(s);
            view->setFrame({columnFrame()});
            view->show();
            QVERIFY(QTest::qWaitForWindowExposed(view->glWindow()));
            QVERIFY(QTest::qWaitFor([&] { return !(img = view->grabImage()).isNull(); }));
            if (!view->drawsWithGl()) QSKIP("no GL here");
            img = img.convertToFormat(QImage::Format_RGB32);
        }
        detail::ImageContent content;
        const ViewLayout l = laidOut(content, s);
        const ViewTransform t(l.plot, content.window());
        const std::vector<Rgba8> table = colormapTable("viridis");
        auto expected = [&](double middle) {
            return table[std::size_t(std::min(255.0, std::floor(middle / 29 * 256)))];
        };
        auto cell = [&](int column) { // the colour at the cell's centre (x = 100 + 2 column)
            const QColor c = img.pixelColor(int(t.pixelX(100 + 2.0 * column)), int(kH - t.pixelY(19)));
            return Rgba8{std::uint8_t(c.red()), std::uint8_t(c.green()), std::uint8_t(c.blue()), 255};
        };
        for (const auto& [column, middle] :
             {std::pair{1, 2.5}, std::pair{4, 2.5}, std::pair{6, 7.5}, std::pair{9, 7.5}, std::pair{16, 17.5},
              std::pair{24, 22.5}, std::pair{28, 27.0}}) {
            const Rgba8 want = expected(middle), got = cell(column);
            QVERIFY2(got.r == want.r && got.g == want.g && got.b == want.b,
                     qPrintable(QString("column %1: %2, not the colour at %3, %4")
                                    .arg(column)
                                    .arg(str(got))
                                    .arg(middle)
                                    .arg(str(want))));
        }
        // The colour bar: six colours up its middle (its border and ticks aside).
        std::vector<QRgb> seen;
        const int x = int((l.colourBar.x0 + l.colourBar.x1) / 2);
        for (int y = int(kH - l.colourBar.y1) + 2; y < int(kH - l.colourBar.y0) - 2; ++y) {
            const QRgb c = img.pixel(x, y);
            if (std::find(seen.begin(), seen.end(), c) == seen.end()) seen.push_back(c);
        }
        QVERIFY2(seen.size() == 6, qPrintable(QString("%1 colours in the bar").arg(seen.size())));
    }
};

QTEST_MAIN(TestImageContours)
#include "tst_imagecontours.moc"
