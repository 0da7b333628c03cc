// The command line as a user runs it: exit codes and one-line messages for misuse, and CSV
// exports read back and compared value by value with the core's own results.
#include <QtTest>

#include <cmath>

#include "io/nc_write.h"
#include "strata/core/ops.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

const QString kData = QStringLiteral(STRATA_TEST_DATA);
const QString kSample = kData + "/tas_rectilinear_grid_2D.nc";

struct Run {
    int status = -1;
    QString out, err;
};

Run runStrata(const QStringList& args, bool withoutDisplay = false) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("STRATA_CPU", "1");
    if (withoutDisplay) env.remove("DISPLAY");
    p.setProcessEnvironment(env);
    p.start(STRATA_APP_BINARY, args);
    if (!p.waitForFinished(120000)) return {};
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QList<QStringList> readCsv(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    QList<QStringList> rows;
    while (!f.atEnd()) rows.append(QString::fromUtf8(f.readLine()).trimmed().split(','));
    return rows;
}

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

} // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void helpListsEveryOption() {
        const Run r = runStrata({"--help"});
        QCOMPARE(r.status, 0);
        for (const char* o :
             {"--var", "--x", "--y", "--isel", "--sel", "--reduce", "--cmap", "--range", "--size",
              "--export-png", "--export-csv", "--info", "--cpu", "--help", "--version"})
            QVERIFY2(r.out.contains(o), o);
        QVERIFY(r.out.contains("example"));
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
    }
    void misuseExitsTwoWithOneLine() {
        QFETCH(QStringList, args);
        QFETCH(QString, named);
        const Run r = runStrata(args);
        QCOMPARE(r.status, 2);
        QVERIFY2(r.err.contains(named), qPrintable(r.err));
        QCOMPARE(r.err.trimmed().count('\n'), 0);
        QVERIFY(!QFile::exists(QDir::tempPath() + "/strata-misuse.csv"));
    }

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
        QVERIFY(r.out.contains("2005-01-16T12:00:00"));
        QVERIFY(r.out.contains("12×96×192"));
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
        QCOMPARE(rows[0], (QStringList{"lat", "lon", "tas"}));
        const Dataset ds = openDataset(kSample.toStdString());
        const DataArray tas = ds["tas"];
        // 2005-07-10 is nearest to the July mean's label, 2005-07-16T12:00 (index 6).
        const auto expected =
            tas.isel({{"time", std::int64_t(6)}}).load(Device::host(), Stream::host()).values<float>();
        const auto& lat = tas.coords().find("lat")->values;
        const auto& lon = tas.coords().find("lon")->values;
        for (int i = 0; i < 96 * 192; i += 97) {
            const QStringList& row = rows[1 + i];
            QCOMPARE(row[0].toDouble(), lat[i / 192]);
            QCOMPARE(row[1].toDouble(), lon[i % 192]);
            QCOMPARE(row[2].toFloat(), expected[i]); // shortest round-trip text reads back exactly
        }
        QVERIFY(r.err.contains("18432 rows"));
    }

    void reductionCsvMatchesTheCore() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("mean.csv");
        QCOMPARE(runStrata({kSample, "--reduce", "time=mean", "--export-csv", csv}).status, 0);
        const auto rows = readCsv(csv);
        const DataArray tas = openDataset(kSample.toStdString())["tas"].load(Device::host(), Stream::host());
        const auto mean = reduce(tas, {"time"}, ReduceOp::Mean).values<float>();
        QCOMPARE(rows.size(), 1 + int(mean.size()));
        for (std::size_t i = 0; i < mean.size(); i += 101) QCOMPARE(rows[1 + int(i)][2].toFloat(), mean[i]);
        // and the mean itself, by hand, for one cell
        const auto all = tas.values<double>();
        double s = 0;
        for (int t = 0; t < 12; ++t) s += all[t * 96 * 192 + 500];
        QVERIFY(std::abs(rows[501][2].toDouble() - s / 12) < 1e-4);
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
        QCOMPARE(rows[0], (QStringList{"time", "tas"}));
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
        QCOMPARE(rows[0],
                 (QStringList{"y", "x", "lat", "lon", "Total_precipitation_surface_1_Hour_Accumulation"}));
        const DataArray v =
            openDataset((kData + "/test_stageiv_xyt.nc")
                            .toStdString())["Total_precipitation_surface_1_Hour_Accumulation"];
        const auto& lat = v.coords().find("lat")->values;
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

    void unwritableTargetLeavesNothing() {
        const Run r = runStrata({kSample, "--export-csv", "/proc/strata-cannot-write.csv"});
        QCOMPARE(r.status, 1);
        QVERIFY(r.err.contains("cannot write"));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
