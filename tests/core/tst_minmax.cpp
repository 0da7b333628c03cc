// minmax() and minmaxValues(): finite values only (NaN and ±inf skipped), every dtype,
// views, long arrays split over threads, empty and all-NaN arrays; the range stays on the
// data's device and minmaxValues moves 16 bytes back from a GPU.
#include "strata/core/transfer.h"
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

// The reference: plain loop over finite values.
std::pair<double, double> reference(const DataArray& a) {
    double lo = NAN, hi = NAN;
    for (double v : a.values<double>()) {
        if (!std::isfinite(v)) continue;
        lo = std::isnan(lo) || v < lo ? v : lo;
        hi = std::isnan(hi) || v > hi ? v : hi;
    }
    return {lo, hi};
}

std::vector<double> rangeOn(const Backend& b, const DataArray& a) {
    const DataArray in = b.put(a);
    const DataArray r = test::poisoned([&] { return minmax(in); });
    return r.values<double>();
}

bool same(const std::vector<double>& r, std::pair<double, double> e) {
    return r.size() == 2 && test::close(r[0], e.first, 0) && test::close(r[1], e.second, 0);
}

} // namespace

class TestMinmax : public QObject {
    Q_OBJECT

private slots:
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        const double nan = std::nan(""), inf = INFINITY;
        for (DType t : {DType::Float32, DType::Float64}) {
            QVERIFY(
                same(rangeOn(b, test::makeArray(t, {"x"}, {6}, {3, nan, -inf, 7, inf, -2})), {-2.0, 7.0}));
            QVERIFY(same(rangeOn(b, test::makeArray(t, {"x"}, {3}, {nan, inf, -inf})), {nan, nan}));
            QVERIFY(same(rangeOn(b, test::makeArray(t, {"x"}, {1}, {5})), {5.0, 5.0}));
        }
        QVERIFY(same(rangeOn(b, test::makeArray(DType::Int8, {"x"}, {3}, {5, -128, 127})), {-128.0, 127.0}));
        QVERIFY(same(rangeOn(b, test::makeArray(DType::UInt64, {"x"}, {2}, {1099511627776.0, 3})),
                     {3.0, 1099511627776.0}));
        QVERIFY(same(rangeOn(b, test::makeArray(DType::Float32, {"x", "y"}, {0, 3}, {})), {nan, nan}));
    }

    void everyDtypeAndView_data() { STRATA_BACKEND_ROWS(); }
    void everyDtypeAndView() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(21);
        for (DType t : test::kNumeric) {
            const DataArray a = test::randomArray(rng, t, {7, 9, 41}, 0.1);
            QVERIFY2(same(rangeOn(b, a), reference(a)), qPrintable(test::str(name(t))));
            // Views: computed on the backend from the view of the array there.
            const auto viewed = [&](const std::function<DataArray(const DataArray&)>& view) {
                const DataArray in = b.put(a);
                return test::poisoned([&] { return minmax(view(in)); }).values<double>();
            };
            const auto stepped = [](const DataArray& x) {
                return x.isel({{"d0", Slice{1, std::nullopt, 3}}, {"d2", Slice{0, std::nullopt, 2}}});
            };
            const auto transposed = [](const DataArray& x) { return x.transpose({"d2", "d0", "d1"}); };
            const auto column = [](const DataArray& x) { return x.isel({{"d2", std::int64_t(5)}}); };
            QVERIFY(same(viewed(stepped), reference(stepped(a))));
            QVERIFY(same(viewed(transposed), reference(a)));
            QVERIFY(same(viewed(column), reference(column(a))));
        }
    }

    // One frame of the app's size, with the extremes placed at the far ends.
    void frameSized_data() { STRATA_BACKEND_ROWS(); }
    void frameSized() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(4);
        std::vector<double> v = test::randomValues(rng, DType::Float32, 721 * 1440, 0.01);
        v.front() = 100.0f;
        v.back() = 500.0f;
        v[1000] = INFINITY;
        const DataArray a = test::makeArray(DType::Float32, {"lat", "lon"}, {721, 1440}, v);
        QVERIFY(same(rangeOn(b, a), {100.0, 500.0}));
        QVERIFY(same(rangeOn(b, a.transpose({"lon", "lat"})), {100.0, 500.0}));
    }

    void stayOnDevice_data() { STRATA_BACKEND_ROWS(); }
    void stayOnDevice() {
        STRATA_BACKEND(b);
        const DataArray a = b.put(test::makeArray(DType::Float64, {"x"}, {4}, {4, 1, NAN, 9}));
        const DataArray r = minmax(a);
        QCOMPARE(r.device(), a.device());
        QCOMPARE(r.dtype(), DType::Float64);
        QCOMPARE(r.shape(), Shape({2}));
        const TransferCounters before = transferCounters();
        const auto [lo, hi] = minmaxValues(a);
        const TransferCounters moved = transferredSince(before);
        QCOMPARE(lo, 1.0);
        QCOMPARE(hi, 9.0);
        QCOMPARE(moved.deviceToHost, std::uint64_t(b.cuda ? 16 : 0));
        QCOMPARE(moved.hostToDevice, std::uint64_t(0));
    }

    void errors_data() { STRATA_BACKEND_ROWS(); }
    void errors() {
        STRATA_BACKEND(b);
        Variable text({"c"}, {3}, DType::Char, Buffer(3, Device::host(), Stream::host()));
        const DataArray there = b.put(DataArray("t", text)); // on the GPU for the cuda row
        QCOMPARE(there.device().isCuda(), b.cuda);
        QVERIFY_THROWS_EXCEPTION(ValueError, minmax(there));
    }
};

QTEST_APPLESS_MAIN(TestMinmax)
#include "tst_minmax.moc"
