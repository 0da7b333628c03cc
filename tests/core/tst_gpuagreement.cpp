// Every operation on the GPU against the CPU backend, on fresh random inputs (seeded from the
// clock; the seed is in every failure message): NaNs, odd shapes, strided and transposed
// views, every numeric dtype. Each GPU result is computed twice with new buffers poisoned by
// two byte patterns and must come out bit-identical (so every output element was written and
// nothing depends on uninitialised memory or on run-to-run order). Reductions in floating
// point agree to float32 (or float64) rounding; everything else agrees exactly.
#include "gpu_skip.h"
#include "test_seed.h"
#include <QtTest/QtTest>

#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "../../core/src/poison.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

using namespace strata;

// QSKIP returns from the calling function: a macro, so that it leaves the test function.
#define STRATA_REQUIRE_DEVICE()                                                                              \
    do {                                                                                                     \
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");                               \
    } while (0)

namespace {

const std::vector<DType> kNumeric = {DType::Int8,    DType::UInt8,  DType::Int16, DType::UInt16,
                                     DType::Int32,   DType::UInt32, DType::Int64, DType::UInt64,
                                     DType::Float32, DType::Float64};

bool smallRun() {
    const char* e = std::getenv("STRATA_TEST_SMALL");
    return e && std::string(e) != "0";
}

// "d3": appended, not "d" + to_string(i), which GCC 12 takes for an overlapping copy (-Wrestrict).
std::string dimName(int i) {
    std::string name = "d";
    name += std::to_string(i);
    return name;
}

std::vector<std::string> dimNames(int n) {
    std::vector<std::string> d;
    for (int i = 0; i < n; ++i) d.push_back(dimName(i));
    return d;
}

// Random values of type T: floats around 280 with ~2% NaN (and, when asked, some ±inf);
// integers over a range that fits the type.
template <class T> std::vector<T> randomValues(std::mt19937_64& rng, std::int64_t n, bool withInf) {
    std::vector<T> v(static_cast<std::size_t>(n));
    if constexpr (std::is_floating_point_v<T>) {
        std::normal_distribution<double> normal(280.0, 10.0);
        std::uniform_real_distribution<double> u(0, 1);
        for (auto& x : v) {
            const double r = u(rng);
            if (r < 0.02)
                x = std::numeric_limits<T>::quiet_NaN();
            else if (withInf && r < 0.025)
                x = r < 0.0225 ? INFINITY : -INFINITY;
            else
                x = static_cast<T>(normal(rng));
        }
    } else {
        const double lo = std::is_signed_v<T> ? -100.0 : 0.0;
        std::uniform_int_distribution<long long> d(static_cast<long long>(lo), 120);
        for (auto& x : v) x = static_cast<T>(d(rng));
    }
    return v;
}

DataArray randomArray(std::mt19937_64& rng, DType t, const Shape& shape, bool withInf = false) {
    std::int64_t n = 1;
    for (auto s : shape) n *= s;
    return visitNumeric(t, [&](auto tag) {
        using T = decltype(tag);
        return DataArray::fromHost("x", dimNames(int(shape.size())), shape, randomValues<T>(rng, n, withInf));
    });
}

// The host values of an array as raw bytes of its dtype (C order).
std::vector<unsigned char> bytesOf(const DataArray& a) {
    const DataArray h = a.asHost();
    return visitNumeric(h.dtype(), [&](auto tag) {
        using T = decltype(tag);
        const std::vector<T> v = h.values<T>();
        std::vector<unsigned char> b(v.size() * sizeof(T));
        if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
        return b;
    });
}

// Runs a GPU computation under two poison patterns; the results must be identical.
// Returns the first result on the host.
DataArray twice(const std::function<DataArray()>& gpu, const QString& what, bool& ok) {
    detail::setPoisonPattern(0xA5);
    const DataArray first = gpu().asHost();
    detail::setPoisonPattern(0x5A);
    const DataArray second = gpu().asHost();
    detail::setPoisonPattern(-1);
    ok = bytesOf(first) == bytesOf(second);
    if (!ok) qWarning().noquote() << "GPU result changed with the poison pattern:" << what;
    return first;
}

// Compares a GPU result with the CPU's: same dtype and shape; NaN where the CPU has NaN;
// floating values within rtol (relative) plus atol; integers exactly.
bool agree(const DataArray& gpu, const DataArray& cpu, double rtol, double atol, const QString& what) {
    if (gpu.dtype() != cpu.dtype() || gpu.shape() != cpu.shape()) {
        qWarning().noquote() << what << ": dtype/shape differ:"
                             << QString::fromStdString(std::string(name(gpu.dtype()))) << "vs"
                             << QString::fromStdString(std::string(name(cpu.dtype())));
        return false;
    }
    if (!isFloating(cpu.dtype())) {
        const auto g = gpu.values<std::int64_t>(), c = cpu.values<std::int64_t>();
        const auto gu = gpu.values<std::uint64_t>(), cu = cpu.values<std::uint64_t>();
        for (std::size_t i = 0; i < c.size(); ++i) {
            if (g[i] != c[i] || gu[i] != cu[i]) {
                qWarning().noquote() << what << ": element" << i << "GPU" << g[i] << "CPU" << c[i];
                return false;
            }
        }
        return true;
    }
    const auto g = gpu.values<double>(), c = cpu.values<double>();
    for (std::size_t i = 0; i < c.size(); ++i) {
        const bool gn = std::isnan(g[i]), cn = std::isnan(c[i]);
        const bool same =
            (gn && cn) ||
            (!gn && !cn && (g[i] == c[i] || std::abs(g[i] - c[i]) <= rtol * std::abs(c[i]) + atol));
        if (!same) {
            qWarning().noquote() << what << ": element" << i << "GPU" << QString::number(g[i], 'g', 17)
                                 << "CPU" << QString::number(c[i], 'g', 17);
            return false;
        }
    }
    return true;
}

// sum(w·x)/sum(w) by a plain loop in long double over the host values of `a` (any dims) with
// `w` broadcast by dim name: a reference that depends on neither backend.
std::vector<double> weightedReference(const DataArray& a, const DataArray& w,
                                      const std::vector<std::string>& dims) {
    const std::vector<double> x = a.asHost().values<double>(), wv = w.asHost().values<double>();
    const int nd = a.ndim();
    std::vector<bool> reduced(static_cast<std::size_t>(nd), false);
    for (const auto& d : dims) reduced[std::size_t(a.axis(d))] = true;
    std::vector<std::int64_t> wStride(static_cast<std::size_t>(nd), 0);
    std::int64_t ws = 1;
    for (int i = w.ndim() - 1; i >= 0; --i) {
        wStride[std::size_t(a.axis(w.dims()[std::size_t(i)]))] = ws;
        ws *= w.shape()[std::size_t(i)];
    }
    std::int64_t nOut = 1;
    for (int i = 0; i < nd; ++i)
        if (!reduced[std::size_t(i)]) nOut *= a.shape()[std::size_t(i)];
    std::vector<long double> swx(static_cast<std::size_t>(nOut), 0), sw(static_cast<std::size_t>(nOut), 0);
    std::vector<std::int64_t> idx(static_cast<std::size_t>(nd), 0);
    for (std::size_t e = 0; e < x.size(); ++e) {
        std::int64_t o = 0, wi = 0;
        for (int i = 0; i < nd; ++i) {
            if (!reduced[std::size_t(i)]) o = o * a.shape()[std::size_t(i)] + idx[std::size_t(i)];
            wi += idx[std::size_t(i)] * wStride[std::size_t(i)];
        }
        const double wk = wv[std::size_t(wi)];
        if (!std::isnan(x[e]) && !std::isnan(wk)) {
            swx[std::size_t(o)] += (long double)wk * x[e];
            sw[std::size_t(o)] += wk;
        }
        for (int i = nd - 1; i >= 0; --i) {
            if (++idx[std::size_t(i)] < a.shape()[std::size_t(i)]) break;
            idx[std::size_t(i)] = 0;
        }
    }
    std::vector<double> out(static_cast<std::size_t>(nOut));
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = double(swx[i] / sw[i]);
    return out;
}

struct View {
    QString name;
    std::function<DataArray(const DataArray&)> make;
};

// Views that change the strides: steps, an offset, a dropped dim, a reversed dim order.
std::vector<View> viewsFor(int ndim) {
    std::vector<View> v;
    v.push_back({"full", [](const DataArray& a) { return a; }});
    v.push_back({"steps", [ndim](const DataArray& a) {
                     std::vector<Indexer> ix;
                     ix.push_back({"d0", Slice{1, std::nullopt, 2}});
                     if (ndim > 1) ix.push_back({dimName(ndim - 1), Slice{0, std::nullopt, 3}});
                     return a.isel(ix);
                 }});
    if (ndim > 1) {
        v.push_back({"transposed", [ndim](const DataArray& a) {
                         std::vector<std::string> order = dimNames(ndim);
                         std::reverse(order.begin(), order.end());
                         return a.transpose(order);
                     }});
        v.push_back({"index0", [](const DataArray& a) { return a.isel({{"d0", std::int64_t(0)}}); }});
    }
    return v;
}

// Every subset of the dims (as names), the empty one included.
std::vector<std::vector<std::string>> subsets(const std::vector<std::string>& dims) {
    std::vector<std::vector<std::string>> out;
    for (unsigned m = 0; m < (1u << dims.size()); ++m) {
        std::vector<std::string> s;
        for (std::size_t i = 0; i < dims.size(); ++i)
            if (m & (1u << i)) s.push_back(dims[i]);
        out.push_back(s);
    }
    return out;
}

QString describe(DType t, const Shape& shape, const QString& view, const std::vector<std::string>& dims,
                 std::uint64_t seed) {
    QString s = QString::fromStdString(std::string(name(t))) + " shape(";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + QString::number(shape[i]);
    s += ") view " + view + " dims(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? "," : "") + QString::fromStdString(dims[i]);
    return s + ") seed " + QString::number(seed);
}

} // namespace

class TestGpuAgreement : public QObject {
    Q_OBJECT

    std::uint64_t seed_ = 0;
    std::mt19937_64 rng_;
    Device gpu_ = Device::cuda(0);

    std::vector<Shape> shapes() const {
        if (smallRun()) return {{7}, {33, 5}, {3, 5, 37}, {2, 0, 3}};
        return {{1},          {7},       {1025},    {1023, 7},   {7, 1025},    {3, 5, 1023},
                {33, 1, 129}, {2, 0, 3}, {4099, 3}, {17000, 64}, {9, 257, 130}};
    }

private slots:
    void cleanup() { test::reportSeedOnFailure(); }
    void initTestCase() { seed_ = test::testSeed(); }
    // Each function (and row) draws from the seed afresh: run alone, it sees the same inputs.
    void init() { rng_.seed(seed_); }

    void reduceAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void reduceAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        const std::vector<ReduceOp> ops = {ReduceOp::Sum,   ReduceOp::Mean,   ReduceOp::Min,
                                           ReduceOp::Max,   ReduceOp::Std,    ReduceOp::Var,
                                           ReduceOp::Count, ReduceOp::ArgMin, ReduceOp::ArgMax};
        int compared = 0;
        for (DType t : kNumeric) {
            for (const Shape& shape : shapes()) {
                const DataArray host = randomArray(rng_, t, shape);
                const DataArray dev = host.asDevice(gpu_, s);
                const bool big = shape.size() == 3 && shape[0] * shape[1] * shape[2] > 100000;
                for (const View& view : viewsFor(int(shape.size()))) {
                    const DataArray hv = view.make(host), dv = view.make(dev);
                    for (const auto& dims : subsets(hv.dims())) {
                        for (ReduceOp op : ops) {
                            if (big && op != ReduceOp::Mean && op != ReduceOp::Std && op != ReduceOp::ArgMax)
                                continue;
                            const QString what = QString::fromStdString(std::string(name(op))) + " " +
                                                 describe(t, shape, view.name, dims, seed_);
                            DataArray cpu;
                            bool cpuThrew = false;
                            try {
                                cpu = reduce(hv, dims, op, Stream::host());
                            } catch (const ValueError&) {
                                cpuThrew = true; // min/max of integers over an empty dim
                            }
                            if (cpuThrew) {
                                QVERIFY_THROWS_EXCEPTION(ValueError, reduce(dv, dims, op, s));
                                continue;
                            }
                            bool same = false;
                            const DataArray g = twice([&] { return reduce(dv, dims, op, s); }, what, same);
                            QVERIFY2(same, qPrintable(what));
                            QVERIFY2(g.dims() == cpu.dims(), qPrintable(what));
                            const bool f32 = cpu.dtype() == DType::Float32;
                            const double rtol = f32 ? 2e-6 : 1e-11;
                            const double scale =
                                (op == ReduceOp::Var) ? 1e4 : (op == ReduceOp::Std ? 1e2 : 1.0);
                            QVERIFY2(agree(g, cpu, rtol, rtol * scale, what), qPrintable(what));
                            ++compared;
                        }
                    }
                }
            }
        }
        qInfo() << compared << "reductions compared";
    }

    void weightedMeanAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void weightedMeanAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        const std::vector<Shape> shapes = smallRun()
                                              ? std::vector<Shape>{{5, 33, 40}}
                                              : std::vector<Shape>{{5, 33, 40}, {3, 721, 1440}, {1000, 7, 3}};
        QStringList cpuDisagreements;
        for (DType t : kNumeric) {
            for (const Shape& shape : shapes) {
                const DataArray host = randomArray(rng_, t, shape);
                const DataArray dev = host.asDevice(gpu_, s);
                // cos(lat)-like weights along d1, as float64; along (d1, d2) as float32 with NaNs; int16
                // along d0.
                std::vector<double> w1(static_cast<std::size_t>(shape[1]));
                for (std::size_t i = 0; i < w1.size(); ++i)
                    w1[i] = std::cos(-1.5 + 3.0 * double(i) / double(w1.size()));
                std::vector<float> w12(static_cast<std::size_t>(shape[1] * shape[2]));
                std::uniform_real_distribution<float> u(0, 2);
                for (auto& x : w12) x = u(rng_) < 0.03f ? NAN : u(rng_);
                std::vector<std::int16_t> w0(static_cast<std::size_t>(shape[0]));
                for (std::size_t i = 0; i < w0.size(); ++i) w0[i] = std::int16_t(1 + i % 5);
                struct Case {
                    DataArray w;
                    std::vector<std::string> dims;
                };
                const std::vector<Case> cases = {
                    {DataArray::fromHost("w", {"d1"}, {shape[1]}, w1), {"d1", "d2"}},
                    {DataArray::fromHost("w", {"d1"}, {shape[1]}, w1), {"d0"}},
                    {DataArray::fromHost("w", {"d1", "d2"}, {shape[1], shape[2]}, w12), {"d1", "d2"}},
                    {DataArray::fromHost("w", {"d1", "d2"}, {shape[1], shape[2]}, w12), {"d0", "d2"}},
                    {DataArray::fromHost("w", {"d0"}, {shape[0]}, w0), {"d0"}},
                    {DataArray::fromHost("w", {"d0"}, {shape[0]}, w0), {"d0", "d1", "d2"}},
                };
                for (const Case& c : cases) {
                    const DataArray wd = c.w.asDevice(gpu_, s);
                    // The data whole, and strided (steps along d0 and d2, the weights sliced alike).
                    const std::vector<std::pair<QString, std::vector<Indexer>>> views = {
                        {"full", {}},
                        {"steps", {{"d0", Slice{1, std::nullopt, 2}}, {"d2", Slice{0, std::nullopt, 3}}}}};
                    for (const auto& [viewName, ix] : views) {
                        std::vector<Indexer> wix;
                        for (const Indexer& i : ix)
                            if (std::find(c.w.dims().begin(), c.w.dims().end(), i.dim) != c.w.dims().end())
                                wix.push_back(i);
                        const DataArray hv = host.isel(ix), dv = dev.isel(ix), wh = c.w.isel(wix),
                                        wdv = wd.isel(wix);
                        const QString what = "weighted " + describe(t, shape, viewName, c.dims, seed_) +
                                             " w " + QString::fromStdString(std::string(name(c.w.dtype())));
                        const DataArray cpu = weightedMean(hv, wh, c.dims, Stream::host());
                        bool same = false;
                        const DataArray g =
                            twice([&] { return weightedMean(dv, wdv, c.dims, s); }, what, same);
                        QVERIFY2(same, qPrintable(what));
                        const bool f32 = cpu.dtype() == DType::Float32;
                        // The GPU against an independent reference first (float32 results are
                        // rounded once), then against the CPU backend (noted, failed at the end,
                        // so that a CPU problem does not hide the remaining GPU cases).
                        const std::vector<double> ref = weightedReference(hv, wh, c.dims);
                        const std::vector<double> gv = g.values<double>();
                        QCOMPARE(gv.size(), ref.size());
                        for (std::size_t i = 0; i < ref.size(); ++i) {
                            const bool ok =
                                (std::isnan(gv[i]) && std::isnan(ref[i])) ||
                                std::abs(gv[i] - ref[i]) <= (f32 ? 1e-6 : 1e-12) * std::abs(ref[i]) + 1e-12;
                            QVERIFY2(ok, qPrintable(what + " against the reference at " + QString::number(i) +
                                                    ": GPU " + QString::number(gv[i], 'g', 17) +
                                                    " reference " + QString::number(ref[i], 'g', 17)));
                        }
                        const double rtol = f32 ? 2e-6 : 1e-11;
                        if (!agree(g, cpu, rtol, rtol, what)) cpuDisagreements << what;
                    }
                }
            }
        }
        QVERIFY2(cpuDisagreements.isEmpty(),
                 qPrintable("GPU matches the reference but not the CPU backend in " +
                            QString::number(cpuDisagreements.size()) +
                            " cases, first: " + cpuDisagreements.value(0)));
    }

    void minmaxAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void minmaxAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        std::vector<Shape> shapes = this->shapes();
        if (!smallRun()) shapes.push_back({721, 1440});
        for (DType t : kNumeric) {
            for (const Shape& shape : shapes) {
                const DataArray host = randomArray(rng_, t, shape, true);
                const DataArray dev = host.asDevice(gpu_, s);
                for (const View& view : viewsFor(int(shape.size()))) {
                    const QString what = "minmax " + describe(t, shape, view.name, {}, seed_);
                    const DataArray cpu = minmax(view.make(host), Stream::host());
                    bool same = false;
                    const DataArray g = twice([&] { return minmax(view.make(dev), s); }, what, same);
                    QVERIFY2(same, qPrintable(what));
                    QVERIFY2(agree(g, cpu, 0, 0, what), qPrintable(what));
                }
            }
        }
        // All NaN: both NaN.
        const DataArray nan =
            DataArray::fromHost("x", {"d0"}, {1025}, std::vector<float>(1025, NAN)).asDevice(gpu_, s);
        const auto v = minmax(nan, s).asHost().values<double>();
        QVERIFY(std::isnan(v[0]) && std::isnan(v[1]));
    }

    void histogramAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void histogramAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        for (DType t : kNumeric) {
            for (const Shape& shape : shapes()) {
                const DataArray host = randomArray(rng_, t, shape, true);
                const DataArray dev = host.asDevice(gpu_, s);
                const double lo = isFloating(t) ? 262.3 : -37.7, hi = isFloating(t) ? 297.9 : 101.3;
                for (int bins : {1, 7, 256, 20000}) {
                    for (const View& view : viewsFor(int(shape.size()))) {
                        const QString what = "histogram bins " + QString::number(bins) + " " +
                                             describe(t, shape, view.name, {}, seed_);
                        const DataArray cpu = histogram(view.make(host), bins, lo, hi, Stream::host());
                        bool same = false;
                        const DataArray g =
                            twice([&] { return histogram(view.make(dev), bins, lo, hi, s); }, what, same);
                        QVERIFY2(same, qPrintable(what));
                        QVERIFY2(agree(g, cpu, 0, 0, what), qPrintable(what));
                    }
                }
            }
        }
    }

    void colormapAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void colormapAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        const std::vector<Shape> frames = smallRun()
                                              ? std::vector<Shape>{{7, 33}, {1, 1}}
                                              : std::vector<Shape>{{1, 1}, {7, 1025}, {721, 1440}, {1023, 3}};
        const Rgba8 nanColour{1, 2, 3, 4};
        for (int n : {1, 7, 256}) {
            std::vector<std::uint8_t> lut(std::size_t(n) * 4);
            std::uniform_int_distribution<int> byte(0, 255);
            for (auto& b : lut) b = std::uint8_t(byte(rng_));
            const DataArray lutHost = DataArray::fromHost("lut", {"entry", "channel"}, {n, 4}, lut);
            const DataArray lutDev = lutHost.asDevice(gpu_, s);
            for (DType t : kNumeric) {
                for (const Shape& shape : frames) {
                    const DataArray host = randomArray(rng_, t, shape, true);
                    const DataArray dev = host.asDevice(gpu_, s);
                    for (const View& view : {viewsFor(2)[0], viewsFor(2)[1], viewsFor(2)[2]}) {
                        const DataArray hv = view.make(host), dv = view.make(dev);
                        const QString what = "colormap n " + QString::number(n) + " " +
                                             describe(t, shape, view.name, {}, seed_);
                        // The range from minmax, on the device; a fixed range; an empty range.
                        const DataArray cpuRange = minmax(hv, Stream::host());
                        const DataArray cpu = colormap(hv, lutHost, cpuRange, nanColour, Stream::host());
                        bool same = false;
                        DataArray g = twice([&] { return colormap(dv, lutDev, minmax(dv, s), nanColour, s); },
                                            what + " range", same);
                        QVERIFY2(same, qPrintable(what));
                        QVERIFY2(agree(g, cpu, 0, 0, what + " range"), qPrintable(what));
                        for (auto [lo, hi] :
                             {std::pair{270.0, 290.0}, std::pair{-20.5, 80.25}, std::pair{5.0, 5.0}}) {
                            const DataArray c2 = colormap(hv, lutHost, lo, hi, nanColour, Stream::host());
                            g = twice([&] { return colormap(dv, lutDev, lo, hi, nanColour, s); }, what, same);
                            QVERIFY2(same, qPrintable(what));
                            QVERIFY2(agree(g, c2, 0, 0, what + " fixed " + QString::number(lo)),
                                     qPrintable(what));
                        }
                    }
                }
            }
        }
    }

    void contiguousAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void contiguousAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        for (DType t : kNumeric) {
            for (const Shape& shape : shapes()) {
                const DataArray host = randomArray(rng_, t, shape);
                const DataArray dev = host.asDevice(gpu_, s);
                std::vector<View> views = viewsFor(int(shape.size()));
                if (shape.size() == 3) {
                    views.push_back({"d1 last", [](const DataArray& a) {
                                         return a.transpose({"d0", "d2", "d1"});
                                     }});
                    views.push_back({"index last", [](const DataArray& a) {
                                         return a.isel({{"d2", std::int64_t(1) % a.shape()[2]}});
                                     }});
                }
                for (const View& view : views) {
                    if (view.name == "index last" && shape[2] == 0) continue;
                    const QString what = "contiguous " + describe(t, shape, view.name, {}, seed_);
                    const DataArray cpu = contiguous(view.make(host), Stream::host());
                    bool same = false;
                    const DataArray g = twice([&] { return contiguous(view.make(dev), s); }, what, same);
                    QVERIFY2(same, qPrintable(what));
                    QVERIFY2(g.shape() == cpu.shape(), qPrintable(what));
                    QVERIFY2(bytesOf(g) == bytesOf(cpu), qPrintable(what));
                }
            }
        }
    }

    void decodeAgreement_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void decodeAgreement() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        // Packed values held in memory behind the DataSource interface, read lazily by load().
        struct MemorySource : DataSource {
            DataArray packed;
            void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                      std::span<const std::int64_t> stride, void* out) const override {
                std::vector<Indexer> ix;
                for (std::size_t d = 0; d < start.size(); ++d)
                    ix.push_back(
                        {packed.dims()[d], Slice{start[d], start[d] + count[d] * stride[d], stride[d]}});
                const DataArray part = contiguous(packed.isel(ix), Stream::host());
                std::memcpy(out, part.variable().buffer()->data(), part.variable().nbytes());
            }
            std::string describe() const override { return "memory"; }
        };
        for (DType t : kNumeric) {
            const Shape shape = smallRun() ? Shape{3, 37} : Shape{7, 1023, 5};
            auto src = std::make_shared<MemorySource>();
            src->packed = randomArray(rng_, t, shape);
            for (int variant = 0; variant < 3; ++variant) {
                CfEncoding enc;
                enc.packed = t;
                enc.decoded = variant == 1 ? DType::Float64 : DType::Float32;
                const std::vector<double> some = src->packed.values<double>();
                enc.fillValues = {std::isnan(some[0]) ? 1.0 : some[0], isFloating(t) ? 9.96921e36 : 7.0};
                if (variant != 2) {
                    enc.scaled = true;
                    enc.scale = variant == 0 ? 0.01 : 1.7;
                    enc.offset = variant == 0 ? 273.15 : -3.0;
                }
                if (variant == 2) {
                    enc.validMin = isFloating(t) ? 275.0 : 3.0;
                    enc.validMax = isFloating(t) ? 290.0 : 90.0;
                }
                const Variable lazy = Variable::lazy(dimNames(int(shape.size())), shape, enc, src);
                const QString what =
                    "decode variant " + QString::number(variant) + " " + describe(t, shape, "", {}, seed_);
                const DataArray cpu("x", lazy.load(Device::host(), Stream::host()));
                bool same = false;
                const DataArray g = twice([&] { return DataArray("x", lazy.load(gpu_, s)); }, what, same);
                QVERIFY2(same, qPrintable(what));
                QVERIFY2(bytesOf(g) == bytesOf(cpu), qPrintable(what));
            }
        }
    }

    void noReadBackUntilAsked_data() {
        QTest::addColumn<int>("unused");
        QTest::newRow("cuda") << 0;
    }
    void noReadBackUntilAsked() {
        STRATA_REQUIRE_DEVICE();
        const Stream s = defaultStream(gpu_);
        const DataArray dev = randomArray(rng_, DType::Float32, {20, 33, 40}).asDevice(gpu_, s);
        std::vector<std::uint8_t> lut(256 * 4, 7);
        const DataArray lutDev =
            DataArray::fromHost("lut", {"entry", "channel"}, {256, 4}, lut).asDevice(gpu_, s);
        const TransferCounters before = transferCounters();
        const DataArray mean = reduce(dev, {"d0"}, ReduceOp::Mean, s);
        const DataArray range = minmax(mean, s);
        const DataArray rgba = colormap(mean, lutDev, range, Rgba8{}, s);
        const DataArray wmean = weightedMean(dev, mean, {"d1", "d2"}, s);
        s.synchronize();
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(0));
        QCOMPARE(transferredSince(before).hostToDevice, std::uint64_t(0));
        QCOMPARE(rgba.shape(), (Shape{33, 40, 4}));
        QCOMPARE(wmean.shape(), (Shape{20}));
        const DataArray back = rgba.asHost();
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(33 * 40 * 4));
        QCOMPARE(back.values<std::uint8_t>()[0], std::uint8_t(7));
    }
};

QTEST_GUILESS_MAIN(TestGpuAgreement)
#include "tst_gpuagreement.moc"
