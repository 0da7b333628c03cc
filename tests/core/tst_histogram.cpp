// histogram(): counts of finite values in equal bins over [lo, hi] (hi in the last bin,
// values outside and NaN/±inf not counted) — hand-computed edges, every dtype against a
// plain-loop reference, views, long arrays, a degenerate range, and the input checks.
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

// The reference: bin = trunc((v − lo) · (bins / (hi − lo))), clamped to the last bin.
std::vector<std::int64_t> reference(const DataArray& a, int bins, double lo, double hi) {
    std::vector<std::int64_t> c(static_cast<std::size_t>(bins), 0);
    const double scale = hi > lo ? bins / (hi - lo) : 0.0;
    for (double v : a.values<double>()) {
        if (!std::isfinite(v) || v < lo || v > hi) continue;
        int k = static_cast<int>(std::floor((v - lo) * scale));
        if (k >= bins) k = bins - 1;
        ++c[static_cast<std::size_t>(k)];
    }
    return c;
}

std::vector<std::int64_t> histOn(const Backend& b, const DataArray& a, int bins, double lo, double hi) {
    const DataArray in = b.put(a);
    const DataArray h = test::poisoned([&] {
        return histogram(in, bins, lo, hi,
                         in.variable().buffer() ? in.variable().buffer()->stream() : Stream::host());
    });
    return h.values<std::int64_t>();
}

} // namespace

class TestHistogram : public QObject {
    Q_OBJECT

private slots:
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        const double nan = std::nan(""), inf = INFINITY;
        // Bins of 0.5 over [0, 2]: 2 (= hi) falls in the last bin; -1, 3, NaN, inf are not counted.
        const DataArray a =
            test::makeArray(DType::Float64, {"x"}, {10}, {0, 0.5, 1, 1.5, 2, nan, inf, -1, 3, 0.25});
        QCOMPARE(histOn(b, a, 4, 0, 2), std::vector<std::int64_t>({2, 1, 1, 2}));
        const DataArray ints = test::makeArray(DType::Int16, {"x"}, {6}, {-5, 0, 3, 9, 10, 11});
        QCOMPARE(histOn(b, ints, 2, 0, 10), std::vector<std::int64_t>({2, 2}));
        // lo == hi: one value counts, in bin 0.
        QCOMPARE(histOn(b, ints, 3, 3, 3), std::vector<std::int64_t>({1, 0, 0}));
        const DataArray empty = test::makeArray(DType::Float32, {"x"}, {0}, {});
        QCOMPARE(histOn(b, empty, 3, 0, 1), std::vector<std::int64_t>({0, 0, 0}));
    }

    void everyDtypeAndView_data() { STRATA_BACKEND_ROWS(); }
    void everyDtypeAndView() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(31);
        for (DType t : test::kNumeric) {
            const DataArray a = test::randomArray(rng, t, {5, 300, 101}, 0.05);
            const double lo = isFloating(t) ? 265 : 0, hi = isFloating(t) ? 295 : 60;
            for (int bins : {1, 7, 64, 5000}) {
                const auto got = histOn(b, a, bins, lo, hi);
                QVERIFY2(got == reference(a, bins, lo, hi),
                         qPrintable(test::str(name(t)) + " bins " + QString::number(bins)));
            }
            const DataArray in = b.put(a);
            const auto view = [](const DataArray& x) {
                return x.isel({{"d1", Slice{3, std::nullopt, 4}}}).transpose({"d2", "d1", "d0"});
            };
            const auto got = test::poisoned(
                [&] { return histogram(view(in), 16, lo, hi, in.variable().buffer()->stream()); });
            QCOMPARE(got.values<std::int64_t>(), reference(view(a), 16, lo, hi));
            QCOMPARE(got.shape(), Shape({16}));
            QCOMPARE(got.dtype(), DType::Int64);
        }
    }

    void errors_data() { STRATA_BACKEND_ROWS(); }
    void errors() {
        STRATA_BACKEND(b);
        const DataArray a = b.put(test::makeArray(DType::Float32, {"x"}, {2}, {1, 2}));
        const Stream s = a.variable().buffer()->stream();
        QVERIFY_THROWS_EXCEPTION(ValueError, histogram(a, 0, 0, 1, s));
        QVERIFY_THROWS_EXCEPTION(ValueError, histogram(a, 4, 2, 1, s));
        QVERIFY_THROWS_EXCEPTION(ValueError, histogram(a, 4, 0, INFINITY, s));
        QVERIFY_THROWS_EXCEPTION(ValueError, histogram(a, 4, NAN, 1, s));
    }
};

QTEST_APPLESS_MAIN(TestHistogram)
#include "tst_histogram.moc"
