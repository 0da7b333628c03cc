// Many GRIB files as one dataset (openGribFiles, and openPaths for several GRIB paths): the
// fixtures of tests/data/grib/sets (make_grib_fixtures.py's file_set()) split by date and by
// step join along `time` and `step` with the analytic field's values in place; files on other
// grids, or holding the same field, are refused naming both files.
#include <QtTest>

#include <cmath>

#include "note_checks.h"
#include "strata/io/grib.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

std::string member(const char* name) { return std::string(STRATA_TEST_DATA) + "/grib/sets/" + name; }

// file_set()'s field: day of March 2022 and step in hours.
double expected(double lat, double lon, double day, double step) {
    const double r = M_PI / 180;
    return 280 + 10 * std::cos(lat * r) * std::sin(lon * r) + 0.05 * lat + day + step / 10;
}

std::vector<double> coordValues(const Dataset& ds, const char* name) {
    const Coordinate* c = ds.coords.find(name);
    return c ? c->values : std::vector<double>{};
}

// Checks that `ds` is 2t over (time: 1 and 2 March, step: 0 and 6 h, latitude, longitude) with
// the field's values; returns them.
std::vector<double> checkJoined(const Dataset& ds) {
    const Variable* v = ds.findVariable("t2m");
    if (!v) {
        QTest::qFail("no t2m", __FILE__, __LINE__);
        return {};
    }
    const std::vector<std::string> dims{"time", "step", "latitude", "longitude"};
    if (v->dims() != dims || v->shape() != Shape{2, 2, 7, 12}) {
        QTest::qFail("t2m is not (time 2, step 2, latitude 7, longitude 12)", __FILE__, __LINE__);
        return {};
    }
    const std::vector<double> time = coordValues(ds, "time"), step = coordValues(ds, "step");
    const double march1 = 1646092800; // 2022-03-01T00:00:00Z
    if (time != std::vector<double>{march1, march1 + 86400} || step != std::vector<double>{0, 6}) {
        QTest::qFail("time or step is not the set's", __FILE__, __LINE__);
        return {};
    }
    const std::vector<double> lat = coordValues(ds, "latitude"), lon = coordValues(ds, "longitude");
    const std::vector<double> values = ds["t2m"].asHost().values<double>();
    for (std::size_t d = 0; d < 2; ++d)
        for (std::size_t s = 0; s < 2; ++s)
            for (std::size_t j = 0; j < lat.size(); ++j)
                for (std::size_t i = 0; i < lon.size(); ++i) {
                    const double got = values[((d * 2 + s) * lat.size() + j) * lon.size() + i];
                    const double want = expected(lat[j], lon[i], double(d + 1), step[s]);
                    if (!(std::abs(got - want) < 0.01)) {
                        QTest::qFail(qPrintable(QString("day %1, step %2, (%3, %4): %5, expected %6")
                                                    .arg(d + 1)
                                                    .arg(step[s])
                                                    .arg(lat[j])
                                                    .arg(lon[i])
                                                    .arg(got)
                                                    .arg(want)),
                                     __FILE__, __LINE__);
                        return {};
                    }
                }
    return values;
}

} // namespace

class TestGribFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
    }

    void joinsAlongTimeAndStep() {
        OpenNotes notes;
        // Given in reverse: the axes come out sorted all the same.
        const int checks = io::checkProcessesStarted();
        const Dataset byTime = openPaths({member("by_time_2.grib2"), member("by_time_1.grib2")}, notes);
        QCOMPARE(io::checkProcessesStarted(), checks + 1); // the set was opened in a child first
        QCOMPARE(byTime.files.size(), std::size_t(2));
        const std::vector<double> a = checkJoined(byTime);
        QVERIFY(!a.empty());
        const Dataset byStep = openGribFiles({member("by_step_0.grib2"), member("by_step_6.grib2")}, notes);
        const std::vector<double> b = checkJoined(byStep);
        QCOMPARE(b, a); // the same fields, bit for bit, however the files split them
        QVERIFY(notes.lines.empty());
        // A glob of the files (expanded by Strata) opens the same set.
        const Dataset globbed =
            openPaths({std::string(STRATA_TEST_DATA) + "/grib/sets/by_time_*.grib2"}, notes);
        QCOMPARE(checkJoined(globbed), a);
    }

    void refusesOtherGrids() {
        OpenNotes notes;
        try {
            openPaths({member("by_time_1.grib2"), member("by_time_2.grib2"), member("other_grid.grib2")},
                      notes);
            QFAIL("files on two grids opened as one");
        } catch (const FileSetError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("by_time_1.grib2") && m.contains("other_grid.grib2") &&
                         m.contains("another grid") && m.contains("points=8x5, not points=12x7") &&
                         m.contains("'2t'"),
                     qPrintable(m));
            QCOMPARE(e.grouping().groups.size(), std::size_t(2));
            QCOMPARE(e.grouping().groups[0].files.size(), std::size_t(2)); // the two that agree
            QCOMPARE(e.grouping().conflicts.size(), std::size_t(1));
        }
    }

    // A file holding 2t on the set's grid and on another (two hypercubes, were it alone) does not
    // join a file with the first grid only.
    void refusesAnExtraGrid() {
        const QString both = QDir::tempPath() + "/strata_grib_two_grids.grib2";
        {
            QFile out(both);
            QVERIFY(out.open(QIODevice::WriteOnly));
            for (const char* name : {"by_time_2.grib2", "other_grid.grib2"}) {
                QFile in(QString::fromStdString(member(name)));
                QVERIFY(in.open(QIODevice::ReadOnly));
                out.write(in.readAll());
            }
        }
        OpenNotes notes;
        try {
            openGribFiles({member("by_time_1.grib2"), both.toStdString()}, notes);
            QFAIL("a file with an extra grid joined the set");
        } catch (const FileSetError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("strata_grib_two_grids.grib2 (message 3)") && m.contains("by_time_1.grib2") &&
                         m.contains("points=8x5, not points=12x7"),
                     qPrintable(m));
        }
        QFile::remove(both);
    }

    // A file of the set that holds its own fields twice: read once, and the note names the
    // file and the first message left out (its number counted in that file).
    void namesTheFileOfARepeatedMessage() {
        const QString twice = QDir::tempPath() + "/strata_grib_twice.grib2";
        int messages = 0;
        {
            QFile in(QString::fromStdString(member("by_time_2.grib2")));
            QVERIFY(in.open(QIODevice::ReadOnly));
            const QByteArray bytes = in.readAll();
            messages = int(bytes.count("GRIB"));
            QFile out(twice);
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(bytes + bytes);
        }
        OpenNotes notes;
        const Dataset ds = openGribFiles({member("by_time_1.grib2"), twice.toStdString()}, notes);
        checkJoined(ds);
        const std::string first = "message " + std::to_string(messages + 1) + " of " + twice.toStdString();
        QVERIFY2(
            nctest::anyNoteHas(notes, {"'t2m'", std::to_string(messages) + " message", "left out", first}),
            qPrintable(QString::fromStdString(notes.lines.empty() ? "no note" : notes.lines.front())));
        QFile::remove(twice);
    }

    void refusesAFieldInTwoFiles() {
        OpenNotes notes;
        try {
            openGribFiles({member("by_time_1.grib2"), member("by_step_0.grib2")}, notes);
            QFAIL("two files holding one field opened as one");
        } catch (const FileSetError& e) {
            const QString m = e.what();
            QVERIFY2(m.contains("by_time_1.grib2") && m.contains("by_step_0.grib2") &&
                         m.contains("holds a field") && m.contains("20220301"),
                     qPrintable(m));
        }
    }

    void leavesOutAFileWithoutMessages() {
        OpenNotes notes;
        const std::string notGrib = std::string(STRATA_TEST_DATA) + "/grib/make_grib_fixtures.py";
        const Dataset ds =
            openGribFiles({member("by_time_1.grib2"), notGrib, member("by_time_2.grib2")}, notes);
        QVERIFY(!checkJoined(ds).empty());
        bool named = false;
        for (const std::string& l : notes.lines)
            named = named || (l.find("make_grib_fixtures.py") != std::string::npos &&
                              l.find("left out") != std::string::npos);
        QVERIFY(named);
    }
};

QTEST_APPLESS_MAIN(TestGribFiles)
#include "tst_grib_files.moc"
