// The startup trace (strata/core/startup_trace.h): the window, run as a user would with
// STRATA_TRACE_STARTUP=1 on the sample, writes each milestone once, in order, on the clock the
// test reads, with the peak RSS so far; off, it writes none; the process's start is read from
// /proc/<pid>/stat's field 22.
#include <QtTest/QtTest>

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <unistd.h>

#include <memory>
#include <vector>

#include "strata/core/monotonic_clock.h"
#include "strata/core/startup_trace.h"
#include "strata_process.h"

using strata::startup::Milestone;

namespace {

const QString kSample = QStringLiteral(STRATA_SOURCE_DIR "/resources/sample/tas_rectilinear_grid_2D.nc");

struct Line {
    QString name;
    qint64 ns = 0;
    qint64 peakKb = 0;
};

// The strata-startup lines of `err`, in the order written.
QList<Line> startupLines(const QString& err) {
    QList<Line> out;
    for (const QString& l : err.split('\n')) {
        const QStringList parts = l.split(' ');
        if (parts.size() == 4 && parts[0] == "strata-startup")
            out.append({parts[1], parts[2].toLongLong(), parts[3].toLongLong()});
    }
    return out;
}

} // namespace

class TestStartupTrace : public QObject {
    Q_OBJECT
private slots:
    // The raster paint and the GL one (the VTK views, here on Mesa): on both, "painted" is the
    // first paint of a frame, not the empty window's.
    void everyMilestoneOnceInOrder_data() {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("raster") << QStringList{kSample};
        QTest::newRow("gl") << QStringList{"--gl", kSample};
    }
    void everyMilestoneOnceInOrder() {
        QFETCH(QStringList, args);
        if (qEnvironmentVariableIsEmpty("DISPLAY")) QSKIP("needs an X display (run-tests.sh starts Xvfb)");
        QTemporaryDir home;
        // The sample's first frame comes in about 0.15 s; no remembered view or settings.
        const QProcessEnvironment env = stratatest::strataEnvironment(
            {"STRATA_TRACE_STARTUP=1", "STRATA_TRACE_FRAMES=1", "STRATA_QUIT_AFTER_MS=5000"}, {},
            home.path());
        const qint64 before = strata::monotonicNs();
        const stratatest::Run r = stratatest::runStrata(args, env);
        const qint64 after = strata::monotonicNs();
        const QString& err = r.err;
        QVERIFY2(r.status == 0, qPrintable(err));

        const QList<Line> lines = startupLines(err);
        QStringList names;
        for (const Line& l : lines) names << l.name;
        QStringList expected;
        for (int i = 0; i < strata::startup::kMilestoneCount; ++i)
            expected << strata::startup::name(static_cast<Milestone>(i));
        QVERIFY2(names == expected, qPrintable(names.join(' ') + "\n\n" + err)); // each once, in order
        for (int i = 1; i < lines.size(); ++i) {
            QVERIFY2(lines[i].ns >= lines[i - 1].ns,
                     qPrintable(QString("%1 before %2").arg(lines[i].name, lines[i - 1].name)));
            QVERIFY(lines[i].peakKb >= lines[i - 1].peakKb); // a peak so far
        }
        QVERIFY(lines.first().peakKb > 0);
        // On this process's clock: the start (in ticks of 10 ms, truncated) after the spawn less a
        // tick, the frame presented before the exit.
        const qint64 tick = 1000000000LL / ::sysconf(_SC_CLK_TCK);
        QVERIFY2(lines.first().ns >= before - tick - 1000000,
                 qPrintable(QString("started %1 ns before the spawn").arg(before - lines.first().ns)));
        QVERIFY(lines.last().ns <= after);
        // The frame trace's first line is the same moment as "presented".
        const qsizetype at = err.indexOf("strata-frame ");
        QVERIFY2(at >= 0, qPrintable(err));
        const qint64 frameNs = err.mid(at + 13).section(' ', 0, 0).toLongLong();
        QVERIFY(lines.last().ns >= frameNs && lines.last().ns - frameNs < 50000000);
    }

    // The command line's file is checked in a child process begun before Qt starts: a file that
    // crashes netCDF-C or HDF5 (or, with another heap, makes them fail: the child's heap differs
    // from the unit test's), or that they refuse, still leaves the window up, saying why. The
    // strata processes run side by side; each quits itself after 2.5 s.
    void aHostileFileOnTheCommandLineLeavesTheWindowUp() {
        if (qEnvironmentVariableIsEmpty("DISPLAY")) QSKIP("needs an X display (run-tests.sh starts Xvfb)");
        const QString bad = QString(STRATA_SOURCE_DIR) + "/tests/data/bad/";
        const QStringList files{"hdf5_crash_dense_links.nc", "hdf5_crash_global_heap.nc",
                                "found/classic_huge_rank.nc", "found/classic_huge_count_b.nc",
                                "trunc_nc4_half.nc"};
        QTemporaryDir home;
        const QProcessEnvironment env = stratatest::strataEnvironment(
            {"STRATA_TRACE_STARTUP=1", "STRATA_QUIT_AFTER_MS=2500"}, {}, home.path());
        std::vector<std::unique_ptr<QProcess>> runs;
        for (const QString& f : files) {
            runs.push_back(std::make_unique<QProcess>());
            runs.back()->setProcessEnvironment(env);
            runs.back()->start(STRATA_APP_BINARY, {"--verbose", bad + f});
        }
        for (std::size_t i = 0; i < runs.size(); ++i) {
            QProcess& p = *runs[i];
            QVERIFY(p.waitForFinished(120000));
            const QString err = QString::fromUtf8(p.readAllStandardError());
            QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0,
                     qPrintable(files[int(i)] + ": " + err));
            // Checked once, by the child begun before QApplication, and said in the window.
            QCOMPARE(err.count("strata-startup check-begun"), 1);
            QVERIFY2(err.indexOf("check-begun") < err.indexOf("qapplication"), qPrintable(err));
            const QString name = QFileInfo(files[int(i)]).fileName();
            QVERIFY2(err.contains("strata: Cannot open " + name + ": ") && err.count(name) >= 2,
                     qPrintable(files[int(i)] + ": " + err)); // the title, and the message naming it
        }
    }

    // Off (the default): not a line.
    void offWritesNothing() {
        const stratatest::Run r = stratatest::runStrata(
            {"--info", kSample}, stratatest::strataEnvironment({}, {"STRATA_TRACE_STARTUP"}));
        QCOMPARE(r.status, 0);
        QVERIFY(!r.err.contains("strata-startup"));
    }

    void startTicks_data() {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<qint64>("ticks"); // -1: malformed
        const QByteArray tail = " S 1 2 3 0 -1 4194560 100 0 0 0 5 6 0 0 20 0 3 0 4242 1000 200";
        QTest::newRow("plain") << QByteArray("1234 (strata)" + tail) << qint64(4242);
        QTest::newRow("spaces and parentheses in the name")
            << QByteArray("1234 (a) b (c d)" + tail) << qint64(4242);
        QTest::newRow("ends at the field")
            << QByteArray("1 (x) S 1 2 3 0 -1 4 5 6 7 8 9 10 11 12 13 14 15 16 77\n") << qint64(77);
        QTest::newRow("too short") << QByteArray("1 (x) S 1 2 3") << qint64(-1);
        QTest::newRow("no name") << QByteArray("1 x S 1 2 3 0 -1 4 5 6 7 8 9 10 11 12 13 14 15 16 77")
                                 << qint64(-1);
        QTest::newRow("not a number")
            << QByteArray("1 (x) S 1 2 3 0 -1 4 5 6 7 8 9 10 11 12 13 14 15 16 7x 8") << qint64(-1);
        QTest::newRow("empty") << QByteArray() << qint64(-1);
    }
    void startTicks() {
        QFETCH(QByteArray, line);
        QFETCH(qint64, ticks);
        const auto got = strata::startup::startTicksOf(std::string_view(line.constData(), line.size()));
        QCOMPARE(got ? qint64(*got) : qint64(-1), ticks);
    }

    // This process's start, on CLOCK_MONOTONIC: before now, and not before the machine booted.
    void thisProcessStart() {
        const auto start = strata::startup::processStartNs();
        QVERIFY(start);
        QVERIFY(*start <= strata::monotonicNs());
        QVERIFY(*start > -1000000000LL); // CLOCK_MONOTONIC starts near 0 at boot
    }
};

QTEST_GUILESS_MAIN(TestStartupTrace)
#include "tst_startuptrace.moc"
