// Failures of the device a file's variable goes to: out of memory on the upload or in an
// operation, no device, a device lost while running. Simulated by the allocation-fault hook
// (core/src/fault_injection.h). On a GPU the variable falls back to the CPU with a reason; on the
// host (nothing to fall back to) the error is clear and the next request works.
#include "gpu_skip.h"
#include <QtTest>

#include <cmath>

#include "fault_injection.h"
#include "nc_write.h"
#include "strata/core/error.h"
#include "strata/core/fallback.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"

using namespace strata;

namespace {

constexpr int kT = 4, kX = 1000;

// v[t][x] = (1000 t + x) / 2, so the mean over t is 750 + x / 2.
double expectedMean(int x) { return 750.0 + 0.5 * x; }

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

DataArray meanOverTime(const DataArray& a) { return reduce(a, {"t"}, ReduceOp::Mean); }

bool isExpectedMean(const DataArray& m) {
    const DataArray h = m.asHost();
    if (h.shape() != Shape{kX}) return false;
    const auto values = h.values<double>();
    for (int x = 0; x < kX; ++x)
        if (std::fabs(values[x] - expectedMean(x)) > 1e-4) return false;
    return true;
}

} // namespace

class TestDeviceFailures : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string file_;

    DataArray source() const { return openDataset(file_)["v"]; }
    static void rows() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cpu") << "cpu";
        QTest::newRow("cuda") << "cuda";
    }
    static bool noDeviceFor(const QString& backend) { return backend == "cuda" && cudaDeviceCount() == 0; }
    static Device target(const QString& backend) {
        return backend == "cuda" ? Device::cuda(0) : Device::host();
    }
    static Stream streamOf(Device d) { return d.isHost() ? Stream::host() : defaultStream(d); }

private slots:
    void initTestCase() {
        file_ = dir_.filePath("faults.nc").toStdString();
        nctest::Writer w(file_, NC_NETCDF4);
        const int t = w.dim("t", kT), x = w.dim("x", kX);
        const int v = w.var("v", NC_FLOAT, {t, x});
        w.enddef();
        std::vector<float> values(kT * kX);
        for (int i = 0; i < kT * kX; ++i) values[i] = 0.5f * float(i);
        w.put(v, values);
    }
    void init() {
        detail::clearAllocationFault();
        resetUnusable();
    }
    void cleanup() {
        detail::clearAllocationFault();
        resetUnusable();
    }

    void injectorCountsAllocations() {
        detail::injectAllocationFault(detail::InjectedFault::OutOfMemory, DeviceKind::Host, 1, 1);
        Buffer first(1 << 20, Device::host(), Stream::host()); // skipped
        const QString m = errorOf<OutOfMemoryError>([] { Buffer(1 << 20, Device::host(), Stream::host()); });
        QVERIFY2(m.contains("out of host memory: could not allocate 1 MiB"), qPrintable(m));
        Buffer third(1 << 20, Device::host(), Stream::host()); // the one failure is spent
        QCOMPARE(third.size(), std::size_t(1) << 20);
    }

    void uploadOutOfMemory_data() { rows(); }
    void uploadOutOfMemory() {
        QFETCH(QString, backend);
        if (noDeviceFor(backend)) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        const Device d = target(backend);
        const DataArray v = source();
        detail::injectAllocationFault(detail::InjectedFault::OutOfMemory, d.kind);
        FallbackNote note;
        if (d.isCuda()) {
            const DataArray got = loadWithFallback(v, d, streamOf(d), note);
            QVERIFY(got.device().isHost());
            const QString r = QString::fromStdString(note.reason);
            QVERIFY2(note.fellBack && r.contains("faults.nc: variable 'v'") &&
                         r.contains("out of GPU memory on cuda:0") && r.contains("loaded on the CPU instead"),
                     qPrintable(r));
            QVERIFY(deviceUsable(d)); // running out of memory is not a broken device
            QVERIFY(isExpectedMean(meanOverTime(got)));
        } else {
            const QString m = errorOf<OutOfMemoryError>([&] { loadWithFallback(v, d, streamOf(d), note); });
            QVERIFY2(m.contains("faults.nc: variable 'v'") && m.contains("out of host memory"),
                     qPrintable(m));
        }
        detail::clearAllocationFault(); // the app goes on: the next load works
        QVERIFY(isExpectedMean(meanOverTime(loadWithFallback(v, d, streamOf(d), note))));
        QVERIFY(!note.fellBack && note.reason.empty());
    }

    void operationOutOfMemory_data() { rows(); }
    void operationOutOfMemory() {
        QFETCH(QString, backend);
        if (noDeviceFor(backend)) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        const Device d = target(backend);
        const DataArray v = source();
        FallbackNote note;
        const DataArray resident = loadWithFallback(v, d, streamOf(d), note);
        QVERIFY(!note.fellBack && resident.device() == d);
        detail::injectAllocationFault(detail::InjectedFault::OutOfMemory, d.kind); // the output cannot be had
        if (d.isCuda()) {
            const DataArray m = computeWithFallback(v, resident, meanOverTime, note);
            QVERIFY(m.device().isHost());
            const QString r = QString::fromStdString(note.reason);
            QVERIFY2(note.fellBack && r.contains("faults.nc: variable 'v'") &&
                         r.contains("out of GPU memory") && r.contains("computed on the CPU instead"),
                     qPrintable(r));
            QVERIFY(isExpectedMean(m));
        } else {
            const QString m =
                errorOf<OutOfMemoryError>([&] { computeWithFallback(v, resident, meanOverTime, note); });
            QVERIFY2(m.contains("faults.nc: variable 'v'") && m.contains("out of host memory"),
                     qPrintable(m));
        }
        detail::clearAllocationFault();
        QVERIFY(isExpectedMean(computeWithFallback(v, resident, meanOverTime, note)));
        QVERIFY(!note.fellBack);
    }

    // A cuda row alone (the host cannot be lost): it names the function as a GPU one, so the GPU
    // machine's sanitizer runs, which take the cuda rows, include it.
    void deviceLostWhileRunning_data() {
        QTest::addColumn<QString>("backend");
        QTest::newRow("cuda") << "cuda";
    }
    void deviceLostWhileRunning() {
        if (noDeviceFor("cuda")) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        const Device d = Device::cuda(0);
        const DataArray v = source();
        FallbackNote note;
        const DataArray resident = loadWithFallback(v, d, streamOf(d), note);
        QVERIFY(resident.device() == d);
        detail::injectAllocationFault(detail::InjectedFault::DeviceLost, DeviceKind::Cuda);
        const DataArray m = computeWithFallback(v, resident, meanOverTime, note);
        QVERIFY(note.fellBack && m.device().isHost() && isExpectedMean(m));
        QVERIFY(!deviceUsable(d));
        QVERIFY2(QString::fromStdString(whyUnusable(d)).contains("device lost"), whyUnusable(d).c_str());
        // Later variables go straight to the host, saying why.
        const DataArray again = loadWithFallback(v, d, streamOf(d), note);
        QVERIFY(again.device().isHost());
        QVERIFY2(QString::fromStdString(note.reason).contains("cuda:0 was marked unusable earlier"),
                 note.reason.c_str());
    }

    void noSuchDevice() {
        // Ordinal 99 exists on no machine (and in a build without CUDA no ordinal does).
        const DataArray v = source();
        FallbackNote note;
        const DataArray got = loadWithFallback(v, Device::cuda(99), Stream::host(), note);
        QVERIFY(got.device().isHost());
        const QString r = QString::fromStdString(note.reason);
        QVERIFY2(note.fellBack && r.contains("faults.nc: variable 'v'") &&
                     (r.contains("no usable CUDA device cuda:99") ||
                      r.contains("this build has no CUDA backend")) &&
                     r.contains("loaded on the CPU instead"),
                 qPrintable(r));
        QVERIFY(isExpectedMean(meanOverTime(got)));
        QVERIFY(deviceUsable(Device::host()));
    }

    void theComputeDeviceSaysWhy() {
        // Where the app starts: without a device the reason is there for the status bar.
        const ComputeInfo& info = computeInfo();
        if (cudaDeviceCount() == 0) {
            QVERIFY(info.device.isHost());
            QVERIFY2(!info.reason.empty(), "no reason given for running on the CPU");
        } else {
            QVERIFY(info.device.isCuda() || !info.reason.empty());
        }
    }
};

QTEST_GUILESS_MAIN(TestDeviceFailures)
#include "tst_device_failures.moc"
