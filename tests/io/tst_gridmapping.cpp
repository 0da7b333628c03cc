// Latitude and longitude where a frame's axes are not: lcc_km.nc's Lambert conformal grid (in
// km, through PROJ) checked against the projection's formulas worked out here (Snyder, Map
// Projections: A Working Manual, USGS 1987, eqs. 15-1 to 15-5 with 7-9 and 14-15), and
// test_stageiv_xyt.nc's 2-D lat(y, x) / lon(y, x).
#include <QtTest>

#include <cmath>

#include "strata/core/error.h"
#include "strata/io/csv.h"
#include "strata/io/geo.h"
#include "strata/io/grid_mapping.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

const std::string kData = STRATA_TEST_DATA;
constexpr double kPi = 3.14159265358979323846;

// Snyder's forward ellipsoidal Lambert conformal conic with two standard parallels: degrees
// to metres, independent of PROJ.
struct Lcc {
    double a, rf, lat1, lat2, lat0, lon0;
    double e() const {
        const double f = 1 / rf;
        return std::sqrt(2 * f - f * f);
    }
    double m(double phi) const {
        return std::cos(phi) / std::sqrt(1 - e() * e() * std::sin(phi) * std::sin(phi));
    }
    double t(double phi) const {
        const double es = e() * std::sin(phi);
        return std::tan(kPi / 4 - phi / 2) / std::pow((1 - es) / (1 + es), e() / 2);
    }
    std::pair<double, double> forward(double latDeg, double lonDeg) const {
        const double r = kPi / 180, p1 = lat1 * r, p2 = lat2 * r;
        const double n = (std::log(m(p1)) - std::log(m(p2))) / (std::log(t(p1)) - std::log(t(p2)));
        const double F = m(p1) / (n * std::pow(t(p1), n));
        const double rho = a * F * std::pow(t(latDeg * r), n), rho0 = a * F * std::pow(t(lat0 * r), n);
        const double theta = n * (lonDeg - lon0) * r;
        return {rho * std::sin(theta), rho0 - rho * std::cos(theta)};
    }
};
// lcc_km.nc's lambert_conformal_conic variable, as ncdump prints it.
const Lcc kDaymet{6378137, 298.257223563, 25, 60, 42.5, -100};

} // namespace

class TestGridMapping : public QObject {
    Q_OBJECT
private slots:
    void lambertConformalDefinition() {
        const Dataset ds = io::openDataset(kData + "/lcc_km.nc");
        const Variable* mapping = ds.findVariable("lambert_conformal_conic");
        QVERIFY(mapping);
        QCOMPARE(QString::fromStdString(io::projDefinition(mapping->attrs())),
                 QString("+proj=lcc +lat_1=25 +lat_2=60 +lat_0=42.5 +lon_0=-100 +x_0=0 +y_0=0 +a=6378137 "
                         "+rf=298.257223563 +units=m +no_defs"));
    }
    // A known point: Denver (39.7392°N, 104.9903°W) projected by the formulas, unprojected by PROJ.
    void unprojectsAKnownPoint() {
        const auto [x, y] = kDaymet.forward(39.7392, -104.9903);
        const Dataset ds = io::openDataset(kData + "/lcc_km.nc");
        io::Unprojection inverse(io::projDefinition(ds.findVariable("lambert_conformal_conic")->attrs()));
        const auto p = inverse(x, y);
        QVERIFY2(std::fabs(p.lat - 39.7392) < 1e-8 && std::fabs(p.lon + 104.9903) < 1e-8,
                 qPrintable(QString("%1, %2").arg(p.lat, 0, 'f', 10).arg(p.lon, 0, 'f', 10)));
    }
    void unsupportedMappingsSaySo() {
        Attributes a;
        a.set({"grid_mapping_name", DType::Char, std::string("vertical_perspective")});
        try {
            io::projDefinition(a);
            QFAIL("no error");
        } catch (const ValueError& e) {
            QVERIFY(QString(e.what()).contains("vertical_perspective"));
        }
        QCOMPARE(io::metresPerUnit("km"), 1000.0);
        QVERIFY_THROWS_EXCEPTION(ValueError, io::metresPerUnit("furlong"));
    }
    // Every cell of the km grid: PROJ's lat/lon project back, by the formulas, to the cell's
    // x/y in metres; and the CSV carries them as columns.
    void projectedFrameGetsLatLon() {
        const Dataset ds = io::openDataset(kData + "/lcc_km.nc");
        const DataArray var = ds["prcp"];
        io::LatLonLocator locator(ds, var);
        QVERIFY2(locator.problem().empty(), locator.problem().c_str());
        const DataArray frame = var.isel({{"time", std::int64_t(0)}});
        const Coordinate* x = frame.coords().find("x");
        const Coordinate* y = frame.coords().find("y");
        for (std::int64_t r : {std::int64_t(0), frame.shape()[0] / 2, frame.shape()[0] - 1})
            for (std::int64_t c : {std::int64_t(0), frame.shape()[1] - 1}) {
                const auto ll = locator.at(frame, r, c);
                QVERIFY(ll);
                const auto [px, py] = kDaymet.forward(ll->lat, ll->lon);
                QVERIFY(std::fabs(px - x->values[c] * 1000) < 1e-3 &&
                        std::fabs(py - y->values[r] * 1000) < 1e-3);
                // Within the file's own bounds (geospatial_lat_min .. max).
                QVERIFY(ll->lat > 35 && ll->lat < 42 && ll->lon > -110 && ll->lon < -101);
            }
        QCOMPARE(locator.latFormat(frame).decimals, 3); // 1 km cells: a thousandth of a degree
        QTemporaryDir dir;
        const std::string path = dir.filePath("lcc.csv").toStdString();
        io::writeCsv(io::withLatLon(frame, ds), path);
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readLine().trimmed(), QByteArray("y,x,lat,lon,time,prcp"));
        const QList<QByteArray> first = f.readLine().trimmed().split(',');
        const auto ll = locator.at(frame, 0, 0);
        QCOMPARE(first[2].toDouble(), ll->lat);
        QCOMPARE(first[3].toDouble(), ll->lon);
        QCOMPARE(first[4], QByteArray("1980-07-01T12:00:00"));
    }
    // rotated_pole.nc (EURO-CORDEX's pole): PROJ's ob_tran, from the CF attributes, takes
    // every cell's grid degrees to the lat/lon the fixture's script worked out by rotating unit
    // vectors, and back; the frame's CRS is the definition, in degrees.
    void rotatedPole() {
        const Dataset ds = io::openDataset(kData + "/rotated_pole.nc");
        const std::string def = io::projDefinition(ds.findVariable("rotated_pole")->attrs());
        QCOMPARE(QString::fromStdString(def),
                 QString("+proj=ob_tran +o_proj=longlat +o_lon_p=0 +o_lat_p=39.25 "
                         "+lon_0=18 +ellps=WGS84 +no_defs"));
        io::Unprojection proj(def);
        const DataArray frame = ds["tas"].isel({{"time", std::int64_t(0)}});
        const Coordinate* rlon = frame.coords().find("rlon");
        const Coordinate* rlat = frame.coords().find("rlat");
        QVERIFY(frame.coords().find("lat") && frame.coords().find("lon")); // 2-D, through `coordinates`
        const std::vector<double>&lat = frame.coords().find("lat")->values,
              &lon = frame.coords().find("lon")->values;
        const std::size_t nx = rlon->values.size();
        for (std::size_t r = 0; r < rlat->values.size(); ++r)
            for (std::size_t c = 0; c < nx; ++c) {
                const auto ll = proj(rlon->values[c], rlat->values[r]);
                QVERIFY2(std::fabs(ll.lat - lat[r * nx + c]) < 1e-9 &&
                             std::fabs(ll.lon - lon[r * nx + c]) < 1e-9,
                         qPrintable(QString("cell %1,%2: %3 %4").arg(r).arg(c).arg(ll.lat).arg(ll.lon)));
                const auto back = proj.forward(ll.lon, ll.lat);
                QVERIFY(std::fabs(back.lon - rlon->values[c]) < 1e-9 &&
                        std::fabs(back.lat - rlat->values[r]) < 1e-9);
            }
        io::LatLonLocator locator(ds, ds["tas"]);
        QVERIFY2(locator.problem().empty(), locator.problem().c_str());
        const auto crs = locator.crs(frame);
        QVERIFY(crs);
        QCOMPARE(crs->definition, def);
        QCOMPARE(crs->xScale, 1.0);
        QVERIFY(isAngular(*crs));
        QVERIFY(!locator.crs(frame.transpose({"rlon", "rlat"}))); // transposed: no map drawn in it
    }
    // oblique_stereographic is PROJ's sterea.
    void obliqueStereographic() {
        Attributes a;
        a.set({"grid_mapping_name", DType::Char, std::string("oblique_stereographic")});
        a.set({"latitude_of_projection_origin", DType::Float64, std::vector<double>{52.15616055555555}});
        a.set({"longitude_of_projection_origin", DType::Float64, std::vector<double>{5.38763888888889}});
        a.set({"scale_factor_at_projection_origin", DType::Float64, std::vector<double>{0.9999079}});
        a.set({"false_easting", DType::Float64, std::vector<double>{155000}});
        a.set({"false_northing", DType::Float64, std::vector<double>{463000}});
        const std::string def = io::projDefinition(a);
        QVERIFY(QString::fromStdString(def).startsWith("+proj=sterea +lat_0=52.15616055555555"));
        io::Unprojection proj(def);
        const auto origin = proj(155000, 463000); // the false origin is the projection's centre
        QVERIFY(std::fabs(origin.lat - 52.15616055555555) < 1e-9 &&
                std::fabs(origin.lon - 5.38763888888889) < 1e-9);
    }
    // geostationary is PROJ's geos; GOES writes its x/y as scan angles in radians. The oracle is
    // the GOES-R Product User Guide's own formula from scan angles to latitude and longitude
    // (sweep x, on the GRS 80 ellipsoid), not PROJ.
    void geostationaryScanAngles() {
        const double h = 35786023, req = 6378137, rpol = 6356752.31414, lon0 = -75;
        Attributes a;
        a.set({"grid_mapping_name", DType::Char, std::string("geostationary")});
        a.set({"perspective_point_height", DType::Float64, std::vector<double>{h}});
        a.set({"semi_major_axis", DType::Float64, std::vector<double>{req}});
        a.set({"semi_minor_axis", DType::Float64, std::vector<double>{rpol}});
        a.set({"longitude_of_projection_origin", DType::Float64, std::vector<double>{lon0}});
        a.set({"sweep_angle_axis", DType::Char, std::string("x")});
        const std::string def = io::projDefinition(a);
        QVERIFY2(QString::fromStdString(def).startsWith("+proj=geos +h=35786023 +lon_0=-75 +sweep=x"),
                 def.c_str());
        QCOMPARE(io::metresPerUnit("rad", a), h);
        QVERIFY_THROWS_EXCEPTION(ValueError, io::metresPerUnit("rad", Attributes{}));
        io::Unprojection proj(def);
        const double H = h + req;
        for (const auto& [x, y] : {std::pair{-0.024052, 0.095340}, {0.05, -0.08}, {0.0, 0.0}, {0.1, 0.1}}) {
            const double A =
                std::pow(std::sin(x), 2) +
                std::pow(std::cos(x), 2) *
                    (std::pow(std::cos(y), 2) + req * req / (rpol * rpol) * std::pow(std::sin(y), 2));
            const double B = -2 * H * std::cos(x) * std::cos(y), C = H * H - req * req;
            const double rs = (-B - std::sqrt(B * B - 4 * A * C)) / (2 * A);
            const double sx = rs * std::cos(x) * std::cos(y), sy = -rs * std::sin(x),
                         sz = rs * std::cos(x) * std::sin(y);
            const double lat =
                std::atan(req * req / (rpol * rpol) * sz / std::hypot(H - sx, sy)) * 180 / M_PI;
            const double lon = lon0 - std::atan(sy / (H - sx)) * 180 / M_PI;
            const auto got = proj(x * h, y * h);
            QVERIFY2(std::fabs(got.lat - lat) < 1e-6 && std::fabs(got.lon - lon) < 1e-6,
                     qPrintable(QString("(%1, %2): %3, %4 vs %5, %6")
                                    .arg(x)
                                    .arg(y)
                                    .arg(got.lat)
                                    .arg(got.lon)
                                    .arg(lat)
                                    .arg(lon)));
        }
        // The fixed axis names the sweep as its other; off the disc there is no latitude.
        a.erase("sweep_angle_axis");
        a.set({"fixed_angle_axis", DType::Char, std::string("x")});
        QVERIFY(QString::fromStdString(io::projDefinition(a)).contains("+sweep=y"));
        QVERIFY(std::isnan(io::Unprojection(io::projDefinition(a))(0.2 * h, 0.2 * h).lat));
    }
    // test_stageiv_xyt.nc names 2-D lat(y, x) and lon(y, x): the locator reads them.
    void twoDimensionalCoordinates() {
        const Dataset ds = io::openDataset(kData + "/test_stageiv_xyt.nc");
        const DataArray var = ds["Total_precipitation_surface_1_Hour_Accumulation"];
        io::LatLonLocator locator(ds, var);
        const DataArray frame = var.isel({{"time", std::int64_t(3)}});
        const Coordinate* lat = ds.coords.find("lat");
        const Coordinate* lon = ds.coords.find("lon");
        QVERIFY(lat && lon);
        const auto ll = locator.at(frame, 10, 20);
        QVERIFY(ll);
        QCOMPARE(ll->lat, lat->values[10 * 87 + 20]);
        QCOMPARE(ll->lon, lon->values[10 * 87 + 20]);
        // Transposed (x down, y across): the same cell.
        const auto swapped = locator.at(frame.transpose({"x", "y"}), 20, 10);
        QVERIFY(swapped);
        QCOMPARE(swapped->lat, ll->lat);
    }
};

QTEST_GUILESS_MAIN(TestGridMapping)
#include "tst_gridmapping.moc"
