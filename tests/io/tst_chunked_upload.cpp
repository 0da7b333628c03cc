// Chunked, filtered netCDF-4 variables loaded onto a device through the parallel reader: the
// reader's threads inflate chunks into pinned memory and the device unshuffles, byte-swaps and
// places them (the cuda row); the cpu row loads through the same reader on the host. Both are
// compared byte for byte with netCDF-C's own read of the same hyperslab: whole variables, boxes
// that start and end inside chunks, chunks never written (fill values), big-endian and packed
// data, and batches small enough that a variable takes many rounds through the staging.
#include "gpu_skip.h"
#include "test_seed.h"
#include <QtTest>

#include <cstring>
#include <random>

#include "load_tuning.h"
#include "nc_write.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

// The bytes of `a` loaded onto `device` (decoded, C order), back on the host.
std::vector<unsigned char> loadedBytes(const DataArray& a, Device device) {
    const Stream s = device.isHost() ? Stream::host() : defaultStream(device);
    const DataArray there = contiguous(a.load(device, s), s);
    const DataArray back = there.asHost();
    s.synchronize();
    const Variable& v = back.variable();
    const auto* p =
        static_cast<const unsigned char*>(v.buffer()->data()) + std::size_t(v.offset()) * sizeOf(v.dtype());
    return {p, p + v.nbytes()};
}

// Restores the read mode and the batch size whatever a test does.
struct Restore {
    ~Restore() {
        io::setReadMode(io::ReadMode::Parallel);
        detail::setUploadBatchBytes(0);
    }
};

} // namespace

class TestChunkedUpload : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string file_;
    std::uint64_t seed_ = 0;

    static void rows() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("cuda") << "cuda";
    }
    static Device target(const QString& backend) {
        return backend == "cuda" ? Device::cuda(0) : Device::host();
    }

    // Loads `a` on the backend through the parallel reader and through netCDF-C; equal bytes.
    void compare(const DataArray& a, const QString& backend, const char* what) {
        Restore restore;
        if (a.variable().source()) {
            const std::string path = a.variable().source()->readPath();
            QVERIFY2(path.rfind("parallel", 0) == 0, (std::string(what) + ": " + path).c_str());
        }
        const auto mine = loadedBytes(a, target(backend));
        io::setReadMode(io::ReadMode::NetcdfC);
        const auto theirs = loadedBytes(a, Device::host());
        QCOMPARE(mine.size(), theirs.size());
        QVERIFY2(mine == theirs,
                 (std::string(what) + ": bytes differ (seed " + std::to_string(seed_) + ")").c_str());
    }

private slots:
    void cleanup() { test::reportSeedOnFailure(); }
    void initTestCase() {
        seed_ = test::testSeed();
        std::mt19937_64 rng(seed_);
        file_ = dir_.filePath("chunked.nc").toStdString();
        nctest::Writer w(file_, NC_NETCDF4);
        const int t = w.dim("time", 9), y = w.dim("lat", 33), x = w.dim("lon", 45);
        // float32, shuffle + deflate, chunks that divide nothing, one chunk row never written.
        const int f = w.var("f", NC_FLOAT, {t, y, x});
        const size_t fc[3] = {2, 10, 16};
        nctest::ok(nc_def_var_chunking(w.id(), f, NC_CHUNKED, fc), "chunking f");
        nctest::ok(nc_def_var_deflate(w.id(), f, 1, 1, 4), "deflate f");
        w.att(f, "_FillValue", NC_FLOAT, std::vector<float>{-999.f});
        // int16, big-endian, packed, shuffle + deflate + fletcher32.
        const int s = w.var("s", NC_SHORT, {t, y, x});
        const size_t sc[3] = {3, 7, 45};
        nctest::ok(nc_def_var_chunking(w.id(), s, NC_CHUNKED, sc), "chunking s");
        nctest::ok(nc_def_var_deflate(w.id(), s, 1, 1, 9), "deflate s");
        nctest::ok(nc_def_var_fletcher32(w.id(), s, NC_FLETCHER32), "fletcher32 s");
        nctest::ok(nc_def_var_endian(w.id(), s, NC_ENDIAN_BIG), "endian s");
        w.att(s, "scale_factor", NC_DOUBLE, std::vector<double>{0.01});
        w.att(s, "add_offset", NC_DOUBLE, std::vector<double>{250});
        w.att(s, "_FillValue", NC_SHORT, std::vector<short>{-32767});
        // float64 chunked without compression, and uint8 with deflate only (no shuffle).
        const int d = w.var("d", NC_DOUBLE, {t, y, x});
        const size_t dc[3] = {4, 33, 8};
        nctest::ok(nc_def_var_chunking(w.id(), d, NC_CHUNKED, dc), "chunking d");
        const int b = w.var("b", NC_UBYTE, {t, y, x});
        const size_t bc[3] = {1, 16, 16};
        nctest::ok(nc_def_var_chunking(w.id(), b, NC_CHUNKED, bc), "chunking b");
        nctest::ok(nc_def_var_deflate(w.id(), b, 0, 1, 2), "deflate b");
        w.enddef();

        const std::size_t n = 9 * 33 * 45, perStep = 33 * 45;
        std::uniform_real_distribution<float> u(200, 320);
        std::vector<float> fv(n);
        for (auto& v : fv) v = u(rng);
        for (std::size_t i = 0; i < n; i += 97) fv[i] = std::nanf("");
        // Steps 4 and 5 (one chunk row of f) are never written: they read as the fill value.
        w.putAt(f, {0, 0, 0}, {4, 33, 45}, std::vector<float>(fv.begin(), fv.begin() + 4 * perStep));
        w.putAt(f, {6, 0, 0}, {3, 33, 45}, std::vector<float>(fv.begin() + 6 * perStep, fv.end()));
        std::vector<short> sv(n);
        std::uniform_int_distribution<int> si(-32768, 32767);
        for (auto& v : sv) v = short(si(rng));
        w.put(s, sv);
        std::vector<double> dv(n);
        for (auto& v : dv) v = double(u(rng)) * 1e-3;
        w.put(d, dv);
        std::vector<unsigned char> bv(n);
        for (auto& v : bv) v = static_cast<unsigned char>(rng() & 0x0f); // compressible
        w.put(b, bv);
    }

    void wholeVariables_data() { rows(); }
    void wholeVariables() {
        QFETCH(QString, backend);
        if (backend == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        const Dataset ds = openDataset(file_);
        for (const char* name : {"f", "s", "d", "b"}) compare(ds[name], backend, name);
    }

    // Many small rounds through the two staging slots: batches of one chunk row.
    void manyBatches_data() { rows(); }
    void manyBatches() {
        QFETCH(QString, backend);
        if (backend == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        Restore restore;
        detail::setUploadBatchBytes(1);
        const Dataset ds = openDataset(file_);
        for (const char* name : {"f", "s", "b"}) compare(ds[name], backend, name);
    }

    // Boxes that start and end inside chunks along every dim, and a single element.
    void boxesInsideChunks_data() { rows(); }
    void boxesInsideChunks() {
        QFETCH(QString, backend);
        if (backend == "cuda" && cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        Restore restore;
        detail::setUploadBatchBytes(1);
        const Dataset ds = openDataset(file_);
        for (const char* name : {"f", "s", "d"}) {
            const DataArray a = ds[name];
            compare(a.isel({{"time", Slice{1, 8, 1}}, {"lat", Slice{3, 29, 1}}, {"lon", Slice{5, 44, 1}}}),
                    backend, name);
            compare(a.isel({{"time", Slice{4, 6, 1}}}), backend, name); // f: only chunks never written
            compare(a.isel({{"time", Slice{7, 8, 1}}, {"lat", Slice{32, 33, 1}}, {"lon", Slice{44, 45, 1}}}),
                    backend, name);
        }
    }

    // The device path is taken: the source offers its chunks for the box, shuffled where the
    // file shuffles them, and the fill value for chunks never written is the file's.
    void offersItsChunks() {
        const Dataset ds = openDataset(file_);
        const DataArray fa = ds["f"];
        const Variable& f = fa.variable();
        const std::vector<std::int64_t> start{0, 0, 0}, count{9, 33, 45};
        const auto plan = f.source()->planChunks(start, count);
        QVERIFY(plan.has_value());
        QVERIFY(plan->grid.shuffled);
        QCOMPARE(plan->grid.chunk[1], std::int64_t(10));
        QCOMPARE(plan->storedChunks, std::uint64_t((5 - 1) * 4 * 3)); // chunk row 2 (steps 4-5) not stored
        float fill = 0;
        std::memcpy(&fill, plan->fill.data(), sizeof fill);
        QCOMPARE(fill, -999.f);
        QVERIFY(!ds["d"].variable().source()->planChunks(start, count)->grid.shuffled);
        Restore restore;
        io::setReadMode(io::ReadMode::NetcdfC);
        QVERIFY(!f.source()->planChunks(start, count).has_value());
    }
};

QTEST_GUILESS_MAIN(TestChunkedUpload)
#include "tst_chunked_upload.moc"
