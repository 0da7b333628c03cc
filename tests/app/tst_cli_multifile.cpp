// The command line on file sets: `strata a.nc b.nc`, a quoted glob, a directory. Exports of a
// set must be byte for byte those of the same data written as one file (written here through
// netCDF-C); conflicts exit 1 naming both files and the groups of files that agree.
#include <QtEndian>
#include <QtTest>

#include "app/strata_process.h"
#include "io/nc_write.h"

using stratatest::readCsv;
using stratatest::Run;
using stratatest::runStrata;

namespace {

// tas(time, lat, lon) = 100 * (first + k) + 10 * y + x for records k, time in `units`.
void writeTas(const std::string& path, std::vector<double> times, int first, const char* units, int ny = 4,
              int nx = 6) {
    nctest::Writer w(path, NC_NETCDF4);
    const int t = w.dim("time", NC_UNLIMITED), y = w.dim("lat", std::size_t(ny)),
              x = w.dim("lon", std::size_t(nx));
    const int tv = w.var("time", NC_DOUBLE, {t}), yv = w.var("lat", NC_DOUBLE, {y}),
              xv = w.var("lon", NC_DOUBLE, {x});
    const int v = w.var("tas", NC_FLOAT, {t, y, x});
    w.text(tv, "units", units);
    w.text(tv, "calendar", "standard");
    w.text(yv, "units", "degrees_north");
    w.text(xv, "units", "degrees_east");
    w.text(v, "units", "K");
    w.enddef();
    std::vector<double> lat, lon;
    for (int i = 0; i < ny; ++i) lat.push_back(-45 + 30 * i);
    for (int i = 0; i < nx; ++i) lon.push_back(60 * i);
    w.put(yv, lat);
    w.put(xv, lon);
    w.putAt(tv, {0}, {times.size()}, times);
    std::vector<float> values;
    for (std::size_t k = 0; k < times.size(); ++k)
        for (int i = 0; i < ny; ++i)
            for (int j = 0; j < nx; ++j) values.push_back(float(100 * (first + int(k)) + 10 * i + j));
    w.putAt(v, {0, 0, 0}, {times.size(), std::size_t(ny), std::size_t(nx)}, values);
}

// One file of 9 records and the same data as three files of 3, named against time order; the
// third in hours, the rest in days.
struct Sets {
    QTemporaryDir dir;
    QString whole, parts;
    QStringList partFiles;
    Sets() {
        whole = dir.path() + "/whole.nc";
        writeTas(whole.toStdString(), {0, 10, 20, 30, 40, 50, 60, 70, 80}, 0, "days since 2001-01-01");
        QDir().mkpath(dir.path() + "/parts");
        parts = dir.path() + "/parts";
        partFiles = {parts + "/tas_c.nc", parts + "/tas_b.nc", parts + "/tas_a.nc"};
        writeTas(partFiles[0].toStdString(), {0, 10, 20}, 0, "days since 2001-01-01");
        writeTas(partFiles[1].toStdString(), {30, 40, 50}, 3, "days since 2001-01-01");
        writeTas(partFiles[2].toStdString(), {0, 240, 480}, 6,
                 "hours since 2001-03-02"); // day 60 = 2001-03-02
    }
};

QByteArray fileBytes(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestCliMultiFile : public QObject {
    Q_OBJECT
private slots:
    void exportsMatchOneFile_data() {
        QTest::addColumn<QStringList>("view");
        QTest::newRow("series through a point")
            << QStringList{"--x", "time", "--isel", "lat=2", "--isel", "lon=5"};
        QTest::newRow("Hovmoller") << QStringList{"--x", "lon", "--y", "time", "--isel", "lat=1"};
        QTest::newRow("frame in the third file") << QStringList{"--isel", "time=7"};
        QTest::newRow("mean over time") << QStringList{"--reduce", "time=mean"};
        QTest::newRow("max over lon") << QStringList{"--x", "time", "--y", "lat", "--reduce", "lon=max"};
    }
    void exportsMatchOneFile() {
        QFETCH(QStringList, view);
        Sets s;
        const QString one = s.dir.path() + "/one.csv";
        Run r = runStrata(QStringList{s.whole, "--var", "tas", "--export-csv", one} + view);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QList<QStringList> args = {QStringList{s.partFiles}, QStringList{s.parts + "/*.nc"},
                                         QStringList{s.parts + "/"}};
        for (const QStringList& files : args) {
            const QString many = s.dir.path() + "/many.csv";
            r = runStrata(files + QStringList{"--var", "tas", "--export-csv", many} + view);
            QVERIFY2(r.status == 0, qPrintable(r.err));
            QVERIFY(readCsv(one).size() > 1);
            QCOMPARE(fileBytes(many), fileBytes(one));
        }
    }

    void infoNamesTheSet() {
        Sets s;
        const Run r = runStrata({s.parts + "/*.nc", "--info"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("File set: tas_*.nc (3 files), in record order"), qPrintable(r.out));
        // Record order: c (January), b (February), a (March).
        QVERIFY(r.out.indexOf("tas_c.nc") < r.out.indexOf("tas_b.nc"));
        QVERIFY(r.out.indexOf("tas_b.nc") < r.out.indexOf("tas_a.nc"));
        QVERIFY2(r.out.contains("2001-01-01 … 2001-03-22"), qPrintable(r.out));
    }

    // --info heads a set's summary with the set's name, not its first member's; a file named
    // twice is read once, and the user is told.
    void infoHeadsASetByItsNameAndTellsARepeat() {
        Sets s;
        Run r = runStrata({s.partFiles[0], s.partFiles[1], "--info"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.out.contains("<strata.Dataset> tas_*.nc (2 files)"), qPrintable(r.out));
        QVERIFY2(!r.out.contains("<strata.Dataset> " + s.partFiles[0]), qPrintable(r.out));
        QVERIFY(!r.err.contains("named more than once"));
        r = runStrata({s.whole, s.whole, "--info"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.contains(s.whole + " is named more than once: read once"), qPrintable(r.err));
        QVERIFY2(r.out.contains("time: 9"), qPrintable(r.out)); // once: nine records, not eighteen
    }

    void pngOfASet() {
        Sets s;
        const QString png = s.dir.path() + "/set.png";
        const Run r = runStrata(
            {s.parts, "--var", "tas", "--isel", "time=8", "--export-png", png, "--size", "200x150"});
        if (r.err.contains("needs the render layer")) QSKIP("this build has no render layer");
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QByteArray bytes = fileBytes(png); // the PNG signature, then IHDR's width and height
        QVERIFY(bytes.startsWith("\x89PNG"));
        QCOMPARE(qFromBigEndian<quint32>(bytes.constData() + 16), quint32(200));
        QCOMPARE(qFromBigEndian<quint32>(bytes.constData() + 20), quint32(150));
    }

    // The file that does not fit is named with the one it differs from and how, and the groups
    // of files that do form a dataset are listed.
    void conflictExitsOneNamingBoth() {
        Sets s;
        writeTas(s.partFiles[1].toStdString(), {30, 40, 50}, 3, "days since 2001-01-01", 5);
        const Run r = runStrata({s.parts, "--info"});
        QCOMPARE(r.status, 1);
        QVERIFY2(
            r.err.contains("cannot combine tas_a.nc and tas_b.nc: dim 'lat' has 4 values in tas_a.nc and "
                           "5 in tas_b.nc"),
            qPrintable(r.err));
        QVERIFY2(r.err.contains("tas_*.nc (2 files) along 'time'") && r.err.contains("tas_b.nc along 'time'"),
                 qPrintable(r.err));
        QCOMPARE(runStrata({s.parts + "/nothing*.nc", "--info"}).status, 1);
    }
};

QTEST_GUILESS_MAIN(TestCliMultiFile)
#include "tst_cli_multifile.moc"
