// The command line as a user runs it: exit codes and one-line messages for misuse, and CSV
// exports read back and compared value by value with netCDF-C's reads reduced by plain loops
// (nc_frame.h), apart from Strata, and with the core's own results as a second check.
#include <QRegularExpression>
#include <QtTest>

#include "app/strata_process.h"

#include <cmath>
#include <cstring>

#include "io/nc_write.h"
#include "nc_frame.h"
#include "strata/core/ops.h"
#include "strata/core/settings.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";

using stratatest::Run;
using stratatest::runStrata;

using stratatest::readCsv;

// A small time series written here, in `calendar`, with `days` since 1900-01-01 and values
// 0.1, NaN, 20, ...
QString writeSeries(const QString& dir, const char* calendar, const std::vector<double>& days) {
    const std::string path = (dir + "/" + calendar + ".nc").toStdString();
    nctest::Writer w(path, NC_CLOBBER);
    const int t = w.dim("time", days.size());
    const int tv = w.var("time", NC_DOUBLE, {t});
    w.text(tv, "units", "days since 1900-01-01");
    w.text(tv, "calendar", calendar);
    const int v = w.var("v", NC_FLOAT, {t});
    w.enddef();
    w.put(tv, days);
    std::vector<float> values{0.1f, NAN};
    while (values.size() < days.size()) values.push_back(float(10 * values.size()));
    w.put(v, values);
    return QString::fromStdString(path);
}

// A file with a scalar variable `s` (nothing to show) and a 1-D `v`.
QString writeScalarFile() {
    static QTemporaryDir dir;
    const std::string path = (dir.path() + "/scalar.nc").toStdString();
    if (!QFileInfo::exists(QString::fromStdString(path))) {
        nctest::Writer w(path, NC_CLOBBER);
        const int s = w.var("s", NC_DOUBLE, {});
        const int x = w.dim("x", 3);
        const int v = w.var("v", NC_DOUBLE, {x});
        w.enddef();
        w.put(s, std::vector<double>{1});
        w.put(v, std::vector<double>{1, 2, 3});
    }
    return QString::fromStdString(path);
}

#if STRATA_HAVE_RENDER // --contour-var's refusals (isolines are drawn by the render layer)
// t (y 4, x 5) and u (y 3, x 5): two variables on different grids.
QString writeTwoGridsFile() {
    static QTemporaryDir dir;
    const std::string path = (dir.path() + "/two_grids.nc").toStdString();
    if (!QFileInfo::exists(QString::fromStdString(path))) {
        nctest::Writer w(path, NC_CLOBBER);
        const int y = w.dim("y", 4), x = w.dim("x", 5), y3 = w.dim("y3", 3);
        const int t = w.var("t", NC_DOUBLE, {y, x});
        const int u = w.var("u", NC_DOUBLE, {y3, x});
        w.enddef();
        std::vector<double> tv(20), uv(15);
        for (int k = 0; k < 20; ++k) tv[std::size_t(k)] = k;
        for (int k = 0; k < 15; ++k) uv[std::size_t(k)] = 15 - k;
        w.put(t, tv);
        w.put(u, uv);
    }
    return QString::fromStdString(path);
}
#endif

// Every variable the settings reader knows (tst_settings checks that list against its own).
QStringList settingNames() {
    QStringList names;
    for (const settings::Variable& v : settings::variables()) names << QString::fromLatin1(v.name);
    return names;
}
const QString kGarbage = QStringLiteral("\x01 garbage 99999999999999999999G");

// The environment with every STRATA_* variable set to a value none of them accepts.
QProcessEnvironment garbageEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& name : settingNames()) env.insert(name, kGarbage);
    return env;
}

// One warning on one line for each variable but those set to good values; the token's value
// shown nowhere.
void verifyGarbageWarnings(const QString& err, const QStringList& good = {}) {
    const QStringList lines = err.split('\n');
    for (const QString& name : settingNames()) {
        const QStringList said = lines.filter(QRegularExpression("^strata: " + name + "[=( ]"));
        if (good.contains(name)) {
            QVERIFY2(said.isEmpty(), qPrintable(said.join('\n')));
            continue;
        }
        QVERIFY2(said.size() == 1,
                 qPrintable(name + " warned " + QString::number(said.size()) + " times:\n" + err));
        QVERIFY2(said.front().contains("expected") && said.front().contains("using the default"),
                 qPrintable(said.front()));
        if (name == "STRATA_HTTP_TOKEN")
            QVERIFY2(!said.front().contains("garbage"), qPrintable(said.front()));
        else
            QVERIFY2(said.front().contains("'\\x01 garbage 99999999999999999999G'"),
                     qPrintable(said.front()));
    }
}

// The values of tas (time, lat, lon) as netCDF-C reads them, fill values NaN.
nctest::NdValues ncTas() {
    auto tas = nctest::readDecoded(kSample.toStdString(), "tas");
    return tas ? *tas : nctest::NdValues{};
}
std::vector<float> tasValues() {
    const auto v = ncTas().values;
    return std::vector<float>(v.begin(), v.end());
}
// A coordinate variable as netCDF-C reads it.
std::vector<double> ncCoord(const QString& path, const char* name) {
    return nctest::readPlain(path.toStdString(), name);
}
// A float32 value written by Strata against the oracle's double, to a relative 1e-5.
bool near(double shown, double expected) {
    return std::isnan(shown) ? std::isnan(expected)
                             : std::fabs(shown - expected) <= 1e-5 * std::max(1.0, std::fabs(expected));
}
constexpr int kT = 12, kLat = 96, kLon = 192;
float tasAt(const std::vector<float>& v, int t, int lat, int lon) { return v[(t * kLat + lat) * kLon + lon]; }

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpListsEveryOption() {
        const Run r = runStrata({"--help"});
        QCOMPARE(r.status, 0);
        for (const char* o :
             {"--var",      "--x",          "--y",          "--isel",       "--sel",        "--reduce",
              "--cmap",     "--range",      "--size",       "--export-png", "--export-csv", "--list-cmaps",
              "--colormap", "--info",       "--cpu",        "--gl",         "--help",       "--version",
              "--verbose",  "--coastlines", "--projection", "--units",      "--contours"})
            QVERIFY2(r.out.contains(o), o);
        QVERIFY(r.out.contains("example"));
    }

    // The maps scientists expect, by name: cmocean's, Crameri's and ColorBrewer's, listed by
    // --list-cmaps and taken by --cmap (or --colormap), reversed with _r.
    void colourMapsByName() {
        const Run list = runStrata({"--list-cmaps"});
        QCOMPARE(list.status, 0);
        const QStringList names = list.out.split('\n', Qt::SkipEmptyParts);
        for (const char* n : {"viridis", "cmo.thermal", "cmo.balance", "batlow", "vik", "roma", "BrBG",
                              "RdYlBu", "YlOrRd", "Blues"})
            QVERIFY2(names.contains(n), n);
        const QString csv = QDir::tempPath() + "/strata-cmap.csv";
        for (const QStringList& cmap :
             {QStringList{"--cmap", "cmo.balance_r"}, QStringList{"--colormap", "batlow"},
              QStringList{"--cmap", "Spectral"}}) {
            QFile::remove(csv);
            const Run r = runStrata(QStringList{kSample, "--export-csv", csv} + cmap);
            QVERIFY2(r.status == 0, qPrintable(cmap.join(' ') + ": " + r.err));
            QVERIFY(QFile::exists(csv));
        }
        QFile::remove(csv);
        const Run bad = runStrata({kSample, "--cmap", "cmo.nope", "--export-csv", csv});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("cmo.thermal") && bad.err.contains("batlow"), qPrintable(bad.err));
    }

    void misuseExitsTwoWithOneLine_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("named");
        const QString csv = QDir::tempPath() + "/strata-misuse.csv";
        QTest::newRow("unknown variable")
            << QStringList{kSample, "--var", "tass", "--export-csv", csv} << "'tass'";
        QTest::newRow("unknown dim") << QStringList{kSample, "--x", "depth", "--export-csv", csv}
                                     << "'depth'";
        QTest::newRow("index out of range")
            << QStringList{kSample, "--isel", "time=12", "--export-csv", csv} << "length 12";
        QTest::newRow("two roles") << QStringList{kSample,  "--x",   "lon",          "--y", "lat",
                                                  "--isel", "lat=1", "--export-csv", csv}
                                   << "two roles";
        QTest::newRow("unknown op") << QStringList{kSample, "--reduce", "time=median", "--export-csv", csv}
                                    << "median";
        QTest::newRow("unknown cmap") << QStringList{kSample, "--cmap", "jet", "--export-csv", csv} << "jet";
        QTest::newRow("bad size") << QStringList{kSample, "--size", "0x10", "--export-csv", csv} << "--size";
        QTest::newRow("unknown option") << QStringList{kSample, "--colour"} << "--colour";
        QTest::newRow("bad index") << QStringList{kSample, "--isel", "time=two", "--export-csv", csv}
                                   << "integer";
        QTest::newRow("bad range") << QStringList{kSample, "--range", "3,1", "--export-csv", csv} << "MIN";
        QTest::newRow("range word") << QStringList{kSample, "--range", "wide", "--export-csv", csv}
                                    << "'wide'";
        QTest::newRow("range not a number")
            << QStringList{kSample, "--range", "1,hot", "--export-csv", csv} << "'hot' is not a number";
        QTest::newRow("y without x") << QStringList{kSample, "--y", "lat", "--export-csv", csv}
                                     << "--y needs --x";
        QTest::newRow("reduce a displayed dim")
            << QStringList{kSample, "--x", "lon", "--y", "lat", "--reduce", "lon=mean", "--export-csv", csv}
            << "two roles";
        QTest::newRow("isel without =")
            << QStringList{kSample, "--isel", "time", "--export-csv", csv} << "DIM=VALUE";
        QTest::newRow("sel bad date")
            << QStringList{kSample, "--sel", "time=2005-13-45", "--export-csv", csv} << "2005-13-45";
        QTest::newRow("sel not a number")
            << QStringList{kSample, "--sel", "lat=north", "--export-csv", csv} << "'north' is not a number";
        QTest::newRow("sel without coordinate")
            << QStringList{kData + "/test_stageiv_xyt.nc", "--sel", "y=3", "--export-csv", csv}
            << "has no coordinate";
        QTest::newRow("size not WxH")
            << QStringList{kSample, "--size", "big", "--export-png", csv} << "'big'";
        QTest::newRow("size too large")
            << QStringList{kSample, "--size", "20000x100", "--export-png", csv} << "16384";
        QTest::newRow("option without value") << QStringList{kSample, "--var"} << "--var needs a value";
        QTest::newRow("coastlines neither on nor off")
            << QStringList{kSample, "--coastlines", "yes", "--export-csv", csv}
            << "--coastlines takes on or off";
#if STRATA_HAVE_RENDER // without the render layer there are no maps to name (nor PNG export)
        QTest::newRow("unknown projection")
            << QStringList{kSample, "--projection", "Robinsn", "--export-png", csv}
            << "unknown projection 'Robinsn'; known projections: PlateCarree, Robinson, Mollweide";
#endif
        QTest::newRow("contour levels not increasing")
            << QStringList{kSample, "--contours", "5,3", "--export-png", csv}
            << "--contours: contour levels '5,3': the levels 5,3 are not increasing";
#if STRATA_HAVE_RENDER
        QTest::newRow("contour variable unknown")
            << QStringList{kData + "/reduced.nc", "--var", "sst", "--contour-var", "sstt",
                           "--export-png",        csv}
            << "--contour-var sstt: reduced.nc: no variable 'sstt'";
        QTest::newRow("contour variable on another grid")
            << QStringList{writeTwoGridsFile(),
                           "--var",
                           "t",
                           "--x",
                           "x",
                           "--y",
                           "y",
                           "--contour-var",
                           "u",
                           "--export-csv",
                           csv,
                           "--export-png",
                           csv + ".png"}
            << "--contour-var u: 'u' (y3 3, x 5) cannot be shown as 't' (y 4, x 5) is";
#endif
        QTest::newRow("units of something else")
            << QStringList{kSample, "--var", "tas", "--units", "m", "--export-csv", csv}
            << "--units m: 'K' cannot be shown in 'm': they measure different things";
        QTest::newRow("unknown units")
            << QStringList{kSample, "--var", "tas", "--units", "wibbles", "--export-csv", csv}
            << "udunits2 does not know the units 'wibbles'";
        QTest::newRow("scalar variable")
            << QStringList{writeScalarFile(), "--var", "s", "--export-csv", csv} << "scalar";
    }
    void misuseExitsTwoWithOneLine() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        QFile::remove(QDir::tempPath() + "/strata-misuse.csv"); // a failed row before left it
        const Run r = runStrata(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(!QFile::exists(QDir::tempPath() + "/strata-misuse.csv"));
    }

#if STRATA_HAVE_RENDER
    // --contour-var: another variable's isolines over the frame (anom over sst), not the frame's
    // own: the two pictures differ, and both are written.
    void contourVariableDrawsItsIsolines() {
        QTemporaryDir dir;
        const QString own = dir.filePath("own.png"), other = dir.filePath("other.png");
        const QStringList base{
            kData + "/reduced.nc", "--var", "sst", "--coastlines", "off", "--size", "480x300"};
        QCOMPARE(runStrata(base + QStringList{"--contours", "auto", "--export-png", own}).status, 0);
        const Run r = runStrata(base + QStringList{"--contour-var", "anom", "--export-png", other});
        QCOMPARE(r.status, 0);
        const QImage a(own), b(other);
        QVERIFY(!a.isNull() && a.size() == b.size());
        QVERIFY(a != b);
    }
#endif

    void unreadableFileExitsOne() {
        const Run r = runStrata({kData + "/bad_cdf5_begin.nc", "--info"});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.contains("bad_cdf5_begin.nc"));
        QCOMPARE(runStrata({"/no/such/file.nc", "--info"}).status, 1);
    }

    void infoPrintsTheSummary() {
        const Run r = runStrata({kSample, "--info"});
        QCOMPARE(r.status, 0);
        QVERIFY(r.out.contains("tas"));
        QVERIFY(r.out.contains("2005-01-16 … 2005-12-16"));
        QVERIFY(r.out.contains("12×96×192"));
    }

    // A local Zarr store is a directory: named on the command line it is one dataset (it used to
    // be searched for .nc files and refused), read by Strata's Zarr reader.
    void localZarrStoreOpens() {
        const QString store = QString(STRATA_SOURCE_DIR) + "/tests/data/zarr_v3/v3_bytes.zarr";
        const Run info = runStrata({store, "--info"});
        QCOMPARE(info.status, 0);
        QVERIFY2(info.out.contains("Zarr v3") && info.out.contains("height"),
                 qPrintable(info.out + info.err));
        QTemporaryDir dir;
        const QString csv = dir.filePath("height.csv");
        const Run r = runStrata({store, "--var", "height", "--export-csv", csv}, /*withoutDisplay=*/true);
        QCOMPARE(r.status, 0);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + 10 * 13);
        QCOMPARE(rows[0], (QStringList{"y", "x", "height"}));
        QFile bin(QString(STRATA_SOURCE_DIR) +
                  "/tests/data/zarr_v3/v3_bytes.bin"); // the values it was made from
        QVERIFY(bin.open(QIODevice::ReadOnly));
        const QByteArray bytes = bin.readAll();
        QCOMPARE(bytes.size(), qsizetype(10 * 13 * sizeof(float)));
        for (int i = 0; i < 10 * 13; ++i) {
            float want;
            std::memcpy(&want, bytes.constData() + i * sizeof(float), sizeof want);
            QCOMPARE(rows[1 + i][0].toInt(), i / 13);
            QCOMPARE(rows[1 + i][1].toInt(), i % 13);
            QCOMPARE(rows[1 + i][2].toFloat(), want);
        }
    }

    void frameCsvMatchesTheCore() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("frame.csv");
        const Run r =
            runStrata({kSample, "--var", "tas", "--sel", "time=2005-07-10", "--export-csv", csv, "-v"},
                      /*withoutDisplay=*/true);
        QCOMPARE(r.status, 0);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + 96 * 192);
        QCOMPARE(rows[0], (QStringList{"lat", "lon", "time", "tas"}));
        // 2005-07-10 is nearest to the July mean's label, 2005-07-16T12:00 (index 6).
        const auto oracle = nctest::frameOf(kSample.toStdString(), "tas", "lon", "lat", {{"time", 6}}, {});
        QVERIFY(oracle);
        const auto lat = ncCoord(kSample, "lat"), lon = ncCoord(kSample, "lon");
        for (int i = 0; i < 96 * 192; ++i) {
            const QStringList& row = rows[1 + i];
            QCOMPARE(row[0].toDouble(), lat[std::size_t(i / 192)]);
            QCOMPARE(row[1].toDouble(), lon[std::size_t(i % 192)]);
            // shortest round-trip text reads back exactly
            QCOMPARE(row[3].toFloat(), float(oracle->values[std::size_t(i)]));
        }
        // and the core's own isel, as a second check
        const auto core = openDataset(kSample.toStdString())["tas"]
                              .isel({{"time", std::int64_t(6)}})
                              .load(Device::host(), Stream::host())
                              .values<float>();
        for (int i = 0; i < 96 * 192; i += 97) QCOMPARE(rows[1 + i][3].toFloat(), core[std::size_t(i)]);
        QVERIFY(r.err.contains("18432 rows"));
    }

    // --units: the mean in degC is the core's mean in K less 273.15; a spread keeps its size.
    void unitsConvertTheValuesWritten() {
        QTemporaryDir dir;
        const DataArray tas = openDataset(kSample.toStdString())["tas"].load(Device::host(), Stream::host());
        for (const auto& [op, offset] : {std::pair{ReduceOp::Mean, -273.15}, {ReduceOp::Std, 0.0}}) {
            const QString csv = dir.filePath("c.csv");
            const QString reduction = "time=" + QString::fromStdString(std::string(name(op)));
            const Run r = runStrata({kSample, "--reduce", reduction, "--units", "degC", "--export-csv", csv});
            QVERIFY2(r.status == 0, qPrintable(r.err));
            const auto rows = readCsv(csv);
            const auto stored = reduce(tas, {"time"}, op).values<float>();
            const auto oracle = nctest::reduced(ncTas(), 0, std::string(name(op)));
            QCOMPARE(rows.size(), 1 + int(stored.size()));
            // Not the file's units: the header says them.
            QCOMPARE(rows[0].last(), QString("tas [degC]"));
            for (std::size_t i = 0; i < stored.size(); ++i)
                QVERIFY2(
                    near(rows[1 + int(i)][2].toDouble() - offset, oracle.values[i]), // to 1e-5 of the kelvins
                    qPrintable(QString("%1: %2").arg(i).arg(rows[1 + int(i)][2])));
            for (std::size_t i = 0; i < stored.size(); i += 37)
                QCOMPARE(rows[1 + int(i)][2].toFloat(), float(double(stored[i]) + offset));
        }
        // A sum of temperatures has no meaning in degC: misuse, said before any work.
        const Run sum = runStrata(
            {kSample, "--reduce", "time=sum", "--units", "degC", "--export-csv", dir.filePath("s.csv")});
        QCOMPARE(sum.status, 2);
        QVERIFY2(sum.err.contains("a sum of 'tas' cannot be shown in degC"), qPrintable(sum.err));
    }

    void reductionCsvMatchesTheCore() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("mean.csv");
        QCOMPARE(runStrata({kSample, "--reduce", "time=mean", "--export-csv", csv}).status, 0);
        const auto rows = readCsv(csv);
        const DataArray tas = openDataset(kSample.toStdString())["tas"].load(Device::host(), Stream::host());
        const auto mean = reduce(tas, {"time"}, ReduceOp::Mean).values<float>();
        QCOMPARE(rows.size(), 1 + int(mean.size()));
        const auto oracle = nctest::reduced(ncTas(), 0, "mean");
        for (std::size_t i = 0; i < mean.size(); ++i)
            QVERIFY2(near(rows[1 + int(i)][2].toDouble(), oracle.values[i]), qPrintable(QString::number(i)));
        for (std::size_t i = 0; i < mean.size(); i += 101) QCOMPARE(rows[1 + int(i)][2].toFloat(), mean[i]);
    }

    void areaMeanSeries() {
        // The global-mean series climate users draw most: --reduce lat=area-mean with lon=mean
        // joining it, against cos(latitude) weights applied by hand to the file's values.
        QTemporaryDir dir;
        const QString csv = dir.filePath("global.csv");
        const Run r = runStrata({kData + "/hgt.nc", "--x", "time", "--reduce", "lat=area-mean", "--reduce",
                                 "lon=mean", "--export-csv", csv});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + 21);
        QCOMPARE(rows[0].join(","), QString("time,HGT (area-weighted mean)"));
        const auto hgt = nctest::readDecoded((kData + "/hgt.nc").toStdString(), "HGT");
        QVERIFY(hgt);
        const auto& v = hgt->values;
        const auto lat = ncCoord(kData + "/hgt.nc", "lat");
        for (int t = 0; t < 21; t += 5) {
            double s = 0, sw = 0, plain = 0;
            for (int j = 0; j < 73; ++j)
                for (int i = 0; i < 144; ++i) {
                    const double x = v[(t * 73 + j) * 144 + i], w = std::cos(lat[j] * M_PI / 180);
                    if (std::isnan(x)) continue;
                    s += w * x;
                    sw += w;
                    plain += x / (73 * 144);
                }
            QVERIFY(std::abs(rows[1 + t][1].toDouble() - s / sw) < 1e-6 * s / sw);
            QVERIFY(std::abs(rows[1 + t][1].toDouble() - plain) > 1); // weighted, not plain
        }
        // Without a latitude among the reduced dims: one line saying why, exit status 2.
        const Run bad = runStrata({kData + "/hgt.nc", "--x", "lat", "--reduce", "lon=area-mean",
                                   "--export-csv", dir.filePath("bad.csv")});
        QCOMPARE(bad.status, 2);
        QVERIFY2(bad.err.contains("needs its latitude among the dims reduced"), qPrintable(bad.err));
    }

    void lineCsvHasIsoDates() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("line.csv");
        QCOMPARE(
            runStrata({kSample, "--x", "time", "--isel", "lat=3", "--isel", "lon=5", "--export-csv", csv})
                .status,
            0);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 13);
        QCOMPARE(rows[0], (QStringList{"time", "lat", "lon", "tas"})); // lat, lon: the point's
        QVERIFY(std::abs(rows[1][1].toDouble() + 82.9989395141602) < 1e-9);
        QCOMPARE(rows[1][0], QString("2005-01-16T12:00:00"));
        QCOMPARE(rows[2][0], QString("2005-02-15T00:00:00"));
    }

    void calendarsAndMissingValues() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("noleap.csv");
        // noleap: 1900-02-28 + 1 day is March 1st; a year is 365 days.
        QCOMPARE(runStrata({writeSeries(dir.path(), "noleap", {58, 59, 365}), "--export-csv", csv}).status,
                 0);
        auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[0], (QStringList{"time", "v"}));
        QCOMPARE(rows[1], (QStringList{"1900-02-28T00:00:00", "0.1"}));
        QCOMPARE(rows[2], (QStringList{"1900-03-01T00:00:00", ""})); // NaN is an empty field
        QCOMPARE(rows[3], (QStringList{"1901-01-01T00:00:00", "20"}));

        // 360_day: twelve months of 30 days.
        const QString csv360 = dir.filePath("360.csv");
        QCOMPARE(runStrata({writeSeries(dir.path(), "360_day", {29, 30, 59.5, 360}), "--export-csv", csv360})
                     .status,
                 0);
        rows = readCsv(csv360);
        QCOMPARE(rows.size(), 5);
        QCOMPARE(rows[1][0], QString("1900-01-30T00:00:00"));
        QCOMPARE(rows[2][0], QString("1900-02-01T00:00:00"));
        QCOMPARE(rows[3][0], QString("1900-02-30T12:00:00"));
        QCOMPARE(rows[4][0], QString("1901-01-01T00:00:00"));
    }

    void auxiliaryCoordinatesBecomeColumns() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("stage.csv");
        QCOMPARE(runStrata({kData + "/test_stageiv_xyt.nc", "--export-csv", csv}).status, 0);
        const auto rows = readCsv(csv);
        QCOMPARE(rows[0], (QStringList{"y", "x", "lat", "lon", "time",
                                       "Total_precipitation_surface_1_Hour_Accumulation"}));
        const auto lat = ncCoord(kData + "/test_stageiv_xyt.nc", "lat");
        QCOMPARE(rows[1 + 87 + 2][2].toFloat(), float(lat[87 + 2]));
        QCOMPARE(rows[1 + 87 + 2][0], QString("1"));
        QCOMPARE(rows[1 + 87 + 2][1], QString("2"));
    }

    void neverOverwritesTheInput() {
        QTemporaryDir dir;
        const QString copy = dir.filePath("in.nc");
        QVERIFY(QFile::copy(kSample, copy));
        const QByteArray before = [&] {
            QFile f(copy);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        const Run r = runStrata({copy, "--export-csv", copy});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.contains("input file"));
        QFile f(copy);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), before);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"in.nc"}); // no temporary left
    }

    // A name without an extension gets the export's own, as in the window's dialogs; a name
    // with one is written as typed. (CSV: this test also runs in builds without PNG export.)
    void exportNamesGainTheirExtension() {
        QTemporaryDir dir;
        const Run r = runStrata({kSample, "--export-csv", dir.filePath("january")});
        QCOMPARE(r.status, 0);
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"january.csv"});
        const Run kept = runStrata({kSample, "--export-csv", dir.filePath("table.txt")});
        QCOMPARE(kept.status, 0);
        QVERIFY(QFile::exists(dir.filePath("table.txt")));
        QVERIFY(!QFile::exists(dir.filePath("table.txt.csv")));
    }

    void unwritableTargetLeavesNothing() {
        const Run r = runStrata({kSample, "--export-csv", "/proc/strata-cannot-write.csv"});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.contains("cannot write"));
    }

    void versionPrintsTheVersion() {
        const Run r = runStrata({"--version"});
        QCOMPARE(r.status, 0);
        QVERIFY2(QRegularExpression("^strata \\d+\\.\\d+\\.\\d+\\n$").match(r.out).hasMatch(),
                 qPrintable(r.out));
    }

    // With no option but the export, the first data variable on its last two dims, other dims
    // at index 0; quiet without --verbose.
    void defaultsAndQuiet() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("default.csv");
        const Run r = runStrata({kSample, "--export-csv", csv});
        QCOMPARE(r.status, 0);
        QCOMPARE(r.err, QString());
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + kLat * kLon);
        QCOMPARE(rows[0], (QStringList{"lat", "lon", "time", "tas"}));
        const auto v = tasValues();
        for (int i = 0; i < kLat * kLon; i += 131)
            QCOMPARE(rows[1 + i][3].toFloat(), tasAt(v, 0, i / kLon, i % kLon));
    }

    // A NaN _FillValue on packed shorts: the export goes on with the attribute ignored, which
    // --verbose says, naming the file and the variable; without it, quiet.
    void ignoredAttributesAreNotedUnderVerbose() {
        QTemporaryDir dir;
        const QString file = dir.filePath("nanfill.nc"), csv = dir.filePath("t2m.csv");
        nctest::writeNanFillShort(file.toStdString(), {0, -32768, 1, 100, 32767, -1});
        const Run r = runStrata({file, "--export-csv", csv, "-v"});
        QCOMPARE(r.status, 0);
        QVERIFY2(
            r.err.contains("strata: nanfill.nc: variable 't2m': attribute '_FillValue' value NaN cannot be "
                           "represented in int16; ignored, as xarray does\n"),
            qPrintable(r.err));
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + 6);
        QCOMPARE(rows[0], (QStringList{"y", "x", "t2m"}));
        QCOMPARE(rows[1][2].toDouble(), 250.0); // 0, not masked
        QVERIFY(std::abs(rows[2][2].toDouble() - (-32768 * 0.01 + 250)) < 1e-6);
        for (int i = 1; i <= 6; ++i) QVERIFY(!rows[i][2].isEmpty());
        const Run quiet = runStrata({file, "--export-csv", dir.filePath("quiet.csv")});
        QCOMPARE(quiet.status, 0);
        QCOMPARE(quiet.err, QString());
    }

    // --x and --y with time on y (a Hovmöller diagram) and --isel of the third dim; --verbose.
    void xyAndIsel() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("hovmoller.csv");
        const Run r = runStrata(
            {kSample, "--x", "lon", "--y", "time", "--isel", "lat=36", "--export-csv", csv, "--verbose"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.contains(QString("%1 rows").arg(kT * kLon)), qPrintable(r.err));
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + kT * kLon);
        QCOMPARE(rows[0], (QStringList{"time", "lon", "lat", "tas"}));
        QCOMPARE(rows[1][0], QString("2005-01-16T12:00:00"));
        QCOMPARE(rows[1 + 5 * kLon][0], QString("2005-06-16T00:00:00"));
        const auto v = tasValues();
        for (int t = 0; t < kT; ++t)
            for (int lon = 0; lon < kLon; lon += 17)
                QCOMPARE(rows[1 + t * kLon + lon][3].toFloat(), tasAt(v, t, 36, lon));
    }

    // --sel with numbers: the nearest coordinate value, found here by hand.
    void selPicksTheNearestNumber() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("point.csv");
        QCOMPARE(
            runStrata({kSample, "--x", "time", "--sel", "lat=45", "--sel", "lon=10", "--export-csv", csv})
                .status,
            0);
        auto nearest = [&](const char* dim, double value) {
            const auto c = ncCoord(kSample, dim);
            int best = 0;
            for (int i = 1; i < int(c.size()); ++i)
                if (std::abs(c[i] - value) < std::abs(c[best] - value)) best = i;
            return best;
        };
        // The cells nearest, found in the file with python3-netCDF4: lat[72] = 45.70 (lat[71] =
        // 43.83, lat[73] = 47.56; a Gaussian grid), lon[5] = 9.375 (1.875° apart from 0).
        const int lat = nearest("lat", 45), lon = nearest("lon", 10);
        QCOMPARE(lat, 72);
        QCOMPARE(lon, 5);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + kT);
        const auto v = tasValues();
        for (int t = 0; t < kT; ++t) QCOMPARE(rows[1 + t].last().toFloat(), tasAt(v, t, lat, lon));
    }

    // Every --reduce op against the core's reduce and, for one cell, a loop here.
    void reduceEachOp_data() {
        QTest::addColumn<QString>("op");
        for (const char* op : {"mean", "min", "max", "std", "sum"}) QTest::newRow(op) << op;
    }
    void reduceEachOp() {
        QFETCH(QString, op);
        QTemporaryDir dir;
        const QString csv = dir.filePath("r.csv");
        QCOMPARE(runStrata({kSample, "--reduce", "time=" + op, "--export-csv", csv}).status, 0);
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + kLat * kLon);
        const DataArray tas = openDataset(kSample.toStdString())["tas"].load(Device::host(), Stream::host());
        const auto core = reduce(tas, {"time"}, parseReduceOp(op.toStdString())).values<float>();
        // float32 results, written in float's shortest round-trip form: read back exactly
        for (int i = 0; i < kLat * kLon; i += 89) QCOMPARE(rows[1 + i][2].toFloat(), core[i]);
        const auto oracle = nctest::reduced(ncTas(), 0, op.toStdString());
        for (int i = 0; i < kLat * kLon; ++i)
            QVERIFY2(near(rows[1 + i][2].toDouble(), oracle.values[std::size_t(i)]),
                     qPrintable(QString("%1: %2 against %3")
                                    .arg(i)
                                    .arg(rows[1 + i][2])
                                    .arg(oracle.values[std::size_t(i)])));
        const auto v = tasValues();
        const int cell = 4321;
        double sum = 0, lo = INFINITY, hi = -INFINITY;
        for (int t = 0; t < kT; ++t) {
            const double x = v[t * kLat * kLon + cell];
            sum += x;
            lo = std::min(lo, x);
            hi = std::max(hi, x);
        }
        const double mean = sum / kT;
        double ss = 0;
        for (int t = 0; t < kT; ++t) ss += std::pow(v[t * kLat * kLon + cell] - mean, 2);
        const double want = op == "mean"  ? mean
                            : op == "min" ? lo
                            : op == "max" ? hi
                            : op == "sum" ? sum
                                          : std::sqrt(ss / kT); // population std, as xarray's
        QVERIFY2(std::abs(rows[1 + cell][2].toDouble() - want) < 1e-3,
                 qPrintable(QString("%1: %2, want %3").arg(op, rows[1 + cell][2]).arg(want)));
    }

    // --cpu picks the CPU even where the environment does not ask for it, and --verbose says so.
    void cpuFlagIsHonoured() {
        QTemporaryDir dir;
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("STRATA_CPU");
        p.setProcessEnvironment(env);
        p.start(STRATA_APP_BINARY, {kSample, "--cpu", "-v", "--export-csv", dir.filePath("c.csv")});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitCode(), 0);
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(err.contains("computing on CPU") && err.contains("CPU requested (--cpu)"), qPrintable(err));
        QVERIFY2(err.contains("0 bytes copied device→host (the frame is on the host: nothing to copy)"),
                 qPrintable(err));
    }

    // Every STRATA_* variable set to garbage: --info still works, and stderr has one line for
    // each variable, saying what it ignored (the token's value not shown).
    void garbageInEveryVariableIsSurvived() {
        QProcess p;
        p.setProcessEnvironment(garbageEnvironment());
        p.start(STRATA_APP_BINARY, {"--info", kSample});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(QString::fromUtf8(p.readAllStandardOutput()).contains("tas"), qPrintable(err));
        verifyGarbageWarnings(err);
    }

    // The window too: a bad STRATA_RESIDENT_BUDGET threw in MainWindow's constructor and ended
    // the program. With every variable bad but the one that quits it, it opens and quits.
    void theWindowSurvivesGarbage() {
#if !STRATA_HAVE_RENDER
        QSKIP("built without the window");
#endif
        if (qEnvironmentVariableIsEmpty("DISPLAY")) QSKIP("needs an X display (run-tests.sh starts Xvfb)");
        QTemporaryDir home;
        QProcessEnvironment env = garbageEnvironment();
        env.insert("STRATA_QUIT_AFTER_MS", "3000");
        env.insert("HOME", home.path()); // no remembered view or settings
        env.insert("XDG_CONFIG_HOME", home.path());
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(STRATA_APP_BINARY, {kSample});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        verifyGarbageWarnings(err, {"STRATA_QUIT_AFTER_MS"});
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
