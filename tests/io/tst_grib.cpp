// The GRIB reader (strata/io/grib.h) on the fixtures of tests/data/grib (written by
// make_grib_fixtures.py from ecCodes' samples): hypercubes, dims, coordinates, attributes and
// values against the analytic fields the script wrote, with packing's precision. cfgrib's
// own view of the same files is compared in tst_grib_oracle; damaged files in tst_grib_bad.
#include <QDateTime>
#include <QtTest>

#include <cmath>

#include "nc_frame.h"
#include "note_checks.h"
#include "strata/core/cancel.h"
#include "strata/core/error.h"
#include "strata/io/geo.h"
#include "strata/io/grib.h"
#include "strata/io/grid_mapping.h"
#include "strata/io/netcdf.h"

using namespace strata;

using nctest::anyNoteHas;

namespace {

std::string fixture(const char* name) { return std::string(STRATA_TEST_DATA) + "/grib/" + name; }

// make_grib_fixtures.py's field(): base + a smooth pattern.
double field(double lat, double lon, double base, double wave) {
    const double r = M_PI / 180.0;
    return base + 10.0 * std::cos(lat * r) * std::sin(wave * lon * r) + 0.05 * lat;
}

std::vector<double> hostValues(const DataArray& a) { return a.asHost().values<double>(); }

std::vector<double> coordValues(const Dataset& ds, const char* name) {
    const Coordinate* c = ds.coords.find(name);
    return c ? c->values : std::vector<double>{};
}

} // namespace

class TestGrib : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
    }

    void recognisesGribFiles() {
        QVERIFY(looksLikeGrib(fixture("pressure_levels.grib2")));
        QVERIFY(looksLikeGrib(fixture("gaussian.grib1"))); // by content: .grib1 ends no list of ours
        QVERIFY(!looksLikeGrib(std::string(STRATA_TEST_DATA) + "/hgt.nc"));
        QVERIFY(!looksLikeGrib(fixture("make_grib_fixtures.py")));
        QVERIFY(!looksLikeGrib(fixture("no_such_file.grib2")));
    }

    // One hypercube: the Dataset itself, with cfgrib's dims in cfgrib's order.
    void pressureLevelsAreOneHypercube() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("pressure_levels.grib2"), notes);
        QCOMPARE(ds.format, std::string("GRIB 2"));
        QVERIFY(ds.groups.empty());
        const std::vector<std::string> dims = {"number",        "time",     "step",
                                               "isobaricInhPa", "latitude", "longitude"};
        for (const char* name : {"t", "z"}) {
            const Variable* v = ds.findVariable(name);
            QVERIFY2(v, name);
            QCOMPARE(v->dims(), dims);
            QCOMPARE(v->shape(), (Shape{3, 2, 2, 3, 7, 12}));
            QCOMPARE(v->dtype(), DType::Float32);
        }
        QCOMPARE(coordValues(ds, "number"), (std::vector<double>{0, 1, 2}));
        QCOMPARE(coordValues(ds, "isobaricInhPa"), (std::vector<double>{1000, 850, 500}));
        QCOMPARE(coordValues(ds, "step"), (std::vector<double>{0, 6}));
        QCOMPARE(coordValues(ds, "latitude"), (std::vector<double>{60, 55, 50, 45, 40, 35, 30}));
        const std::vector<double> lon = coordValues(ds, "longitude");
        QCOMPARE(lon.size(), std::size_t(12));
        QCOMPARE(lon.front(), -10.0);
        QCOMPARE(lon.back(), 17.5);
        // time: 2024-01-01 00:00 and 12:00; valid_time(time, step) = time + step.
        const Coordinate* time = ds.coords.find("time");
        QVERIFY(time && time->time);
        QCOMPARE(time->values, (std::vector<double>{1704067200, 1704067200 + 43200}));
        QCOMPARE(time->text(1), std::string("2024-01-01T12:00:00"));
        const Coordinate* valid = ds.coords.find("valid_time");
        QVERIFY(valid);
        QCOMPARE(valid->dims, (std::vector<std::string>{"time", "step"}));
        QCOMPARE(valid->values,
                 (std::vector<double>{1704067200, 1704067200 + 21600, 1704110400, 1704110400 + 21600}));
        const Variable* t = ds.findVariable("t");
        QCOMPARE(t->attrs().text("units"), std::optional<std::string>("K"));
        QCOMPARE(t->attrs().text("standard_name"), std::optional<std::string>("air_temperature"));
        QCOMPARE(t->attrs().text("long_name"), std::optional<std::string>("Temperature"));
        QCOMPARE(t->attrs().text("GRIB_shortName"), std::optional<std::string>("t"));
        QCOMPARE(t->attrs().number("GRIB_paramId"), std::optional<double>(130));
        QCOMPARE(ds.attrs.text("GRIB_centre"), std::optional<std::string>("ecmf"));
        QCOMPARE(ds.coords.find("isobaricInhPa")->attrs.text("units"), std::optional<std::string>("hPa"));
    }

    // Every value where the script put it, within 16-bit packing's precision; the one field
    // the file lacks is NaN, and a note says so.
    void pressureLevelValuesAreInPlace() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("pressure_levels.grib2"), notes);
        QVERIFY(anyNoteHas(notes, {"'t'", "1 of 36 fields", "NaN"}));
        const std::vector<double> lat = coordValues(ds, "latitude"), lon = coordValues(ds, "longitude");
        const double levels[] = {1000, 850, 500}, steps[] = {0, 6};
        for (const char* name : {"t", "z"}) {
            const std::vector<double> v = hostValues(ds[name]);
            QCOMPARE(v.size(), std::size_t(3 * 2 * 2 * 3 * 7 * 12));
            const double base = name[0] == 't' ? 250.0 : 5000.0, wave = name[0] == 't' ? 1 : 2;
            std::size_t k = 0, nan = 0;
            for (int number = 0; number < 3; ++number)
                for (int time = 0; time < 2; ++time)
                    for (double step : steps)
                        for (double level : levels)
                            for (double la : lat)
                                for (double lo : lon) {
                                    const double x = v[k++];
                                    if (std::isnan(x)) {
                                        QVERIFY(name[0] == 't' && number == 2 && time == 1 && step == 6 &&
                                                level == 500);
                                        ++nan;
                                        continue;
                                    }
                                    const double extra = level / 100.0 + step + time * 3 + number * 0.5;
                                    const double want = field(la, lo, base + extra, wave);
                                    QVERIFY2(std::abs(x - want) < 0.01 * (1 + std::abs(want) / 1000),
                                             qPrintable(QString("%1 %2 != %3").arg(name).arg(x).arg(want)));
                                }
            QCOMPARE(nan, std::size_t(name[0] == 't' ? 84 : 0));
        }
    }

    // A slab read (one field, a strided window) agrees with the whole variable.
    void slabsReadAsTheWhole() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("pressure_levels.grib2"), notes);
        const DataArray z = ds["z"];
        const std::vector<double> whole = hostValues(z);
        const DataArray part = z.isel({{"number", std::int64_t(1)},
                                       {"time", std::int64_t(1)},
                                       {"isobaricInhPa", Slice{0, 3, 2}},
                                       {"longitude", Slice{1, 12, 3}}});
        QCOMPARE(part.shape(), (Shape{2, 2, 7, 4}));
        const std::vector<double> got = hostValues(part);
        std::size_t k = 0;
        for (int s = 0; s < 2; ++s)
            for (int l = 0; l < 3; l += 2)
                for (int la = 0; la < 7; ++la)
                    for (int lo = 1; lo < 12; lo += 3) {
                        const std::size_t at = ((((1 * 2 + 1) * 2 + s) * 3 + l) * 7 + la) * 12 + lo;
                        QCOMPARE(got[k++], whole[at]);
                    }
    }

    // cfgrib's open_dataset refuses this file; its hypercubes become groups, one per level type
    // and step type, single-valued axes as scalar coordinates.
    void mixedFileSplitsIntoGroups() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("mixed.grib2"), notes);
        QVERIFY(ds.variables.empty());
        std::vector<std::string> names;
        for (const Dataset& g : ds.groups) names.push_back(g.group);
        QCOMPARE(names, (std::vector<std::string>{"/heightAboveGround_instant", "/isobaricInhPa_instant",
                                                  "/surface_accum", "/surface_instant"}));
        const Dataset& pl = ds.findGroup("isobaricInhPa_instant");
        QCOMPARE(pl.findVariable("t")->dims(),
                 (std::vector<std::string>{"step", "isobaricInhPa", "latitude", "longitude"}));
        QCOMPARE(coordValues(pl, "isobaricInhPa"), (std::vector<double>{850, 500}));
        const Dataset& accum = ds.findGroup("surface_accum");
        const Variable* tp = accum.findVariable("tp");
        QVERIFY(tp);
        QCOMPARE(tp->dims(), (std::vector<std::string>{"step", "latitude", "longitude"}));
        QCOMPARE(tp->attrs().text("GRIB_stepType"), std::optional<std::string>("accum"));
        QVERIFY(!tp->attrs().contains("standard_name")); // ecCodes' cfName is "unknown"
        const Coordinate* surface = accum.coords.find("surface");
        QVERIFY(surface && surface->dims.empty() && surface->values == std::vector<double>{0});
        const Coordinate* time = accum.coords.find("time");
        QVERIFY(time && time->dims.empty());
        QCOMPARE(time->text(0), std::string("2023-06-15T06:00:00"));
        const Variable* t2m = ds.findGroup("heightAboveGround_instant").findVariable("t2m");
        QVERIFY(t2m);
        QCOMPARE(ds.findGroup("heightAboveGround_instant").coords.find("heightAboveGround")->values,
                 std::vector<double>{2});
        // Values: t at the surface at step 12 (base 285 + 12, wave 2).
        const Dataset& sfc = ds.findGroup("surface_instant");
        const std::vector<double> v = hostValues(sfc["t"].isel({{"step", std::int64_t(1)}}));
        const std::vector<double> lat = coordValues(sfc, "latitude"), lon = coordValues(sfc, "longitude");
        for (std::size_t j = 0; j < lat.size(); ++j)
            for (std::size_t i = 0; i < lon.size(); ++i)
                QVERIFY(std::abs(v[j * lon.size() + i] - field(lat[j], lon[i], 297.0, 2)) < 0.01);
        // The summary (strata --info) names every group and variable.
        const std::string summary = ds.summary();
        for (const char* word : {"isobaricInhPa_instant", "surface_accum", "tp", "t2m", "valid_time"})
            QVERIFY2(summary.find(word) != std::string::npos, word);
    }

    // Parameters of one level type on different levels (2 m, 10 m) are apart, as in cfgrib's
    // datasets: t2m has no heightAboveGround dim half of NaN.
    void singleLevelsApart() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("single_levels.grib2"), notes);
        std::vector<std::string> names;
        for (const Dataset& g : ds.groups) names.push_back(g.group);
        QCOMPARE(names, (std::vector<std::string>{"/heightAboveGround_2_instant",
                                                  "/heightAboveGround_10_instant", "/meanSea_instant"}));
        const Dataset& two = ds.findGroup("heightAboveGround_2_instant");
        QCOMPARE(two.dataVariables(), (std::vector<std::string>{"t2m", "d2m"}));
        QCOMPARE(two.findVariable("t2m")->dims(),
                 (std::vector<std::string>{"step", "latitude", "longitude"}));
        QCOMPARE(two.coords.find("heightAboveGround")->values, std::vector<double>{2});
        const Dataset& ten = ds.findGroup("heightAboveGround_10_instant");
        QCOMPARE(ten.dataVariables(), (std::vector<std::string>{"u10", "v10"}));
        QCOMPARE(ten.coords.find("heightAboveGround")->values, std::vector<double>{10});
        for (const std::string& line : notes.lines)
            QVERIFY2(line.find("NaN") == std::string::npos, line.c_str());
        const std::vector<double> v = hostValues(ten["v10"]);
        const std::vector<double> lat = coordValues(ten, "latitude"), lon = coordValues(ten, "longitude");
        for (std::size_t k = 0; k < 9 * 16; ++k)
            QVERIFY(std::abs(v[9 * 16 + k] - field(lat[k / 16], lon[k % 16], -3.0 + 6, 1)) < 0.01);
    }

    // Packings Strata leaves to ecCodes (complex with spatial differencing, complex, CCSDS,
    // JPEG 2000), one a step of one variable: each step's values are its field's, within the
    // 16 bits' precision, on the host and through a slab of steps.
    void otherPackingsAreRead() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("packings.grib2"), notes);
        const DataArray t = ds["t2m"];
        QCOMPARE(t.shape(), (Shape{4, 9, 16}));
        const std::vector<double> v = hostValues(t);
        const std::vector<double> lat = coordValues(ds, "latitude"), lon = coordValues(ds, "longitude");
        QCOMPARE(coordValues(ds, "step"), (std::vector<double>{0, 6, 12, 18}));
        for (std::size_t s = 0; s < 4; ++s)
            for (std::size_t k = 0; k < 9 * 16; ++k)
                QVERIFY2(std::abs(v[s * 144 + k] -
                                  field(lat[k / 16], lon[k % 16], 270.0 + 6 * double(s), 2)) < 0.01,
                         qPrintable(QString("step %1, point %2: %3").arg(s).arg(k).arg(v[s * 144 + k])));
        const std::vector<double> middle = hostValues(t.isel({{"step", Slice{1, 3, 1}}}));
        QVERIFY(std::equal(middle.begin(), middle.end(), v.begin() + 144));
    }

    // A netCDF file converted to GRIB 2 (make_grib_fixtures.py's from_netcdf: hgt.nc's HGT as
    // `gh` at 500 hPa, a message a month, rows north to south): every value netCDF-C reads from
    // hgt.nc, within the 16 bits' precision (1074 gpm over 65535 steps), and the months as dates.
    void aNetcdfFileConvertedToGribReadsTheSame() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("hgt_from_netcdf.grib2"), notes);
        const DataArray gh = ds["gh"];
        QCOMPARE(gh.dims(), (std::vector<std::string>{"time", "latitude", "longitude"}));
        QCOMPARE(gh.shape(), (Shape{21, 73, 144}));
        QCOMPARE(gh.attrs().text("units").value_or(""), std::string("gpm"));
        const auto hgt = nctest::readDecoded(std::string(STRATA_TEST_DATA) + "/hgt.nc", "HGT");
        QVERIFY(hgt);
        const std::vector<double> v = hostValues(gh);
        for (std::size_t t = 0; t < 21; ++t)
            for (std::size_t j = 0; j < 73; ++j)
                for (std::size_t i = 0; i < 144; ++i) {
                    const double want = hgt->values[(t * 73 + (72 - j)) * 144 + i],
                                 have = v[(t * 73 + j) * 144 + i];
                    QVERIFY2(std::abs(have - want) < 0.02,
                             qPrintable(QString("time %1, row %2, column %3: %4, netCDF %5")
                                            .arg(t)
                                            .arg(j)
                                            .arg(i)
                                            .arg(have)
                                            .arg(want)));
                }
        // hgt.nc's "months since 1958-1-1": 0, 1, 13, 25, ... as the first of those months.
        const std::vector<double> time = coordValues(ds, "time");
        QCOMPARE(time.size(), std::size_t(21));
        const std::vector<int> months{0,   1,   13,  25,  37,  49,  61,  73,  85,  97, 109,
                                      121, 133, 145, 157, 169, 181, 193, 205, 217, 229};
        for (std::size_t k = 0; k < 21; ++k) {
            const QDateTime first(QDate(1958 + months[k] / 12, 1 + months[k] % 12, 1), QTime(0, 0), Qt::UTC);
            QCOMPARE(time[k], double(first.toSecsSinceEpoch()));
        }
        QCOMPARE(coordValues(ds, "latitude").front(), 90.0);
    }

    // GRIB 1 on a regular Gaussian grid, a bitmap's holes read as NaN.
    void gaussianGribOne() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("gaussian.grib1"), notes);
        QCOMPARE(ds.format, std::string("GRIB 1"));
        const Variable* msl = ds.findVariable("msl");
        QVERIFY(msl);
        QCOMPARE(msl->dims(), (std::vector<std::string>{"step", "latitude", "longitude"}));
        QCOMPARE(msl->shape(), (Shape{3, 64, 128}));
        const std::vector<double> lat = coordValues(ds, "latitude");
        QCOMPARE(lat.size(), std::size_t(64));
        QVERIFY(std::abs(lat.front() - 87.8638) < 1e-3 && std::abs(lat.back() + 87.8638) < 1e-3);
        QVERIFY(std::abs(lat[31] + lat[32]) < 1e-9 && lat[31] > 0); // symmetric, no equator row
        QCOMPARE(ds.coords.find("number")->values, std::vector<double>{0});
        const std::vector<double> v = hostValues(ds["msl"]);
        const std::vector<double> lon = coordValues(ds, "longitude");
        for (int s = 0; s < 3; ++s)
            for (std::size_t k = 0; k < 64 * 128; ++k) {
                const double x = v[std::size_t(s) * 64 * 128 + k];
                if (k == std::size_t(5 + 3 * s)) {
                    QVERIFY2(std::isnan(x), "the bitmap's hole must read as NaN");
                    continue;
                }
                const double want = field(lat[k / 128], lon[k % 128], 101300.0 + 30 * s, 2);
                QVERIFY2(std::abs(x - want) < 0.05, qPrintable(QString("%1 != %2").arg(x).arg(want)));
            }
    }

    // Rotated, polar stereographic and Lambert grids: cfgrib's (y, x) with 2-D latitude and
    // longitude, and a CF grid mapping with x and y on its lattice, from which PROJ gives back
    // ecCodes' latitude and longitude of every point; the app's locator takes the mapping.
    void projectedGrids_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("mapping");
        QTest::newRow("rotated_ll") << "rotated_ll.grib2"
                                    << "rotated_latitude_longitude";
        QTest::newRow("polar_stereographic") << "polar_stereographic.grib2"
                                             << "polar_stereographic";
        QTest::newRow("lambert") << "lambert.grib2"
                                 << "lambert_conformal_conic";
    }
    void projectedGrids() {
        QFETCH(QString, file);
        QFETCH(QString, mapping);
        OpenNotes notes;
        const Dataset ds = openDataset(fixture(file.toUtf8().constData()), notes);
        const Variable* t2m = ds.findVariable("t2m");
        QVERIFY(t2m);
        QCOMPARE(t2m->dims(), (std::vector<std::string>{"step", "y", "x"}));
        QCOMPARE(t2m->shape(), (Shape{2, 31, 16}));
        const Coordinate* lat = ds.coords.find("latitude");
        const Coordinate* lon = ds.coords.find("longitude");
        QVERIFY(lat && lat->dims == (std::vector<std::string>{"y", "x"}) && lat->values.size() == 31 * 16);
        const std::vector<double> v = hostValues(ds["t2m"]);
        for (std::size_t k = 0; k < 31 * 16; ++k) {
            const double want = 282.0 + 0.1 * double(k % 16) + 0.05 * double(k / 16);
            QVERIFY(std::abs(v[31 * 16 + k] - want) < 0.01);
        }
        QCOMPARE(t2m->attrs().text("grid_mapping"), std::optional<std::string>("crs"));
        const Variable* crs = ds.findVariable("crs");
        QVERIFY(crs);
        QCOMPARE(crs->attrs().text("grid_mapping_name"), std::optional<std::string>(mapping.toStdString()));
        const std::vector<double> x = coordValues(ds, "x"), y = coordValues(ds, "y");
        QCOMPARE(x.size(), std::size_t(16));
        QCOMPARE(y.size(), std::size_t(31));
        const io::Unprojection back(io::projDefinition(crs->attrs()));
        double worst = 0;
        for (std::size_t j = 0; j < 31; ++j)
            for (std::size_t i = 0; i < 16; ++i) {
                const auto p = back(x[i], y[j]);
                const double dlon = std::remainder(p.lon - lon->values[j * 16 + i], 360.0);
                worst = std::max({worst, std::abs(p.lat - lat->values[j * 16 + i]), std::abs(dlon)});
            }
        QVERIFY2(worst < 1e-4, qPrintable(QString("off by %1 degrees").arg(worst)));
        const DataArray frame = ds["t2m"].isel({{"step", std::int64_t(0)}});
        const io::LatLonLocator locator(ds, ds["t2m"]);
        QVERIFY2(locator.problem().empty(), locator.problem().c_str());
        QVERIFY(locator.crs(frame).has_value());
    }

    // A message on a grid Strata does not read is named in a note and left out.
    void gridNotReadIsSkippedWithANote() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("unsupported_grid.grib2"), notes);
        QVERIFY(anyNoteHas(notes, {"unsupported_grid.grib2", "message 2", "'sh'", "skipped"}));
        const Variable* t2m = ds.findVariable("t2m");
        QVERIFY(t2m);
        QCOMPARE(t2m->shape(), (Shape{2, 5, 8}));
        QVERIFY(!ds.findVariable("t"));
    }

    // A cancelled open or read ends with CancelledError, not with a message skipped.
    void cancelEndsOpenAndRead() {
        OpenNotes notes;
        const Dataset ds = openDataset(fixture("pressure_levels.grib2"), notes);
        CancelToken token;
        token.cancel();
        const CancelScope scope(token);
        QVERIFY_THROWS_EXCEPTION(CancelledError, openDataset(fixture("mixed.grib2")));
        QVERIFY_THROWS_EXCEPTION(CancelledError, ds["t"].asHost());
    }

    void isolatedOpenReadsGrib() {
        OpenNotes notes;
        const Dataset ds = openDatasetIsolated(fixture("mixed.grib2"), notes);
        QCOMPARE(ds.groups.size(), std::size_t(4));
    }
};

QTEST_APPLESS_MAIN(TestGrib)
#include "tst_grib.moc"
