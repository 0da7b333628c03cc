// Zarr stores as writers other than zarr-python make them (issue 34). Two quirks, each made
// here from real codec output (numcodecs): blosc chunks followed by bytes that are not blosc's,
// which z5py writes; zlib streams labelled "gzip", which z5py also writes (and gzip labelled
// "zlib"). Then stores of the zarr_implementations project, committed in
// tests/data/zarr_impl (see tests/data/README.md), compared exactly with the image they were
// written from. That project's N5 stores and its zarrita stores (a draft of Zarr v3 that
// predates the final specification) are not copied: Strata reads neither format.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>

#include "strata/core/error.h"
#include "strata/io/netcdf.h"
#include "strata/io/zarr.h"

using namespace strata;

namespace {

using ByteVector = std::vector<unsigned char>;

ByteVector fileBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return {b.begin(), b.end()};
}

void writeBytes(const QString& path, const ByteVector& bytes) {
    QDir().mkpath(QFileInfo(path).path());
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// 40 x 25 float32 values with no two alike, little-endian as this machine's.
constexpr int kRows = 40, kCols = 25;
ByteVector testValues() {
    ByteVector out(kRows * kCols * 4);
    for (int i = 0; i < kRows * kCols; ++i) {
        const float v = float(std::sin(0.37 * i) * 1000.0 + i);
        std::memcpy(&out[std::size_t(i) * 4], &v, 4);
    }
    return out;
}

// numcodecs' encoding (`codec`, e.g. "Zlib()") of testValues() as a float32 array.
ByteVector encoded(const QTemporaryDir& dir, const QString& codec) {
    const QString in = dir.path() + "/values.f4", out = dir.path() + "/encoded";
    writeBytes(in, testValues());
    const QString code = "import numcodecs,numpy,sys; open(sys.argv[2],'wb').write(numcodecs." + codec +
                         ".encode(numpy.fromfile(sys.argv[1],'<f4')))";
    if (QProcess::execute("/usr/bin/python3", {"-c", code, in, out}) != 0) return {};
    return fileBytes(out);
}

// A v2 store of one 40 x 25 float32 array 'x' with `compressor` and its one chunk, `chunk`.
QString storeWith(const QTemporaryDir& dir, const QString& name, const std::string& compressor,
                  const ByteVector& chunk) {
    const QString store = dir.path() + "/" + name + ".zarr";
    const std::string zarray = R"({"zarr_format": 2, "shape": [40, 25], "chunks": [40, 25], "dtype": "<f4",
        "compressor": )" + compressor +
                               R"(, "fill_value": 0, "filters": null, "order": "C"})";
    writeBytes(store + "/.zgroup", ByteVector{'{', '}'});
    writeBytes(store + "/x/.zarray", ByteVector(zarray.begin(), zarray.end()));
    writeBytes(store + "/x/0.0", chunk);
    return store;
}

// Reads `count` elements from `start` by `stride` of `v`, into a poisoned buffer.
ByteVector readPart(const Variable& v, const std::vector<std::int64_t>& start,
                    const std::vector<std::int64_t>& count, const std::vector<std::int64_t>& stride) {
    std::size_t n = sizeOf(v.encoding().packed);
    for (auto c : count) n *= std::size_t(c);
    ByteVector out(n, 0xAB);
    v.source()->read(start, count, stride, out.data());
    return out;
}

ByteVector readAll(const Variable& v) {
    const std::vector<std::int64_t> zero(v.shape().size(), 0), one(v.shape().size(), 1);
    return readPart(v, zero, v.shape(), one);
}

// The store's 'x', whole and rows 1, 4, ... columns 2, 4, ..., must equal testValues().
void checkValues(const QString& store) {
    const Dataset ds = openDataset(store.toStdString());
    const Variable* x = ds.findVariable("x");
    QVERIFY(x);
    const ByteVector want = testValues();
    ByteVector whole, part;
    try {
        whole = readAll(*x);
        part = readPart(*x, {1, 2}, {13, 12}, {3, 2});
    } catch (const NetcdfError& e) {
        QFAIL(e.what());
    }
    QVERIFY2(whole == want, "whole array");
    for (int r = 0; r < 13; ++r)
        for (int c = 0; c < 12; ++c)
            QVERIFY(std::memcmp(&part[std::size_t(r * 12 + c) * 4],
                                &want[std::size_t((1 + 3 * r) * kCols + 2 + 2 * c) * 4], 4) == 0);
}

// The NetcdfError's message from opening and reading all of 'x', or "" when none.
QString failureOf(const QString& store) {
    try {
        const Dataset ds = openDataset(store.toStdString());
        readAll(*ds.findVariable("x"));
    } catch (const NetcdfError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

std::uint32_t littleEndian32(const ByteVector& b, std::size_t at) {
    return std::uint32_t(b[at]) | std::uint32_t(b[at + 1]) << 8 | std::uint32_t(b[at + 2]) << 16 |
           std::uint32_t(b[at + 3]) << 24;
}

const char* kBlosc = R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1, "blocksize": 0})";
QString implDir() { return QString(STRATA_SOURCE_DIR) + "/tests/data/zarr_impl"; }

} // namespace

class TestZarrWriters : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // A blosc buffer followed by other bytes: only the first cbytes (the header's) are read.
    void bloscTrailingBytes_data() {
        QTest::addColumn<int>("extra");
        QTest::addColumn<bool>("repeat");
        QTest::newRow("1 byte") << 1 << false;
        QTest::newRow("16 bytes, as z5py") << 16 << false;
        QTest::newRow("4096 bytes") << 4096 << false;
        QTest::newRow("the buffer again") << 0 << true;
    }
    void bloscTrailingBytes() {
        QFETCH(int, extra);
        QFETCH(bool, repeat);
        ByteVector chunk = encoded(dir_, "Blosc('lz4', 5, 1)");
        QVERIFY(chunk.size() > 16);
        QCOMPARE(littleEndian32(chunk, 12), std::uint32_t(chunk.size())); // cbytes, as numcodecs writes
        const ByteVector copy = chunk;
        chunk.insert(chunk.end(), std::size_t(extra), 0xEE);
        if (repeat) chunk.insert(chunk.end(), copy.begin(), copy.end());
        checkValues(storeWith(dir_, QString("trailing_") + QTest::currentDataTag(), kBlosc, chunk));
    }

    // A blosc buffer cut short is still refused, naming the store, variable and chunk.
    void bloscTruncated_data() {
        QTest::addColumn<QString>("cut");
        QTest::newRow("one byte short") << "one";
        QTest::newRow("half") << "half";
        QTest::newRow("shorter than its header") << "header";
    }
    void bloscTruncated() {
        QFETCH(QString, cut);
        ByteVector chunk = encoded(dir_, "Blosc('lz4', 5, 1)");
        QVERIFY(chunk.size() > 32);
        chunk.resize(cut == "one" ? chunk.size() - 1 : cut == "half" ? chunk.size() / 2 : 10);
        const QString store = storeWith(dir_, QString("truncated_") + cut, kBlosc, chunk);
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x': chunk 'x/0.0'") && message.contains("(truncated)"),
                 qPrintable(message));
    }

    // The wrapper a deflate stream carries decides how it is read, whatever the metadata call
    // it (zarr_codec.cpp, wrapper): z5py writes zlib streams as "gzip". zarr-python refuses
    // both; each wrapper's checksum still finds damage, and bare deflate is refused.
    void deflateWrappers_data() {
        QTest::addColumn<QString>("compressor");
        QTest::addColumn<QString>("codec");
        QTest::newRow("gzip holding zlib") << R"({"id": "gzip", "level": 5})"
                                           << "Zlib(5)";
        QTest::newRow("zlib holding gzip") << R"({"id": "zlib", "level": 5})"
                                           << "GZip(5)";
        QTest::newRow("gzip holding gzip") << R"({"id": "gzip", "level": 5})"
                                           << "GZip(5)";
        QTest::newRow("zlib holding zlib") << R"({"id": "zlib", "level": 5})"
                                           << "Zlib(5)";
    }
    void deflateWrappers() {
        QFETCH(QString, compressor);
        QFETCH(QString, codec);
        const ByteVector chunk = encoded(dir_, codec);
        QVERIFY(chunk.size() > 6);
        checkValues(storeWith(dir_, QTest::currentDataTag(), compressor.toStdString(), chunk));
    }
    void deflateWrappersStillCheck_data() {
        QTest::addColumn<QString>("codec");
        QTest::addColumn<QString>("damage");
        QTest::newRow("zlib, checksum changed") << "Zlib(5)"
                                                << "checksum";
        QTest::newRow("zlib, bare deflate") << "Zlib(5)"
                                            << "bare";
        QTest::newRow("gzip, checksum changed") << "GZip(5)"
                                                << "checksum";
    }
    void deflateWrappersStillCheck() {
        QFETCH(QString, codec);
        QFETCH(QString, damage);
        ByteVector chunk = encoded(dir_, codec);
        QVERIFY(chunk.size() > 18);
        if (damage == "bare") { // the deflate data without zlib's 2-byte header and 4-byte Adler-32
            chunk = ByteVector(chunk.begin() + 2, chunk.end() - 4);
        } else { // zlib ends in its Adler-32; gzip in its CRC-32, then the length
            chunk[chunk.size() - (codec.startsWith("Zlib") ? 1 : 5)] ^= 0x01;
        }
        const QString store = storeWith(dir_, QString("damaged_") + QTest::currentDataTag(),
                                        R"({"id": "gzip", "level": 5})", chunk);
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x': chunk 'x/0.0'") &&
                     message.contains("gzip: damaged compressed data"),
                 qPrintable(message));
    }

    // The fixtures hold what they are here for: every z5py blosc chunk carries bytes after its
    // cbytes, every z5py "gzip" chunk is a zlib stream (method 8, a 32 KiB window).
    void implStoresHoldTheQuirks() {
        for (const QString array : {"blosc", "gzip"}) {
            const QDir d(implDir() + "/z5py.zr/" + array);
            const QStringList chunks = d.entryList(QDir::Files); // .zarray is hidden
            QCOMPARE(chunks.size(), 6 * 6 * 3);
            for (const QString& name : chunks) {
                const ByteVector b = fileBytes(d.filePath(name));
                QVERIFY2(b.size() > 16, qPrintable(name));
                if (array == "blosc")
                    QVERIFY2(b.size() > littleEndian32(b, 12), qPrintable(name));
                else
                    QVERIFY2(b[0] == 0x78 && ((b[0] << 8) | b[1]) % 31 == 0, qPrintable(name));
            }
        }
    }

    // Each zarr_implementations array, read by Strata, is the image it was written from:
    // whole (one read per chunk, decoded in place), and strided across the ragged edge chunks
    // (decoded through a buffer), byte for byte.
    void implStoresEqualTheImage_data() {
        QTest::addColumn<QString>("store");
        QTest::addColumn<QString>("variable");
        QTest::newRow("z5py blosc (lz4)") << "z5py.zr"
                                          << "blosc";
        QTest::newRow("z5py gzip (zlib streams)") << "z5py.zr"
                                                  << "gzip";
    }
    void implStoresEqualTheImage() {
        QFETCH(QString, store);
        QFETCH(QString, variable);
        const ByteVector image = fileBytes(implDir() + "/astronaut.u1");
        QCOMPARE(image.size(), std::size_t(512 * 512 * 3));
        const Dataset ds = openDataset((implDir() + "/" + store).toStdString());
        QCOMPARE(QString::fromStdString(ds.format), QString("Zarr v2"));
        const Variable* v = ds.findVariable(variable.toStdString());
        QVERIFY(v);
        QCOMPARE(v->encoding().packed, DType::UInt8);
        QCOMPARE(v->shape(), (std::vector<std::int64_t>{512, 512, 3}));
        // The whole image, and rows 3, 10, ..., 507, columns 1, 6, ..., 511 of the green and blue.
        ByteVector whole, part;
        try {
            whole = readAll(*v);
            part = readPart(*v, {3, 1, 1}, {73, 103, 2}, {7, 5, 1});
        } catch (const NetcdfError& e) {
            QFAIL(e.what());
        }
        QVERIFY2(whole == image, "the whole image");
        for (std::size_t r = 0; r < 73; ++r)
            for (std::size_t c = 0; c < 103; ++c)
                for (std::size_t b = 0; b < 2; ++b)
                    QCOMPARE(part[(r * 103 + c) * 2 + b], image[((3 + 7 * r) * 512 + 1 + 5 * c) * 3 + 1 + b]);
    }
};

QTEST_GUILESS_MAIN(TestZarrWriters)
#include "tst_zarr_writers.moc"
