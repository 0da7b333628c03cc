// openDataset on files the test writes itself through netCDF-C: every numeric type, packing
// and masking (and masking values ignored, with a note), calendars, groups, formats, compression, text
// variables.
#include <QtTest>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <thread>

#include "nc_write.h"
#include "strata/core/error.h"
#include "strata/io/netcdf.h"

using namespace strata;
using nctest::Writer;

namespace {

std::vector<double> loadValues(const Dataset& ds, std::string_view name) {
    return ds[name].load(Device::host(), Stream::host()).values<double>();
}

bool sameOrBothNan(double a, double b) { return a == b || (std::isnan(a) && std::isnan(b)); }

template <class E, class F> QString messageOf(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestNetcdf : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void numericTypes_data() {
        QTest::addColumn<int>("ncType");
        QTest::addColumn<int>("dtype");
        QTest::addColumn<int>("mode");
        QTest::addColumn<QVector<double>>("values");
        const QVector<double> signedValues = {-128, -1, 0, 1, 2, 127};
        const QVector<double> unsignedValues = {0, 1, 2, 3, 200, 255};
        struct Row {
            const char* name;
            nc_type t;
            DType d;
            QVector<double> v;
            bool classic;
        };
        const Row rows[] = {
            {"byte", NC_BYTE, DType::Int8, signedValues, true},
            {"ubyte", NC_UBYTE, DType::UInt8, unsignedValues, false},
            {"short", NC_SHORT, DType::Int16, {-32768, -1, 0, 1, 2, 32767}, true},
            {"ushort", NC_USHORT, DType::UInt16, {0, 1, 2, 3, 40000, 65535}, false},
            {"int", NC_INT, DType::Int32, {-2147483648.0, -1, 0, 1, 2, 2147483647.0}, true},
            {"uint", NC_UINT, DType::UInt32, {0, 1, 2, 3, 3e9, 4294967295.0}, false},
            {"int64", NC_INT64, DType::Int64, {-9007199254740992.0, -1, 0, 1, 2, 9007199254740992.0}, false},
            {"uint64", NC_UINT64, DType::UInt64, {0, 1, 2, 3, 1e15, 9007199254740992.0}, false},
            {"float", NC_FLOAT, DType::Float32, {-1.5, -0.25, 0, 1, 2, 65536}, true},
            {"double", NC_DOUBLE, DType::Float64, {-1e300, -0.1, 0, 1, 2, 1e300}, true},
        };
        for (const Row& r : rows) {
            QTest::newRow((std::string(r.name) + " netCDF-4").c_str())
                << int(r.t) << int(r.d) << int(NC_NETCDF4) << r.v;
            QTest::newRow((std::string(r.name) + " CDF-5").c_str())
                << int(r.t) << int(r.d) << int(NC_64BIT_DATA) << r.v;
            if (r.classic)
                QTest::newRow((std::string(r.name) + " classic").c_str()) << int(r.t) << int(r.d) << 0 << r.v;
        }
    }
    void numericTypes() {
        QFETCH(int, ncType);
        QFETCH(int, dtype);
        QFETCH(int, mode);
        QFETCH(QVector<double>, values);
        const std::string file = path("types.nc");
        {
            Writer w(file, mode);
            const int y = w.dim("y", 2), x = w.dim("x", 3);
            const int v = w.var("v", ncType, {y, x});
            const double numbers[2] = {1, 2};
            nctest::ok(nc_put_att_double(w.id(), v, "numbers", ncType, 2, numbers), "numbers");
            w.text(v, "units", "m");
            w.enddef();
            // nc_put_var_double converts to the variable's type.
            nctest::ok(nc_put_var_double(w.id(), v, values.data()), "put");
        }
        const Dataset ds = openDataset(file);
        const Variable* v = ds.findVariable("v");
        QVERIFY(v);
        QCOMPARE(int(v->dtype()), dtype);
        QCOMPARE(v->shape(), (Shape{2, 3}));
        QCOMPARE(v->dims(), (std::vector<std::string>{"y", "x"}));
        QVERIFY(!v->isLoaded());
        QCOMPARE(*v->attrs().text("units"), std::string("m"));
        const Attribute* numbers = v->attrs().find("numbers");
        QVERIFY(numbers);
        QCOMPARE(int(numbers->type), dtype);
        QCOMPARE(numbers->numbers(), (std::vector<double>{1, 2}));
        const std::vector<double> got = loadValues(ds, "v");
        QCOMPARE(got, std::vector<double>(values.begin(), values.end()));
    }
    void int64Exact() {
        const std::string file = path("int64.nc");
        const std::vector<long long> values = {(1LL << 62) + 1, -(1LL << 62) - 3, 9223372036854775807LL};
        {
            Writer w(file, NC_NETCDF4);
            const int v = w.var("big", NC_INT64, {w.dim("n", 3)});
            w.enddef();
            w.put(v, values);
        }
        const auto got = openDataset(file)["big"].load(Device::host(), Stream::host()).values<std::int64_t>();
        QCOMPARE(got, (std::vector<std::int64_t>(values.begin(), values.end())));
    }
    void packedShorts() {
        // decoded = packed * 0.5 + 100, masked on the packed values first: _FillValue 20 (which
        // would decode to 110), valid_max 2000 (decodes to 1100).
        const std::string file = path("packed.nc");
        const std::vector<short> packed = {0, 1, 20, -160, 2000, 2001, -2, -32000};
        {
            Writer w(file, 0);
            const int v = w.var("t", NC_SHORT, {w.dim("n", packed.size())});
            w.att(v, "_FillValue", NC_SHORT, std::vector<short>{20});
            w.att(v, "valid_max", NC_SHORT, std::vector<short>{2000});
            w.att(v, "scale_factor", NC_FLOAT, std::vector<float>{0.5f});
            w.att(v, "add_offset", NC_FLOAT, std::vector<float>{100.f});
            w.enddef();
            w.put(v, packed);
        }
        const Dataset ds = openDataset(file);
        QCOMPARE(ds.findVariable("t")->dtype(), DType::Float32);
        const double nan = std::nan("");
        const std::vector<double> expected = {100, 100.5, nan, 20, 1100, nan, 99, -15900};
        const std::vector<double> got = loadValues(ds, "t");
        QCOMPARE(got.size(), expected.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(sameOrBothNan(got[i], expected[i]), qPrintable(QString("%1: %2").arg(i).arg(got[i])));
    }
    void nanFillOnPackedShortsIsIgnored() {
        // A NaN _FillValue cannot be a short: like xarray, the variable opens and decodes with
        // the attribute ignored (0 and -32768, which a NaN cast to short might become, are
        // kept), and a note names the file, the variable, the attribute, its value and the type.
        const std::string file = path("nanfill.nc");
        const std::vector<short> packed = {0, -32768, 1, 100, 32767, -1};
        nctest::writeNanFillShort(file, packed);
        OpenNotes notes;
        const Dataset ds = openDataset(file, notes);
        const Variable& v = *ds.findVariable("t2m");
        QCOMPARE(v.dtype(), DType::Float64); // the scale_factor's type
        QVERIFY(v.encoding().problem.empty());
        QCOMPARE(v.encoding().warnings.size(), std::size_t(1));
        const std::vector<double> got = loadValues(ds, "t2m");
        QCOMPARE(got.size(), packed.size());
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY2(std::abs(got[i] - (packed[i] * 0.01 + 250)) < 1e-9,
                     qPrintable(QString("%1: %2").arg(i).arg(got[i])));
        QCOMPARE(notes.lines.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(notes.lines[0]),
                 QString("nanfill.nc: variable 't2m': attribute '_FillValue' value NaN cannot be "
                         "represented in int16; ignored, as xarray does"));
    }
    void unusableMaskingValuesAreIgnored() {
        // netCDF-4 lets missing_value be of any type: a NaN one on ints is ignored as above, the
        // valid_min of another variable is NaN (ignored) while its valid_max still masks.
        const std::string file = path("nanmissing.nc");
        {
            Writer w(file, NC_NETCDF4);
            const int n = w.dim("n", 4);
            const int a = w.var("a", NC_INT, {n});
            w.att(a, "missing_value", NC_DOUBLE, std::vector<double>{std::nan("")});
            const int b = w.var("b", NC_SHORT, {n});
            w.att(b, "valid_min", NC_FLOAT, std::vector<float>{std::nanf("")});
            w.att(b, "valid_max", NC_SHORT, std::vector<short>{10});
            w.enddef();
            w.put(a, std::vector<int>{0, -2147483647 - 1, 7, 2147483647});
            w.put(b, std::vector<short>{-5, 0, 10, 11});
        }
        OpenNotes notes;
        const Dataset ds = openDataset(file, notes);
        QCOMPARE(ds.findVariable("a")->dtype(), DType::Int32); // as xarray: nothing left to mask
        QCOMPARE(loadValues(ds, "a"), (std::vector<double>{0, -2147483648.0, 7, 2147483647}));
        QCOMPARE(ds.findVariable("b")->dtype(), DType::Float32);
        const std::vector<double> b = loadValues(ds, "b");
        QVERIFY(b.size() == 4 && b[0] == -5 && b[1] == 0 && b[2] == 10 && std::isnan(b[3]));
        QCOMPARE(notes.lines.size(), std::size_t(2));
        QCOMPARE(QString::fromStdString(notes.lines[0]),
                 QString("nanmissing.nc: variable 'a': attribute 'missing_value' value NaN cannot be "
                         "represented in int32; ignored, as xarray does"));
        QCOMPARE(QString::fromStdString(notes.lines[1]),
                 QString("nanmissing.nc: variable 'b': attribute 'valid_min' value NaN cannot be "
                         "compared with int16 values; ignored"));
    }
    void calendars_data() {
        QTest::addColumn<QString>("calendar"); // empty: no attribute (standard)
        QTest::addColumn<QString>("units");
        QTest::addColumn<QStringList>("dates"); // for the values 0 and 1
        QTest::newRow("none") << ""
                              << "days since 1582-10-04" << QStringList{"1582-10-04", "1582-10-15"};
        QTest::newRow("standard") << "standard"
                                  << "days since 1582-10-04" << QStringList{"1582-10-04", "1582-10-15"};
        QTest::newRow("gregorian") << "gregorian"
                                   << "days since 1582-10-04" << QStringList{"1582-10-04", "1582-10-15"};
        QTest::newRow("proleptic") << "proleptic_gregorian"
                                   << "days since 1582-10-04" << QStringList{"1582-10-04", "1582-10-05"};
        QTest::newRow("julian") << "julian"
                                << "days since 1900-02-28" << QStringList{"1900-02-28", "1900-02-29"};
        QTest::newRow("noleap") << "noleap"
                                << "days since 2000-02-28" << QStringList{"2000-02-28", "2000-03-01"};
        QTest::newRow("365_day") << "365_day"
                                 << "days since 2000-02-28" << QStringList{"2000-02-28", "2000-03-01"};
        QTest::newRow("all_leap") << "all_leap"
                                  << "days since 2001-02-28" << QStringList{"2001-02-28", "2001-02-29"};
        QTest::newRow("366_day") << "366_day"
                                 << "days since 2001-02-28" << QStringList{"2001-02-28", "2001-02-29"};
        QTest::newRow("360_day") << "360_day"
                                 << "days since 2001-02-29" << QStringList{"2001-02-29", "2001-02-30"};
        QTest::newRow("hours") << "standard"
                               << "hours since 2000-12-31 23:00"
                               << QStringList{"2000-12-31T23:00:00", "2001-01-01"};
    }
    void calendars() {
        QFETCH(QString, calendar);
        QFETCH(QString, units);
        QFETCH(QStringList, dates);
        const std::string file = path("calendar.nc");
        {
            Writer w(file, 0);
            const int t = w.var("time", NC_DOUBLE, {w.dim("time", 2)});
            w.text(t, "units", units.toStdString());
            if (!calendar.isEmpty()) w.text(t, "calendar", calendar.toStdString());
            w.enddef();
            w.put(t, std::vector<double>{0, 1});
        }
        const Dataset ds = openDataset(file);
        const Coordinate* c = ds.coords.find("time");
        QVERIFY(c);
        QVERIFY2(c->problem.empty(), c->problem.c_str());
        QVERIFY(c->isIndex());
        QVERIFY(c->time);
        QCOMPARE(c->values, (std::vector<double>{0, 1}));
        QCOMPARE(c->time->dates.size(), std::size_t(2));
        for (int i = 0; i < 2; ++i) QCOMPARE(QString::fromStdString(c->time->dates[i].iso(true)), dates[i]);
    }
    void badTimeCoordinatesDoNotFailTheOpen_data() {
        QTest::addColumn<QString>("units");
        QTest::addColumn<QString>("calendar");
        QTest::addColumn<QString>("problem");
        QTest::newRow("unknown calendar") << "days since 2000-01-01"
                                          << "foo"
                                          << "unknown calendar 'foo'";
        QTest::newRow("bad date") << "days since whenever"
                                  << "standard"
                                  << "days since whenever";
        QTest::newRow("bad unit") << "fortnights since 2000-01-01"
                                  << "standard"
                                  << "fortnights";
        QTest::newRow("gap") << "days since 1582-10-10"
                             << "standard"
                             << "1582-10-10";
    }
    void badTimeCoordinatesDoNotFailTheOpen() {
        QFETCH(QString, units);
        QFETCH(QString, calendar);
        QFETCH(QString, problem);
        const std::string file = path("badtime.nc");
        {
            Writer w(file, 0);
            const int n = w.dim("time", 3);
            const int t = w.var("time", NC_INT, {n});
            w.text(t, "units", units.toStdString());
            w.text(t, "calendar", calendar.toStdString());
            const int v = w.var("v", NC_FLOAT, {n});
            w.enddef();
            w.put(t, std::vector<int>{5, 6, 7});
            w.put(v, std::vector<float>{1, 2, 3});
        }
        OpenNotes notes;
        const Dataset ds = openDataset(file, notes);
        const Coordinate* c = ds.coords.find("time");
        QVERIFY(c);
        QVERIFY(!c->time);
        QCOMPARE(c->values, (std::vector<double>{5, 6, 7})); // raw values kept
        const QString p = QString::fromStdString(c->problem);
        QVERIFY2(p.contains("badtime.nc") && p.contains("'time'") && p.contains(problem), qPrintable(p));
        QCOMPARE(notes.lines.size(), std::size_t(1));
        QCOMPARE(notes.lines[0], c->problem);
        QCOMPARE(loadValues(ds, "v"), (std::vector<double>{1, 2, 3}));
        QVERIFY(ds["v"].coords().contains("time"));
    }
    void nestedGroups() {
        const std::string file = path("groups.nc");
        {
            Writer w(file, NC_NETCDF4);
            const int x = w.dim("x", 3);
            const int xv = w.var("x", NC_DOUBLE, {x});
            const int lat = w.var("lat", NC_FLOAT, {x});
            w.text(NC_GLOBAL, "title", "root");
            const int a = w.group("a");
            const int y = w.dim("y", 2, a);
            const int yv = w.var("y", NC_INT, {y}, a);
            const int v = w.var("v", NC_SHORT, {y, x}, a);
            w.text(NC_GLOBAL, "title", "group a", a);
            const int b = w.group("b", a);
            const int wv = w.var("w", NC_FLOAT, {x}, b);
            w.text(wv, "coordinates", "lat", b);
            w.put(xv, std::vector<double>{10, 20, 30});
            w.put(lat, std::vector<float>{-45, 0, 45});
            w.put(yv, std::vector<int>{7, 8}, a);
            w.put(v, std::vector<short>{1, 2, 3, 4, 5, 6}, a);
            w.put(wv, std::vector<float>{0.5f, 1.5f, 2.5f}, b);
        }
        const Dataset ds = openDataset(file);
        QCOMPARE(ds.format, std::string("netCDF-4"));
        QCOMPARE(ds.group, std::string("/"));
        QCOMPARE(*ds.attrs.text("title"), std::string("root"));
        QCOMPARE(ds.groups.size(), std::size_t(1));
        const Dataset& a = ds.findGroup("a");
        QCOMPARE(a.group, std::string("/a"));
        QCOMPARE(*a.attrs.text("title"), std::string("group a"));
        QCOMPARE(a.dims.size(), std::size_t(2)); // its own y, then the inherited x
        QCOMPARE(a.dims[0].name, std::string("y"));
        QCOMPARE(a.dims[1].name, std::string("x"));
        QCOMPARE(a.dims[1].length, std::int64_t(3));
        const DataArray v = a["v"];
        QVERIFY(v.coords().contains("x")); // the parent's coordinate
        QVERIFY(v.coords().contains("y"));
        QCOMPARE(v.coords().find("x")->values, (std::vector<double>{10, 20, 30}));
        QCOMPARE(v.coords().find("y")->values, (std::vector<double>{7, 8}));
        QCOMPARE(loadValues(a, "v"), (std::vector<double>{1, 2, 3, 4, 5, 6}));
        const Dataset& b = ds.findGroup("/a/b");
        QCOMPARE(b.group, std::string("/a/b"));
        QCOMPARE(b.dims.size(), std::size_t(2));
        const DataArray wa = b["w"];
        QVERIFY(wa.coords().contains("lat")); // named by `coordinates`, defined in the root
        QCOMPARE(wa.coords().find("lat")->values, (std::vector<double>{-45, 0, 45}));
        QCOMPARE(loadValues(b, "w"), (std::vector<double>{0.5, 1.5, 2.5}));
    }
    void emptyUnlimitedDim() {
        const std::string file = path("empty.nc");
        {
            Writer w(file, 0);
            const int t = w.dim("time", NC_UNLIMITED), x = w.dim("x", 4);
            const int tv = w.var("time", NC_DOUBLE, {t});
            w.text(tv, "units", "days since 2000-01-01");
            w.var("v", NC_FLOAT, {t, x});
        }
        const Dataset ds = openDataset(file);
        const Dimension* t = ds.findDim("time");
        QVERIFY(t);
        QVERIFY(t->unlimited);
        QCOMPARE(t->length, std::int64_t(0));
        QVERIFY(!ds.findDim("x")->unlimited);
        QCOMPARE(ds.findVariable("v")->shape(), (Shape{0, 4}));
        QVERIFY(loadValues(ds, "v").empty());
        const Coordinate* c = ds.coords.find("time");
        QVERIFY(c && c->values.empty() && c->time && c->time->dates.empty());
    }
    void formats_data() {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("format");
        QTest::newRow("classic") << 0 << "classic";
        QTest::newRow("64-bit offset") << int(NC_64BIT_OFFSET) << "64-bit offset";
        QTest::newRow("CDF-5") << int(NC_64BIT_DATA) << "CDF-5";
        QTest::newRow("netCDF-4") << int(NC_NETCDF4) << "netCDF-4";
        QTest::newRow("netCDF-4 classic") << int(NC_NETCDF4 | NC_CLASSIC_MODEL) << "netCDF-4 classic model";
    }
    void formats() {
        QFETCH(int, mode);
        QFETCH(QString, format);
        const std::string file = path("format.nc");
        {
            Writer w(file, mode);
            const int v = w.var("v", NC_INT, {w.dim("n", 4)});
            w.enddef();
            w.put(v, std::vector<int>{4, 3, 2, 1});
        }
        const Dataset ds = openDataset(file);
        QCOMPARE(QString::fromStdString(ds.format), format);
        QCOMPARE(loadValues(ds, "v"), (std::vector<double>{4, 3, 2, 1}));
        QVERIFY(looksLikeNetcdf(file));
    }
    void deflateAndChunks() {
        const std::string file = path("deflate.nc");
        const int ny = 10, nx = 12;
        std::vector<float> values(ny * nx);
        for (int j = 0; j < ny; ++j)
            for (int i = 0; i < nx; ++i) values[j * nx + i] = float(100 * j + i);
        {
            Writer w(file, NC_NETCDF4);
            const int v = w.var("f", NC_FLOAT, {w.dim("y", ny), w.dim("x", nx)});
            const size_t chunks[2] = {4, 5};
            nctest::ok(nc_def_var_chunking(w.id(), v, NC_CHUNKED, chunks), "chunking");
            nctest::ok(nc_def_var_deflate(w.id(), v, 1, 1, 5), "deflate");
            w.enddef();
            w.put(v, values);
        }
        const Dataset ds = openDataset(file);
        QCOMPARE(loadValues(ds, "f"), std::vector<double>(values.begin(), values.end()));
        // A strided hyperslab across chunk borders: y = 1, 4, 7 and x = 2, 5, 8, 11.
        const DataArray sub =
            ds["f"].isel({{"y", Slice{1, std::nullopt, 3}}, {"x", Slice{2, std::nullopt, 3}}});
        QCOMPARE(sub.shape(), (Shape{3, 4}));
        std::vector<double> expected;
        for (int j : {1, 4, 7})
            for (int i : {2, 5, 8, 11}) expected.push_back(100 * j + i);
        QCOMPARE(sub.load(Device::host(), Stream::host()).values<double>(), expected);
        // An integer index drops the dim.
        const DataArray row = ds["f"].isel({{"y", std::int64_t(9)}});
        QCOMPARE(row.shape(), (Shape{12}));
        QCOMPARE(row.load(Device::host(), Stream::host()).values<double>()[11], 911.0);
    }
    void scaleFactorAsText() {
        const std::string file = path("textscale.nc");
        {
            Writer w(file, 0);
            const int v = w.var("sst", NC_SHORT, {w.dim("n", 2)});
            w.text(v, "scale_factor", "0.01");
            w.enddef();
            w.put(v, std::vector<short>{1, 2});
        }
        const Dataset ds = openDataset(file); // opening is fine
        const QString m = messageOf<DecodeError>([&] { loadValues(ds, "sst"); });
        QVERIFY2(m.contains("textscale.nc") && m.contains("'sst'") && m.contains("scale_factor"),
                 qPrintable(m));
    }
    void textVariablesAreMetadata() {
        const std::string file = path("text.nc");
        {
            Writer w(file, NC_NETCDF4);
            const int n = w.dim("n", 2), len = w.dim("len", 4);
            const int c = w.var("code", NC_CHAR, {n, len});
            const int s = w.var("label", NC_STRING, {n});
            const int v = w.var("v", NC_DOUBLE, {n});
            w.text(v, "coordinates", "label");
            w.enddef();
            nctest::ok(nc_put_var_text(w.id(), c, "abcdefgh"), "put text");
            const char* labels[2] = {"one", "two"};
            nctest::ok(nc_put_var_string(w.id(), s, labels), "put strings");
            w.put(v, std::vector<double>{1.5, 2.5});
        }
        OpenNotes notes;
        const Dataset ds = openDataset(file, notes);
        QCOMPARE(ds.findVariable("code")->dtype(), DType::Char);
        QCOMPARE(ds.findVariable("code")->shape(), (Shape{2, 4}));
        QCOMPARE(ds.findVariable("label")->dtype(), DType::String);
        QVERIFY(!ds.coords.contains("label")); // a text coordinate is not decoded
        QCOMPARE(notes.lines.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(notes.lines[0]).contains("'label'"));
        QCOMPARE(loadValues(ds, "v"), (std::vector<double>{1.5, 2.5}));
        QVERIFY(!messageOf<ValueError>([&] { ds["label"].load(Device::host(), Stream::host()); }).isEmpty());
    }
    void userTypesAreSkippedWithANote() {
        const std::string file = path("compound.nc");
        {
            Writer w(file, NC_NETCDF4);
            nc_type pair = 0;
            nctest::ok(nc_def_compound(w.id(), 8, "pair", &pair), "compound");
            nctest::ok(nc_insert_compound(w.id(), pair, "a", 0, NC_INT), "a");
            nctest::ok(nc_insert_compound(w.id(), pair, "b", 4, NC_INT), "b");
            const int n = w.dim("n", 2);
            w.var("pairs", pair, {n});
            w.var("v", NC_INT, {n});
        }
        OpenNotes notes;
        const Dataset ds = openDataset(file, notes);
        QVERIFY(!ds.findVariable("pairs"));
        QVERIFY(ds.findVariable("v"));
        QCOMPARE(notes.lines.size(), std::size_t(1));
        QVERIFY(QString::fromStdString(notes.lines[0]).contains("'pairs'"));
    }
    void readsOutsideTheVariableAreRefused() {
        const std::string file = path("bounds.nc");
        {
            Writer w(file, 0);
            const int v = w.var("v", NC_INT, {w.dim("n", 4)});
            w.enddef();
            w.put(v, std::vector<int>{1, 2, 3, 4});
        }
        const Dataset ds = openDataset(file);
        const auto& source = ds.findVariable("v")->source();
        QVERIFY(source);
        QCOMPARE(QString::fromStdString(source->describe()), QString("bounds.nc: variable 'v'"));
        int out[4] = {};
        const std::int64_t start[] = {1}, count[] = {2}, stride[] = {2};
        source->read(start, count, stride, out);
        QCOMPARE(out[0], 2);
        QCOMPARE(out[1], 4);
        const std::int64_t tooMany[] = {3};
        const QString m = messageOf<NetcdfError>([&] { source->read(start, tooMany, stride, out); });
        QVERIFY2(m.contains("bounds.nc") && m.contains("'v'"), qPrintable(m));
        const std::int64_t negative[] = {-1}, one[] = {1};
        QVERIFY(!messageOf<NetcdfError>([&] { source->read(negative, one, one, out); }).isEmpty());
        QVERIFY(!messageOf<NetcdfError>([&] { source->read({}, {}, {}, out); }).isEmpty());
    }
    void concurrentReads() {
        const std::string file = path("threads.nc");
        const int n = 5000;
        std::vector<int> a(n), b(n);
        for (int i = 0; i < n; ++i) a[i] = i, b[i] = -3 * i;
        {
            Writer w(file, NC_NETCDF4);
            const int d = w.dim("n", n);
            const int va = w.var("a", NC_INT, {d}), vb = w.var("b", NC_INT, {d});
            nctest::ok(nc_def_var_deflate(w.id(), va, 0, 1, 1), "deflate");
            w.enddef();
            w.put(va, a);
            w.put(vb, b);
        }
        const Dataset ds = openDataset(file);
        std::atomic<int> wrong{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t)
            threads.emplace_back([&, t] {
                for (int k = 0; k < 25; ++k) {
                    const auto got = loadValues(ds, t % 2 ? "a" : "b");
                    const auto& ref = t % 2 ? a : b;
                    for (int i = 0; i < n; i += 97) wrong += got[i] != ref[i];
                }
            });
        for (auto& th : threads) th.join();
        QCOMPARE(wrong.load(), 0);
    }
    void datasetOutlivesNothing() {
        // The file stays readable through a variable after the Dataset itself is gone.
        const std::string file = path("keep.nc");
        {
            Writer w(file, 0);
            const int v = w.var("v", NC_DOUBLE, {w.dim("n", 2)});
            w.enddef();
            w.put(v, std::vector<double>{3, 4});
        }
        Variable kept;
        {
            const Dataset ds = openDataset(file);
            kept = *ds.findVariable("v");
        }
        QCOMPARE(DataArray("v", kept).load(Device::host(), Stream::host()).values<double>(),
                 (std::vector<double>{3, 4}));
    }
};

QTEST_GUILESS_MAIN(TestNetcdf)
#include "tst_netcdf.moc"
