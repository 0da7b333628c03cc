// openDataset on real files from other projects (tests/data/README.md). Expected numbers were
// read off `ncdump -v` by hand; dates were worked out by hand or with Python's datetime.
#include <QtTest>

#include <cmath>

#include "strata/core/error.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

std::string data(const char* name) { return std::string(STRATA_SOURCE_DIR) + "/tests/data/" + name; }

std::vector<double> loadValues(const Dataset& ds, std::string_view name) {
    return ds[name].load(Device::host(), Stream::host()).values<double>();
}

std::vector<std::string> isoDates(const Coordinate& c) {
    std::vector<std::string> out;
    for (const auto& d : c.time->dates) out.push_back(d.iso());
    return out;
}

std::size_t countNan(const std::vector<double>& v) {
    std::size_t n = 0;
    for (double x : v) n += std::isnan(x);
    return n;
}

} // namespace

class TestNetcdfFiles : public QObject {
    Q_OBJECT
private slots:
    void tasRectilinear() {
        const Dataset ds = openDataset(data("tas_rectilinear_grid_2D.nc"));
        QCOMPARE(ds.format, std::string("classic"));
        QCOMPARE(*ds.attrs.text("Conventions"), std::string("CF-1.4"));
        const Dimension* time = ds.findDim("time");
        QVERIFY(time && time->unlimited && time->length == 12);
        QCOMPARE(ds.findDim("lat")->length, std::int64_t(96));
        QCOMPARE(ds.findDim("lon")->length, std::int64_t(192));
        const Variable* tas = ds.findVariable("tas");
        QVERIFY(tas);
        QCOMPARE(tas->shape(), (Shape{12, 96, 192}));
        QCOMPARE(tas->dtype(), DType::Float32);
        QCOMPARE(tas->encoding().fillValues, std::vector<double>{double(1e20f)});
        QVERIFY(ds.findVariable("time_bnds")); // bounds stay ordinary variables
        QVERIFY(!ds.coords.contains("time_bnds"));
        QCOMPARE(ds.dataVariables().size(), std::size_t(4)); // tas and the three bounds

        // days since 1850-01-01, proleptic_gregorian: mid-months of 2005 (Python's datetime).
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t && t->time && t->problem.empty());
        QCOMPARE(t->time->calendar, Calendar::ProlepticGregorian);
        const std::vector<std::string> expected = {
            "2005-01-16T12:00:00", "2005-02-15T00:00:00", "2005-03-16T12:00:00", "2005-04-16T00:00:00",
            "2005-05-16T12:00:00", "2005-06-16T00:00:00", "2005-07-16T12:00:00", "2005-08-16T12:00:00",
            "2005-09-16T00:00:00", "2005-10-16T12:00:00", "2005-11-16T00:00:00", "2005-12-16T12:00:00"};
        QCOMPARE(isoDates(*t), expected);
        const Coordinate* lon = ds.coords.find("lon");
        QVERIFY(lon && lon->isIndex());
        QCOMPARE(lon->values.front(), 0.0);
        QCOMPARE(lon->values.back(), 358.125);
        QCOMPARE(ds.coords.find("lat")->values.size(), std::size_t(96));

        const DataArray a = ds["tas"];
        QVERIFY(a.coords().contains("time") && a.coords().contains("lat") && a.coords().contains("lon"));
        const std::vector<double> v = loadValues(ds, "tas");
        QCOMPARE(v.size(), std::size_t(12 * 96 * 192));
        QCOMPARE(countNan(v), std::size_t(0)); // no fill values in this file
        QVERIFY(std::abs(v[0] - 239.0962) < 1e-4);
        QVERIFY(std::abs(v[1] - 239.0435) < 1e-4);
        QVERIFY(std::abs(v.back() - 249.3775) < 1e-4);
        // One frame, lazily sliced: the first row of March.
        const DataArray march = a.isel({{"time", std::int64_t(2)}, {"lat", std::int64_t(0)}});
        QCOMPARE(march.shape(), (Shape{192}));
        const auto row = march.load(Device::host(), Stream::host()).values<double>();
        for (int i = 0; i < 192; ++i) QCOMPARE(row[i], v[2 * 96 * 192 + i]);
    }
    void reducedPackedSst() {
        const Dataset ds = openDataset(data("reduced.nc"));
        const Variable* sst = ds.findVariable("sst");
        QVERIFY(sst);
        QCOMPARE(sst->shape(), (Shape{1, 1, 90, 180}));
        QCOMPARE(sst->encoding().packed, DType::Int16);
        QCOMPARE(sst->dtype(), DType::Float32);
        const std::vector<double> v = loadValues(ds, "sst");
        // `ncdump -v sst`: packed 2809 at (lat 45, lon 0), 2803 at (45, 90), -127 at (10, 100),
        // -169 at (89, 179); "_" (-999, land) at (0, 0) and (60, 30). Decoded = packed * 0.01.
        auto at = [&](int lat, int lon) { return v[std::size_t(lat) * 180 + lon]; };
        QVERIFY(std::abs(at(45, 0) - 28.09) < 1e-5);
        QVERIFY(std::abs(at(45, 90) - 28.03) < 1e-5);
        QVERIFY(std::abs(at(10, 100) - -1.27) < 1e-5);
        QVERIFY(std::abs(at(89, 179) - -1.69) < 1e-5);
        QVERIFY(std::isnan(at(0, 0)));
        QVERIFY(std::isnan(at(60, 30)));
        QCOMPARE(countNan(v), std::size_t(4448)); // the "_" entries of ncdump's listing
        // 1460 days since 1978-01-01: 365 + 365 + 366 (1980) days to 1981-01-01, then 364: 1981-12-31.
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t && t->time);
        QCOMPARE(t->time->dates.at(0).iso(true), std::string("1981-12-31"));
        QCOMPARE(ds.coords.find("lat")->values.front(), -89.0);
        QCOMPARE(ds.coords.find("zlev")->values, std::vector<double>{0});
    }
    void hgtMonthsSince() {
        const Dataset ds = openDataset(data("hgt.nc"));
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t && t->time);
        QCOMPARE(t->values.size(), std::size_t(21));
        // values 0, 1, 13, 25, ... 229: calendar months after 1958-01-01.
        QCOMPARE(t->time->dates[0].iso(true), std::string("1958-01-01"));
        QCOMPARE(t->time->dates[1].iso(true), std::string("1958-02-01"));
        QCOMPARE(t->time->dates[2].iso(true), std::string("1959-02-01"));
        QCOMPARE(t->time->dates[20].iso(true), std::string("1977-02-01")); // 229 = 19 * 12 + 1
        const std::vector<double> v = loadValues(ds, "HGT");
        QCOMPARE(v.size(), std::size_t(21 * 73 * 144));
        QVERIFY(std::abs(v[0] - 5168.4) < 1e-3);
        QVERIFY(std::abs(v[215496] - 5844.9) < 1e-3); // (20, 36, 72)
        QVERIFY(std::abs(v.back() - 5036.8) < 1e-3);
    }
    void stageIvCurvilinear() {
        const Dataset ds = openDataset(data("test_stageiv_xyt.nc"));
        const char* name = "Total_precipitation_surface_1_Hour_Accumulation";
        const DataArray p = ds[name];
        QCOMPARE(p.shape(), (Shape{23, 118, 87}));
        const Coordinate* lat = p.coords().find("lat");
        const Coordinate* lon = p.coords().find("lon");
        QVERIFY(lat && lon && p.coords().contains("time"));
        QVERIFY(!lat->isIndex());
        QCOMPARE(lat->dims, (std::vector<std::string>{"y", "x"}));
        QCOMPARE(lat->shape, (std::vector<std::int64_t>{118, 87}));
        QVERIFY(std::abs(lat->values[0] - 33.78118) < 1e-5);
        QVERIFY(std::abs(lon->values[0] - -80.6113) < 1e-4);
        QVERIFY(std::abs(lat->values[117 * 87 + 86] - 36.11734) < 1e-5);
        QVERIFY(std::abs(lon->values[117 * 87 + 86] - -74.88222) < 1e-5);
        // "Hour since 2001-12-31T23:00:00Z": 146396 h later is 2018-09-13T19:00 (Python's datetime).
        const Coordinate* t = p.coords().find("time");
        QVERIFY(t->time);
        QCOMPARE(t->time->dates.front().iso(), std::string("2018-09-13T19:00:00"));
        QCOMPARE(t->time->dates.back().iso(), std::string("2018-09-14T17:00:00"));
        // An ordinary attribute named like a reserved one.
        QCOMPARE(ds.findVariable(name)->attrs().find("_ChunkSizes")->numbers(),
                 (std::vector<double>{1, 60, 75}));
        const std::vector<double> v = p.load(Device::host(), Stream::host()).values<double>();
        QCOMPARE(v[54], double(0.75f));
        QCOMPARE(v[116210], 163.75);
        double sum = 0;
        for (double x : v) sum += x;
        QVERIFY(std::abs(sum - 978238.97) < 0.1); // awk's sum over ncdump's listing
    }
    void lambertConformal() {
        const Dataset ds = openDataset(data("lcc_km.nc"));
        QCOMPARE(ds.format, std::string("netCDF-4 classic model"));
        const DataArray p = ds["prcp"];
        QCOMPARE(p.shape(), (Shape{1, 569, 619}));
        QVERIFY(p.coords().contains("x") && p.coords().contains("y") && p.coords().contains("time"));
        QCOMPARE(*p.attrs().text("grid_mapping"), std::string("lambert_conformal_conic"));
        QCOMPARE(p.attrs().find("_ChunkSizes")->numbers(), (std::vector<double>{1, 1000, 1000}));
        const Variable* crs = ds.findVariable("lambert_conformal_conic");
        QVERIFY(crs && crs->ndim() == 0);
        QCOMPARE(crs->attrs().find("standard_parallel")->numbers(), (std::vector<double>{25, 60}));
        // 11139.5 days since 1950-01-01 (standard): 1980-07-01T12:00 (Python's datetime).
        QCOMPARE(ds.coords.find("time")->time->dates.at(0).iso(), std::string("1980-07-01T12:00:00"));
        // The file's history says prcp = prcp * 0: every value is 0 or the -9999 fill.
        const std::vector<double> v = p.load(Device::host(), Stream::host()).values<double>();
        std::size_t zeros = 0;
        for (double x : v) zeros += x == 0;
        QVERIFY(zeros > 0);
        QCOMPARE(zeros + countNan(v), v.size());
    }
    void hierarchicalGroups() {
        const Dataset ds = openDataset(data("test_hgroups.nc"));
        QCOMPARE(ds.format, std::string("netCDF-4"));
        QCOMPARE(ds.findVariable("UTC_time")->dtype(), DType::String);
        QCOMPARE(ds.groups.size(), std::size_t(7));
        const Dataset& ascent = ds.findGroup("mozaic_flight_2012030403540535_ascent");
        QCOMPARE(ascent.group, std::string("/mozaic_flight_2012030403540535_ascent"));
        QCOMPARE(*ascent.attrs.text("airport_dep"), std::string("TLV"));
        QVERIFY(ascent.findDim("recNum") && ascent.findDim("recNum")->length == 74); // the root's dim
        const std::vector<double> co = loadValues(ascent, "CO");
        QCOMPARE(co.size(), std::size_t(74));
        QCOMPARE(co[0], 216.0);
        QCOMPARE(co[1], 189.0);
        QCOMPARE(co[33], -99.0); // no _FillValue attribute: -99 is an ordinary value
        const Dataset& descent = ds.findGroup("/mozaic_flight_2012030321335035_descent");
        QCOMPARE(descent.findDim("air_press")->length, std::int64_t(76));
        QCOMPARE(descent.dims.front().name, std::string("air_press")); // its own dim first
        const Coordinate* p = descent.coords.find("air_press");
        QVERIFY(p && p->isIndex());
        QCOMPARE(p->values[0], 100674.0);
        QCOMPARE(loadValues(descent, "CO")[0], 187.0);
        QVERIFY(std::abs(loadValues(descent, "lat").at(0) - 32.0113906860352) < 1e-12);
    }
    void day360Calendar() {
        const Dataset ds = openDataset(data("ref_test_360_day_1900.nc"));
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t && t->time);
        QCOMPARE(t->time->calendar, Calendar::Day360);
        QCOMPARE(t->values.size(), std::size_t(2300));
        // days since 1900-1-1 in 360_day: year = 1900 + v / 360, month = v % 360 / 30 + 1, day = v % 30 + 1.
        for (std::size_t i = 0; i < t->values.size(); ++i) {
            const auto v = static_cast<long>(t->values[i]);
            const DateTime& d = t->time->dates[i];
            QCOMPARE(d.year, int(1900 + v / 360));
            QCOMPARE(d.month, int(v % 360 / 30 + 1));
            QCOMPARE(d.day, int(v % 30 + 1));
        }
        QCOMPARE(t->time->dates.back().iso(true), std::string("1906-05-20")); // v = 2299
    }
    void largeChunkedFile() {
        const QByteArray dir = qEnvironmentVariableIsSet("STRATA_SHARED_DATA")
                                   ? qgetenv("STRATA_SHARED_DATA")
                                   : QByteArray("/work/shared/data");
        const std::string file = dir.toStdString() + "/S2008001.L3m_DAY_CHL_chlor_a_9km.nc";
        if (!QFile::exists(QString::fromStdString(file)))
            QSKIP("the SeaWiFS file (GPL-3 package) is not here");
        const Dataset ds = openDataset(file);
        QVERIFY(ds.findGroup("processing_control/input_parameters").attrs.size() > 0);
        const DataArray chl = ds["chlor_a"];
        QCOMPARE(chl.shape(), (Shape{2160, 4320}));
        const std::vector<double> v = chl.load(Device::host(), Stream::host()).values<double>();
        // ncdump lists 9 values, all others "_": 1.801773 at 8605324..8605327, 0.800647 at 8678701..8678705.
        QCOMPARE(v.size() - countNan(v), std::size_t(9));
        QVERIFY(std::abs(v[8605324] - 1.801773) < 1e-6);
        QVERIFY(std::abs(v[8678705] - 0.800647) < 1e-6);
        QCOMPARE(ds.findVariable("palette")->dtype(), DType::UInt8);
    }
};

QTEST_GUILESS_MAIN(TestNetcdfFiles)
#include "tst_netcdf_files.moc"
