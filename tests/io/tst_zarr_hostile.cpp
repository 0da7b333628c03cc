// Hostile and damaged Zarr stores: huge or negative shapes, chunk bombs, keys leaving the
// store, malformed JSON. Each gives a NetcdfError naming the store, the variable (where there
// is one) and the problem; nothing crashes, nothing is allocated for what a store only claims.
#include <QtTest>

#include <cmath>
#include <fstream>

#include "strata/core/error.h"
#include "strata/io/zarr.h"

using namespace strata;

namespace {

void writeText(const QString& path, const std::string& text) {
    QDir().mkpath(QFileInfo(path).path());
    std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
}

// A v2 store holding one array 'x' of `zarray`, and its chunk '0' (or none).
QString arrayStore(const QTemporaryDir& dir, const QString& name, const std::string& zarray,
                   const std::string& zattrs = R"({"_ARRAY_DIMENSIONS": ["n"]})") {
    const QString store = dir.path() + "/" + name + ".zarr";
    writeText(store + "/.zgroup", R"({"zarr_format": 2})");
    writeText(store + "/x/.zarray", zarray);
    writeText(store + "/x/.zattrs", zattrs);
    return store;
}

std::string zarray(const std::string& shape, const std::string& chunks,
                   const std::string& compressor = "null", const std::string& dtype = "<f4") {
    return R"({"zarr_format": 2, "shape": )" + shape + R"(, "chunks": )" + chunks + R"(, "dtype": ")" +
           dtype + R"(", "compressor": )" + compressor +
           R"(, "fill_value": 0, "filters": null, "order": "C"})";
}

// Opens the store and reads every variable whole; the NetcdfError's message, or "" when none.
QString failureOf(const QString& store) {
    try {
        OpenNotes notes;
        const Dataset ds = openZarr(store.toStdString(), notes);
        for (const auto& [name, v] : ds.variables) {
            std::vector<unsigned char> out(v.nbytes());
            const std::vector<std::int64_t> zero(v.shape().size(), 0), one(v.shape().size(), 1);
            v.source()->read(zero, v.shape(), one, out.data());
        }
    } catch (const NetcdfError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

// Writes the encoding of `bytes` zero bytes by numcodecs' `codec` ("Zlib()") to `path`.
bool encodeZeros(const QString& codec, long bytes, const QString& path) {
    QDir().mkpath(QFileInfo(path).path());
    const QString code = "import numcodecs,sys; open(sys.argv[1],'wb').write(numcodecs." + codec +
                         ".encode(bytes(" + QString::number(bytes) + ")))";
    return QProcess::execute("/usr/bin/python3", {"-c", code, path}) == 0;
}

} // namespace

class TestZarrHostile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    void shapes_data() {
        QTest::addColumn<QString>("shape");
        QTest::addColumn<QString>("chunks");
        QTest::addColumn<QString>("dims");
        QTest::addColumn<QString>("problem");
        QTest::newRow("overflow") << "[9223372036854775807, 4]"
                                  << "[1, 1]"
                                  << R"(["a", "b"])"
                                  << "overflows 64 bits";
        QTest::newRow("negative") << "[-5]"
                                  << "[1]"
                                  << R"(["n"])"
                                  << "negative length";
        QTest::newRow("zero chunk") << "[5]"
                                    << "[0]"
                                    << R"(["n"])"
                                    << "length below 1";
        QTest::newRow("chunk too large") << "[100000, 100000]"
                                         << "[100000, 100000]"
                                         << R"(["a", "b"])"
                                         << "larger than the 2048 MiB";
        QTest::newRow("chunk dims") << "[5, 5]"
                                    << "[5]"
                                    << R"(["a", "b"])"
                                    << "its chunks have 1 dims";
        QTest::newRow("too many dims") << "[1,1,1,1,1,1,1,1,1]"
                                       << "[1,1,1,1,1,1,1,1,1]"
                                       << R"(["a","b","c","d","e","f","g","h","i"])"
                                       << "9 dims";
        QTest::newRow("dims mismatch") << "[5, 5]"
                                       << "[5, 5]"
                                       << R"(["a"])"
                                       << "_ARRAY_DIMENSIONS";
        QTest::newRow("not integers") << R"([5.5])"
                                      << "[1]"
                                      << R"(["n"])"
                                      << "not an integer";
    }
    void shapes() {
        QFETCH(QString, shape);
        QFETCH(QString, chunks);
        QFETCH(QString, dims);
        QFETCH(QString, problem);
        const QString store =
            arrayStore(dir_, QTest::currentDataTag(), zarray(shape.toStdString(), chunks.toStdString()),
                       R"({"_ARRAY_DIMENSIONS": )" + dims.toStdString() + "}");
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x'") && message.contains(problem),
                 qPrintable(message));
    }

    // Chunks whose data decompress to more than a chunk holds are refused before any large
    // allocation: 16 MiB claimed by a chunk of 16 bytes.
    void chunkBombs_data() {
        QTest::addColumn<QString>("compressor");
        QTest::addColumn<QString>("codec");
        QTest::newRow("zlib") << R"({"id": "zlib", "level": 1})"
                              << "Zlib()";
        QTest::newRow("gzip") << R"({"id": "gzip", "level": 1})"
                              << "GZip()";
        QTest::newRow("zstd") << R"({"id": "zstd", "level": 1})"
                              << "Zstd()";
        QTest::newRow("lz4") << R"({"id": "lz4", "acceleration": 1})"
                             << "LZ4()";
        QTest::newRow("blosc") << R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1})"
                               << "Blosc()";
    }
    void chunkBombs() {
        QFETCH(QString, compressor);
        QFETCH(QString, codec);
        const QString store = arrayStore(dir_, QString("bomb_") + QTest::currentDataTag(),
                                         zarray("[4]", "[4]", compressor.toStdString()));
        QVERIFY(encodeZeros(codec, 16 << 20, store + "/x/0"));
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x': chunk 'x/0'") &&
                     message.contains("decompress to more than the 16 bytes expected"),
                 qPrintable(message));
    }

    void damagedChunks_data() {
        QTest::addColumn<QString>("compressor");
        QTest::addColumn<QByteArray>("chunk");
        QTest::addColumn<QString>("problem");
        QTest::newRow("short raw") << "null" << QByteArray(10, 'a') << "holds 10 bytes, not the 16";
        QTest::newRow("long raw") << "null" << QByteArray(20, 'a') << "holds 20 bytes, not the 16";
        QTest::newRow("zlib garbage") << R"({"id": "zlib"})" << QByteArray(40, 'z') << "zlib: damaged";
        QTest::newRow("zstd garbage") << R"({"id": "zstd"})" << QByteArray(40, 'z') << "zstd:";
        QTest::newRow("blosc garbage") << R"({"id": "blosc"})" << QByteArray(40, 'z') << "not a valid blosc";
        QTest::newRow("lz4 short") << R"({"id": "lz4"})" << QByteArray(2, 'z') << "shorter than their header";
    }
    void damagedChunks() {
        QFETCH(QString, compressor);
        QFETCH(QByteArray, chunk);
        QFETCH(QString, problem);
        const QString store = arrayStore(dir_, QString("damaged_") + QTest::currentDataTag(),
                                         zarray("[4]", "[4]", compressor.toStdString()));
        writeText(store + "/x/0", chunk.toStdString());
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x': chunk 'x/0'") && message.contains(problem),
                 qPrintable(message));
    }

    // Keys with "..", from consolidated metadata, never leave the store.
    void keysLeavingTheStore() {
        const QString outside = dir_.path() + "/outside";
        writeText(outside + "/.zarray", zarray("[4]", "[4]"));
        const QString store = dir_.path() + "/escape.zarr";
        writeText(store + "/.zgroup", R"({"zarr_format": 2})");
        writeText(store + "/.zmetadata",
                  R"({"zarr_consolidated_format": 1, "metadata": {".zgroup": {"zarr_format": 2},
            "../outside/.zarray": )" +
                      zarray("[4]", "[4]") + "}}");
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": key '../outside' refused") && message.contains("'..'"),
                 qPrintable(message));
    }

    void malformedJson_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("text");
        QTest::newRow("truncated .zarray") << "x/.zarray"
                                           << R"({"shape": [4], "chunks": )";
        QTest::newRow("not json .zattrs") << "x/.zattrs"
                                          << "this is not JSON";
        QTest::newRow("bad .zgroup") << ".zgroup"
                                     << "{,}";
    }
    void malformedJson() {
        QFETCH(QString, file);
        QFETCH(QString, text);
        const QString store =
            arrayStore(dir_, QString("json_") + QTest::currentDataTag(), zarray("[4]", "[4]"));
        writeText(store + "/" + file, text.toStdString());
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": '" + file + "': malformed JSON"), qPrintable(message));
    }

    void badMetadata_data() {
        QTest::addColumn<QString>("zarray");
        QTest::addColumn<QString>("problem");
        QTest::newRow("no shape") << R"({"chunks": [4], "dtype": "<f4"})"
                                  << "no 'shape'";
        QTest::newRow("fill text") << QString::fromStdString(zarray("[4]", "[4]"))
                                          .replace("\"fill_value\": 0", "\"fill_value\": \"abc\"")
                                   << "fill_value \"abc\" is not a number";
        QTest::newRow("fill outside") << QString::fromStdString(zarray("[4]", "[4]", "null", "|u1"))
                                             .replace("\"fill_value\": 0", "\"fill_value\": 300")
                                      << "fill_value 300 is outside uint8";
        QTest::newRow("order") << QString::fromStdString(zarray("[4]", "[4]")).replace("\"C\"", "\"Z\"")
                               << "order \"Z\"";
        QTest::newRow("filter type") << QString::fromStdString(zarray("[4]", "[4]"))
                                            .replace("\"filters\": null",
                                                     R"("filters": [{"id": "delta", "dtype": "<c8"}])")
                                     << "codec 'delta': dtype";
    }
    void badMetadata() {
        QFETCH(QString, zarray);
        QFETCH(QString, problem);
        const QString store =
            arrayStore(dir_, QString("meta_") + QTest::currentDataTag(), zarray.toStdString());
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x'") && message.contains(problem),
                 qPrintable(message));
    }

    // v3: codecs and shards that do not hold together.
    void v3Stores_data() {
        QTest::addColumn<QString>("codecs");
        QTest::addColumn<QByteArray>("chunk");
        QTest::addColumn<QString>("problem");
        const QString bytes = R"({"name": "bytes", "configuration": {"endian": "little"}})";
        const QString shard = R"({"name": "sharding_indexed", "configuration": {"chunk_shape": [2],
            "codecs": [)" + bytes +
                              R"(], "index_codecs": [)" + bytes + R"(]}})";
        QByteArray outside(16 + 32, '\0'); // 16 data bytes, then an index whose entries point past the end
        for (int i = 0; i < 8; ++i)
            outside[16 + i] = char(i == 0 ? 100 : 0), outside[24 + i] = char(i == 0 ? 8 : 0);
        QTest::newRow("unknown codec") << "[" + bytes + R"(, {"name": "numcodecs.bz2"}])"
                                       << QByteArray(16, 'a') << "codec 'numcodecs.bz2' is not supported";
        QTest::newRow("crc mismatch") << "[" + bytes + R"(, {"name": "crc32c"}])" << QByteArray(20, 'a')
                                      << "crc32c: the checksum does not match";
        QTest::newRow("no bytes codec") << R"([{"name": "gzip", "configuration": {"level": 1}}])"
                                        << QByteArray() << "before the array was serialised";
        QTest::newRow("shard index outside") << "[" + shard + "]" << outside << "lies outside the shard";
        QTest::newRow("shard too short") << "[" + shard + "]" << QByteArray(8, 'a') << "less than its index";
        QTest::newRow("transpose not a permutation")
            << R"([{"name": "transpose", "configuration": {"order": [1]}}, )" + bytes + "]" << QByteArray()
            << "not a permutation";
    }
    void v3Stores() {
        QFETCH(QString, codecs);
        QFETCH(QByteArray, chunk);
        QFETCH(QString, problem);
        const QString store =
            dir_.path() + "/v3_" + QString(QTest::currentDataTag()).replace(' ', '_') + ".zarr";
        writeText(store + "/zarr.json", R"({"zarr_format": 3, "node_type": "group"})");
        writeText(store + "/x/zarr.json",
                  R"({"zarr_format": 3, "node_type": "array", "shape": [4], "data_type": "float32",
                  "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
                  "fill_value": 0, "dimension_names": ["n"], "codecs": )" +
                      codecs.toStdString() + "}");
        if (!chunk.isEmpty()) writeText(store + "/x/c/0", chunk.toStdString());
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": variable 'x'") && message.contains(problem),
                 qPrintable(message));
    }

    void v3MalformedJson() {
        const QString store = dir_.path() + "/v3_json.zarr";
        writeText(store + "/zarr.json", R"({"zarr_format": 3, "node_type": "group"})");
        writeText(store + "/x/zarr.json", R"({"zarr_format": 3, "node_type": "array", "shape": [4)");
        const QString message = failureOf(store);
        QVERIFY2(message.contains(store + ": 'x/zarr.json': malformed JSON"), qPrintable(message));
    }

    // Arrays without _ARRAY_DIMENSIONS (plain zarr, not xarray): dims dim_<i>, or <name>_dim_<i>
    // when dim_<i> is taken with another length; every array is kept.
    void unnamedDimsOfOtherLengths() {
        const QString store = dir_.path() + "/unnamed.zarr";
        writeText(store + "/.zgroup", R"({"zarr_format": 2})");
        writeText(store + "/a/.zarray", zarray("[3]", "[3]"));
        writeText(store + "/b/.zarray", zarray("[5]", "[2]"));
        OpenNotes notes;
        const Dataset ds = openZarr(store.toStdString(), notes);
        QVERIFY(notes.lines.empty());
        QCOMPARE(ds.findVariable("a")->dims(), std::vector<std::string>{"dim_0"});
        QCOMPARE(ds.findVariable("b")->dims(), std::vector<std::string>{"b_dim_0"});
        QCOMPARE(ds.findDim("b_dim_0")->length, std::int64_t(5));
    }

    // Attributes as Python's json writes them: bare NaN/Infinity are numbers, the text "NaN" is
    // text, lists of numbers are values, lists of text are joined, objects are kept as JSON.
    void attributesAsPythonWritesThem() {
        const QString store =
            arrayStore(dir_, "attrs", zarray("[3]", "[3]"),
                       R"({"_ARRAY_DIMENSIONS": ["n"], "missing_value": NaN, "top": Infinity,
                                            "comment": "NaN", "levels": [1, 2, 3], "names": ["a", "b"],
                                            "nested": {"k": 1}})");
        OpenNotes notes;
        const Dataset ds = openZarr(store.toStdString(), notes);
        const Attributes& a = ds.findVariable("x")->attrs();
        QVERIFY(std::isnan(a.number("missing_value").value_or(0)));
        QVERIFY(std::isinf(a.number("top").value_or(0)));
        QCOMPARE(a.text("comment").value_or(""), std::string("NaN"));
        QCOMPARE(a.find("levels")->numbers(), (std::vector<double>{1, 2, 3}));
        QCOMPARE(a.find("names")->text(), std::string("a, b"));
        QCOMPARE(a.text("nested").value_or(""), std::string(R"({"k":1})"));
        QVERIFY(!a.contains("_ARRAY_DIMENSIONS"));
    }

    // Types Strata does not hold are skipped with a note; the rest of the store opens.
    void unsupportedTypeIsANote() {
        const QString store = arrayStore(dir_, "complex", zarray("[4]", "[4]", "null", "<c8"));
        writeText(store + "/y/.zarray", zarray("[4]", "[4]"));
        writeText(store + "/y/.zattrs", R"({"_ARRAY_DIMENSIONS": ["n"]})");
        OpenNotes notes;
        const Dataset ds = openZarr(store.toStdString(), notes);
        QVERIFY(!ds.findVariable("x") && ds.findVariable("y"));
        QCOMPARE(notes.lines.size(), std::size_t(1));
        QVERIFY(notes.lines[0].find("variable 'x': skipped (dtype \"<c8\"") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestZarrHostile)
#include "tst_zarr_hostile.moc"
