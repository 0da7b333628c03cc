// FrameRanges: every frame's extremes of a view, in one pass. Each entry must equal the finite
// minimum and maximum of that frame found by a plain loop here (NaN and ±inf skipped, both NaN
// for a frame with no finite value), or be unknown when the frame holds ±inf; on a GPU the
// table's one copy to the host is its two small arrays, whatever the variable's size.
#include "strata/core/frame_ranges.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"
#include "test_seed.h"
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

using Indices = std::vector<std::pair<std::string, std::int64_t>>;

// The reference for one frame: a loop over the host values of var.isel(indices).
std::optional<MinMax> reference(const DataArray& var, const Indices& indices) {
    std::vector<Indexer> sel;
    for (const auto& [d, i] : indices) sel.push_back({d, i});
    const DataArray frame = var.isel(sel);
    double lo = NAN, hi = NAN;
    for (double v : frame.values<double>()) {
        if (std::isinf(v)) return std::nullopt; // the table cannot say exactly
        if (std::isnan(v)) continue;
        lo = std::isnan(lo) || v < lo ? v : lo;
        hi = std::isnan(hi) || v > hi ? v : hi;
    }
    return MinMax{lo, hi};
}

bool same(const std::optional<MinMax>& got, const std::optional<MinMax>& want) {
    if (got.has_value() != want.has_value()) return false;
    if (!got) return true;
    const auto eq = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
    return eq(got->first, want->first) && eq(got->second, want->second);
}

QString show(const std::optional<MinMax>& r) {
    return r ? QString("(%1, %2)").arg(r->first).arg(r->second) : QString("unknown");
}

} // namespace

class TestFrameRanges : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // A map view of (d0 = time, d1 = lat, d2 = lon): one entry per time step, every dtype.
    void everyFrameOfAMap_data() { STRATA_BACKEND_ROWS(); }
    void everyFrameOfAMap() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        for (DType t : test::kNumeric) {
            const DataArray a = test::randomArray(rng, t, {9, 13, 17}, 0.1);
            const FrameRanges r =
                FrameRanges::compute(b.put(a), "d2", "d1", defaultStream(b.put(a).device()));
            QCOMPARE(r.dims(), std::vector<std::string>{"d0"});
            QCOMPARE(r.size(), std::size_t(9));
            for (std::int64_t i = 0; i < 9; ++i)
                QVERIFY2(same(r.at({{"d0", i}}), reference(a, {{"d0", i}})),
                         qPrintable(QString("%1, step %2: %3, expected %4")
                                        .arg(QString::fromStdString(std::string(name(t))))
                                        .arg(i)
                                        .arg(show(r.at({{"d0", i}})))
                                        .arg(show(reference(a, {{"d0", i}})))));
            QVERIFY(!r.at({{"d0", 9}}));  // past the end
            QVERIFY(!r.at({{"d0", -1}})); // before it
        }
    }

    // The frames that differ from a plain min and max: all NaN, one infinity, only infinities.
    void missingAndInfiniteFrames_data() { STRATA_BACKEND_ROWS(); }
    void missingAndInfiniteFrames() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        for (DType t : {DType::Float32, DType::Float64}) {
            std::vector<double> v = test::randomValues(rng, t, 5 * 4 * 6, 0.2);
            const auto set = [&](int step, auto value) {
                for (int k = 0; k < 24; ++k) v[static_cast<std::size_t>(step * 24 + k)] = value(k);
            };
            set(1, [](int) { return NAN; });                              // no finite value
            set(2, [&](int k) { return k == 7 ? INFINITY : v[48 + k]; }); // one +inf
            set(3, [&](int k) { return k == 0 ? -INFINITY : v[72 + k]; });
            set(4, [](int k) { return k % 2 ? INFINITY : NAN; }); // nothing finite but inf
            const DataArray a = test::makeArray(t, {"time", "lat", "lon"}, {5, 4, 6}, v);
            const FrameRanges r =
                FrameRanges::compute(b.put(a), "lon", "lat", defaultStream(b.put(a).device()));
            const auto one = r.at({{"time", 1}});
            QVERIFY(one && std::isnan(one->first) && std::isnan(one->second));
            QVERIFY(!r.at({{"time", 2}}));
            QVERIFY(!r.at({{"time", 3}}));
            QVERIFY(!r.at({{"time", 4}}));
            for (std::int64_t i = 0; i < 5; ++i)
                QVERIFY(same(r.at({{"time", i}}), reference(a, {{"time", i}})));
        }
    }

    // A Hovmöller view (time on Y, lon on X) of a 4-D variable: one entry per (level, lat), in
    // any order of the indices given; a dim not named is at 0.
    void hovmollerOfFourDims_data() { STRATA_BACKEND_ROWS(); }
    void hovmollerOfFourDims() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        const DataArray a = test::randomArray(rng, DType::Float32, {6, 3, 7, 11}, 0.15);
        const DataArray in = b.put(a);
        const FrameRanges r = FrameRanges::compute(in, "d3", "d0", defaultStream(in.device()));
        QCOMPARE(r.dims(), (std::vector<std::string>{"d1", "d2"}));
        QCOMPARE(r.size(), std::size_t(21));
        for (std::int64_t l = 0; l < 3; ++l)
            for (std::int64_t y = 0; y < 7; ++y)
                QVERIFY(same(r.at({{"d2", y}, {"d1", l}}), reference(a, {{"d1", l}, {"d2", y}})));
        QVERIFY(same(r.at({{"d2", 4}}), reference(a, {{"d1", 0}, {"d2", 4}})));
    }

    // The table crosses to the host once: two arrays of one value per frame.
    void copiesOnlyTheTable() {
        if (!computeDevice().isCuda()) STRATA_SKIP_WITHOUT_GPU("no CUDA device here");
        std::mt19937_64 rng(test::testSeed());
        const DataArray a = test::randomArray(rng, DType::Float32, {40, 90, 180}, 0.05);
        const DataArray in = Backend{true}.put(a);
        const TransferCounters before = transferCounters();
        const FrameRanges r = FrameRanges::compute(in, "d2", "d1", defaultStream(in.device()));
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(2 * 40 * sizeof(float)));
        for (std::int64_t i = 0; i < 40; ++i) QVERIFY(same(r.at({{"d0", i}}), reference(a, {{"d0", i}})));
    }

    void badDims() {
        const DataArray a = test::makeArray(DType::Float32, {"y", "x"}, {2, 2}, {1, 2, 3, 4});
        QVERIFY_THROWS_EXCEPTION(ValueError, FrameRanges::compute(a, "x", "z", Stream::host()));
        QVERIFY_THROWS_EXCEPTION(ValueError, FrameRanges::compute(a, "x", "x", Stream::host()));
    }
};

QTEST_GUILESS_MAIN(TestFrameRanges)
#include "tst_frameranges.moc"
