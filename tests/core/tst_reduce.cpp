// reduce(): every op against hand-computed arrays, analytic fields and a plain-loop reference,
// over every dtype, the CPU loop shapes (columns, rows, strided, split), NaN, all-NaN, empty
// and one-element dims, strided and transposed views; checks, result types, coordinates and
// attributes. The cuda row runs the same on the GPU and compares with the CPU result.
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

const std::vector<ReduceOp> kOps = {ReduceOp::Sum,   ReduceOp::Mean,   ReduceOp::Min,
                                    ReduceOp::Max,   ReduceOp::Std,    ReduceOp::Var,
                                    ReduceOp::Count, ReduceOp::ArgMin, ReduceOp::ArgMax};

using ViewFn = std::function<DataArray(const DataArray&)>;
const ViewFn kWhole = [](const DataArray& a) { return a; };

// Tolerance of the CPU against the reference: float32 results are rounded once.
double refTolerance(DType result) { return result == DType::Float32 ? 2e-7 : 1e-12; }

// What a reduction over `dims` leaves of `input`: its other dims, in their order, with their
// lengths (the expected result's dims and shape, worked out here, not by the core).
struct Kept {
    std::vector<std::string> dims;
    Shape shape;
};
Kept keptBy(const DataArray& input, const std::vector<std::string>& dims) {
    Kept k;
    for (std::size_t i = 0; i < input.dims().size(); ++i)
        if (std::find(dims.begin(), dims.end(), input.dims()[i]) == dims.end()) {
            k.dims.push_back(input.dims()[i]);
            k.shape.push_back(input.shape()[i]);
        }
    return k;
}
QString describe(const std::vector<std::string>& dims, const Shape& shape) {
    QStringList out;
    for (std::size_t i = 0; i < dims.size() && i < shape.size(); ++i)
        out << QString("%1=%2").arg(test::str(dims[i])).arg(shape[i]);
    return "(" + out.join(", ") + ")";
}
// Empty when `result` has the dims and shape a reduction of `input` over `dims` leaves.
QString shapeProblem(const DataArray& result, const DataArray& input, const std::vector<std::string>& dims) {
    const Kept k = keptBy(input, dims);
    if (result.dims() == k.dims && result.shape() == k.shape) return {};
    return "result " + describe(result.dims(), result.shape()) + ", want " + describe(k.dims, k.shape);
}

// Runs reduce(view(input), dims, op) on the backend (twice, poisoned). The cpu row compares
// with the reference of the same view; the cuda row with the CPU's result. Both check the
// result's dims and shape.
bool check(const Backend& b, const DataArray& input, const ViewFn& view, const std::vector<std::string>& dims,
           ReduceOp op, const QString& what) {
    const DataArray cpu = test::poisoned([&] { return reduce(view(input), dims, op); });
    if (!cpu.isLoaded()) return false;
    const QString label = what + " " + test::str(name(op));
    if (const QString why = shapeProblem(cpu, view(input), dims); !why.isEmpty()) {
        qWarning().noquote() << label << ":" << why;
        return false;
    }
    if (!b.cuda) {
        const test::Reference ref = test::referenceReduce(view(input), dims, op);
        if (cpu.shape() != ref.shape) {
            qWarning().noquote() << label << ": wrong shape";
            return false;
        }
        const double abs = isFloating(cpu.dtype()) ? 1e-9 : 0;
        return test::allClose(cpu.values<double>(), ref.values, refTolerance(cpu.dtype()), abs, label);
    }
    const DataArray onDevice = b.put(input);
    const DataArray gpu = test::poisoned([&] { return reduce(view(onDevice), dims, op); });
    if (!gpu.isLoaded() || gpu.dtype() != cpu.dtype() || gpu.shape() != cpu.shape()) {
        qWarning().noquote() << label << ": GPU result differs in dtype or shape";
        return false;
    }
    const double tol = test::gpuTolerance(cpu.dtype());
    return test::allClose(gpu.values<double>(), cpu.values<double>(), tol, tol > 0 ? 1e-9 : 0, label);
}

// Runs one op on the backend and returns the result on the host. A result whose dims or
// shape are not the input's less `dims` fails the test (and is replaced by NaN of the right
// shape, so that the caller's indexing stays in bounds).
DataArray run(const Backend& b, const DataArray& input, const std::vector<std::string>& dims, ReduceOp op) {
    const DataArray in = b.put(input);
    const DataArray out = test::poisoned([&] { return reduce(in, dims, op); });
    const QString why = shapeProblem(out, input, dims);
    if (why.isEmpty()) return out;
    QTest::qFail(qPrintable(why), __FILE__, __LINE__);
    const Kept k = keptBy(input, dims);
    std::int64_t n = 1;
    for (auto l : k.shape) n *= l;
    return test::makeArray(DType::Float64, k.dims, k.shape,
                           std::vector<double>(std::size_t(n), std::nan("")));
}

} // namespace

class TestReduce : public QObject {
    Q_OBJECT

private slots:
    void handComputed_data() { STRATA_BACKEND_ROWS(); }
    void handComputed() {
        STRATA_BACKEND(b);
        const double nan = std::nan("");
        for (DType t : {DType::Float32, DType::Float64}) {
            const DataArray a = test::makeArray(t, {"x"}, {3}, {1, nan, 3});
            QCOMPARE(run(b, a, {"x"}, ReduceOp::Mean).values<double>()[0], 2.0);
            QCOMPARE(run(b, a, {"x"}, ReduceOp::Sum).values<double>()[0], 4.0);
            QCOMPARE(run(b, a, {"x"}, ReduceOp::Count).values<std::int64_t>()[0], std::int64_t(2));
            QCOMPARE(run(b, a, {"x"}, ReduceOp::Min).values<double>()[0], 1.0);
            QCOMPARE(run(b, a, {"x"}, ReduceOp::Max).values<double>()[0], 3.0);
            QCOMPARE(run(b, a, {"x"}, ReduceOp::ArgMin).values<std::int64_t>()[0], std::int64_t(0));
            QCOMPARE(run(b, a, {"x"}, ReduceOp::ArgMax).values<std::int64_t>()[0], std::int64_t(2));
            QCOMPARE(run(b, a, {"x"}, ReduceOp::Var).values<double>()[0], 1.0);
            const DataArray s = test::makeArray(t, {"x"}, {8}, {2, 4, 4, 4, 5, 5, 7, 9});
            QCOMPARE(run(b, s, {"x"}, ReduceOp::Std).values<double>()[0], 2.0);
            QCOMPARE(run(b, s, {"x"}, ReduceOp::Var).values<double>()[0], 4.0);
            QCOMPARE(run(b, s, {"x"}, ReduceOp::Mean).values<double>()[0], 5.0);
        }
        // Ties: the first index; ±inf are values, NaN is not.
        const double inf = INFINITY;
        const DataArray ties = test::makeArray(DType::Float64, {"x"}, {6}, {nan, 5, 1, 5, 1, nan});
        QCOMPARE(run(b, ties, {"x"}, ReduceOp::ArgMin).values<std::int64_t>()[0], std::int64_t(2));
        QCOMPARE(run(b, ties, {"x"}, ReduceOp::ArgMax).values<std::int64_t>()[0], std::int64_t(1));
        const DataArray infs = test::makeArray(DType::Float32, {"x"}, {3}, {nan, -inf, -inf});
        QCOMPARE(run(b, infs, {"x"}, ReduceOp::Max).values<double>()[0], -inf);
        QCOMPARE(run(b, infs, {"x"}, ReduceOp::ArgMax).values<std::int64_t>()[0], std::int64_t(1));
        QCOMPARE(run(b, infs, {"x"}, ReduceOp::Min).values<double>()[0], -inf);
        const DataArray up = test::makeArray(DType::Float64, {"x"}, {2}, {inf, inf});
        QCOMPARE(run(b, up, {"x"}, ReduceOp::Min).values<double>()[0], inf);
        QCOMPARE(run(b, up, {"x"}, ReduceOp::ArgMin).values<std::int64_t>()[0], std::int64_t(0));
        // Integer limits are values too.
        const DataArray lim = test::makeArray(DType::Int8, {"x"}, {3}, {127, 127, 127});
        QCOMPARE(run(b, lim, {"x"}, ReduceOp::Min).values<int>()[0], 127);
        QCOMPARE(run(b, lim, {"x"}, ReduceOp::ArgMin).values<std::int64_t>()[0], std::int64_t(0));
    }

    // f(t, y, x) = t + 10·y + 1000·x: means and stds along each dim are known in closed form.
    void analyticField_data() { STRATA_BACKEND_ROWS(); }
    void analyticField() {
        STRATA_BACKEND(b);
        const std::int64_t T = 7, Y = 5, X = 40;
        std::vector<double> v;
        for (std::int64_t t = 0; t < T; ++t)
            for (std::int64_t y = 0; y < Y; ++y)
                for (std::int64_t x = 0; x < X; ++x) v.push_back(double(t + 10 * y + 1000 * x));
        const DataArray a = test::makeArray(DType::Float64, {"t", "y", "x"}, {T, Y, X}, v);
        const auto mt = run(b, a, {"t"}, ReduceOp::Mean).values<double>();
        const auto st = run(b, a, {"t"}, ReduceOp::Std).values<double>();
        for (std::int64_t y = 0; y < Y; ++y)
            for (std::int64_t x = 0; x < X; ++x) {
                QCOMPARE(mt[std::size_t(y * X + x)], (T - 1) / 2.0 + 10 * y + 1000 * x);
                QVERIFY(test::close(st[std::size_t(y * X + x)], std::sqrt((T * T - 1) / 12.0), 1e-12));
            }
        const auto mx = run(b, a, {"x"}, ReduceOp::Mean).values<double>();
        for (std::int64_t t = 0; t < T; ++t)
            for (std::int64_t y = 0; y < Y; ++y)
                QVERIFY(test::close(mx[std::size_t(t * Y + y)], t + 10 * y + 1000 * (X - 1) / 2.0, 1e-14));
        const auto all = run(b, a, {"t", "y", "x"}, ReduceOp::Sum).values<double>();
        QCOMPARE(all.size(), std::size_t(1));
        QCOMPARE(all[0], double(Y * X * T * (T - 1) / 2 + 10 * T * X * Y * (Y - 1) / 2 +
                                1000 * T * Y * X * (X - 1) / 2));
        const auto amax = run(b, a, {"y", "x"}, ReduceOp::ArgMax).values<std::int64_t>();
        for (auto i : amax) QCOMPARE(i, Y * X - 1); // flat index over (y, x)
    }

    // Every dtype, op and dim set over shapes that take each CPU loop shape.
    void randomAgainstReference_data() { STRATA_BACKEND_ROWS(); }
    void randomAgainstReference() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(42);
        const std::vector<Shape> shapes = {{6, 5, 37}, {6, 40, 3}, {3, 2100}, {9}};
        for (DType t : test::kNumeric)
            for (const Shape& shape : shapes) {
                const DataArray a = test::randomArray(rng, t, shape);
                const int nd = int(shape.size());
                for (unsigned m = 0; m < (1u << nd); ++m) {
                    std::vector<std::string> dims;
                    for (int i = 0; i < nd; ++i)
                        if (m & (1u << i)) dims.push_back("d" + std::to_string(i));
                    for (ReduceOp op : kOps) {
                        const QString what = test::str(strata::name(t)) + " mask " + QString::number(m) +
                                             " of " + QString::number(shape[0]) + "x...";
                        QVERIFY2(check(b, a, kWhole, dims, op, what), qPrintable(what));
                    }
                }
            }
    }

    // Long reductions with few outputs are split over threads and combined.
    void splitReductions_data() { STRATA_BACKEND_ROWS(); }
    void splitReductions() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(7);
        for (DType t : {DType::Float32, DType::Int16}) {
            const DataArray rows = test::randomArray(rng, t, {2, 150001});
            const DataArray cols = test::randomArray(rng, t, {100003, 3});
            for (ReduceOp op : kOps) {
                QVERIFY(check(b, rows, kWhole, {"d1"}, op, "rows split"));
                QVERIFY(check(b, cols, kWhole, {"d0"}, op, "strided split"));
                QVERIFY(check(b, rows, kWhole, {"d0", "d1"}, op, "all"));
            }
        }
    }

    void nonContiguousViews_data() { STRATA_BACKEND_ROWS(); }
    void nonContiguousViews() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(3);
        const ViewFn stepped = [](const DataArray& a) {
            return a.isel({{"d0", Slice{1, std::nullopt, 2}}, {"d2", Slice{0, std::nullopt, 2}}});
        };
        const ViewFn transposed = [](const DataArray& a) { return a.transpose({"d2", "d0", "d1"}); };
        const ViewFn picked = [](const DataArray& a) { return a.isel({{"d1", std::int64_t(3)}}); };
        for (DType t : {DType::Float32, DType::Float64, DType::Int32, DType::UInt8}) {
            const DataArray a = test::randomArray(rng, t, {9, 6, 70});
            for (ReduceOp op : kOps) {
                for (const auto& dims :
                     std::vector<std::vector<std::string>>{{"d0"}, {"d2"}, {"d1"}, {"d0", "d2"}}) {
                    QVERIFY(check(b, a, stepped, dims, op, "stepped"));
                    QVERIFY(check(b, a, transposed, dims, op, "transposed"));
                }
                QVERIFY(check(b, a, picked, {"d0"}, op, "picked"));
                QVERIFY(check(b, a, picked, {"d2"}, op, "picked"));
            }
        }
    }

    void allNaN_data() { STRATA_BACKEND_ROWS(); }
    void allNaN() {
        STRATA_BACKEND(b);
        for (DType t : {DType::Float32, DType::Float64}) {
            // Columns (dim 0 of 4 x 20) and rows (dim 1) shapes.
            const DataArray a =
                test::makeArray(t, {"a", "b"}, {4, 20}, std::vector<double>(80, std::nan("")));
            for (const std::string d : {"a", "b"}) {
                for (ReduceOp op :
                     {ReduceOp::Mean, ReduceOp::Std, ReduceOp::Var, ReduceOp::Min, ReduceOp::Max})
                    for (double v : run(b, a, {d}, op).values<double>()) QVERIFY(std::isnan(v));
                for (double v : run(b, a, {d}, ReduceOp::Sum).values<double>()) QCOMPARE(v, 0.0);
                for (auto v : run(b, a, {d}, ReduceOp::Count).values<std::int64_t>())
                    QCOMPARE(v, std::int64_t(0));
                for (auto v : run(b, a, {d}, ReduceOp::ArgMin).values<std::int64_t>())
                    QCOMPARE(v, std::int64_t(-1));
                for (auto v : run(b, a, {d}, ReduceOp::ArgMax).values<std::int64_t>())
                    QCOMPARE(v, std::int64_t(-1));
            }
        }
    }

    void emptyAndOneElementDims_data() { STRATA_BACKEND_ROWS(); }
    void emptyAndOneElementDims() {
        STRATA_BACKEND(b);
        const DataArray empty = test::makeArray(DType::Float32, {"a", "b"}, {0, 4}, {});
        QCOMPARE(run(b, empty, {"a"}, ReduceOp::Mean).shape(), Shape({4}));
        for (double v : run(b, empty, {"a"}, ReduceOp::Mean).values<double>()) QVERIFY(std::isnan(v));
        for (double v : run(b, empty, {"a"}, ReduceOp::Max).values<double>()) QVERIFY(std::isnan(v));
        for (double v : run(b, empty, {"a"}, ReduceOp::Sum).values<double>()) QCOMPARE(v, 0.0);
        for (auto v : run(b, empty, {"a"}, ReduceOp::Count).values<std::int64_t>())
            QCOMPARE(v, std::int64_t(0));
        for (auto v : run(b, empty, {"a"}, ReduceOp::ArgMax).values<std::int64_t>())
            QCOMPARE(v, std::int64_t(-1));
        QCOMPARE(run(b, empty, {"b"}, ReduceOp::Mean).shape(), Shape({0}));
        const DataArray emptyInts = test::makeArray(DType::Int32, {"a", "b"}, {0, 4}, {});
        QVERIFY_THROWS_EXCEPTION(ValueError, reduce(b.put(emptyInts), {"a"}, ReduceOp::Min));
        for (double v : run(b, emptyInts, {"a"}, ReduceOp::Mean).values<double>()) QVERIFY(std::isnan(v));
        // One element along the reduced dim: the values themselves, std 0.
        const DataArray one = test::makeArray(DType::Float64, {"a", "b"}, {1, 5}, {1, 2, 3, std::nan(""), 5});
        QVERIFY(test::allClose(run(b, one, {"a"}, ReduceOp::Mean).values<double>(),
                               {1, 2, 3, std::nan(""), 5}, 0, 0, "one"));
        QVERIFY(test::allClose(run(b, one, {"a"}, ReduceOp::Std).values<double>(), {0, 0, 0, std::nan(""), 0},
                               0, 0, "one"));
        // No dims reduced: mean is the data (as float64 for integers).
        const DataArray ints = test::makeArray(DType::Int16, {"a"}, {3}, {-4, 0, 9});
        const DataArray same = run(b, ints, {}, ReduceOp::Mean);
        QCOMPARE(same.dtype(), DType::Float64);
        QCOMPARE(same.values<double>(), std::vector<double>({-4, 0, 9}));
    }

    void manyDims_data() { STRATA_BACKEND_ROWS(); }
    void manyDims() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(11);
        const DataArray a = test::randomArray(rng, DType::Float64, {2, 3, 2, 3, 2, 3, 2, 3});
        for (ReduceOp op : kOps) {
            QVERIFY(check(b, a, kWhole, {"d1", "d3", "d5", "d7"}, op, "8-D odd"));
            QVERIFY(check(b, a, kWhole, {"d0", "d2", "d4", "d6"}, op, "8-D even"));
        }
    }

    // Float32 sums accumulate in double: a long sum of one large and many small values.
    void float32AccumulatesInDouble_data() { STRATA_BACKEND_ROWS(); }
    void float32AccumulatesInDouble() {
        STRATA_BACKEND(b);
        std::vector<double> v((1 << 20) + 1, 1.0);
        v[0] = 16777216.0; // 2^24: adding 1 to it in float32 is lost
        const DataArray a = test::makeArray(DType::Float32, {"x"}, {std::int64_t(v.size())}, v);
        QCOMPARE(run(b, a, {"x"}, ReduceOp::Sum).values<double>()[0], double(16777216 + (1 << 20)));
    }

    void resultTypesAndMetadata_data() { STRATA_BACKEND_ROWS(); }
    void resultTypesAndMetadata() {
        STRATA_BACKEND(b);
        Variable v = test::makeArray(DType::Int16, {"time", "lat"}, {2, 3}, {0, 1, 2, 3, 4, 5}).variable();
        v.attrs().set({"units", DType::Char, std::string("K")});
        v.attrs().set({"scale_hint", DType::Char, std::string("x")});
        Coordinates coords;
        coords.set({"time", {"time"}, {2}, {0, 1}, {}, {}, {}, {}, {}});
        coords.set({"lat", {"lat"}, {3}, {-10, 0, 10}, {}, {}, {}, {}, {}});
        const DataArray a("air", v, coords);
        const DataArray m = run(b, a, {"time"}, ReduceOp::Mean);
        QCOMPARE(m.name(), std::string("air"));
        QCOMPARE(m.dims(), std::vector<std::string>({"lat"}));
        QCOMPARE(m.dtype(), DType::Float64);
        QVERIFY(m.coords().contains("lat"));
        QVERIFY(!m.coords().contains("time"));
        QCOMPARE(m.attrs().text("units").value_or(""), std::string("K"));
        QVERIFY(!m.attrs().contains("scale_hint"));
        QCOMPARE(run(b, a, {"time"}, ReduceOp::Min).dtype(), DType::Int16);
        const DataArray c = run(b, a, {"time"}, ReduceOp::Count);
        QCOMPARE(c.dtype(), DType::Int64);
        QVERIFY(!c.attrs().contains("units"));
        QVERIFY(!run(b, a, {"time"}, ReduceOp::Var).attrs().contains("units"));
        QCOMPARE(run(b, test::makeArray(DType::Float32, {"x"}, {2}, {1, 2}), {"x"}, ReduceOp::Std).dtype(),
                 DType::Float32);
    }

    void errors_data() { STRATA_BACKEND_ROWS(); }
    void errors() {
        STRATA_BACKEND(b);
        const DataArray a = b.put(test::makeArray(DType::Float32, {"time", "lat"}, {2, 2}, {1, 2, 3, 4}));
        try {
            reduce(a, {"lon"}, ReduceOp::Mean);
            QFAIL("no error for an unknown dim");
        } catch (const ValueError& e) {
            const std::string m = e.what();
            QVERIFY2(m.find("'lon'") != std::string::npos && m.find("(time, lat)") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ValueError, reduce(a, {"time", "time"}, ReduceOp::Sum));
        Variable text({"c"}, {3}, DType::Char, Buffer(3, Device::host(), Stream::host()));
        QVERIFY_THROWS_EXCEPTION(ValueError, reduce(DataArray("t", text), {"c"}, ReduceOp::Sum));
        const DataArray nine = test::makeArray(DType::Float64, test::dimNames(9), Shape(9, 1), {1.0});
        QVERIFY_THROWS_EXCEPTION(ValueError, reduce(nine, {"d0"}, ReduceOp::Sum));
        QCOMPARE(parseReduceOp("argmax"), ReduceOp::ArgMax);
        for (ReduceOp op : kOps) QCOMPARE(parseReduceOp(strata::name(op)), op);
        try {
            parseReduceOp("median");
            QFAIL("no error for an unknown op");
        } catch (const ValueError& e) {
            QVERIFY(std::string(e.what()).find("argmin") != std::string::npos);
        }
    }
};

QTEST_APPLESS_MAIN(TestReduce)
#include "tst_reduce.moc"
