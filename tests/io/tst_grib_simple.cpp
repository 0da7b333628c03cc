// GRIB's simple packing decoded by Strata (strata/core/simple_unpack.h) on the host (`cpu`)
// and on a CUDA device (`cuda`, skipped without one), against ecCodes' own decode of the same
// messages: tests/data/grib/simple_packing.grib2 (make_grib_fixtures.py: random fields at 0, 1,
// 7, 13, 16, 24, 31 and 17 bits, a decimal scale, bitmaps ending mid-byte), bit for bit; and
// the reader's load of such a variable onto the device, which goes through it.
#include <QtTest>

#include <cmath>
#include <cstring>

#include "gpu_skip.h"
#include "grib_handle.h"
#include "grib_scan.h"
#include "grib_simple.h"
#include "strata/core/runtime.h"
#include "strata/core/stream.h"
#include "strata/io/grib.h"

using namespace strata;
using namespace strata::io::detail;

namespace {

const std::string kFile = std::string(STRATA_TEST_DATA) + "/grib/simple_packing.grib2";
constexpr std::int64_t kPoints = 37 * 23;

Device deviceOf(bool cuda) { return cuda ? Device::cuda(0) : Device::host(); }

std::vector<float> toHost(const Buffer& b, Device device) {
    std::vector<float> out(b.size() / sizeof(float));
    copyBytes(out.data(), Device::host(), b.data(), device, b.size(),
              device.isCuda() ? defaultStream(device) : Stream::host());
    if (device.isCuda()) defaultStream(device).synchronize();
    return out;
}

// Equal as float32 bits, NaN where NaN.
QString differs(const std::vector<float>& got, const std::vector<double>& want, std::size_t field) {
    for (std::size_t i = 0; i < want.size(); ++i) {
        const float w = float(want[i]), g = got[field * want.size() + i];
        const bool same = std::isnan(w) ? std::isnan(g) : std::memcmp(&w, &g, sizeof w) == 0;
        if (!same)
            return QString("field %1, point %2: %3, ecCodes %4")
                .arg(field)
                .arg(i)
                .arg(g, 0, 'g', 9)
                .arg(w, 0, 'g', 9);
    }
    return {};
}

#define BACKEND_ROW()                                                                                        \
    QFETCH(bool, cuda);                                                                                      \
    if (cuda && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");                           \
    const Device device = deviceOf(cuda)

} // namespace

class TestGribSimple : public QObject {
    Q_OBJECT

    std::shared_ptr<GribFiles> files_;
    std::vector<GribField> fields_;
    std::vector<std::vector<double>> ecCodes_; // each message's values, decoded by ecCodes
    std::vector<int> bits_;

    void rows() {
        QTest::addColumn<bool>("cuda");
        QTest::newRow("cpu") << false;
        QTest::newRow("cuda") << true;
    }

private slots:
    void initTestCase() {
        if (!io::gribSupported()) QSKIP("built without ecCodes");
        files_ = std::make_shared<GribFiles>();
        files_->files.push_back(RawFile::open(kFile, kFile));
        files_->paths.push_back(kFile);
        const GribScan scan = scanGribMessages(*files_->files[0], kFile);
        for (const GribSpan& s : scan.messages) {
            fields_.push_back({s, true, false});
            const GribHandle h = GribHandle::read(*files_->files[0], s, kFile);
            ecCodes_.push_back(h.values(std::size_t(kPoints), 37, false));
            long bits = -1;
            codes_get_long(h.get(), "bitsPerValue", &bits);
            bits_.push_back(int(bits));
        }
        QCOMPARE(bits_, (std::vector<int>{0, 1, 7, 13, 16, 24, 31, 17}));
    }

    // Every message, with a missing field between two, decoded as ecCodes decodes it.
    void matchesEcCodes_data() { rows(); }
    void matchesEcCodes() {
        BACKEND_ROW();
        std::vector<GribField> asked = fields_;
        asked.insert(asked.begin() + 2, GribField{}); // no message: NaN
        std::string why;
        const auto batch = gribSimpleBatch(*files_, asked, kPoints, why);
        QVERIFY2(batch, why.c_str());
        const Buffer out = unpackSimple(batch->bytes, batch->fields, kPoints, device,
                                        cuda ? defaultStream(device) : Stream::host());
        QCOMPARE(out.size(), asked.size() * std::size_t(kPoints) * sizeof(float));
        const std::vector<float> got = toHost(out, device);
        int holes = 0;
        for (std::size_t f = 0, m = 0; f < asked.size(); ++f) {
            if (!asked[f].present) {
                for (std::int64_t i = 0; i < kPoints; ++i)
                    QVERIFY(std::isnan(got[f * std::size_t(kPoints) + std::size_t(i)]));
                continue;
            }
            const QString d = differs(got, ecCodes_[m], f);
            QVERIFY2(d.isEmpty(), qPrintable(QString("%1 bits: ").arg(bits_[m]) + d));
            for (double v : ecCodes_[m]) holes += std::isnan(v);
            ++m;
        }
        QVERIFY(holes > 300); // the bitmaps were exercised (about a fifth of two fields)
    }

    // A data section too short for its points, or a field of 33 bits: a clear error, no read
    // past the batch.
    void refusesBadFields_data() { rows(); }
    void refusesBadFields() {
        BACKEND_ROW();
        std::string why;
        auto batch = gribSimpleBatch(*files_, fields_, kPoints, why);
        QVERIFY(batch);
        const Stream stream = cuda ? defaultStream(device) : Stream::host();
        auto fields = batch->fields;
        fields[4].dataBytes /= 2;
        try {
            unpackSimple(batch->bytes, fields, kPoints, device, stream);
            QFAIL("a short data section was decoded");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("field 4") != std::string::npos, e.what());
        }
        fields = batch->fields;
        fields[1].bits = 33;
        QVERIFY_THROWS_EXCEPTION(ValueError, unpackSimple(batch->bytes, fields, kPoints, device, stream));
        fields = batch->fields;
        fields[0].data = batch->bytes.size() + 1;
        QVERIFY_THROWS_EXCEPTION(ValueError, unpackSimple(batch->bytes, fields, kPoints, device, stream));
    }

    // Not simple packing, or GRIB 1: left to ecCodes, with the reason.
    void leavesOthersToEcCodes() {
        const std::string grib1 = std::string(STRATA_TEST_DATA) + "/grib/gaussian.grib1";
        GribFiles other;
        other.files.push_back(RawFile::open(grib1, grib1));
        other.paths.push_back(grib1);
        const GribScan scan = scanGribMessages(*other.files[0], grib1);
        std::vector<GribField> one{{scan.messages[0], true, false}};
        std::string why;
        QVERIFY(!gribSimpleBatch(other, one, 64 * 128, why));
        QVERIFY2(why.find("gaussian.grib1: message 1") != std::string::npos &&
                     why.find("not GRIB 2") != std::string::npos,
                 why.c_str());
    }

    // The reader's load onto the device decodes there, and agrees with its host load (ecCodes).
    void loadsOntoTheDevice() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        OpenNotes notes;
        const Dataset ds = openGrib(kFile, notes);
        const DataArray t = ds["t2m"];
        const std::vector<double> host = t.asHost().values<double>();
        const Device device = Device::cuda(0);
        const DataArray onDevice = t.load(device, defaultStream(device));
        QCOMPARE(onDevice.device(), device);
        const std::vector<double> back = onDevice.asHost().values<double>();
        QCOMPARE(back.size(), host.size());
        for (std::size_t i = 0; i < host.size(); ++i)
            QVERIFY2(std::isnan(host[i]) ? std::isnan(back[i]) : back[i] == host[i],
                     qPrintable(QString::number(i)));
    }
};

QTEST_APPLESS_MAIN(TestGribSimple)
#include "tst_grib_simple.moc"
