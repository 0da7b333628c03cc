// Bad input: every failure is a NetcdfError (or DecodeError for attributes) whose message
// names the file and the problem.
#include <QtTest>

#include <cstdint>
#include <fstream>

#include <netcdf.h>

#include "strata/core/error.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

std::string data(const char* name) { return std::string(STRATA_SOURCE_DIR) + "/tests/data/" + name; }

// Opens (and loads every numeric variable of) `path`; returns the NetcdfError's message, or
// an empty string when nothing failed.
QString failureOf(const std::string& path) {
    try {
        const Dataset ds = openDataset(path);
        for (const auto& name : ds.dataVariables())
            if (isNumeric(ds.findVariable(name)->encoding().packed))
                ds[name].load(Device::host(), Stream::host());
    } catch (const NetcdfError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

std::string readBytes(const std::string& path, std::size_t n) {
    std::ifstream in(path, std::ios::binary);
    std::string bytes(n, '\0');
    in.read(bytes.data(), std::streamsize(n));
    bytes.resize(std::size_t(in.gcount()));
    return bytes;
}

// Big-endian integers of a CDF-5 header.
std::string be(std::uint64_t v, int bytes) {
    std::string out;
    for (int i = bytes - 1; i >= 0; --i) out += char((v >> (8 * i)) & 0xff);
    return out;
}
std::string name5(const std::string& n) {
    std::string s = be(n.size(), 8) + n;
    while (s.size() % 4) s += '\0';
    return s;
}

} // namespace

class TestNetcdfErrors : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }

private slots:
    void missingFile() {
        const QString m = failureOf(path("nowhere.nc"));
        QVERIFY2(m.contains("nowhere.nc") && m.contains("no such file"), qPrintable(m));
        QVERIFY(!looksLikeNetcdf(path("nowhere.nc")));
    }
    void directory() {
        const QString m = failureOf(dir_.path().toStdString());
        QVERIFY2(m.contains("directory"), qPrintable(m));
    }
    void emptyFile() {
        writeBytes(path("empty.nc"), "");
        const QString m = failureOf(path("empty.nc"));
        QVERIFY2(m.contains("empty.nc") && m.contains("empty"), qPrintable(m));
    }
    void textFile() {
        writeBytes(path("notes.nc"), "This is a text file, not netCDF.\nSecond line.\n");
        QVERIFY(!looksLikeNetcdf(path("notes.nc")));
        const QString m = failureOf(path("notes.nc"));
        QVERIFY2(m.contains("notes.nc") && m.contains("not a netCDF file"), qPrintable(m));
    }
    void truncatedCopies_data() {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("bytes");
        QTest::newRow("classic, 1000 bytes") << "tas_rectilinear_grid_2D.nc" << 1000;
        QTest::newRow("classic, header only") << "hgt.nc" << 2000;
        QTest::newRow("classic, half") << "tas_rectilinear_grid_2D.nc" << 450000;
        QTest::newRow("classic, one byte short") << "reduced.nc" << 133099;
        QTest::newRow("netCDF-4 classic, 1000 bytes") << "lcc_km.nc" << 1000;
        QTest::newRow("netCDF-4 classic, half") << "lcc_km.nc" << 16000;
        QTest::newRow("netCDF-4, 1000 bytes") << "test_hgroups.nc" << 1000;
        QTest::newRow("netCDF-4, most") << "test_hgroups.nc" << 80000;
        QTest::newRow("magic only") << "hgt.nc" << 4;
    }
    void truncatedCopies() {
        QFETCH(QString, source);
        QFETCH(int, bytes);
        const std::string copy = path("cut.nc");
        writeBytes(copy, readBytes(data(source.toLatin1().constData()), std::size_t(bytes)));
        const QString m = failureOf(copy);
        QVERIFY2(!m.isEmpty(), "a truncated file opened and loaded without an error");
        QVERIFY2(m.contains("cut.nc"), qPrintable(m));
    }
    void malformedCdf5Header() {
        const QString m = failureOf(data("bad_cdf5_begin.nc"));
        QVERIFY2(m.contains("bad_cdf5_begin.nc") && m.contains("header is damaged") &&
                     m.contains("past the end of the file (220 bytes)"),
                 qPrintable(m));
    }
    void sizesThatOverflow() {
        // A CDF-5 header declaring dims of 2^40 and 2^30 and a double variable over both: 2^73
        // bytes. It must be refused before anything is allocated.
        std::string h = "CDF\x05" + be(0, 8);
        h += be(0x0A, 4) + be(2, 8) + name5("a") + be(1ULL << 40, 8) + name5("b") + be(1ULL << 30, 8);
        h += be(0, 4) + be(0, 8); // no global attributes
        h += be(0x0B, 4) + be(1, 8) + name5("v") + be(2, 8) + be(0, 8) + be(1, 8);
        h += be(0, 4) + be(0, 8) + be(6, 4) + be(0, 8) + be(200, 8); // no attributes, NC_DOUBLE, vsize, begin
        while (h.size() < 200) h += '\0';
        writeBytes(path("huge.nc"), h);
        const QString m = failureOf(path("huge.nc"));
        QVERIFY2(m.contains("huge.nc"), qPrintable(m));
    }
    void sizesThatOverflowInNetcdf4() {
        // netCDF-C writes this header (chunks of one value, nothing stored): 2^70 elements.
        const std::string file = path("huge4.nc");
        {
            int nc = 0, dims[2] = {}, v = 0;
            const size_t chunks[2] = {1, 1};
            QCOMPARE(nc_create(file.c_str(), NC_NETCDF4 | NC_CLOBBER, &nc), NC_NOERR);
            QCOMPARE(nc_def_dim(nc, "a", size_t(1) << 40, &dims[0]), NC_NOERR);
            QCOMPARE(nc_def_dim(nc, "b", size_t(1) << 30, &dims[1]), NC_NOERR);
            QCOMPARE(nc_def_var(nc, "v", NC_DOUBLE, 2, dims, &v), NC_NOERR);
            QCOMPARE(nc_def_var_chunking(nc, v, NC_CHUNKED, chunks), NC_NOERR);
            QCOMPARE(nc_close(nc), NC_NOERR);
        }
        const QString m = failureOf(file);
        QVERIFY2(m.contains("huge4.nc") && m.contains("'v'") && m.contains("overflows"), qPrintable(m));
        QVERIFY2(m.contains("a = 1099511627776"), qPrintable(m));
    }
    void realFilesLookLikeNetcdf() {
        for (const char* f : {"tas_rectilinear_grid_2D.nc", "lcc_km.nc", "test_hgroups.nc", "reduced.nc"})
            QVERIFY2(looksLikeNetcdf(data(f)), f);
        writeBytes(path("short.nc"), "CD");
        QVERIFY(!looksLikeNetcdf(path("short.nc")));
        QVERIFY(!io::netcdfLibraryVersion().empty());
    }
    void openingNeverWrites() {
        const std::string copy = path("untouched.nc");
        const std::string original = readBytes(data("reduced.nc"), 1 << 20);
        writeBytes(copy, original);
        QFile::setPermissions(QString::fromStdString(copy), QFileDevice::ReadOwner); // read-only works
        const QDateTime before = QFileInfo(QString::fromStdString(copy)).lastModified();
        {
            const Dataset ds = openDataset(copy);
            ds["sst"].load(Device::host(), Stream::host());
        }
        QCOMPARE(readBytes(copy, 1 << 20), original);
        QCOMPARE(QFileInfo(QString::fromStdString(copy)).lastModified(), before);
    }
};

QTEST_GUILESS_MAIN(TestNetcdfErrors)
#include "tst_netcdf_errors.moc"
