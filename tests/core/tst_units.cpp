// Display units: conversions checked against the units' definitions (not against udunits2
// itself), refusals that name the units, the offers of common units, convertUnits on random
// values with NaN on the cpu and cuda rows against a plain loop, and computeFrame showing a
// frame in other units (and leaving a count, which has none, as it is).
#include "strata/core/units.h"
#include "strata/core/view.h"
#include "test_seed.h"
#include "test_util.h"
#include <numeric>

using namespace strata;

namespace {
// The stream the backend's arrays are ordered on (the device's default one for the cuda row).
Stream streamOf(const test::Backend& b) { return b.cuda ? defaultStream(Device::cuda(0)) : Stream::host(); }
} // namespace
using test::Backend;

namespace {

bool near(double a, double e) { return std::abs(a - e) <= 1e-12 * std::max(1.0, std::abs(e)); }

bool has(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

DataArray withUnits(DataArray a, const std::string& units) {
    Attributes attrs = a.attrs();
    attrs.set(Attribute{"units", DType::Char, units});
    const Variable& v = a.variable();
    return DataArray(
        a.name(),
        Variable(v.dims(), v.shape(), v.dtype(), v.buffer(), v.strides(), v.offset(), std::move(attrs)),
        a.coords());
}

QString message(const std::function<void()>& f) {
    try {
        f();
    } catch (const ValueError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestUnits : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Each from its definition: 0 °C = 273.15 K; °F = 9/5 K less 459.67; 1 hPa = 100 Pa; a knot
    // is 1852 m an hour; a day 86400 s; 1 kg of water a square metre is 1 mm deep.
    void conversionsFollowTheDefinitions() {
        struct Case {
            const char *from, *to;
            double scale, offset;
            bool water;
        };
        const Case cases[] = {
            {"K", "degC", 1, -273.15, false},
            {"degC", "K", 1, 273.15, false},
            {"K", "degF", 1.8, -459.67, false},
            {"Pa", "hPa", 0.01, 0, false},
            {"hPa", "Pa", 100, 0, false},
            {"m s-1", "knots", 3600.0 / 1852.0, 0, false},
            {"m/s", "km/h", 3.6, 0, false},
            {"kg m-2 s-1", "mm/day", 86400, 0, true},
            {"mm/day", "kg m-2 s-1", 1 / 86400.0, 0, true},
            {"kg m-2", "mm", 1, 0, true},
            {"kg kg-1", "g kg-1", 1000, 0, false},
        };
        for (const Case& c : cases) {
            const UnitConversion u = unitConversion(c.from, c.to);
            QVERIFY2(near(u.scale, c.scale) && near(u.offset, c.offset),
                     qPrintable(QString("%1 -> %2: %3 x + %4").arg(c.from, c.to).arg(u.scale).arg(u.offset)));
            QCOMPARE(u.from, std::string(c.from));
            QCOMPARE(u.to, std::string(c.to));
            QCOMPARE(!u.assumption.empty(), c.water);
            QVERIFY(convertible(c.from, c.to));
        }
        // Written in UTF-8 as files do.
        QVERIFY(near(unitConversion("°C", "K").offset, 273.15));
        const UnitConversion same = unitConversion("K", "K");
        QVERIFY(same.identity());
    }

    void refusalsNameTheUnits() {
        const QString different = message([] { unitConversion("K", "m"); });
        QVERIFY2(different.contains("'K'") && different.contains("'m'") && different.contains("different"),
                 qPrintable(different));
        const QString unknown = message([] { unitConversion("K", "wibbles per fortnight"); });
        QVERIFY2(unknown.contains("'wibbles per fortnight'"), qPrintable(unknown));
        QVERIFY(!convertible("K", "m"));
        QVERIFY(!convertible("", "K"));
        // A sum of temperatures in degC has no meaning; a spread takes the scale only.
        const UnitConversion k = unitConversion("K", "degF");
        const QString sum = message([&] { conversionAfter(k, {ReduceOp::Mean, ReduceOp::Sum}, "tas"); });
        QVERIFY2(sum.contains("'tas'") && sum.contains("degF"), qPrintable(sum));
        const UnitConversion spread = conversionAfter(k, {ReduceOp::Std}, "tas");
        QVERIFY(near(spread.scale, 1.8) && spread.offset == 0);
        const UnitConversion hpa = conversionAfter(unitConversion("Pa", "hPa"), {ReduceOp::Sum}, "psl");
        QVERIFY(near(hpa.scale, 0.01));
    }

    void commonUnitsAreThoseItConvertsTo() {
        const auto k = commonUnits("K");
        QVERIFY(!k.empty() && k.front() == "K");
        QVERIFY(has(k, "degC") && has(k, "degF"));
        QCOMPARE(std::count(k.begin(), k.end(), std::string("K")), 1);
        QVERIFY(!has(k, "hPa") && !has(k, "m s-1"));
        const auto pr = commonUnits("kg m-2 s-1");
        QVERIFY(has(pr, "mm/day") && has(pr, "mm/h"));
        const auto wind = commonUnits("m s-1");
        QVERIFY2(has(wind, "knots") && has(wind, "km/h") && !has(wind, "mm/day"),
                 qPrintable(QString::fromStdString(std::accumulate(
                     wind.begin(), wind.end(), std::string(), [](auto a, auto b) { return a + b + ","; }))));
        for (const std::string& u : commonUnits("Pa")) QVERIFY(convertible("Pa", u));
        const auto depth = commonUnits("mm/day"); // a precipitation stored as a depth rate
        QVERIFY(has(depth, "kg m-2 s-1") && has(depth, "mm/h") && !has(depth, "knots"));
        QVERIFY(commonUnits("").empty());
        // A ratio of what it does not say is offered no ppm: cloud fraction in 1 or %.
        QVERIFY(!has(commonUnits("1"), "ppm") && !has(commonUnits("%"), "g kg-1"));
        QVERIFY(has(commonUnits("kg kg-1"), "g kg-1") && !has(commonUnits("kg kg-1"), "ppm"));
        QVERIFY(commonUnits("wibbles").empty());
    }

    void convertUnitsMatchesAPlainLoop_data() { STRATA_BACKEND_ROWS(); }
    void convertUnitsMatchesAPlainLoop() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        const UnitConversion c = unitConversion("K", "degF");
        for (DType t : {DType::Float32, DType::Float64}) {
            const DataArray a = withUnits(test::randomArray(rng, t, {5, 37, 21}, 0.1), "K");
            // A transposed view: converted in its own order.
            const DataArray view = a.transpose({"d2", "d0", "d1"});
            const DataArray out = test::poisoned([&] { return convertUnits(b.put(view), c, streamOf(b)); });
            QCOMPARE(out.dims(), view.dims());
            QCOMPARE(out.attrs().text("units").value_or(""), std::string("degF"));
            const std::vector<double> in = contiguous(view).values<double>(), got = out.values<double>();
            QCOMPARE(got.size(), in.size());
            int nans = 0;
            for (std::size_t i = 0; i < in.size(); ++i) {
                const double want =
                    t == DType::Float32 ? double(float(1.8 * in[i] - 459.67)) : 1.8 * in[i] - 459.67;
                if (std::isnan(in[i])) {
                    QVERIFY(std::isnan(got[i]));
                    ++nans;
                } else {
                    // To the type's precision of the terms (1.8 x and 459.67 nearly cancel).
                    const double terms = 1.8 * std::abs(in[i]) + 459.67;
                    QVERIFY2(std::abs(got[i] - want) <= (t == DType::Float32 ? 1e-6 : 1e-13) * terms,
                             qPrintable(QString("%1: %2 vs %3").arg(i).arg(got[i]).arg(want)));
                }
            }
            QVERIFY(nans > 0);
        }
        // Integers (an int16 elevation in m) become float32 in km.
        const DataArray ints = withUnits(test::makeArray(DType::Int16, {"x"}, {3}, {1500, -20, 7}), "m");
        const DataArray km = convertUnits(b.put(ints), unitConversion("m", "km"), streamOf(b)).asHost();
        QCOMPARE(km.dtype(), DType::Float32);
        QCOMPARE(km.values<float>(), (std::vector<float>{1.5f, -0.02f, 0.007f}));
    }

    void computeFrameShowsTheUnitsAsked_data() { STRATA_BACKEND_ROWS(); }
    void computeFrameShowsTheUnitsAsked() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(test::testSeed());
        const DataArray a = b.put(withUnits(test::randomArray(rng, DType::Float32, {4, 6, 8}, 0.1), "K"));
        const Device d = b.cuda ? Device::cuda(0) : Device::host();
        FrameSpec spec;
        spec.variable = "x";
        spec.xDim = "d2";
        spec.yDim = "d1";
        spec.indices = {{"d0", 2}};
        FallbackNote note;
        const std::vector<double> stored = computeFrame(a, spec, d, note).asHost().values<double>();
        spec.units = "degC";
        const DataArray shown = computeFrame(a, spec, d, note).asHost();
        QCOMPARE(shown.attrs().text("units").value_or(""), std::string("degC"));
        const std::vector<double> values = shown.values<double>();
        QCOMPARE(values.size(), stored.size());
        for (std::size_t i = 0; i < values.size(); ++i)
            QVERIFY(std::isnan(stored[i]) ? std::isnan(values[i])
                                          : test::close(values[i], double(float(stored[i] - 273.15)), 1e-6));
        // A count has no units: shown as it is.
        spec.indices.clear();
        spec.reductions = {{"d0", ReduceOp::Count}};
        FrameSpec plain = spec;
        plain.units.clear();
        const DataArray count = computeFrame(a, spec, d, note).asHost();
        QVERIFY(!count.attrs().text("units"));
        QCOMPARE(count.values<double>(), computeFrame(a, plain, d, note).asHost().values<double>());
        // A count then a sum: the count has no units, so nothing is refused.
        FrameSpec line = spec; // along d2, counted over d0 then summed over d1
        line.yDim.clear();
        line.reductions = {{"d0", ReduceOp::Count}, {"d1", ReduceOp::Sum}};
        QVERIFY(!computeFrame(a, line, d, note).asHost().attrs().text("units"));
        // A sum in degC is refused before any work, naming the variable.
        spec.reductions = {{"d0", ReduceOp::Sum}};
        QVERIFY(message([&] { computeFrame(a, spec, d, note); }).contains("a sum of 'x'"));
        // Units it cannot be shown in.
        spec.reductions.clear();
        spec.indices = {{"d0", 0}};
        spec.units = "m";
        QVERIFY(message([&] { computeFrame(a, spec, d, note); }).contains("different things"));
        // A variable without units has none to convert from.
        const DataArray bare = b.put(test::randomArray(rng, DType::Float32, {4, 6, 8}, 0.1));
        QVERIFY(message([&] { computeFrame(bare, spec, d, note); }).contains("has no units to show in m"));
    }
};

QTEST_APPLESS_MAIN(TestUnits)
#include "tst_units.moc"
