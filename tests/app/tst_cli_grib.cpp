// The command line on GRIB files (tests/data/grib): `strata file.grib2 --info` prints the
// hypercubes, a variable of one is exported by its group's path, a damaged message is named,
// and a file with nothing to read exits 1 naming it.
#include <QTemporaryDir>
#include <QtTest>

#include "strata/io/grib.h"
#include "strata/io/netcdf.h"
#include "strata_process.h"

using namespace stratatest;

namespace {

const QString kGrib = QString(STRATA_SOURCE_DIR) + "/tests/data/grib";

} // namespace

class TestCliGrib : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!strata::io::gribSupported()) QSKIP("built without ecCodes");
    }

    void infoPrintsTheHypercubes() {
        const Run r = runStrata({kGrib + "/mixed.grib2", "--info"});
        QCOMPARE(r.status, 0);
        for (const char* text : {"(GRIB 2)", "Group /heightAboveGround_instant:",
                                 "Group /isobaricInhPa_instant:", "Group /surface_accum:",
                                 "Group /surface_instant:", "(step, isobaricInhPa, latitude, longitude)",
                                 "Total precipitation", "2023-06-15 06:00", "valid_time"})
            QVERIFY2(r.out.contains(text), qPrintable(QString(text) + " is not in:\n" + r.out));
    }

    // A variable of a hypercube, by its group's path, to CSV: scalar coordinates as columns,
    // the values the reader gives.
    void groupVariableExportsToCsv() {
        QTemporaryDir dir;
        const QString csv = dir.filePath("tp.csv");
        const Run r = runStrata(
            {kGrib + "/mixed.grib2", "--var", "/surface_accum/tp", "--isel", "step=1", "--export-csv", csv},
            /*withoutDisplay=*/true);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const auto rows = readCsv(csv);
        QCOMPARE(rows.size(), 1 + 9 * 16);
        QCOMPARE(rows[0],
                 (QStringList{"latitude", "longitude", "step", "time", "surface", "valid_time", "tp"}));
        QCOMPARE(rows[1].mid(0, 6),
                 (QStringList{"80", "0", "12", "2023-06-15T06:00:00", "0", "2023-06-15T18:00:00"}));
        const strata::Dataset ds = strata::openDataset((kGrib + "/mixed.grib2").toStdString());
        const auto tp =
            ds.findGroup("surface_accum")["tp"].isel({{"step", std::int64_t(1)}}).asHost().values<float>();
        for (int k = 0; k < 9 * 16; ++k)
            QVERIFY2(qAbs(rows[k + 1][6].toDouble() - tp[std::size_t(k)]) <=
                         1e-6 * (1 + qAbs(tp[std::size_t(k)])),
                     qPrintable(rows[k + 1].join(',')));
    }

    // Message 2 with a bad length: named with -v, the rest of the file shown.
    void damagedMessageIsNamed() {
        QFile in(kGrib + "/mixed.grib2");
        QVERIFY(in.open(QIODevice::ReadOnly));
        QByteArray bytes = in.readAll();
        const auto be = [&](int at, int n) {
            quint64 v = 0;
            for (int i = 0; i < n; ++i) v = (v << 8) | quint8(bytes[at + i]);
            return v;
        };
        const int second = int(be(8, 8)); // message 1's length: where message 2 starts
        bytes[second + 15] = char(quint8(bytes[second + 15]) + 8); // its length, 8 bytes more
        QTemporaryDir dir;
        QFile out(dir.filePath("damaged.grib2"));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(bytes);
        out.close();
        const Run r = runStrata({out.fileName(), "--info", "-v"});
        QCOMPARE(r.status, 0);
        QVERIFY2(r.err.contains("damaged.grib2: message 2 (at byte") && r.err.contains("bad length"),
                 qPrintable(r.err));
        QVERIFY(r.out.contains("Group /surface_accum:"));
    }

    void nothingToReadExitsOne() {
        QTemporaryDir dir;
        QFile f(dir.filePath("empty.grib2"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(100, 'x'));
        f.close();
        const Run r = runStrata({f.fileName(), "--info"});
        QCOMPARE(r.status, 1);
        QVERIFY2(r.err.contains("empty.grib2") && r.err.contains("no GRIB message"), qPrintable(r.err));
    }
};

QTEST_APPLESS_MAIN(TestCliGrib)
#include "tst_cli_grib.moc"
