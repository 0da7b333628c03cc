// Streamed reductions (reduceStreamed, minmaxStreamed, and computeFrame's streamed path): equal
// to the in-memory reduction for every op, along the first dim (partials merged) and along
// another (slabs concatenated), for odd slab sizes, NaN and packed integers; the memory held
// stays within a budget smaller than the variable; cancel stops it.
#include "test_seed.h"
#include <QtTest>

#include <random>

#include "memory_source.h"
#include "strata/core/runtime.h"
#include "strata/core/streaming.h"
#include "strata/core/transfer.h"
#include "strata/core/view.h"

using namespace strata;
using namespace test;

namespace {

const ReduceOp kOps[] = {ReduceOp::Sum, ReduceOp::Mean,  ReduceOp::Min,    ReduceOp::Max,   ReduceOp::Std,
                         ReduceOp::Var, ReduceOp::Count, ReduceOp::ArgMin, ReduceOp::ArgMax};

struct Case {
    DType packed;
    CfEncoding enc;
};

// Tolerance of a streamed result against the in-memory one: merges round float32 partials.
double tolerance(ReduceOp op, DType result) {
    if (op == ReduceOp::Count || op == ReduceOp::ArgMin || op == ReduceOp::ArgMax || op == ReduceOp::Min ||
        op == ReduceOp::Max)
        return 0;
    return result == DType::Float32 ? 2e-6 : 1e-12;
}

} // namespace

class TestStreaming : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }
    void equalsInMemory_data() { STRATA_BACKEND_ROWS(); }
    void equalsInMemory() {
        STRATA_BACKEND(backend);
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        const Stream stream = backend.cuda ? defaultStream(device) : Stream::host();
        std::mt19937_64 rng(test::testSeed());
        const Shape shape{13, 7, 11}; // odd sizes: no slab size divides them
        const Case cases[] = {{DType::Float32, plain(DType::Float32)},
                              {DType::Float64, plain(DType::Float64)},
                              {DType::Int32, plain(DType::Int32)},
                              {DType::Int16, packedShort()}};
        for (const Case& c : cases) {
            std::vector<double> values = randomValues(rng, c.packed, product(shape), 0.1);
            if (c.packed == DType::Int16) // some fill values (NaN once decoded), a whole column of them
                for (std::size_t i = 0; i < values.size(); ++i)
                    if (i % 17 == 0 || i % 77 == 5) values[i] = -32767;
            auto source = std::make_shared<MemorySource>(shape, c.packed, values);
            const DataArray lazy = lazyArray(source, shape, c.enc);
            const DataArray whole = lazy.load(Device::host(), Stream::host());
            for (const ReduceOp op : kOps)
                for (const std::string dim : {"t", "y", "x"})
                    for (const std::size_t rowsPerSlab : {1, 3, 5, 13}) {
                        const std::size_t slabBytes = rowsPerSlab * 7 * 11 * sizeOf(c.enc.decoded);
                        const DataArray expected = reduce(whole, {dim}, op, Stream::host());
                        const DataArray got =
                            reduceStreamed(lazy, dim, op, device, stream, slabBytes).asHost();
                        const QString what = QString("%1 %2 over %3, %4 rows a slab")
                                                 .arg(str(name(c.packed)), str(name(op)), str(dim))
                                                 .arg(rowsPerSlab);
                        QVERIFY2(got.dims() == expected.dims(), qPrintable(what));
                        QVERIFY2(got.shape() == expected.shape(), qPrintable(what));
                        QVERIFY2(got.dtype() == expected.dtype(), qPrintable(what));
                        QVERIFY2(got.attrs().size() == expected.attrs().size(), qPrintable(what));
                        const double tol = std::max(tolerance(op, got.dtype()),
                                                    backend.cuda ? gpuTolerance(got.dtype()) : 0);
                        QVERIFY(allClose(got.values<double>(), expected.values<double>(), tol, tol * 1000,
                                         what)); // data ~ 300
                    }
        }
    }

    void frameStreamsAboveTheLimit_data() { STRATA_BACKEND_ROWS(); }
    void frameStreamsAboveTheLimit() {
        // computeFrame streams a reduction whose selection is larger than loadAtOnce, and gives
        // what it gives when it loads the selection whole; then further reductions and the
        // transpose apply as usual.
        STRATA_BACKEND(backend);
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        std::mt19937_64 rng(test::testSeed());
        const Shape shape{4, 29, 9, 6};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32,
                                                     randomValues(rng, DType::Float32, product(shape), 0.05));
        const DataArray lazy = lazyArray(source, shape, plain(DType::Float32));
        FrameSpec spec;
        spec.variable = "v";
        spec.xDim = "w";
        spec.yDim = "x";
        spec.indices = {{"t", 3}};
        spec.reductions = {{"y", ReduceOp::Std}};
        FallbackNote note;
        const DataArray inMemory = computeFrame(lazy, spec, device, note).asHost();
        ViewLimits limits;
        limits.loadAtOnce = 1024;
        limits.slabBytes = 2 * 9 * 6 * 4; // 2 of 29 rows (the slice drops dim 't', so 'y' is the first dim)
        const int before = source->reads;
        const DataArray streamed = computeFrame(lazy, spec, device, note, limits).asHost();
        QCOMPARE(source->reads - before, 15); // ceil(29 / 2) slabs
        QCOMPARE(streamed.dims(), inMemory.dims());
        QVERIFY(allClose(streamed.values<double>(), inMemory.values<double>(), 2e-6, 0, "std over y"));
        QVERIFY(!note.fellBack);
    }

    void memoryStaysWithinTheBudget() {
        // A variable of 8 MB reduced with a budget of 1 MB: the bytes held, at their highest,
        // never pass it (slabs of an eighth, the next one read while the last reduces).
        const Shape shape{200, 100, 100};
        std::mt19937_64 rng(7);
        auto source = std::make_shared<MemorySource>(shape, DType::Float32,
                                                     randomValues(rng, DType::Float32, product(shape), 0.02));
        const DataArray lazy = lazyArray(source, shape, plain(DType::Float32));
        const std::size_t budget = std::size_t(1) << 20;
        FrameSpec spec;
        spec.variable = "v";
        spec.xDim = "x";
        spec.yDim = "y";
        spec.reductions = {{"t", ReduceOp::Mean}};
        ViewLimits limits;
        limits.loadAtOnce = budget;
        limits.slabBytes = budget / 8;
        const std::uint64_t heldBefore = bytesHeld().host;
        resetPeakBytes();
        FallbackNote note;
        const DataArray frame = computeFrame(lazy, spec, Device::host(), note, limits);
        const std::uint64_t peak = peakBytesHeld().host - heldBefore;
        qInfo("variable %zu bytes, budget %zu, held at most %llu", lazy.variable().nbytes(), budget,
              static_cast<unsigned long long>(peak));
        QVERIFY2(peak <= budget, qPrintable(QString("held %1 bytes at most").arg(peak)));
        QVERIFY(peak > 0);
        // And it is the mean: against the whole variable loaded.
        const DataArray expected =
            reduce(lazy.load(Device::host(), Stream::host()), {"t"}, ReduceOp::Mean, Stream::host());
        QVERIFY(allClose(frame.values<double>(), expected.values<double>(), 2e-6, 0, "mean over t"));
        // Loading it whole would have passed the budget: the test can tell the two apart.
        resetPeakBytes();
        computeFrame(lazy, spec, Device::host(), note);
        QVERIFY(peakBytesHeld().host - heldBefore > budget);
    }

    void cancelStops() {
        const Shape shape{40, 10, 10};
        std::mt19937_64 rng(3);
        auto source = std::make_shared<MemorySource>(shape, DType::Float64,
                                                     randomValues(rng, DType::Float64, product(shape)));
        const CancelToken cancel;
        source->onRead = [&](int k) {
            if (k == 3) cancel.cancel();
        };
        const DataArray lazy = lazyArray(source, shape, plain(DType::Float64));
        QVERIFY_THROWS_EXCEPTION(CancelledError, reduceStreamed(lazy, "t", ReduceOp::Mean, Device::host(),
                                                                Stream::host(), 10 * 10 * 8, cancel));
        QVERIFY(source->reads < 40);
    }

    // Each streamed pass says how far it is after every slab: fractions that rise to exactly 1,
    // one per slab, for a reduction along the first dim (merged), along another (concatenated,
    // through computeFrame's limits) and for the range.
    void progressCountsTheSlabs() {
        const Shape shape{10, 4, 5};
        std::mt19937_64 rng(test::testSeed());
        auto source = std::make_shared<MemorySource>(shape, DType::Float32,
                                                     randomValues(rng, DType::Float32, product(shape), 0.1));
        const DataArray lazy = lazyArray(source, shape, plain(DType::Float32));
        const std::size_t slab = 3 * 4 * 5 * 4; // 3 rows: slabs of 3, 3, 3, 1
        const std::vector<double> expected{0.3, 0.6, 0.9, 1.0};
        auto check = [&](const std::vector<double>& told, const char* what) {
            QVERIFY2(told.size() == expected.size(), what);
            for (std::size_t i = 0; i < told.size(); ++i)
                QVERIFY2(std::abs(told[i] - expected[i]) < 1e-12, what);
        };
        std::vector<double> told;
        const StreamProgress note = [&](double f) { told.push_back(f); };
        reduceStreamed(lazy, "t", ReduceOp::Mean, Device::host(), Stream::host(), slab, CancelToken(), note);
        check(told, "reduce along the first dim");
        told.clear();
        minmaxStreamed(lazy, Device::host(), slab, CancelToken(), note);
        check(told, "range");
        told.clear();
        FrameSpec spec;
        spec.variable = "v";
        spec.xDim = "x";
        spec.yDim = "t";
        spec.reductions = {{"y", ReduceOp::Max}};
        ViewLimits limits;
        limits.loadAtOnce = 64;
        limits.slabBytes = slab;
        limits.progress = note;
        FallbackNote fallback;
        computeFrame(lazy, spec, Device::host(), fallback, limits);
        check(told, "computeFrame, a kept first dim");
    }

    void readErrorsNameTheVariable() {
        const Shape shape{10, 4, 4};
        auto source = std::make_shared<MemorySource>(shape, DType::Float32, std::vector<double>(160, 1.0));
        source->failAt = 4;
        const DataArray lazy = lazyArray(source, shape, plain(DType::Float32));
        try {
            reduceStreamed(lazy, "t", ReduceOp::Sum, Device::host(), Stream::host(), 4 * 4 * 4);
            QFAIL("no error");
        } catch (const NetcdfError& e) {
            QVERIFY2(std::string(e.what()).find("memory.nc: variable 'v'") != std::string::npos, e.what());
        }
    }

    void minmaxStreamedEqualsMinmax_data() { STRATA_BACKEND_ROWS(); }
    void minmaxStreamedEqualsMinmax() {
        STRATA_BACKEND(backend);
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        std::mt19937_64 rng(test::testSeed());
        const Shape shape{23, 5, 7};
        std::vector<double> values = randomValues(rng, DType::Int16, product(shape));
        values[3] = -32767; // the fill value: NaN, not an extreme
        auto source = std::make_shared<MemorySource>(shape, DType::Int16, values);
        const DataArray lazy = lazyArray(source, shape, packedShort());
        const auto expected = minmaxValues(lazy.load(Device::host(), Stream::host()));
        QCOMPARE(minmaxStreamed(lazy, device, 2 * 5 * 7 * 4), expected);
        QCOMPARE(minmaxStreamed(lazy.load(device, defaultStream(device)), device, 64), expected);
    }
};

QTEST_GUILESS_MAIN(TestStreaming)
#include "tst_streaming.moc"
