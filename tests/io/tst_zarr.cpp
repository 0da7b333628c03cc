// Zarr v2 stores written by Debian's zarr 2.13, numcodecs and xarray (tests/io/zarr_stores.py,
// run here) read by Strata's own reader; the values zarr and xarray read back from the same
// stores are the oracle. Every codec, dtype, byte order, F order, ragged edge chunks, missing
// chunks as the fill value, filters, consolidated metadata, groups and CF time decoding. The Zarr v3
// fixtures (tests/data/zarr_v3) are committed: written from the specification by
// tests/io/zarr_v3_stores.py, and read as they are meant to hold by tensorstore on the GPU machine.
#include <QtTest>

#include <cmath>
#include <cstring>
#include <fstream>

#include "strata/core/error.h"
#include "strata/io/netcdf.h"
#include "strata/io/zarr.h"

using namespace strata;

namespace {

std::vector<unsigned char> fileBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return {b.begin(), b.end()};
}

std::vector<unsigned char> readRaw(const Variable& v, const std::vector<std::int64_t>& start,
                                   const std::vector<std::int64_t>& count,
                                   const std::vector<std::int64_t>& stride) {
    std::size_t n = 1;
    for (auto c : count) n *= std::size_t(c);
    std::vector<unsigned char> out(n * sizeOf(v.encoding().packed), 0xAB); // poison
    v.source()->read(start, count, stride, out.data());
    return out;
}

// The elements of a C-order array of `shape` at start + j * stride (the test's own indexing).
std::vector<unsigned char> subset(const std::vector<unsigned char>& all,
                                  const std::vector<std::int64_t>& shape, std::size_t elem,
                                  const std::vector<std::int64_t>& start,
                                  const std::vector<std::int64_t>& count,
                                  const std::vector<std::int64_t>& stride) {
    std::vector<unsigned char> out;
    std::vector<std::int64_t> j(shape.size(), 0);
    std::size_t n = 1;
    for (auto c : count) n *= std::size_t(c);
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t at = 0;
        for (std::size_t d = 0; d < shape.size(); ++d)
            at = at * std::size_t(shape[d]) + std::size_t(start[d] + j[d] * stride[d]);
        out.insert(out.end(), all.begin() + std::ptrdiff_t(at * elem),
                   all.begin() + std::ptrdiff_t((at + 1) * elem));
        for (std::size_t d = shape.size(); d-- > 0;) {
            if (++j[d] < count[d]) break;
            j[d] = 0;
        }
    }
    return out;
}

QString numpyName(DType t) {
    return t == DType::Float32   ? "float32"
           : t == DType::Float64 ? "float64"
                                 : QString::fromStdString(std::string(name(t)));
}

} // namespace

class TestZarr : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QJsonArray cases_; // v2 (zarr_stores.py) then v3 (zarr_v3_stores.py), each with its "dir"
    QJsonObject cf_;
    std::string store(const QString& name) const { return (dir_.path() + "/" + name).toStdString(); }
    static QString v3Dir() { return QString(STRATA_SOURCE_DIR) + "/tests/data/zarr_v3"; }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        QProcess py;
        py.start("/usr/bin/python3", {QString(STRATA_SOURCE_DIR) + "/tests/io/zarr_stores.py", dir_.path()});
        QVERIFY(py.waitForFinished(240000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        // The v3 fixtures are committed (tests/data/zarr_v3, written by zarr_v3_stores.py and
        // read by tensorstore on the GPU machine: tests/zarr/cross_check_tensorstore.py).
        for (const QString& dir : {dir_.path(), v3Dir()}) {
            QFile m(dir + "/manifest.json");
            QVERIFY2(m.open(QIODevice::ReadOnly), qPrintable(m.fileName()));
            for (const auto& c : QJsonDocument::fromJson(m.readAll()).array()) {
                QJsonObject o = c.toObject();
                o["dir"] = dir;
                cases_.append(o);
            }
        }
        QVERIFY(cases_.size() >= 50);
        QFile c(dir_.path() + "/cf.json");
        QVERIFY(c.open(QIODevice::ReadOnly));
        cf_ = QJsonDocument::fromJson(c.readAll()).object();
    }

    void valuesEqualZarr_data() {
        QTest::addColumn<int>("index");
        for (int i = 0; i < cases_.size(); ++i)
            QTest::newRow(cases_[i].toObject()["name"].toString().toUtf8().constData()) << i;
    }
    // The whole array, and a strided part of it, byte for byte as zarr reads it.
    void valuesEqualZarr() {
        QFETCH(int, index);
        const QJsonObject c = cases_[index].toObject();
        const std::string path = (c["dir"].toString() + "/" + c["store"].toString()).toStdString();
        QVERIFY(looksLikeZarr(path));
        const Dataset ds = openDataset(path); // the netCDF entry point hands a store to the Zarr reader
        QCOMPARE(QString::fromStdString(ds.format), QString("Zarr v%1").arg(c["format"].toInt(2)));
        const Variable* v = ds.findVariable(c["variable"].toString().toStdString());
        QVERIFY(v);
        QCOMPARE(numpyName(v->encoding().packed),
                 c["dtype"].toString() == "bool" ? "uint8" : c["dtype"].toString());
        std::vector<std::int64_t> shape;
        for (const auto& s : c["shape"].toArray()) shape.push_back(s.toInteger());
        QCOMPARE(v->shape(), shape);
        const auto expected = fileBytes(c["dir"].toString() + "/" + c["name"].toString() + ".bin");
        const std::vector<std::int64_t> zero(shape.size(), 0), one(shape.size(), 1);
        const auto got = readRaw(*v, zero, shape, one);
        QCOMPARE(got.size(), expected.size());
        QVERIFY2(got == expected, "values differ from zarr's");
        // start 1, stride 2 (or 3 along the first dim): chunks skipped and met in part.
        std::vector<std::int64_t> start(shape.size()), count(shape.size()), stride(shape.size());
        bool fits = true;
        for (std::size_t d = 0; d < shape.size(); ++d) {
            start[d] = shape[d] > 1 ? 1 : 0;
            stride[d] = d == 0 ? 3 : 2;
            count[d] = (shape[d] - start[d] + stride[d] - 1) / stride[d];
            fits = fits && count[d] > 0;
        }
        if (fits) {
            const std::size_t elem = sizeOf(v->encoding().packed);
            QVERIFY(readRaw(*v, start, count, stride) == subset(expected, shape, elem, start, count, stride));
        }
    }

    // Chunks never written read as the fill value; the store really lacks them.
    void missingChunksAreFill() {
        const std::string path = store("fill_number.zarr");
        QVERIFY(QFile::exists(QString::fromStdString(path) + "/0.0"));
        QVERIFY(!QFile::exists(QString::fromStdString(path) + "/1.1"));
        const Dataset ds = openDataset(path);
        const auto got = readRaw(*ds.findVariable("fill_number"), {4, 5}, {4, 5}, {1, 1});
        float first;
        std::memcpy(&first, got.data(), 4);
        QCOMPARE(first, -999.0f);
        // xarray's reading: the fill_value is the _FillValue, so those values decode to NaN.
        QVERIFY(ds.findVariable("fill_number")->attrs().number("_FillValue") == -999.0);
        const auto decoded = ds["fill_number"].load(Device::host(), Stream::host()).values<double>();
        QVERIFY(std::isnan(decoded[5 * 12 + 6]));
        QVERIFY(!std::isnan(decoded[0]));
    }

    // bitround: what zarr reads (valuesEqualZarr's row), and the store's values really rounded
    // to 7 mantissa bits (the low 16 of float32's 23 zero), so the row is not a plain float case.
    void bitroundReadsAsStored() {
        const Dataset ds = openDataset(store("filter_bitround.zarr"));
        const Variable* v = ds.findVariable("filter_bitround");
        QVERIFY(v);
        QCOMPARE(v->shape(), (std::vector<std::int64_t>{11, 13}));
        const auto got = readRaw(*v, {0, 0}, {11, 13}, {1, 1});
        QCOMPARE(got.size(), std::size_t(11 * 13 * 4));
        int rounded = 0;
        for (std::size_t i = 0; i < got.size(); i += 4) {
            std::uint32_t bits;
            std::memcpy(&bits, got.data() + i, 4);
            QCOMPARE(bits & 0xFFFFu, 0u);
            rounded += (bits & 0x7F0000u) != 0;
        }
        QVERIFY(rounded > 100); // the kept bits are used
    }

    // A compressor Strata does not decode: the store opens, and reading names the codec.
    void unsupportedCodecNamesIt() {
        OpenNotes notes;
        const Dataset ds = openZarr(store("codec_bz2.zarr"), notes);
        QVERIFY(!notes.lines.empty() && notes.lines[0].find("bz2") != std::string::npos);
        QString message;
        try {
            readRaw(*ds.findVariable("codec_bz2"), {0}, {6}, {1});
        } catch (const NetcdfError& e) {
            message = e.what();
        }
        QVERIFY2(message.contains("codec 'bz2' is not supported") && message.contains("codec_bz2.zarr") &&
                     message.contains("variable 'codec_bz2'"),
                 qPrintable(message));
    }

    // v3 metadata: dimension_names, attributes, a group's attributes, CF times.
    void v3Metadata() {
        const Dataset ds = openDataset((v3Dir() + "/v3_bytes.zarr").toStdString());
        QCOMPARE(ds.attrs.text("title").value_or(""), std::string("v3 group"));
        const Variable* h = ds.findVariable("height");
        QVERIFY(h);
        QCOMPARE(h->dims(), (std::vector<std::string>{"y", "x"}));
        QCOMPARE(h->attrs().text("units").value_or(""), std::string("m"));
        QVERIFY(!h->attrs().contains("_FillValue")); // a v3 fill_value is not a mask (as xarray)
        const Dataset t = openDataset((v3Dir() + "/v3_time.zarr").toStdString());
        const Coordinate* time = t.coords.find("time");
        QVERIFY(time && time->time);
        QFile f(v3Dir() + "/v3_time.dates.json");
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray dates = QJsonDocument::fromJson(f.readAll()).array();
        QCOMPARE(qsizetype(time->time->dates.size()), dates.size());
        for (qsizetype i = 0; i < dates.size(); ++i)
            QCOMPARE(QString::fromStdString(time->time->dates[std::size_t(i)].iso()), dates[i].toString());
    }

    // xarray's to_zarr (consolidated, a group): CF decoding, times, coordinates as xarray reads them.
    void xarrayDatasetAsXarrayReadsIt() {
        const std::string path = store("cf.zarr");
        QVERIFY(QFile::exists(QString::fromStdString(path) + "/.zmetadata"));
        OpenNotes notes;
        const Dataset ds = openDataset(path, notes);
        QCOMPARE(ds.attrs.text("title").value_or(""), std::string("strata zarr test"));
        QCOMPARE(ds.attrs.number("version").value_or(0), 3.0);
        const Dimension* time = ds.findDim("time");
        QVERIFY(time && time->length == 6);
        const Coordinate* t = ds.coords.find("time");
        QVERIFY(t && t->time);
        const QJsonArray times = cf_["time"].toArray();
        QCOMPARE(qsizetype(t->time->dates.size()), times.size());
        for (qsizetype i = 0; i < times.size(); ++i)
            QCOMPARE(QString::fromStdString(t->time->dates[std::size_t(i)].iso()), times[i].toString());
        const Coordinate* lat = ds.coords.find("lat");
        QVERIFY(lat);
        for (qsizetype i = 0; i < cf_["lat"].toArray().size(); ++i)
            QCOMPARE(lat->values[std::size_t(i)], cf_["lat"].toArray()[i].toDouble());
        for (const char* name : {"temp", "packed"}) {
            const auto got = ds[name].load(Device::host(), Stream::host()).values<double>();
            const QJsonArray want = cf_[name].toArray();
            QCOMPARE(qsizetype(got.size()), want.size());
            for (qsizetype i = 0; i < want.size(); ++i) {
                if (want[i].isNull()) {
                    QVERIFY2(std::isnan(got[std::size_t(i)]), name);
                } else {
                    const double w = want[i].toDouble();
                    QVERIFY2(std::abs(got[std::size_t(i)] - w) <= 1e-6 * std::abs(w), name);
                }
            }
        }
        // The packed int16 variable masks its _FillValue (zarr's fill_value) and unpacks.
        QCOMPARE(ds.findVariable("packed")->encoding().packed, DType::Int16);
        const Dataset& ocean = ds.findGroup("/ocean");
        QCOMPARE(QString::fromStdString(ocean.format), QString("Zarr v2"));
        const auto depth = ocean["depth"].load(Device::host(), Stream::host()).values<double>();
        QCOMPARE(depth, (std::vector<double>{5, 10, 20}));
        QVERIFY(ocean.coords.find("time")); // inherited from the root, as netCDF groups do
    }
};

QTEST_GUILESS_MAIN(TestZarr)
#include "tst_zarr.moc"
