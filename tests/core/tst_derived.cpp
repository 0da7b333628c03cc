// Derived variables: every element-wise function and the programs that skip the interpreter
// against loops written here over the host values, on fresh random inputs with NaNs; the cuda
// rows run the same on the GPU (inputs resident there, and lazy). Broadcasting, resident inputs,
// another dataset's variables by alias, the memory budget of a whole derived variable; bad
// statements give messages that name the problem. (Windows and climatologies along time:
// tst_derived_time.)
#include "test_seed.h"
#include <QtTest>

#include <cmath>
#include <random>
#include <set>

#include "derived_fixture.h"
#include "derived_impl.h"
#include "memory_source.h"
#include "strata/core/derived.h"
#include "strata/core/memory_budget.h"
#include "strata/core/runtime.h"
#include "strata/core/view.h"
#include "test_util.h"

using namespace strata;
using namespace test;
using namespace derivedtest;

namespace {

std::string messageOf(const std::function<void()>& fn) {
    try {
        fn();
    } catch (const ValueError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

class TestDerived : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { test::reportSeedOnFailure(); }

    // Inputs loaded on the host, and lazy (read by the box).
    void elementWise_data() { STRATA_BACKEND_ROWS(); }
    void elementWise() {
        STRATA_BACKEND(backend);
        for (bool lazy : {false, true})
            if (elementWiseWith(backend.cuda, lazy), QTest::currentTestFailed()) return;
    }
    void elementWiseWith(bool cuda, bool lazy) {
        Fixture f = makeFixture(testSeed() + lazy, lazy, 50);
        derive(f.ds, "speed = hypot(u, v)");
        derive(f.ds, "celsius = tas - 273.15");
        derive(f.ds, "picked = where((u > 0) & ~isnan(v), u, v * 2)");
        derive(f.ds, "mixed [m/s] = clip(u, -5, 5) ** 2 / w + fillna(v, -1)");
        derive(f.ds, "angle = arctan2(v, u) + minimum(u, v) - maximum(abs(u), 0.5) + floor(u) * ceil(v)");
        derive(f.ds, "ratio = u / 0");
        derive(f.ds, "twice = speed * 2");      // a derived variable read by another
        derive(f.ds, "hinf = hypot(u / 0, v)"); // hypot(±inf, NaN) is inf, as C's hypot has it
        const std::int64_t n = f.nt * f.ny * f.nx, points = f.ny * f.nx;
        std::vector<double> speed(n), celsius(n), picked(n), mixed(n), angle(n), ratio(n), twice(n), hinf(n);
        auto fl = [](double x) { return double(float(x)); };
        for (std::int64_t i = 0; i < n; ++i) {
            const double u = f.u[i], v = f.v[i], w = f.w[i % points];
            speed[i] = fl(std::hypot(u, v));
            celsius[i] = fl(f.tas[i] - 273.15);
            picked[i] = fl(u > 0 && !std::isnan(v) ? u : v * 2);
            const double c = std::isnan(u) ? kNan : std::min(std::max(u, -5.0), 5.0);
            mixed[i] = fl(c * c / w + (std::isnan(v) ? -1 : v));
            const double mn = std::isnan(u) || std::isnan(v) ? kNan : std::min(u, v);
            const double mx = std::isnan(u) ? kNan : std::max(std::fabs(u), 0.5);
            angle[i] = fl(std::atan2(v, u) + mn - mx + std::floor(u) * std::ceil(v));
            ratio[i] = fl(u / 0.0);
            twice[i] = fl(std::hypot(u, v) * 2);
            hinf[i] = fl(std::hypot(u / 0.0, v));
        }
        QVERIFY(sameValues(evaluate(f.ds, "speed", cuda), speed));
        QVERIFY(sameValues(evaluate(f.ds, "celsius", cuda), celsius));
        QVERIFY(sameValues(evaluate(f.ds, "picked", cuda), picked));
        QVERIFY(sameValues(evaluate(f.ds, "mixed", cuda), mixed));
        QVERIFY(sameValues(evaluate(f.ds, "angle", cuda), angle));
        QVERIFY(sameValues(evaluate(f.ds, "ratio", cuda), ratio)); // ±inf, and NaN for 0/0
        QVERIFY(sameValues(evaluate(f.ds, "twice", cuda), twice));
        QVERIFY(sameValues(evaluate(f.ds, "hinf", cuda), hinf));
        QVERIFY(std::count_if(hinf.begin(), hinf.end(), [](double x) { return std::isinf(x); }) >
                std::count_if(ratio.begin(), ratio.end(), [](double x) { return std::isinf(x); }) * 9 / 10);
        QVERIFY(std::count_if(ratio.begin(), ratio.end(), [](double x) { return std::isinf(x); }) > n / 2);

        // Units: kept, converted, set, or none.
        QCOMPARE(f.ds["speed"].attrs().text("units").value_or(""), std::string("m s-1"));
        QCOMPARE(f.ds["celsius"].attrs().text("units").value_or(""), std::string("degC"));
        QCOMPARE(derivedSourceOf(f.ds["celsius"].variable())->unitsReason(), std::string("converted"));
        QCOMPARE(f.ds["mixed"].attrs().text("units").value_or(""), std::string("m/s"));
        QCOMPARE(derivedSourceOf(f.ds["angle"].variable())->unitsReason(), std::string("none"));
        QVERIFY(!f.ds["angle"].attrs().contains("units"));
        QCOMPARE(derivedSourceOf(f.ds["twice"].variable())->statement(), std::string("twice = speed * 2"));
    }

    // A derived variable made whole (Python's strata.derive, an export) is refused over the
    // memory budget, naming it, before anything is computed; a box within it is made.
    void aWholeDerivedVariableFollowsTheMemoryBudget() {
        Fixture f = makeFixture(testSeed(), true, 50);
        derive(f.ds, "speed = hypot(u, v)");
        const DataArray speed = f.ds["speed"]; // 50 × 4 × 12 float32: 9600 bytes
        setMemoryBudget(4096);
        QString what;
        try {
            speed.load(Device::host(), Stream::host());
        } catch (const OutOfMemoryError& e) {
            what = e.what();
        }
        QVERIFY2(what.contains("speed") && what.contains("memory budget"), qPrintable(what));
        const DataArray step = speed.isel({{"time", 7}}).load(Device::host(), Stream::host());
        setMemoryBudget(kUnlimitedMemory);
        QCOMPARE(step.size(), std::int64_t(48));
        std::vector<double> want(48);
        for (std::size_t k = 0; k < 48; ++k)
            want[k] = double(float(std::hypot(f.u[7 * 48 + k], f.v[7 * 48 + k])));
        QVERIFY(sameValues(step.values<double>(), want));
    }

    // Programs of one instruction on leaves and constants skip the interpreter on both
    // backends (derived_program.h): they give what the interpreter gives, over whole variables
    // and strided boxes, with broadcast and transposed leaves, a table read by time, an integer
    // leaf and a float64 one.
    void simpleProgramsAgreeWithTheInterpreter_data() { STRATA_BACKEND_ROWS(); }
    void simpleProgramsAgreeWithTheInterpreter() {
        STRATA_BACKEND(backend);
        for (bool lazy : {false, true}) {
            Fixture f = makeFixture(testSeed() + 7 * lazy, lazy, 2 * 365 + 31);
            std::mt19937_64 rng(testSeed() + 11);
            const std::vector<double> counts = randomValues(rng, DType::Int16, f.ny * f.nx, 0.0);
            f.ds.variables.emplace_back(
                "q", makeArray(DType::Int16, {"lat", "lon"}, {f.ny, f.nx}, counts).variable());
            const std::vector<double> wide = randomValues(rng, DType::Float64, f.nt * f.ny * f.nx, 0.05);
            f.ds.variables.emplace_back(
                "d", makeArray(DType::Float64, {"time", "lat", "lon"}, {f.nt, f.ny, f.nx}, wide).variable());
            const std::vector<std::string> statements = {"a = tas - 273.15",
                                                         "b = hypot(u, v)",
                                                         "c = u - v",
                                                         "e = tas - w",
                                                         "g = w - tas",
                                                         "h = -u",
                                                         "i = fillna(u, 0)",
                                                         "j = maximum(u, v)",
                                                         "k = u > v",
                                                         "l = anomaly(tas, \"month\")",
                                                         "m = arctan2(u, v)",
                                                         "n = q * 0.5",
                                                         "o = 2 / u",
                                                         "p = d * u",
                                                         "r = sqrt(tas)",
                                                         "s = u",
                                                         "t = q"};
            for (const std::string& st : statements) derive(f.ds, st);
            const Device device = backend.cuda ? Device::cuda(0) : Device::host();
            const Stream stream = backend.cuda ? defaultStream(device) : Stream::host();
            struct Reset {
                ~Reset() { detail::setSimplePrograms(true); }
            } reset;
            for (const std::string& st : statements) {
                const std::string name = st.substr(0, st.find(' '));
                const DataArray whole = f.ds[name];
                // The whole variable, and a box strided along every dim (offset along the first).
                std::vector<Indexer> box;
                for (std::size_t d = 0; d < whole.dims().size(); ++d) {
                    const std::int64_t n = whole.shape()[d];
                    box.push_back({whole.dims()[d], Slice{d == 0 ? 1 : 0, n, d == 0 ? 3 : 2}});
                }
                for (const DataArray& a : {whole, whole.isel(box)}) {
                    detail::setSimplePrograms(true);
                    const std::vector<double> simple = a.load(device, stream).asHost().values<double>();
                    detail::setSimplePrograms(false);
                    const std::vector<double> interpreted = a.load(device, stream).asHost().values<double>();
                    QVERIFY2(sameValues(simple, interpreted, 2e-7, 1e-30), st.c_str());
                    QVERIFY2(
                        std::any_of(simple.begin(), simple.end(), [](double x) { return std::isnan(x); }) ==
                            (name != "i" && name != "k" && name != "n" && name != "t"),
                        st.c_str());
                }
            }
        }
    }

    // Broadcasting by name: w (lat, lon) + u (time, lat, lon) has dims (lat, lon, time).
    void broadcastingFollowsTheFirstOperand_data() { STRATA_BACKEND_ROWS(); }
    void broadcastingFollowsTheFirstOperand() {
        STRATA_BACKEND(backend);
        Fixture f = makeFixture(testSeed(), false, 20);
        derive(f.ds, "s = w + u");
        const DataArray s = f.ds["s"];
        QCOMPARE(s.dims(), (std::vector<std::string>{"lat", "lon", "time"}));
        const std::vector<double> got = evaluate(f.ds, "s", backend.cuda);
        std::vector<double> expected;
        for (std::int64_t y = 0; y < f.ny; ++y)
            for (std::int64_t x = 0; x < f.nx; ++x)
                for (std::int64_t t = 0; t < f.nt; ++t)
                    expected.push_back(double(float(f.w[y * f.nx + x] + f.u[(t * f.ny + y) * f.nx + x])));
        QVERIFY(sameValues(got, expected));
        QVERIFY(s.coords().find("time") && s.coords().find("lat"));
    }

    // Resident inputs are read where they are: the lookup is asked, and nothing is read from
    // the file for a box of a derived variable whose inputs are all resident.
    void residentInputsAreUsed_data() { STRATA_BACKEND_ROWS(); }
    void residentInputsAreUsed() {
        STRATA_BACKEND(backend);
        Fixture f = makeFixture(testSeed(), true, 40);
        derive(f.ds, "speed = hypot(u, v)");
        const Device device = backend.cuda ? Device::cuda(0) : Device::host();
        const Stream stream = backend.cuda ? defaultStream(device) : Stream::host();
        const DataArray u = f.ds["u"].load(device, stream), v = f.ds["v"].load(device, stream);
        std::atomic<int> asked{0};
        derivedSourceOf(f.ds["speed"].variable())
            ->setResidentLookup([&](const std::string& key) -> std::optional<DataArray> {
                ++asked;
                if (key == "u") return u;
                if (key == "v") return v;
                return std::nullopt;
            });
        auto* us = dynamic_cast<const MemorySource*>(f.ds.findVariable("u")->source().get());
        auto* vs = dynamic_cast<const MemorySource*>(f.ds.findVariable("v")->source().get());
        const int readsBefore = us->reads + vs->reads;
        FallbackNote note;
        FrameSpec map;
        map.variable = "speed";
        map.xDim = "lon";
        map.yDim = "lat";
        map.indices = {{"time", 7}};
        const std::vector<double> frame =
            computeFrame(f.ds["speed"], map, device, note).asHost().values<double>();
        QCOMPARE(us->reads + vs->reads, readsBefore);
        QVERIFY(asked >= 2);
        const std::int64_t points = f.ny * f.nx;
        for (std::int64_t p = 0; p < points; ++p)
            QVERIFY(close(frame[p], double(float(std::hypot(f.u[7 * points + p], f.v[7 * points + p]))), 1e-6,
                          1e-6));
    }

    void badStatementsAreNamed() {
        Fixture f = makeFixture(testSeed(), false, 800);
        auto fails = [&](const std::string& statement, const std::string& needle) {
            Dataset copy = f.ds;
            const std::string m = messageOf([&] { derive(copy, statement); });
            if (m.find(needle) == std::string::npos)
                qWarning("'%s' gave '%s', not containing '%s'", statement.c_str(), m.c_str(), needle.c_str());
            return m.find(needle) != std::string::npos && copy.variables.size() == f.ds.variables.size();
        };
        QVERIFY(fails("x = tass + 1", "unknown variable 'tass' (variables: u, v, tas, w)"));
        QVERIFY(fails("x = b.tas + 1", "no dataset is open as 'b'"));
        QVERIFY(fails("x = tas +", "column"));
        QVERIFY(fails("tas = u + 1", "'tas' is a variable of the file"));
        QVERIFY(fails("x = (u > 0) & v", "combines masks"));
        QVERIFY(fails("x = u > 0 & v < 1", "comparisons cannot be chained"));
        QVERIFY(fails("x = ~u", "takes a mask"));
        QVERIFY(fails("x = where(u, u, v)", "must be a mask"));
        QVERIFY(
            fails("x = rolling_mean(w, \"time\", 3)", "which its operand does not have (dims: lat, lon)"));
        QVERIFY(fails("x = anomaly(w, \"month\")", "needs a time dim"));
        {
            // A time coordinate whose values could not be decoded (a date missing): named with
            // its problem, not called "no time dim".
            Dataset broken = f.ds;
            Coordinate time = *broken.coords.find("time");
            time.time.reset();
            time.problem = "time value 3 is missing (masked or NaN)";
            broken.coords.set(time);
            const std::string m = messageOf([&] { derive(broken, "x = anomaly(u, \"month\")"); });
            QVERIFY2(m.find("the time of 'time' cannot be read: time value 3 is missing") !=
                         std::string::npos,
                     m.c_str());
        }
        QVERIFY(fails("x = rolling_mean(u, \"lon\", 13)", "a window of 13 steps is longer than 'lon' (12)"));
        QVERIFY(fails("x = rolling_sum(u, \"time\", 5000000)", "too long"));
        QVERIFY(fails("x = anomaly(u, \"month\", 2050, 2060)",
                      "no January in the base period 2050–2060; the record has years 1990–1992"));
        QVERIFY(fails("x = anomaly(u, \"month\", 1992, 1990)", "first year comes after its last year"));
        QVERIFY(fails("x = 3 * 4", "reads no variable"));
        // Dims of one name, two sizes.
        Dataset other = f.ds;
        other.variables.emplace_back("short", stored(false, {"lat"}, {3}, {1, 2, 3}, ""));
        const std::string m = messageOf([&] { derive(other, "x = w + short"); });
        QVERIFY2(m.find("dim 'lat' is 4 long in 'w' and 3 in 'short'") != std::string::npos, m.c_str());
        // A cycle: redefining a so that it reads b, which reads a.
        Dataset cyc = f.ds;
        derive(cyc, "a = u + 1");
        derive(cyc, "b = a * 2");
        const std::string c = messageOf([&] { derive(cyc, "a = b - 1"); });
        QVERIFY2(c.find("a cycle between derived variables: a → b → a") != std::string::npos, c.c_str());
        QCOMPARE(derivedSourceOf(*cyc.findVariable("a"))->statement(), std::string("a = u + 1")); // unchanged
        // Redefining a variable rebuilds those that read it.
        derive(cyc, "a = u + 10");
        const std::vector<double> b = evaluate(cyc, "b", false);
        QVERIFY(close(b[1], double(float(float(f.u[1] + 10) * 2)), 1e-6, 1e-5) || std::isnan(f.u[1]));
        QVERIFY(removeDerived(cyc, "b"));
        QVERIFY(!cyc.findVariable("b") && cyc.findVariable("a"));
        // The limits of the parser hold for derived variables too.
        std::string deep = "x = " + std::string(70, '(') + "u" + std::string(70, ')');
        QVERIFY(fails(deep, "nested deeper than 64"));
        QVERIFY(fails("x = u + " + std::string(5000, '1'), "4096"));
    }

    // Another dataset's variables, by alias: on the same grid they combine; on another grid the
    // message names both.
    void otherDatasetsByAlias() {
        Fixture a = makeFixture(testSeed(), false, 30);
        Fixture b = makeFixture(testSeed() + 1, true, 30);
        auto other = std::make_shared<const Dataset>(b.ds);
        derive(a.ds, "d = u - b.u", {{"b", other}});
        const std::vector<double> got = evaluate(a.ds, "d", false);
        for (std::size_t i = 0; i < got.size(); ++i)
            QVERIFY(close(got[i], double(float(a.u[i] - b.u[i])), 1e-6, 1e-5) || std::isnan(a.u[i] - b.u[i]));
        QCOMPARE(derivedSourceOf(*a.ds.findVariable("d"))->inputs(),
                 (std::vector<VariableRef>{{"", "u"}, {"b", "u"}}));
        Dataset shifted = b.ds;
        shifted.coords.set(indexCoordinate("lat", b.ny, -40, 30));
        const std::string m = messageOf([&] {
            derive(a.ds, "e = u - c.u", {{"c", std::make_shared<const Dataset>(shifted)}});
        });
        QVERIFY2(m.find("'c.u' is on another grid: its lat has 4 values") != std::string::npos, m.c_str());
    }
};

QTEST_APPLESS_MAIN(TestDerived)
#include "tst_derived.moc"
