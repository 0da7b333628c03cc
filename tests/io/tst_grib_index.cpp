// The GRIB index's shortcut (grib_index.h, shareKeys): GRIB 2 messages read only to their data
// section, the keys they share read once per header. Against the reference (every key of every
// message read whole by ecCodes) on every fixture and on a file made here whose messages differ
// only in their date, step, member or level (copies of one fixture message with those octets
// rewritten): the same messages, keys and problems.
#include <QtTest>

#include <filesystem>
#include <fstream>
#include <set>
#include <tuple>

#include "grib_index.h"
#include "raw_file.h"
#include "strata/io/grib.h"

using namespace strata;
using namespace strata::io::detail;

namespace {

QString differs(const GribMessage& a, const GribMessage& b) {
    const auto same = [](const auto& x, const auto& y) { return x == y; };
    if (!same(a.span.offset, b.span.offset) || !same(a.span.number, b.span.number)) return "span";
    if (!same(a.typeOfLevel, b.typeOfLevel)) return "typeOfLevel";
    if (!same(a.stepType, b.stepType)) return "stepType";
    if (!same(a.gridType, b.gridType)) return "gridType";
    if (!same(a.packingType, b.packingType)) return "packingType";
    if (!same(a.paramId, b.paramId)) return "paramId";
    if (!same(a.member, b.member)) return "number";
    if (!same(a.level, b.level)) return "level";
    if (!same(a.dataDate, b.dataDate) || !same(a.dataTime, b.dataTime)) return "date";
    if (!same(a.stepHours, b.stepHours)) return "step";
    if (!same(a.ni, b.ni) || !same(a.nj, b.nj) || !same(a.numberOfPoints, b.numberOfPoints)) return "size";
    if (!same(a.alternativeRows, b.alternativeRows)) return "alternativeRows";
    if (!same(a.gridSignature, b.gridSignature)) return "grid";
    if (!same(a.shortName, b.shortName) || !same(a.cfVarName, b.cfVarName) || !same(a.units, b.units))
        return "names";
    return {};
}

void compareIndexes(const std::string& path) {
    auto file = RawFile::open(path, path);
    const GribIndex fast = indexGribFile(*file, path, true);
    const GribIndex full = indexGribFile(*file, path, false);
    QCOMPARE(fast.found, full.found);
    QCOMPARE(fast.problems, full.problems);
    QCOMPARE(fast.messages.size(), full.messages.size());
    for (std::size_t i = 0; i < full.messages.size(); ++i) {
        const QString d = differs(fast.messages[i], full.messages[i]);
        QVERIFY2(d.isEmpty(), qPrintable(QString::fromStdString(path) + ": message " +
                                         QString::number(i + 1) + ": " + d + " differs"));
    }
}

std::uint64_t bigEndian(const std::string& b, std::size_t at, int n) {
    std::uint64_t v = 0;
    for (int i = 0; i < n; ++i) v = (v << 8) | static_cast<unsigned char>(b[at + std::size_t(i)]);
    return v;
}

// The offset of section `number` of the GRIB 2 message `b`.
std::size_t section(const std::string& b, int number) {
    std::size_t at = 16;
    while (static_cast<unsigned char>(b[at + 4]) != number) at += bigEndian(b, at, 4);
    return at;
}

} // namespace

class TestGribIndex : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
    }

    void sameAsReadingWhole_data() {
        QTest::addColumn<QString>("file");
        for (const auto& e :
             std::filesystem::recursive_directory_iterator(std::string(STRATA_TEST_DATA) + "/grib"))
            if (e.is_regular_file() && e.path().extension() != ".py")
                QTest::newRow(e.path().filename().c_str()) << QString::fromStdString(e.path().string());
    }

    void sameAsReadingWhole() {
        QFETCH(QString, file);
        compareIndexes(file.toStdString());
    }

    // Copies of pressure_levels.grib2's first message (template 4.1: an ensemble member) with the
    // octets of date, forecast time, member and level rewritten: they share a header once masked
    // but for the level, and each must keep its own.
    void copiesDifferingInDateStepMemberLevel() {
        std::ifstream in(std::string(STRATA_TEST_DATA) + "/grib/pressure_levels.grib2", std::ios::binary);
        std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const std::string first = all.substr(0, bigEndian(all, 8, 8));
        const std::size_t s1 = section(first, 1), s4 = section(first, 4);
        QCOMPARE(bigEndian(first, s4 + 7, 2), std::uint64_t(1)); // product template 4.1
        const std::string path = QDir::tempPath().toStdString() + "/strata_grib_index_copies.grib2";
        {
            std::ofstream out(path, std::ios::binary);
            for (int k = 0; k < 12; ++k) {
                std::string m = first;
                m[s1 + 15] = char(1 + k % 3);              // day
                m[s1 + 16] = char(6 * (k % 4));            // hour
                m[s4 + 21] = char(3 * k);                  // forecast time (low octet)
                m[s4 + 35] = char(k % 5);                  // perturbation number
                const unsigned pa = k < 6 ? 85000 : 50000; // level: the scaled value, octets 25-28
                for (int o = 0; o < 3; ++o) m[s4 + 25 + std::size_t(o)] = char((pa >> (8 * (2 - o))) & 0xff);
                out.write(m.data(), std::streamsize(m.size()));
            }
        }
        compareIndexes(path);
        auto file = RawFile::open(path, path);
        const GribIndex fast = indexGribFile(*file, path, true);
        QCOMPARE(fast.messages.size(), std::size_t(12));
        std::set<std::tuple<long, long, double, long, double>> distinct;
        for (const GribMessage& m : fast.messages)
            distinct.insert({m.dataDate, m.dataTime, m.stepHours, m.member.value_or(-1), m.level});
        QCOMPARE(distinct.size(), std::size_t(12)); // each copy its own keys
        std::filesystem::remove(path);
    }
};

QTEST_APPLESS_MAIN(TestGribIndex)
#include "tst_grib_index.moc"
