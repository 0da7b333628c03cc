// The GRIB hypercubes (core/io/src/grib_cube.h) made from messages' keys by hand, without files
// or ecCodes: which messages share a cube, the cube's axes and names, each variable's cell of
// each message, the cells no message fills, repeated fields, and the limit on a cube's size.
#include <QtTest>

#include "grib_cube.h"

using namespace strata::io::detail;

namespace {

GribMessage message(int number, long paramId, const char* name, const char* level, double value, double step,
                    const char* stepType = "instant") {
    GribMessage m;
    m.span.number = number;
    m.paramId = paramId;
    m.cfVarName = name;
    m.typeOfLevel = level;
    m.level = value;
    m.stepType = stepType;
    m.stepHours = step;
    m.dataDate = 20240101;
    m.dataTime = 1200;
    m.gridSignature = "regular_ll 4x3";
    return m;
}

std::vector<std::string> names(const std::vector<GribCube>& cubes) {
    std::vector<std::string> out;
    for (const GribCube& c : cubes) out.push_back(c.name);
    return out;
}

} // namespace

class TestGribCube : public QObject {
    Q_OBJECT

private slots:
    void secondsSinceTheEpoch() {
        QCOMPARE(gribSeconds(19700101, 0), 0.0);
        QCOMPARE(gribSeconds(20240101, 1230), 1704067200.0 + 12 * 3600 + 30 * 60);
        QCOMPARE(gribSeconds(20000301, 0) - gribSeconds(20000228, 0), 2 * 86400.0); // 2000 is leap
        QCOMPARE(gribSeconds(19000301, 0) - gribSeconds(19000228, 0), 86400.0);     // 1900 is not
    }

    // Pressure levels run downwards, steps upwards; a cell without a message is counted.
    void axesAndCells() {
        std::vector<GribMessage> m = {message(1, 130, "t", "isobaricInhPa", 500, 6),
                                      message(2, 130, "t", "isobaricInhPa", 850, 0),
                                      message(3, 130, "t", "isobaricInhPa", 500, 0)};
        std::vector<std::string> problems;
        const auto cubes = buildGribCubes(m, problems);
        QCOMPARE(cubes.size(), std::size_t(1));
        const GribCube& c = cubes[0];
        QCOMPARE(c.name, std::string("isobaricInhPa_instant"));
        QCOMPARE(c.axes.size(), std::size_t(3)); // no member: no number axis
        QCOMPARE(c.axes[1].name, std::string("step"));
        QCOMPARE(c.axes[1].values, (std::vector<double>{0, 6}));
        QCOMPARE(c.axes[2].values, (std::vector<double>{850, 500}));
        // cells (time, step, level): (0, 0, 850) = message 2, (0, 0, 500) = 3, (0, 6, 500) = 1.
        QCOMPARE(c.variables[0].fields, (std::vector<std::int64_t>{1, 2, -1, 0}));
        QCOMPARE(c.variables[0].missing, std::int64_t(1));
    }

    // Level types and step types apart; parameters on other single levels apart and named by
    // them; parameters on the same axes together; a repeated field noted.
    void partsAndNames() {
        std::vector<GribMessage> m = {message(1, 167, "t2m", "heightAboveGround", 2, 0),
                                      message(2, 165, "u10", "heightAboveGround", 10, 0),
                                      message(3, 168, "d2m", "heightAboveGround", 2, 0),
                                      message(4, 228, "tp", "surface", 0, 6, "accum"),
                                      message(5, 134, "sp", "surface", 0, 6),
                                      message(6, 134, "sp", "surface", 0, 6)};
        std::vector<std::string> problems;
        const auto cubes = buildGribCubes(m, problems);
        QCOMPARE(names(cubes),
                 (std::vector<std::string>{"heightAboveGround_2_instant", "heightAboveGround_10_instant",
                                           "surface_accum", "surface_instant"}));
        QCOMPARE(cubes[0].variables.size(), std::size_t(2));
        QCOMPARE(cubes[0].variables[1].name, std::string("d2m"));
        QCOMPARE(cubes[3].variables[0].repeated.size(), std::size_t(1));
        QCOMPARE(cubes[3].variables[0].repeated[0].number, 6);
        QVERIFY(problems.empty());
        // Two grids of one level type and step type: the second cube's name says so.
        m[4].gridSignature = "regular_gg 8x4";
        QCOMPARE(names(buildGribCubes(m, problems)).back(), std::string("surface_instant_2"));
    }

    // Members make a number axis; a message without one is member 0 there.
    void members() {
        std::vector<GribMessage> m = {message(1, 130, "t", "surface", 0, 0),
                                      message(2, 130, "t", "surface", 0, 0)};
        m[0].member = 3;
        std::vector<std::string> problems;
        const auto cubes = buildGribCubes(m, problems);
        QCOMPARE(cubes[0].axes[0].name, std::string("number"));
        QCOMPARE(cubes[0].axes[0].values, (std::vector<double>{0, 3}));
        QCOMPARE(cubes[0].variables[0].fields, (std::vector<std::int64_t>{1, 0}));
    }

    // Axes whose places outnumber 2^24 (every message on its own time, step and level) are
    // refused with a line, not allocated.
    void sparseAxesAreRefused() {
        std::vector<GribMessage> m;
        for (int i = 0; i < 300; ++i) {
            m.push_back(message(i + 1, 130, "t", "hybrid", i, i));
            m.back().dataDate = 20240101 + (i % 28);
            m.back().dataTime = (i % 24) * 100;
            m.back().member = i;
        }
        std::vector<std::string> problems;
        QVERIFY(buildGribCubes(m, problems).empty());
        QCOMPARE(problems.size(), std::size_t(1));
        QVERIFY2(problems[0].find("300 messages of hybrid_instant") != std::string::npos,
                 problems[0].c_str());
    }
};

QTEST_APPLESS_MAIN(TestGribCube)
#include "tst_grib_cube.moc"
