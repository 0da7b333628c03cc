// colormap() and colormapInto(): t = (v − vmin)/(vmax − vmin), index = clamp(floor(t·n), 0,
// n − 1), NaN → nanColour, vmax <= vmin → entry 0 — hand-computed frames, every dtype
// against a reference that calls floor, strided frames, LUTs of other sizes, the range read
// from a minmax() result without any trip to the host, caller-owned output, input checks.
#include "strata/core/transfer.h"
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

const Rgba8 kNan{1, 2, 3, 4};

// A LUT whose entry i is (i & 255, i >> 8, 7, 255 − i % 256): every entry distinct.
DataArray makeLut(int n) {
    std::vector<std::uint8_t> v;
    for (int i = 0; i < n; ++i) {
        v.push_back(std::uint8_t(i & 255));
        v.push_back(std::uint8_t(i >> 8));
        v.push_back(7);
        v.push_back(std::uint8_t(255 - i % 256));
    }
    return DataArray::fromHost("lut", {"entry", "rgba"}, {n, 4}, v);
}

Rgba8 entry(int i) { return {std::uint8_t(i & 255), std::uint8_t(i >> 8), 7, std::uint8_t(255 - i % 256)}; }

std::vector<Rgba8> pixels(const DataArray& rgba) {
    const auto b = rgba.values<std::uint8_t>();
    std::vector<Rgba8> p;
    for (std::size_t i = 0; i + 3 < b.size(); i += 4) p.push_back({b[i], b[i + 1], b[i + 2], b[i + 3]});
    return p;
}

std::vector<Rgba8> reference(const DataArray& frame, int n, double vmin, double vmax) {
    std::vector<Rgba8> p;
    for (double v : frame.values<double>()) {
        if (std::isnan(v))
            p.push_back(kNan);
        else if (!(vmax > vmin))
            p.push_back(entry(0));
        else {
            const double f = std::floor((v - vmin) / (vmax - vmin) * n);
            p.push_back(entry(f < 0 ? 0 : (f > n - 1 ? n - 1 : int(f))));
        }
    }
    return p;
}

DataArray mapOn(const Backend& b, const DataArray& frame, const DataArray& lut, double vmin, double vmax) {
    const DataArray f = b.put(frame), l = b.put(lut);
    const Stream s = f.variable().buffer() ? f.variable().buffer()->stream() : Stream::host();
    return test::poisoned([&] { return colormap(f, l, vmin, vmax, kNan, s); });
}

} // namespace

class TestColormap : public QObject {
    Q_OBJECT

private slots:
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        const double nan = std::nan("");
        // n = 4 over [0, 1]: t·n = 0, 2, 4 (→ 3), NaN, −4 (→ 0), 8 (→ 3); 0.2499 → 0, 0.25 → 1.
        const DataArray frame =
            test::makeArray(DType::Float64, {"y", "x"}, {2, 4}, {0, 0.5, 1, nan, -1, 2, 0.2499, 0.25});
        const DataArray r = mapOn(b, frame, makeLut(4), 0, 1);
        QCOMPARE(r.shape(), Shape({2, 4, 4}));
        QCOMPARE(r.dtype(), DType::UInt8);
        QCOMPARE(r.dims(), std::vector<std::string>({"y", "x", "rgba"}));
        const std::vector<Rgba8> expect = {entry(0), entry(2), entry(3), kNan,
                                           entry(0), entry(3), entry(0), entry(1)};
        QVERIFY(pixels(r) == expect);
        // vmax <= vmin: every value → entry 0, NaN → nanColour.
        const DataArray flat = mapOn(b, frame, makeLut(4), 1, 1);
        QVERIFY(pixels(flat) == std::vector<Rgba8>({entry(0), entry(0), entry(0), kNan, entry(0), entry(0),
                                                    entry(0), entry(0)}));
        const DataArray inf = test::makeArray(DType::Float32, {"y", "x"}, {1, 2}, {INFINITY, -INFINITY});
        QVERIFY(pixels(mapOn(b, inf, makeLut(4), 0, 1)) == std::vector<Rgba8>({entry(3), entry(0)}));
    }

    // Values beyond [vmin, vmax] take the under and over colours where given (the LUT's ends
    // where not); vmin and vmax themselves, NaN and ±inf follow the same rule; every dtype.
    void underAndOverColours_data() { STRATA_BACKEND_ROWS(); }
    void underAndOverColours() {
        STRATA_BACKEND(b);
        const double nan = std::nan("");
        const Rgba8 under{10, 20, 30, 255}, over{200, 210, 220, 255};
        const DataArray frame =
            test::makeArray(DType::Float64, {"y", "x"}, {2, 4}, {-1, 0, 0.5, 1, 2, nan, -INFINITY, INFINITY});
        const DataArray f = b.put(frame), lut = b.put(makeLut(4));
        const Stream s = f.variable().buffer() ? f.variable().buffer()->stream() : Stream::host();
        const DataArray both = test::poisoned([&] { return colormap(f, lut, 0, 1, {kNan, under, over}, s); });
        QVERIFY(pixels(both) ==
                std::vector<Rgba8>({under, entry(0), entry(2), entry(3), over, kNan, under, over}));
        const DataArray onlyOver = test::poisoned([&] {
            return colormap(f, lut, 0, 1, {kNan, std::nullopt, over}, s);
        });
        QVERIFY(pixels(onlyOver) ==
                std::vector<Rgba8>({entry(0), entry(0), entry(2), entry(3), over, kNan, entry(0), over}));
        // Into caller memory too, and for integers (5 and 40 beyond [10, 30]).
        const DataArray ints = b.put(test::makeArray(DType::Int16, {"y", "x"}, {1, 3}, {5, 20, 40}));
        const DataArray r = test::poisoned([&] {
            return colormap(ints, lut, 10, 30, {kNan, under, over}, s);
        });
        QVERIFY(pixels(r) == std::vector<Rgba8>({under, entry(2), over}));
    }

    void everyDtypeAndStrides_data() { STRATA_BACKEND_ROWS(); }
    void everyDtypeAndStrides() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(8);
        for (DType t : test::kNumeric) {
            const DataArray f = test::randomArray(rng, t, {37, 530}, 0.05);
            const double lo = isFloating(t) ? 270 : 5, hi = isFloating(t) ? 290 : 40;
            for (int n : {1, 256, 1000}) {
                const DataArray lut = makeLut(n);
                QVERIFY2(pixels(mapOn(b, f, lut, lo, hi)) == reference(f, n, lo, hi),
                         qPrintable(test::str(name(t))));
            }
            // A strided (transposed and stepped) frame, mapped where it lives.
            const DataArray onB = b.put(f), lut = b.put(makeLut(256));
            const auto view = [](const DataArray& x) {
                return x.isel({{"d1", Slice{1, std::nullopt, 2}}}).transpose({"d1", "d0"});
            };
            const Stream s = onB.variable().buffer()->stream();
            const DataArray r = test::poisoned([&] { return colormap(view(onB), lut, lo, hi, kNan, s); });
            QVERIFY(pixels(r) == reference(view(f), 256, lo, hi));
        }
    }

    // The range from minmax() on the same device: same pixels as with the values, and not one
    // byte crosses to the host until the result is fetched.
    void rangeFromMinmax_data() { STRATA_BACKEND_ROWS(); }
    void rangeFromMinmax() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(12);
        const DataArray host = test::randomArray(rng, DType::Float32, {721, 1440}, 0.01);
        const DataArray f = b.put(host), lut = b.put(makeLut(256));
        const Stream s = f.variable().buffer()->stream();
        const TransferCounters before = transferCounters();
        const DataArray r = colormap(f, lut, minmax(f), kNan, s);
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(0));
        QCOMPARE(r.device(), f.device());
        const auto [lo, hi] = minmaxValues(host);
        QVERIFY(pixels(r.asHost()) == reference(host, 256, lo, hi));
        // All-NaN frame: the range is NaN, every pixel the NaN colour.
        const DataArray nanFrame =
            b.put(test::makeArray(DType::Float64, {"y", "x"}, {2, 2}, std::vector<double>(4, NAN)));
        const DataArray rn =
            colormap(nanFrame, lut, minmax(nanFrame), kNan, nanFrame.variable().buffer()->stream());
        QVERIFY(pixels(rn.asHost()) == std::vector<Rgba8>(4, kNan));
    }

    void intoCallerMemory_data() { STRATA_BACKEND_ROWS(); }
    void intoCallerMemory() {
        STRATA_BACKEND(b);
        const DataArray host = test::makeArray(DType::Float32, {"y", "x"}, {3, 2}, {0, 1, 2, 3, 4, NAN});
        const DataArray f = b.put(host), lut = b.put(makeLut(5));
        const Stream s = f.variable().buffer()->stream();
        const Device d = f.device();
        Buffer out(6 * 4, d, s);
        colormapInto(f, lut, 0, 5, nullptr, kNan, out.data(), s);
        const Buffer back = out.copyTo(Device::host(), s);
        s.synchronize();
        std::vector<Rgba8> got(6);
        std::memcpy(got.data(), back.data(), 24);
        QVERIFY(got == reference(host, 5, 0, 5));
        const DataArray range = minmax(f);
        colormapInto(f, lut, 0, 0, &range, kNan, out.data(), s);
        const Buffer back2 = out.copyTo(Device::host(), s);
        s.synchronize();
        std::memcpy(got.data(), back2.data(), 24);
        QVERIFY(got == reference(host, 5, 0, 4));
    }

    void errors_data() { STRATA_BACKEND_ROWS(); }
    void errors() {
        STRATA_BACKEND(b);
        const DataArray f3 = b.put(test::makeArray(DType::Float32, {"a", "b", "c"}, {1, 1, 2}, {1, 2}));
        const DataArray f = b.put(test::makeArray(DType::Float32, {"a", "b"}, {1, 2}, {1, 2}));
        const DataArray lut = b.put(makeLut(3));
        const Stream s = f.variable().buffer()->stream();
        QVERIFY_THROWS_EXCEPTION(ValueError, colormap(f3, lut, 0, 1, kNan, s));
        const DataArray badLut =
            b.put(test::makeArray(DType::Float32, {"e", "c"}, {3, 4}, std::vector<double>(12, 0)));
        QVERIFY_THROWS_EXCEPTION(ValueError, colormap(f, badLut, 0, 1, kNan, s));
        const DataArray badShape =
            b.put(DataArray::fromHost("l", {"e", "c"}, {2, 3}, std::vector<std::uint8_t>(6, 0)));
        QVERIFY_THROWS_EXCEPTION(ValueError, colormap(f, badShape, 0, 1, kNan, s));
        const DataArray badRange = b.put(test::makeArray(DType::Float32, {"r"}, {2}, {0, 1}));
        QVERIFY_THROWS_EXCEPTION(ValueError, colormap(f, lut, badRange, kNan, s));
        if (b.cuda) QVERIFY_THROWS_EXCEPTION(ValueError, colormap(f, makeLut(3), 0, 1, kNan, s));
    }
};

QTEST_APPLESS_MAIN(TestColormap)
#include "tst_colormap.moc"
