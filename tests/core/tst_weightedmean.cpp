// weightedMean(): hand-computed weights, the cos-latitude area mean of an analytic field,
// a plain-loop reference over dtypes, shapes and weight layouts (weights along reduced and
// kept dims, NaN weights, integer weights), views, and the input checks.
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

// The weights broadcast to every element of `a` (C order), for the reference.
std::vector<double> broadcastWeights(const DataArray& a, const DataArray& w) {
    const std::vector<double> wv = w.values<double>();
    std::vector<double> out;
    std::vector<std::int64_t> idx(static_cast<std::size_t>(a.ndim()), 0);
    for (std::int64_t n = 0; n < a.size(); ++n) {
        std::int64_t o = 0;
        for (int i = 0; i < w.ndim(); ++i)
            o = o * w.shape()[std::size_t(i)] + idx[std::size_t(a.axis(w.dims()[std::size_t(i)]))];
        out.push_back(wv[std::size_t(o)]);
        for (int d = a.ndim() - 1; d >= 0; --d) {
            if (++idx[std::size_t(d)] < a.shape()[std::size_t(d)]) break;
            idx[std::size_t(d)] = 0;
        }
    }
    return out;
}

bool check(const Backend& b, const DataArray& a, const DataArray& w, const std::vector<std::string>& dims,
           const QString& what) {
    const DataArray cpu = test::poisoned([&] { return weightedMean(a, w, dims); });
    if (!cpu.isLoaded()) return false;
    if (!b.cuda) {
        const test::Reference ref = test::referenceWeighted(a, broadcastWeights(a, w), dims);
        if (cpu.shape() != ref.shape) return false;
        return test::allClose(cpu.values<double>(), ref.values, cpu.dtype() == DType::Float32 ? 2e-7 : 1e-12,
                              1e-12, what);
    }
    const DataArray da = b.put(a), dw = b.put(w);
    const DataArray gpu = test::poisoned([&] { return weightedMean(da, dw, dims); });
    if (!gpu.isLoaded() || gpu.dtype() != cpu.dtype() || gpu.shape() != cpu.shape()) return false;
    return test::allClose(gpu.values<double>(), cpu.values<double>(), test::gpuTolerance(cpu.dtype()), 1e-12,
                          what);
}

DataArray run(const Backend& b, const DataArray& a, const DataArray& w,
              const std::vector<std::string>& dims) {
    const DataArray da = b.put(a), dw = b.put(w);
    return test::poisoned([&] { return weightedMean(da, dw, dims); });
}

} // namespace

class TestWeightedMean : public QObject {
    Q_OBJECT

private slots:
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        const double nan = std::nan("");
        // (1·1 + 3·3) / (1 + 3) = 2.5; the NaN value and the NaN weight are skipped.
        const DataArray a = test::makeArray(DType::Float64, {"x"}, {4}, {1, 3, nan, 100});
        const DataArray w = test::makeArray(DType::Float64, {"x"}, {4}, {1, 3, 5, nan});
        QCOMPARE(run(b, a, w, {"x"}).values<double>()[0], 2.5);
        // Integer weights, float32 data: float32 result.
        const DataArray af = test::makeArray(DType::Float32, {"x"}, {3}, {2, 4, 8});
        const DataArray wi = test::makeArray(DType::Int32, {"x"}, {3}, {1, 0, 3});
        const DataArray r = run(b, af, wi, {"x"});
        QCOMPARE(r.dtype(), DType::Float32);
        QCOMPARE(r.values<double>()[0], 6.5);
        // All weights zero, or every value NaN: NaN.
        const DataArray zero = test::makeArray(DType::Float64, {"x"}, {3}, {0, 0, 0});
        QVERIFY(std::isnan(run(b, af, zero, {"x"}).values<double>()[0]));
        const DataArray allNan = test::makeArray(DType::Float64, {"x"}, {2}, {nan, nan});
        QVERIFY(std::isnan(
            run(b, allNan, test::makeArray(DType::Float64, {"x"}, {2}, {1, 1}), {"x"}).values<double>()[0]));
    }

    // The cos(lat) area mean of f = 280 + 10·sin(lat) is 280 by symmetry, exactly up to
    // rounding; of f = lon it is the plain lon mean whatever the weights.
    void areaMeanAnalytic_data() { STRATA_BACKEND_ROWS(); }
    void areaMeanAnalytic() {
        STRATA_BACKEND(b);
        const std::int64_t nt = 3, nlat = 181, nlon = 360;
        std::vector<double> f, g, lat(static_cast<std::size_t>(nlat)), w(static_cast<std::size_t>(nlat));
        for (std::int64_t i = 0; i < nlat; ++i) {
            lat[std::size_t(i)] = -90.0 + i;
            w[std::size_t(i)] = std::cos(lat[std::size_t(i)] * M_PI / 180.0);
        }
        for (std::int64_t t = 0; t < nt; ++t)
            for (std::int64_t i = 0; i < nlat; ++i)
                for (std::int64_t j = 0; j < nlon; ++j) {
                    f.push_back(280.0 + 10.0 * std::sin(lat[std::size_t(i)] * M_PI / 180.0) + t);
                    g.push_back(double(j));
                }
        const DataArray weights = test::makeArray(DType::Float64, {"lat"}, {nlat}, w);
        const auto mf = run(b, test::makeArray(DType::Float64, {"time", "lat", "lon"}, {nt, nlat, nlon}, f),
                            weights, {"lat", "lon"})
                            .values<double>();
        const auto mg = run(b, test::makeArray(DType::Float32, {"time", "lat", "lon"}, {nt, nlat, nlon}, g),
                            weights, {"lat", "lon"})
                            .values<double>();
        for (std::int64_t t = 0; t < nt; ++t) {
            QVERIFY(test::close(mf[std::size_t(t)], 280.0 + t, 1e-13));
            QVERIFY(test::close(mg[std::size_t(t)], (nlon - 1) / 2.0, 1e-7));
        }
    }

    void randomAgainstReference_data() { STRATA_BACKEND_ROWS(); }
    void randomAgainstReference() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(9);
        for (DType t : {DType::Float32, DType::Float64, DType::Int16, DType::UInt8}) {
            const DataArray a = test::randomArray(rng, t, {5, 40, 37});
            const DataArray wLat = test::makeArray(DType::Float64, {"d1"}, {40},
                                                   test::randomValues(rng, DType::Float64, 40, 0.1));
            const DataArray wLon = test::makeArray(DType::Float32, {"d2"}, {37},
                                                   test::randomValues(rng, DType::Float32, 37, 0.0));
            const DataArray wFull = test::randomArray(rng, DType::Float64, {5, 40, 37}, 0.05);
            const DataArray wInt = test::makeArray(DType::Int32, {"d0"}, {5}, {1, 2, 3, 4, 5});
            // Weights in another dim order, and a strided (transposed) weights view.
            const DataArray w2 = test::makeArray(DType::Float64, {"d2", "d1"}, {37, 40},
                                                 test::randomValues(rng, DType::Float64, 37 * 40, 0));
            const DataArray w3 = test::makeArray(DType::Float64, {"d1", "d2"}, {40, 37},
                                                 test::randomValues(rng, DType::Float64, 37 * 40, 0))
                                     .transpose({"d2", "d1"});
            for (const auto& dims : std::vector<std::vector<std::string>>{
                     {"d1", "d2"}, {"d0"}, {"d2"}, {"d1"}, {"d0", "d1", "d2"}, {}}) {
                QVERIFY(check(b, a, wLat, dims, "lat weights"));
                QVERIFY(check(b, a, wLon, dims, "lon weights"));
                QVERIFY(check(b, a, wFull, dims, "full weights"));
                QVERIFY(check(b, a, wInt, dims, "integer weights"));
                QVERIFY(check(b, a, w2, dims, "reordered weights"));
                QVERIFY(check(b, a, w3, dims, "strided weights"));
            }
        }
        // Long reductions with few outputs (split) and views of the data.
        const DataArray big = test::randomArray(rng, DType::Float32, {2, 300, 400});
        const DataArray wb =
            test::makeArray(DType::Float64, {"d1"}, {300}, test::randomValues(rng, DType::Float64, 300, 0));
        QVERIFY(check(b, big, wb, {"d1", "d2"}, "split"));
        QVERIFY(check(b, big.isel({{"d2", Slice{0, std::nullopt, 3}}}), wb, {"d1", "d2"}, "stepped"));
        QVERIFY(check(b, big.transpose({"d2", "d1", "d0"}), wb, {"d1", "d0"}, "transposed"));
    }

    void errors_data() { STRATA_BACKEND_ROWS(); }
    void errors() {
        STRATA_BACKEND(b);
        const DataArray a =
            b.put(test::makeArray(DType::Float32, {"lat", "lon"}, {2, 3}, {1, 2, 3, 4, 5, 6}));
        const DataArray wrongLen = b.put(test::makeArray(DType::Float64, {"lat"}, {3}, {1, 1, 1}));
        const DataArray wrongDim = b.put(test::makeArray(DType::Float64, {"depth"}, {2}, {1, 1}));
        QVERIFY_THROWS_EXCEPTION(ValueError, weightedMean(a, wrongLen, {"lat"}));
        try {
            weightedMean(a, wrongDim, {"lat"});
            QFAIL("no error for weights with an unknown dim");
        } catch (const ValueError& e) {
            QVERIFY2(std::string(e.what()).find("'depth'") != std::string::npos, e.what());
        }
        const DataArray w = b.put(test::makeArray(DType::Float64, {"lat"}, {2}, {1, 1}));
        QVERIFY_THROWS_EXCEPTION(ValueError, weightedMean(a, w, {"time"}));
        if (b.cuda) {
            const DataArray hostW = test::makeArray(DType::Float64, {"lat"}, {2}, {1, 1});
            QVERIFY_THROWS_EXCEPTION(ValueError, weightedMean(a, hostW, {"lat"}));
        }
    }
};

QTEST_APPLESS_MAIN(TestWeightedMean)
#include "tst_weightedmean.moc"
