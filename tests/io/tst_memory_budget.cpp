// The memory budget: loads (and coordinates read at open) above it are refused with a message
// naming the file, the variable and both sizes, before anything is allocated.
#include <QtTest>

#include "nc_write.h"
#include "strata/core/error.h"
#include "strata/core/memory_budget.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

template <class E> QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        return "other error: " + QString::fromStdString(e.what());
    }
    return "no error";
}

} // namespace

class TestMemoryBudget : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string file_;

private slots:
    void initTestCase() {
        // Read once, on first use: nothing in this process has asked for the budget yet.
        qputenv("STRATA_MEMORY_BUDGET", "3K");
        QCOMPARE(memoryBudget(), std::size_t(3072));

        file_ = dir_.filePath("budget.nc").toStdString();
        nctest::Writer w(file_, NC_NETCDF4);
        const int n = w.dim("n", 1000), m = w.dim("m", 100), k = w.dim("k", 600), c = w.dim("c", 400);
        const int big = w.var("big", NC_DOUBLE, {n});
        const int small = w.var("small", NC_FLOAT, {m});
        const int packed = w.var("packed", NC_SHORT, {k});
        w.att(packed, "scale_factor", NC_FLOAT, std::vector<float>{0.5f});
        const int coord = w.var("c", NC_DOUBLE, {c});
        w.enddef();
        std::vector<double> b(1000);
        for (int i = 0; i < 1000; ++i) b[i] = i;
        w.put(big, b);
        w.put(small, std::vector<float>(100, 1.5f));
        w.put(packed, std::vector<short>(600, 4));
        std::vector<double> cv(400);
        for (int i = 0; i < 400; ++i) cv[i] = i * 0.25;
        w.put(coord, cv);
    }
    void parseByteSize_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("bytes"); // -1: not a size
        QTest::newRow("bytes") << "1048576" << qint64(1048576);
        QTest::newRow("K") << "3K" << qint64(3072);
        QTest::newRow("MiB") << "512MiB" << qint64(512) * 1024 * 1024;
        QTest::newRow("G with space") << "8 G" << qint64(8) * 1024 * 1024 * 1024;
        QTest::newRow("fraction of T") << "1.5T" << qint64(3) * 512 * 1024 * 1024 * 1024;
        QTest::newRow("B") << "10B" << qint64(10);
        QTest::newRow("lower case") << "2kb" << qint64(2048);
        QTest::newRow("empty") << "" << qint64(-1);
        QTest::newRow("words") << "lots" << qint64(-1);
        QTest::newRow("negative") << "-5M" << qint64(-1);
        QTest::newRow("unknown unit") << "5X" << qint64(-1);
        QTest::newRow("exponent") << "1e3" << qint64(-1);
        QTest::newRow("overflow") << "99999999999999999999T" << qint64(-1);
        QTest::newRow("two dots") << "1.2.3M" << qint64(-1);
    }
    void parseByteSize() {
        QFETCH(QString, text);
        QFETCH(qint64, bytes);
        const auto parsed = strata::parseByteSize(text.toStdString());
        if (bytes < 0)
            QVERIFY2(!parsed, qPrintable(text));
        else
            QCOMPARE(qint64(parsed.value_or(0)), bytes);
    }
    void loadAboveTheBudgetIsRefused() {
        setMemoryBudget(3072);
        const Dataset ds = openDataset(file_);
        // 1000 doubles are 8000 bytes = 7.8 KiB.
        const QString m = errorOf<OutOfMemoryError>([&] { ds["big"].load(Device::host(), Stream::host()); });
        QVERIFY2(m.contains("budget.nc") && m.contains("variable 'big'") && m.contains("needs 7.8 KiB") &&
                     m.contains("memory budget of 3 KiB") && m.contains("STRATA_MEMORY_BUDGET"),
                 qPrintable(m));
        // 300 of them (2400 bytes) fit, and are the right ones.
        const DataArray part =
            ds["big"].isel({{"n", Slice{100, 400, 1}}}).load(Device::host(), Stream::host());
        const auto values = part.values<double>();
        QCOMPARE(values.size(), std::size_t(300));
        QCOMPARE(values.front(), 100.0);
        QCOMPARE(values.back(), 399.0);
        QCOMPARE(ds["small"].load(Device::host(), Stream::host()).size(), std::int64_t(100));
    }
    void packedAndDecodedBytesBothCount() {
        setMemoryBudget(3072);
        const Dataset ds = openDataset(file_);
        // 600 shorts (1200 bytes) and their 600 float32 decodings (2400 bytes): 3600 bytes, 3.5 KiB.
        const QString m =
            errorOf<OutOfMemoryError>([&] { ds["packed"].load(Device::host(), Stream::host()); });
        QVERIFY2(m.contains("variable 'packed'") && m.contains("needs 3.5 KiB"), qPrintable(m));
        setMemoryBudget(3600);
        const auto values = ds["packed"].load(Device::host(), Stream::host()).values<double>();
        QCOMPARE(values.size(), std::size_t(600));
        QCOMPARE(values[0], 2.0); // 4 · 0.5
    }
    void coordinateAboveTheBudgetStaysAVariable() {
        setMemoryBudget(3072);
        OpenNotes notes;
        const Dataset ds = openDataset(file_, notes);
        // 400 values: more than 3 KiB as doubles alone.
        QVERIFY(!ds.coords.contains("c"));
        QVERIFY(ds.findVariable("c"));
        bool noted = false;
        for (const auto& line : notes.lines)
            noted = noted || (line.find("variable 'c'") != std::string::npos &&
                              line.find("400 values") != std::string::npos &&
                              line.find("not kept: more than the 3 KiB") != std::string::npos);
        QVERIFY2(noted, notes.lines.empty() ? "no notes" : notes.lines.front().c_str());
        setMemoryBudget(kUnlimitedMemory);
        const Dataset again = openDataset(file_);
        QVERIFY(again.coords.contains("c"));
        QCOMPARE(again.coords.find("c")->values[399], 99.75);
    }
    void inheritedCoordinatesCountToo() {
        // A root coordinate of 1000 values is copied into each group below: with a budget for two
        // copies, the second group below gets none, and says so.
        const std::string file = dir_.filePath("nested.nc").toStdString();
        {
            nctest::Writer w(file, NC_NETCDF4);
            const int x = w.dim("x", 1000);
            const int xv = w.var("x", NC_DOUBLE, {x});
            const int g1 = w.group("a");
            const int g2 = w.group("b", g1);
            w.var("v", NC_FLOAT, {x}, g2);
            w.enddef();
            w.put(xv, std::vector<double>(1000, 1.0));
        }
        const std::size_t copy = 1000 * (sizeof(double) + sizeof(DateTime));
        setMemoryBudget(2 * copy + copy / 2);
        OpenNotes notes;
        const Dataset ds = openDataset(file, notes);
        QVERIFY(ds.coords.contains("x"));
        QVERIFY(ds.findGroup("/a").coords.contains("x"));
        QVERIFY(!ds.findGroup("/a/b").coords.contains("x"));
        bool noted = false;
        for (const auto& line : notes.lines)
            noted = noted || (line.find("group '/a/b': coordinate 'x' (inherited)") != std::string::npos &&
                              line.find("not kept") != std::string::npos);
        QVERIFY2(noted, notes.lines.empty() ? "no notes" : notes.lines.back().c_str());
        setMemoryBudget(kUnlimitedMemory);
        QVERIFY(openDataset(file).findGroup("/a/b").coords.contains("x"));
    }
    void unlimitedLoadsAnything() {
        setMemoryBudget(kUnlimitedMemory);
        QCOMPARE(memoryBudget(), kUnlimitedMemory);
        const Dataset ds = openDataset(file_);
        QCOMPARE(ds["big"].load(Device::host(), Stream::host()).values<double>()[999], 999.0);
    }
    void formatBytes() {
        QCOMPARE(strata::formatBytes(512), std::string("512 bytes"));
        QCOMPARE(strata::formatBytes(3072), std::string("3 KiB"));
        QCOMPARE(strata::formatBytes(8000), std::string("7.8 KiB"));
        QCOMPARE(strata::formatBytes(std::size_t(12) << 30), std::string("12 GiB"));
    }
};

QTEST_GUILESS_MAIN(TestMemoryBudget)
#include "tst_memory_budget.moc"
