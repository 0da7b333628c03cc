// Whole Zarr variables loaded the way the residency and the device upload load them: in slabs
// that follow the store's chunks along the outer dim, so that every chunk is fetched and
// decoded exactly once (the store's chunks are 10 steps; a slab budget of 15 steps used to
// decode a third of them twice). The values are compared with zarr-python's reading of the same
// store (tests/io/zarr_load_store.py); the decodes are counted by the source itself. The cuda
// rows load onto the device (pinned staging); they skip where there is no CUDA device.
// STRATA_ZARR_LOAD_DIR names a folder that script wrote beforehand (for the GPU machine, which has
// no zarr-python).
#include "gpu_skip.h"
#include <QtTest>

#include <atomic>
#include <cstring>

#include "load_tuning.h"
#include "strata/core/load_plan.h"
#include "strata/core/ops.h"
#include "strata/core/residency.h"
#include "strata/core/runtime.h"
#include "strata/io/zarr.h"
#include "zarr_source.h"

using namespace strata;

namespace {

constexpr std::int64_t kSteps = 45;

struct Restore {
    ~Restore() { detail::setUploadBatchBytes(0); }
};

std::vector<unsigned char> hostBytes(const DataArray& a) {
    const DataArray back = contiguous(a, a.variable().buffer()->stream()).asHost();
    const Variable& v = back.variable();
    const auto* p =
        static_cast<const unsigned char*>(v.buffer()->data()) + std::size_t(v.offset()) * sizeOf(v.dtype());
    return {p, p + v.nbytes()};
}

const io::detail::ZarrSource& zarrSource(const DataArray& a) {
    const auto* z = dynamic_cast<const io::detail::ZarrSource*>(a.variable().source().get());
    if (!z) throw std::runtime_error(a.name() + " is not read by the Zarr reader");
    return *z;
}

} // namespace

class TestZarrLoad : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString writtenDir_; // the store and the oracle's .bin files
    std::string store_;

    static void rows() {
        QTest::addColumn<QString>("backend");
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("chunks"); // the test's own count: 5 along time x the inner chunks
        for (const char* b : {"cpu", "cuda"}) {
            QTest::newRow((std::string(b) + " a").c_str()) << b << "a" << 5 * 1 * 1;
            QTest::newRow((std::string(b) + " b").c_str()) << b << "b" << 5 * 3 * 1;
        }
    }
    static Device target(const QString& backend) {
        return backend == "cuda" ? Device::cuda(0) : Device::host();
    }
    std::vector<unsigned char> expected(const QString& name) const {
        QFile f(writtenDir_ + "/" + name + ".bin");
        if (!f.open(QIODevice::ReadOnly)) return {};
        const QByteArray b = f.readAll();
        return {b.begin(), b.end()};
    }
    std::size_t stepBytes(const DataArray& a) const { return a.variable().nbytes() / std::size_t(kSteps); }

private slots:
    void initTestCase() {
        // Where zarr-python is not installed (the GPU machine), the store and its oracle are
        // written beforehand by the same script on a machine that has it, and named here.
        const QString written = qEnvironmentVariable("STRATA_ZARR_LOAD_DIR");
        if (!written.isEmpty()) {
            QVERIFY2(QFile::exists(written + "/load.zarr/.zmetadata"),
                     qPrintable(written + " holds no load.zarr"));
            writtenDir_ = written;
            store_ = (written + "/load.zarr").toStdString();
            return;
        }
        QVERIFY(dir_.isValid());
        writtenDir_ = dir_.path();
        QProcess py;
        py.start("/usr/bin/python3",
                 {QString(STRATA_SOURCE_DIR) + "/tests/io/zarr_load_store.py", dir_.path()});
        QVERIFY(py.waitForFinished(120000));
        QVERIFY2(py.exitCode() == 0, py.readAllStandardError().constData());
        store_ = (dir_.path() + "/load.zarr").toStdString();
    }

    // The residency's load (loadWhole) with slabs of 15 steps: every chunk decoded once.
    void residencyLoadDecodesEachChunkOnce_data() { rows(); }
    void residencyLoadDecodesEachChunkOnce() {
        QFETCH(QString, backend);
        QFETCH(QString, name);
        QFETCH(int, chunks);
        if (backend == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        OpenNotes notes;
        const Dataset ds = openZarr(store_, notes);
        const DataArray a = ds[name.toStdString()];
        const Device device = target(backend);
        Restore restore;
        detail::setUploadBatchBytes(15 * stepBytes(a)); // loadWhole's slabs are 15 steps
        const Stream s = device.isHost() ? Stream::host() : defaultStream(device);
        const DataArray loaded = loadWhole(a, device, s, {}, CancelToken(), 15 * stepBytes(a));
        QVERIFY(loaded.isLoaded());
        s.synchronize();
        QCOMPARE(zarrSource(a).chunksDecoded(), std::uint64_t(chunks));
        QVERIFY(hostBytes(loaded) == expected(name));
    }

    // Variable::load onto the backend with an upload budget of 15 steps (the device's pinned
    // staging slabs): every chunk decoded once, the values zarr's.
    void deviceLoadDecodesEachChunkOnce_data() { rows(); }
    void deviceLoadDecodesEachChunkOnce() {
        QFETCH(QString, backend);
        QFETCH(QString, name);
        QFETCH(int, chunks);
        if (backend == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        Restore restore;
        OpenNotes notes;
        const Dataset ds = openZarr(store_, notes);
        const DataArray a = ds[name.toStdString()];
        detail::setUploadBatchBytes(15 * stepBytes(a));
        const Device device = target(backend);
        const Stream s = device.isHost() ? Stream::host() : defaultStream(device);
        const DataArray loaded = a.load(device, s);
        s.synchronize();
        QCOMPARE(zarrSource(a).chunksDecoded(), std::uint64_t(chunks));
        QVERIFY(hostBytes(loaded) == expected(name));
    }

    // The device upload's plan (what the cuda rows run), read slab by slab on the host as the
    // upload reads it into pinned memory: whole chunks, each decoded once, zarr's values.
    void uploadPlanFollowsChunks() {
        Restore restore;
        OpenNotes notes;
        const Dataset ds = openZarr(store_, notes);
        const DataArray a = ds["a"];
        detail::setUploadBatchBytes(15 * stepBytes(a));
        const std::vector<SlabRows> want{{0, 10}, {10, 10}, {20, 10}, {30, 10}, {40, 5}};
        QVERIFY(uploadSlabPlan(a.variable()) == want);
        std::vector<unsigned char> got(a.variable().nbytes());
        for (const SlabRows& slab : want) {
            const std::vector<std::int64_t> start{slab.first, 0, 0}, count{slab.count, 12, 20}, step{1, 1, 1};
            a.variable().source()->read(start, count, step,
                                        got.data() + std::size_t(slab.first) * stepBytes(a));
        }
        QCOMPARE(zarrSource(a).chunksDecoded(), std::uint64_t(5));
        QVERIFY(got == expected("a"));
        // A load from step 5: its first slab ends where the first chunk does.
        const DataArray part = a.isel({Indexer{"time", Slice{5, kSteps, 1}}});
        const std::vector<SlabRows> fromFive{{0, 5}, {5, 10}, {15, 10}, {25, 10}, {35, 5}};
        QVERIFY(uploadSlabPlan(part.variable()) == fromFive);
    }

    // Chunks of 10 steps with a budget of 3: each chunk in slabs of 2 or 3 steps (never across
    // chunks), so each is decoded once per slab (4 + 4 + 4 + 4 + 2), and the values are right.
    void chunkLargerThanBudget_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("cuda") << "cuda";
    }
    void chunkLargerThanBudget() {
        QFETCH(QString, backend);
        if (backend == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        Restore restore;
        OpenNotes notes;
        const Dataset ds = openZarr(store_, notes);
        const DataArray a = ds["a"];
        detail::setUploadBatchBytes(3 * stepBytes(a));
        const std::vector<SlabRows> plan = uploadSlabPlan(a.variable());
        QCOMPARE(plan.size(), std::size_t(18));
        QCOMPARE(largestSlab(plan), std::int64_t(3));
        const Device device = target(backend);
        const Stream s = device.isHost() ? Stream::host() : defaultStream(device);
        const DataArray loaded = loadWhole(a, device, s, {}, CancelToken(), 3 * stepBytes(a));
        QVERIFY(loaded.isLoaded());
        s.synchronize();
        QCOMPARE(zarrSource(a).chunksDecoded(), std::uint64_t(18));
        QVERIFY(hostBytes(loaded) == expected("a"));
    }
};

QTEST_GUILESS_MAIN(TestZarrLoad)
#include "tst_zarr_load.moc"
