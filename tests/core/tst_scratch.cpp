// Device scratch (the partials a CUDA reduction merges) is a Buffer like any other device
// memory: it counts in the bytes held on the device, and an injected out-of-memory reaches it.
// GPU only: the host reductions take no scratch.
#include "test_util.h"

#include "fault_injection.h"
#include "strata/core/transfer.h"

using namespace strata;

namespace {

// A whole-array sum of this many floats is split over many blocks whose partials a second
// kernel merges: scratch of (blocks × accumulator) bytes beside the one-value result.
constexpr std::int64_t kValues = std::int64_t(1) << 22;

DataArray onDevice() {
    const DataArray host =
        test::makeArray(DType::Float32, {"x"}, {kValues}, std::vector<double>(kValues, 1.0));
    return host.asDevice(Device::cuda(0), defaultStream(Device::cuda(0)));
}

} // namespace

class TestScratch : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { detail::clearAllocationFault(); }

    void counted() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const DataArray a = onDevice();
        defaultStream(Device::cuda(0)).synchronize();
        const std::uint64_t before = bytesHeld().device;
        resetPeakBytes();
        const DataArray sum = reduce(a, {"x"}, ReduceOp::Sum);
        QCOMPARE(sum.asHost().values<double>().front(), double(kValues));
        const std::uint64_t result = std::uint64_t(sizeOf(sum.dtype()));
        // More than the result was held at once: the partials, counted as they were allocated.
        QVERIFY2(peakBytesHeld().device - before > result,
                 qPrintable(QString("peak %1 bytes above the input, result %2 bytes")
                                .arg(peakBytesHeld().device - before)
                                .arg(result)));
    }

    void outOfMemory() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const DataArray a = onDevice();
        defaultStream(Device::cuda(0)).synchronize();
        const std::uint64_t before = bytesHeld().device;
        // The result's allocation goes through; the next one on the device (the scratch) fails.
        detail::injectAllocationFault(detail::InjectedFault::OutOfMemory, DeviceKind::Cuda, 1, 1);
        try {
            reduce(a, {"x"}, ReduceOp::Sum);
            QFAIL("the scratch's allocation did not see the injected fault");
        } catch (const OutOfMemoryError& e) {
            QVERIFY2(std::string(e.what()).find("out of GPU memory") != std::string::npos, e.what());
        }
        detail::clearAllocationFault();
        QCOMPARE(bytesHeld().device, before); // the result, allocated before the failure, is freed
        const DataArray sum = reduce(a, {"x"}, ReduceOp::Sum); // and the next request works
        QCOMPARE(sum.asHost().values<double>().front(), double(kValues));
    }
};

QTEST_APPLESS_MAIN(TestScratch)
#include "tst_scratch.moc"
