// The coastline overlay's plan: which axes get coastlines, the level of detail by zoom, lines
// wrapped across the 0/360 and ±180 seams and clipped to the plot (positions worked out by hand
// from the axis mapping), and the real GSHHS shorelines: a vertex where the coast is on a map,
// none inland, no edge along the cut at 180°; bad shapefiles give errors naming the file. The
// GSHHG binned levels: preferred to the shapefiles, which stand in when the GSHHG folder is
// empty; the bins a window meets (by hand); the Great Lakes' shores at a regional zoom, at a
// finer level than the world's; the full level read only where the view is; an unreadable level
// named, and a coarser one drawn instead.
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "../../render/src/coast_plan.h"
#include "../../render/src/gshhg_coast.h"
#include "../../render/src/native_map.h"
#include "strata/core/error.h"
#include "strata/render/coastline_status.h"

using namespace strata;
using namespace strata::detail;

namespace {

LonLatLine line(std::vector<double> lon, std::vector<double> lat) {
    LonLatLine l;
    l.lon = std::move(lon);
    l.lat = std::move(lat);
    l.lonMin = *std::min_element(l.lon.begin(), l.lon.end());
    l.lonMax = *std::max_element(l.lon.begin(), l.lon.end());
    l.latMin = *std::min_element(l.lat.begin(), l.lat.end());
    l.latMax = *std::max_element(l.lat.begin(), l.lat.end());
    return l;
}

// One pixel per degree: the plot {0, 0, 360, 180} shows `lon0`…`lon0 + 360` and -90…90, so
// pixel x = lon - lon0, y = lat + 90.
ViewTransform degreeView(double lon0) { return ViewTransform({0, 0, 360, 180}, {lon0, lon0 + 360, -90, 90}); }

struct AxisWith {
    Coordinate coordinate;
    AxisGrid grid;
    AxisWith(const char* units, const char* standardName = nullptr) {
        coordinate.name = std::string("c"); // not from a literal: GCC 12 warns wrongly (-Wrestrict)
        if (units) coordinate.attrs.set({"units", DType::Char, std::string(units)});
        if (standardName) coordinate.attrs.set({"standard_name", DType::Char, std::string(standardName)});
        grid.centres = {0, 1};
        grid.edges = {-0.5, 0.5, 1.5};
        grid.coordinate = &coordinate;
    }
};

// Equal to a billionth of a pixel (the mapping's divisions round).
bool near(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (std::abs(a[i] - b[i]) > 1e-9) return false;
    return true;
}

// A 2 × 3 frame (lat, lon) whose index coordinates carry only `lonUnits` and `latUnits`.
DataArray frameOver(const char* lonUnits, const char* latUnits) {
    Coordinates cs;
    const auto add = [&](const char* name, int n, const char* units) {
        Coordinate c;
        c.name = name;
        c.dims = {name};
        c.shape = {n};
        for (int i = 0; i < n; ++i) c.values.push_back(10.0 * i);
        c.attrs.set({"units", DType::Char, std::string(units)});
        cs.set(c);
    };
    add("lon", 3, lonUnits);
    add("lat", 2, latUnits);
    return DataArray::fromHost("v", {"lat", "lon"}, {2, 3}, std::vector<float>(6, 1.0f), cs);
}

std::string gshhsCoarse() { return coastlineDirectory() + "/c/GSHHS_c_L1.shp"; }
const std::string kGshhg = "/usr/share/gmt-gshhg"; // Debian's gmt-gshhg-low, -high, -full
// The shorelines are not optional for the tests: scripts/setup.sh installs them, and a test
// that needs one fails naming what is missing (a skip would pass unseen).
QString missingGshhs() {
    return QString::fromStdString("no GSHHS shoreline " + gshhsCoarse() +
                                  " (Debian's python-cartopy-data, which scripts/setup.sh installs)");
}
QString missingGshhg() {
    QStringList missing;
    for (char r : {'c', 'l', 'i', 'h', 'f'})
        if (!std::filesystem::exists(kGshhg + "/binned_GSHHS_" + r + ".nc"))
            missing << QString("binned_GSHHS_%1.nc").arg(r);
    if (missing.isEmpty()) return {};
    return QString::fromStdString("no " + kGshhg + "/") + missing.join(", ") +
           " (Debian's gmt-gshhg-low, -high and -full, which scripts/setup.sh installs)";
}

// The nearest point of `lines` to (lon, lat), in km (equirectangular: fine at a few km).
double nearestKm(const std::vector<LonLatLine>& lines, double lon, double lat) {
    double best = 1e9;
    for (const LonLatLine& l : lines)
        for (std::size_t k = 0; k < l.lon.size(); ++k)
            best = std::min(best, std::hypot((l.lon[k] - lon) * std::cos(lat * M_PI / 180), l.lat[k] - lat) *
                                      111.2);
    return best;
}

} // namespace

class TestCoastPlan : public QObject {
    Q_OBJECT
private slots:
    void onlyLongitudeAcrossLatitudeUp() {
        AxisWith lon("degrees_east"), lat("degrees_north"), lon2(nullptr, "longitude"), lat2("degree_N"),
            metres("m");
        QVERIFY(isLonLatView(lon.grid, lat.grid));
        QVERIFY(isLonLatView(lon2.grid, lat2.grid));
        QVERIFY(!isLonLatView(lat.grid, lon.grid)); // transposed: latitude across
        QVERIFY(!isLonLatView(lon.grid, metres.grid));
        lon.grid.fromIndices = true;
        QVERIFY(!isLonLatView(lon.grid, lat.grid));
    }

    // CF compares units without regard to case: a frame whose coordinates say only
    // "Degrees_East" and "Degrees_North" gets coastlines, as it gets an area mean and lon/lat
    // roles. A rotated pole's grid axes do not: their degrees are not the Earth's.
    void cfUnitsInAnyCaseGetCoastlines() {
        AxisWith lon("Degrees_East"), lat("Degrees_North"), rlon("degrees", "grid_longitude"),
            rlat("degrees", "grid_latitude");
        QVERIFY(isLonLatView(lon.grid, lat.grid));
        QVERIFY(!isLonLatView(rlon.grid, rlat.grid));
        QVERIFY(isLonLatFrame(frameOver("Degrees_East", "Degrees_North")));
        QVERIFY(isLonLatFrame(frameOver("DEGREESE", "degreeN")));
        QVERIFY(!isLonLatFrame(frameOver("degrees", "degrees")));
    }

    void levelOfDetailByZoom() {
        std::vector<CoastLevel> levels(3);
        levels[0].km = 25;                            // c
        levels[1].km = 5;                             // l
        levels[2].km = 1;                             // i
        QCOMPARE(chooseCoastLevel(levels, 1.0), 0);   // 111 km a pixel: the crude one does
        QCOMPARE(chooseCoastLevel(levels, 0.15), 0);  // 17 km, 33 km two pixels: still crude
        QCOMPARE(chooseCoastLevel(levels, 0.1), 1);   // 11 km, 22 km two: the 5 km level
        QCOMPARE(chooseCoastLevel(levels, 0.02), 2);  // 2.2 km, 4.5 km two: 1 km
        QCOMPARE(chooseCoastLevel(levels, 0.005), 2); // 0.56 km, 1.1 km two: 1 km
        QCOMPARE(chooseCoastLevel(levels, 0.001), 2); // finer than any: the finest there is
        QCOMPARE(chooseCoastLevel({}, 1.0), -1);
    }

    void wrapsAcrossTheSeam() {
        // A coast at 179°W…170°W: on a 0–360 view one degree a pixel, at x = 181…190.
        const std::vector<LonLatLine> lines{line({-179, -170}, {0, 10})};
        auto p = planCoast(lines, degreeView(0), 0);
        QCOMPARE(p.size(), std::size_t(1));
        QVERIFY(near(p[0].xy, {181, 90, 190, 100}));
        // On a −180…180 view, at x = 1…10; on one of 90…450 (across the date line), at
        // 181 − 90 = 91…100, once.
        p = planCoast(lines, degreeView(-180), 0);
        QCOMPARE(p.size(), std::size_t(1));
        QVERIFY(near(p[0].xy, {1, 90, 10, 100}));
        p = planCoast(lines, degreeView(90), 0);
        QCOMPARE(p.size(), std::size_t(1));
        QVERIFY(near(p[0].xy, {91, 90, 100, 100}));
    }

    void aLineAcrossGreenwichOnA0To360ViewIsCutAtBothEdges() {
        // 10°W…10°E on 0…360: its east half at the left edge (x 0…10), its west half at the
        // right edge (x 350…360), each clipped where it meets the plot (latitude halfway: 5°).
        const auto p = planCoast({line({-10, 10}, {0, 10})}, degreeView(0), 0);
        QCOMPARE(p.size(), std::size_t(2));
        QVERIFY(near(p[0].xy, {0, 95, 10, 100}));
        QVERIFY(near(p[1].xy, {350, 90, 360, 95}));
    }

    void clippedToTheVisibleLatitudes() {
        // Zoomed to 0…40°E, 0…20°N on a 400 × 200 plot (10 pixels a degree): a meridian
        // line at 20°E from 30°S to 30°N enters at the bottom and leaves at the top.
        const ViewTransform t({0, 0, 400, 200}, {0, 40, 0, 20});
        const auto p = planCoast({line({20, 20, 20}, {-30, 0, 30})}, t, 0);
        QCOMPARE(p.size(), std::size_t(1));
        QVERIFY(near(p[0].xy, {200, 0, 200, 200}));
        // Out of sight: nothing.
        QVERIFY(planCoast({line({100, 110}, {0, 10})}, t, 0).empty());
    }

    void thinningKeepsEnds() {
        // Points a tenth of a pixel apart thin to the ends at 0.5 pixels.
        std::vector<double> lon, lat;
        for (int i = 0; i <= 20; ++i) {
            lon.push_back(10 + 0.1 * i);
            lat.push_back(0);
        }
        const auto p = planCoast({line(lon, lat)}, degreeView(0), 0.5);
        QCOMPARE(p.size(), std::size_t(1));
        QCOMPARE(p[0].xy.front(), 10.0);
        QCOMPARE(p[0].xy[p[0].xy.size() - 2], 12.0);
        QVERIFY(p[0].xy.size() / 2 <= 6); // 0, 0.5, 1, 1.5, 2 pixels and the end at most
    }

    void gshhsCoastWhereTheMapHasIt() {
        QVERIFY2(QFileInfo::exists(QString::fromStdString(gshhsCoarse())), qPrintable(missingGshhs()));
        const auto lines = readCoastShapefile(gshhsCoarse());
        QVERIFY(lines.size() > 500);
        // Cape Agulhas, Africa's southern tip, 34.83°S 20.00°E: a vertex of the crude (25 km)
        // shoreline within 0.3°; none within 5° of 25°N 20°E (the Libyan desert, 700 km from a
        // coast).
        double nearCape = 1e9, nearDesert = 1e9;
        double capeLon = 0, capeLat = 0;
        for (const LonLatLine& l : lines)
            for (std::size_t i = 0; i < l.lon.size(); ++i) {
                const double d = std::hypot(l.lon[i] - 20.0, l.lat[i] + 34.83);
                if (d < nearCape) {
                    nearCape = d;
                    capeLon = l.lon[i];
                    capeLat = l.lat[i];
                }
                nearDesert = std::min(nearDesert, std::hypot(l.lon[i] - 20.0, l.lat[i] - 25.0));
            }
        QVERIFY2(nearCape < 0.3, qPrintable(QString::number(nearCape)));
        QVERIFY2(nearDesert > 5, qPrintable(QString::number(nearDesert)));
        // That vertex on a 0–360 map one degree a pixel: at (lon, lat + 90), unthinned.
        const auto p = planCoast(lines, degreeView(0), 0);
        bool found = false;
        for (const PixelPolyline& l : p)
            for (std::size_t i = 0; i + 1 < l.xy.size() && !found; i += 2)
                found = l.xy[i] == capeLon && l.xy[i + 1] == capeLat + 90;
        QVERIFY(found);
        // GSHHS cuts Eurasia at 180° and Antarctica at 0° and 180°, down to the pole: no edge
        // runs along 180° (x = 180 on this map), and no line reaches the pole (y = 0), where the
        // cuts down Antarctica would draw lines at x = 0 and 180.
        for (const PixelPolyline& l : p)
            for (std::size_t i = 0; i + 1 < l.xy.size(); i += 2) {
                if (i >= 2) QVERIFY(!(l.xy[i] == 180 && l.xy[i - 2] == 180));
                QVERIFY(l.xy[i + 1] > 1e-9);
            }
    }

    // A map in a rotated pole's own grid degrees (EURO-CORDEX's pole, 39.25°N 162°W): the
    // rotated origin lies on the meridian opposite the pole, 90° − 39.25° from the north pole,
    // and that meridian is the rotated one through the origin.
    void nativeMapOfARotatedPole() {
        const NativeMap m(MapCrs{"+proj=ob_tran +o_proj=longlat +o_lon_p=0 +o_lat_p=39.25 +lon_0=18 "
                                 "+ellps=WGS84 +no_defs",
                                 1, 1});
        const auto out = m.forward({line({18, 18}, {50.75, 60.75})});
        QCOMPARE(out.size(), std::size_t(1));
        QVERIFY(near(out[0].lon, {0, 0}) && near(out[0].lat, {0, 10}));
        double lon = 0, lat = 0;
        QVERIFY(m.inverse(0, -10, lon, lat));
        QVERIFY(std::fabs(lon - 18) < 1e-9 && std::fabs(lat - 40.75) < 1e-9);
        QCOMPARE(m.degreesPerUnit(), 1.0);
    }

    // Lambert conformal in km about 100°W: the parallel at 45°N across the meridian opposite
    // (80°E, the cone's cut) comes out in two pieces, no step of either across the cut.
    void nativeLinesAreCutAtTheSeam() {
        const NativeMap m(MapCrs{"+proj=lcc +lat_1=25 +lat_2=60 +lat_0=42.5 +lon_0=-100 +x_0=0 +y_0=0 "
                                 "+ellps=WGS84 +units=m +no_defs",
                                 1000, 1000});
        std::vector<double> lon, lat;
        for (double l = 0; l <= 160; l += 2) {
            lon.push_back(l);
            lat.push_back(45);
        }
        const auto out = m.forward({line(lon, lat)});
        QCOMPARE(out.size(), std::size_t(2));
        for (const LonLatLine& piece : out)
            for (std::size_t i = 1; i < piece.lon.size(); ++i)
                QVERIFY(std::hypot(piece.lon[i] - piece.lon[i - 1], piece.lat[i] - piece.lat[i - 1]) <
                        10'007);
        QCOMPARE(out[0].lon.size() + out[1].lon.size(), lon.size());
    }

    // The graticule over EURO-CORDEX's domain (rotated grid degrees) in a 600 × 400 plot: lines
    // in the plot, labels at whole multiples of one step, each inside the plot, and none
    // overlapping the one before along its edge.
    void nativeGraticuleOverARotatedGrid() {
        const NativeMap m(MapCrs{"+proj=ob_tran +o_proj=longlat +o_lon_p=0 +o_lat_p=39.25 +lon_0=18 "
                                 "+ellps=WGS84 +no_defs",
                                 1, 1});
        const PixelRect plot{50, 40, 650, 440};
        const ViewTransform t(plot, {-28.6, 18.4, -23.6, 21.2});
        const Graticule g = planNativeGraticule(m, t, 12);
        QVERIFY(g.lines.size() >= 6);
        for (const PixelPolyline& l : g.lines)
            for (std::size_t i = 0; i + 1 < l.xy.size(); i += 2) QVERIFY(plot.contains(l.xy[i], l.xy[i + 1]));
        int bottom = 0, left = 0;
        std::vector<const TextItem*> along[2];
        for (const TextItem& label : g.labels) {
            QVERIFY(plot.contains(label.x, label.y));
            const bool meridian = label.text.find('E') != std::string::npos ||
                                  label.text.find('W') != std::string::npos || label.y < plot.y0 + 5;
            (meridian ? bottom : left) += 1;
            along[meridian ? 0 : 1].push_back(&label);
            const int degrees = std::stoi(label.text);
            QVERIFY2(degrees % 10 == 0, label.text.c_str()); // the domain spans ~100° of longitude: 30° steps
        }
        QVERIFY(bottom >= 2 && left >= 1);
        for (int e = 0; e < 2; ++e) {
            auto& v = along[e];
            std::sort(v.begin(), v.end(), [&](const TextItem* a, const TextItem* b) {
                return e == 0 ? a->x < b->x : a->y < b->y;
            });
            for (std::size_t i = 1; i < v.size(); ++i) {
                const double gap = e == 0 ? v[i]->x - v[i - 1]->x : v[i]->y - v[i - 1]->y;
                const double needed =
                    e == 0 ? 0.31 * 12 * double(v[i]->text.size() + v[i - 1]->text.size()) : 12;
                QVERIFY2(gap >= needed,
                         qPrintable(QString("%1 and %2").arg(v[i - 1]->text.c_str(), v[i]->text.c_str())));
            }
        }
    }

    // 20° bins (18 × 9): a box across 0° meets columns 17 and 0; one 360° wide every column;
    // one of 0–360 longitudes alike; a box off the globe none.
    void binsMeetingABox() {
        QCOMPARE(binsMeeting({-10, 10, -5, 5}, 20, 18, 9), (std::vector<int>{4 * 18, 4 * 18 + 17}));
        QCOMPARE(binsMeeting({350, 370, -5, 5}, 20, 18, 9), (std::vector<int>{4 * 18, 4 * 18 + 17}));
        QCOMPARE(binsMeeting({-180, 180, 75, 90}, 20, 18, 9).size(), std::size_t(18));
        QCOMPARE(binsMeeting({30, 50, -90, 90}, 20, 18, 9).size(), std::size_t(2 * 9));
        QCOMPARE(binsMeeting({0, 1, 95, 99}, 20, 18, 9), std::vector<int>{});
        QCOMPARE(binsMeeting({0, std::nan(""), 0, 1}, 20, 18, 9), std::vector<int>{});
    }

    // With the GSHHG files, their five levels; with the GSHHG folder empty, the shapefiles.
    void levelsPreferGshhgAndFallBack() {
        QVERIFY2(missingGshhg().isEmpty(), qPrintable(missingGshhg()));
        QTemporaryDir empty;
        const auto gshhg = findCoastLevels(kGshhg, coastlineDirectory());
        QCOMPARE(gshhg.size(), std::size_t(5));
        QString letters;
        for (const CoastLevel& l : gshhg) letters += l.resolution;
        QCOMPARE(letters, QString("clihf"));
        QCOMPARE(gshhg[3].path, kGshhg + "/binned_GSHHS_h.nc");
        QCOMPARE(describeCoastLevel(gshhg[3]),
                 std::string("GSHHG 2.3.7 high (0.2 km), /usr/share/gmt-gshhg (gmt-gshhg-high)"));
        QCOMPARE(describeCoastLevel(gshhg[0]),
                 std::string("GSHHG 2.3.7 crude (25 km), /usr/share/gmt-gshhg (gmt-gshhg-low)"));
        const auto fallback = findCoastLevels(empty.path().toStdString(), coastlineDirectory());
        QVERIFY2(QFileInfo::exists(QString::fromStdString(gshhsCoarse())), qPrintable(missingGshhs()));
        QVERIFY(!fallback.empty());
        QCOMPARE(fallback[0].path, gshhsCoarse());
        QVERIFY2(describeCoastLevel(fallback[0]).find("GSHHS shapefile crude (25 km)") == 0,
                 describeCoastLevel(fallback[0]).c_str());
        QVERIFY(fallback[0].reader->lines({})->size() > 500);
        QVERIFY(findCoastLevels(empty.path().toStdString(), empty.path().toStdString()).empty());
    }

    // The Great Lakes (93°W–75°W, 40°N–50°N) 1000 pixels wide, 2 km a pixel (4 km two): the 1 km level,
    // with Lake Michigan's east shore near 86.52°W 44.05°N; the world 1000 pixels wide draws the
    // crude level. The crude shapefile has no lake there at all.
    void greatLakesAtARegionalZoom() {
        QVERIFY2(missingGshhg().isEmpty(), qPrintable(missingGshhg()));
        const auto levels = findCoastLevels(kGshhg, coastlineDirectory());
        const LonLatBox lakes{-93, -75, 40, 50};
        const CoastPick regional = pickCoast(levels, 18.0 / 1000, lakes);
        QVERIFY2(regional.problem.empty(), regional.problem.c_str());
        QCOMPARE(levels[std::size_t(regional.level)].resolution, 'i');
        QVERIFY(nearestKm(*regional.lines, -86.52, 44.05) < 5);
        for (const LonLatLine& l : *regional.lines) // whole 5° bins of the box, no more
            QVERIFY(l.lonMin >= -95 && l.lonMax <= -75 && l.latMin >= 40 && l.latMax <= 50);
        // Drawn: ink (a line's point) within 2 pixels of the shore in the window's pixels.
        const ViewTransform t({0, 0, 1000, 555}, {-93, -75, 40, 50});
        bool ink = false;
        for (const PixelPolyline& p : planCoast(*regional.lines, t))
            for (std::size_t k = 0; k + 1 < p.xy.size(); k += 2)
                ink = ink || std::hypot(p.xy[k] - t.pixelX(-86.52), p.xy[k + 1] - t.pixelY(44.05)) < 2;
        QVERIFY(ink);
        const CoastPick world = pickCoast(levels, 360.0 / 1000, {0, 360, -90, 90});
        QCOMPARE(levels[std::size_t(world.level)].resolution, 'c');
        QVERIFY2(QFileInfo::exists(QString::fromStdString(gshhsCoarse())), qPrintable(missingGshhs()));
        QVERIFY(nearestKm(readCoastShapefile(gshhsCoarse()), -86.52, 44.05) > 50);
    }

    // 90 m a pixel (180 m two) over False Bay: the full level, read for the box's 1° bins only (not its
    // 11 million points), the Cape of Good Hope (18.4704°E, 34.35°S) within 0.1 km; asked
    // again, the same lines.
    void fullLevelReadsOnlyTheView() {
        QVERIFY2(missingGshhg().isEmpty(), qPrintable(missingGshhg()));
        const auto levels = findCoastLevels(kGshhg, coastlineDirectory());
        const LonLatBox bay{18.2, 18.9, -34.5, -34.0};
        const CoastPick pick = pickCoast(levels, 0.09 / 111.32, bay);
        QCOMPARE(levels[std::size_t(pick.level)].resolution, 'f');
        std::size_t points = 0;
        for (const LonLatLine& l : *pick.lines) {
            points += l.lon.size();
            QVERIFY(l.lonMin >= 18 && l.lonMax <= 19 && l.latMin >= -35 && l.latMax <= -34);
        }
        QVERIFY2(points > 500 && points < 200000, qPrintable(QString::number(points)));
        QVERIFY(nearestKm(*pick.lines, 18.4704, -34.35) < 0.1);
        QCOMPARE(pickCoast(levels, 0.09 / 111.32, bay).lines, pick.lines);
    }

    // A level that cannot be read is named, and the next coarser one drawn; none readable: none.
    void unreadableLevelIsNamedAndACoarserDrawn() {
        QVERIFY2(missingGshhg().isEmpty(), qPrintable(missingGshhg()));
        QTemporaryDir dir;
        const std::string crude = dir.filePath("binned_GSHHS_c.nc").toStdString();
        const std::string broken = dir.filePath("binned_GSHHS_i.nc").toStdString();
        std::filesystem::copy_file(kGshhg + "/binned_GSHHS_c.nc", crude);
        std::ofstream(broken, std::ios::binary) << std::string(4096, 'x');
        auto levels = findCoastLevels(dir.path().toStdString(), coastlineDirectory());
        QCOMPARE(levels.size(), std::size_t(2));
        const CoastPick pick = pickCoast(levels, 0.01, {-93, -75, 40, 50});
        QCOMPARE(pick.level, 0);
        QVERIFY(pick.lines && !pick.lines->empty());
        QVERIFY2(pick.problem.find(broken) != std::string::npos, pick.problem.c_str());
        std::ofstream(crude, std::ios::binary | std::ios::trunc) << std::string(4096, 'x');
        levels = findCoastLevels(dir.path().toStdString(), coastlineDirectory()); // no file read yet
        const CoastPick none = pickCoast(levels, 0.01, {-93, -75, 40, 50});
        QCOMPARE(none.level, -1);
        QVERIFY(!none.lines);
        QVERIFY2(none.problem.find(crude) != std::string::npos &&
                     none.problem.find(broken) != std::string::npos,
                 none.problem.c_str());
    }

    void badShapefilesNameTheFile() {
        QTemporaryDir dir;
        const std::string missing = dir.filePath("none.shp").toStdString();
        try {
            readCoastShapefile(missing);
            QFAIL("a missing shapefile was read");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find(missing) != std::string::npos, e.what());
        }
        const std::string bad = dir.filePath("bad.shp").toStdString();
        for (const char* ext : {".shp", ".shx"}) {
            std::ofstream f(dir.filePath(QString("bad") + ext).toStdString(), std::ios::binary);
            f << "this is not a shapefile, only text long enough to look like a header at first sight ....."
                 "........................................................................";
        }
        try {
            readCoastShapefile(bad);
            QFAIL("a text file was read as a shapefile");
        } catch (const IoError& e) {
            QVERIFY2(std::string(e.what()).find(bad) != std::string::npos, e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestCoastPlan)
#include "tst_coastplan.moc"
