// contiguous(): the C-order copy of any view — index arithmetic checked on analytic fields
// (value = the element's original multi-index), every dtype, steps, picks, transposes,
// empty and long arrays. The cuda row compares the GPU copy with the CPU copy byte by byte.
#include "test_util.h"

using namespace strata;
using test::Backend;

namespace {

// value(i, j, k) = 10000·i + 100·j + k over a {ni, nj, nk} array.
DataArray field(DType t, std::int64_t ni, std::int64_t nj, std::int64_t nk) {
    std::vector<double> v;
    for (std::int64_t i = 0; i < ni; ++i)
        for (std::int64_t j = 0; j < nj; ++j)
            for (std::int64_t k = 0; k < nk; ++k) v.push_back(double(10000 * i + 100 * j + k));
    return test::makeArray(t, {"i", "j", "k"}, {ni, nj, nk}, v);
}

using ViewFn = std::function<DataArray(const DataArray&)>;

// The copy on the backend (twice, poisoned), on the host.
DataArray copyOn(const Backend& b, const DataArray& base, const ViewFn& view) {
    const DataArray in = b.put(base);
    return test::poisoned([&] { return contiguous(view(in)); });
}

} // namespace

class TestContiguous : public QObject {
    Q_OBJECT

private slots:
    void analyticViews_data() { STRATA_BACKEND_ROWS(); }
    void analyticViews() {
        STRATA_BACKEND(b);
        for (DType t : {DType::Int32, DType::Float64, DType::Int64}) {
            const DataArray a = field(t, 5, 7, 9);
            // a[1::2, :, ::3]: i = 1, 3; k = 0, 3, 6.
            const DataArray s = copyOn(b, a, [](const DataArray& x) {
                return x.isel({{"i", Slice{1, std::nullopt, 2}}, {"k", Slice{0, std::nullopt, 3}}});
            });
            QVERIFY(s.variable().isContiguous());
            QCOMPARE(s.shape(), Shape({2, 7, 3}));
            std::vector<double> expect;
            for (int i : {1, 3})
                for (int j = 0; j < 7; ++j)
                    for (int k : {0, 3, 6}) expect.push_back(10000 * i + 100 * j + k);
            QCOMPARE(s.values<double>(), expect);
            // transpose to (k, i, j)
            const DataArray tr = copyOn(b, a, [](const DataArray& x) {
                return x.transpose({"k", "i", "j"});
            });
            QCOMPARE(tr.dims(), std::vector<std::string>({"k", "i", "j"}));
            expect.clear();
            for (int k = 0; k < 9; ++k)
                for (int i = 0; i < 5; ++i)
                    for (int j = 0; j < 7; ++j) expect.push_back(10000 * i + 100 * j + k);
            QCOMPARE(tr.values<double>(), expect);
            // pick j = 4 (a strided 2-D view), then transpose it
            const DataArray pk = copyOn(b, a, [](const DataArray& x) {
                return x.isel({{"j", std::int64_t(4)}}).transpose({"k", "i"});
            });
            expect.clear();
            for (int k = 0; k < 9; ++k)
                for (int i = 0; i < 5; ++i) expect.push_back(10000 * i + 400 + k);
            QCOMPARE(pk.values<double>(), expect);
            // pick k = 8: the innermost stride becomes 9
            const DataArray last = copyOn(b, a, [](const DataArray& x) {
                return x.isel({{"k", std::int64_t(-1)}});
            });
            expect.clear();
            for (int i = 0; i < 5; ++i)
                for (int j = 0; j < 7; ++j) expect.push_back(10000 * i + 100 * j + 8);
            QCOMPARE(last.values<double>(), expect);
        }
    }

    // Every dtype (1, 2, 4 and 8 bytes, NaN bit patterns kept) through a transposed, stepped view.
    void everyDtype_data() { STRATA_BACKEND_ROWS(); }
    void everyDtype() {
        STRATA_BACKEND(b);
        std::mt19937_64 rng(5);
        for (DType t : test::kNumeric) {
            const DataArray a = test::randomArray(rng, t, {4, 6, 33}, 0.1);
            const ViewFn view = [](const DataArray& x) {
                return x.isel({{"d2", Slice{2, std::nullopt, 3}}}).transpose({"d2", "d0", "d1"});
            };
            const DataArray c = copyOn(b, a, view);
            QCOMPARE(c.dtype(), t);
            QVERIFY(c.variable().isContiguous());
            // The view's own element order (read through its strides on the host).
            QCOMPARE(test::bytesOf(c), test::bytesOf(view(a)));
        }
    }

    // Long copies are split over threads, within rows and across them.
    void longAndStrided_data() { STRATA_BACKEND_ROWS(); }
    void longAndStrided() {
        STRATA_BACKEND(b);
        const DataArray a = field(DType::Float32, 3, 700, 400);
        const DataArray col = copyOn(b, a, [](const DataArray& x) {
            return x.isel({{"k", std::int64_t(123)}});
        });
        std::vector<double> expect;
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 700; ++j) expect.push_back(10000 * i + 100 * j + 123);
        QCOMPARE(col.values<double>(), expect);
        const DataArray tr = copyOn(b, a, [](const DataArray& x) { return x.transpose({"k", "j", "i"}); });
        const std::vector<double> tv = tr.values<double>();
        bool ok = tv.size() == std::size_t(3 * 700 * 400);
        for (int k = 0; ok && k < 400; ++k)
            for (int j = 0; ok && j < 700; ++j)
                for (int i = 0; ok && i < 3; ++i)
                    ok = tv[std::size_t((k * 700 + j) * 3 + i)] == float(10000 * i + 100 * j + k);
        QVERIFY(ok);
        const DataArray whole = copyOn(b, a, [](const DataArray& x) { return x; });
        QCOMPARE(test::bytesOf(whole), test::bytesOf(a));
    }

    void emptyAndMetadata_data() { STRATA_BACKEND_ROWS(); }
    void emptyAndMetadata() {
        STRATA_BACKEND(b);
        const DataArray e =
            copyOn(b, test::makeArray(DType::Float32, {"a", "b"}, {3, 0}, {}), [](const DataArray& x) {
                return x.transpose({"b", "a"});
            });
        QCOMPARE(e.shape(), Shape({0, 3}));
        QCOMPARE(e.size(), std::int64_t(0));
        Variable v = test::makeArray(DType::Int16, {"y", "x"}, {2, 3}, {1, 2, 3, 4, 5, 6}).variable();
        v.attrs().set({"units", DType::Char, std::string("m")});
        Coordinates coords;
        coords.set({"x", {"x"}, {3}, {10, 20, 30}, {}, {}, {}, {}, {}});
        const DataArray a("h", v, coords);
        const DataArray c = copyOn(b, a, [](const DataArray& x) { return x.transpose({"x", "y"}); });
        QCOMPARE(c.name(), std::string("h"));
        QCOMPARE(c.attrs().text("units").value_or(""), std::string("m"));
        QVERIFY(c.coords().contains("x"));
        QCOMPARE(c.values<int>(), std::vector<int>({1, 4, 2, 5, 3, 6}));
    }
};

QTEST_APPLESS_MAIN(TestContiguous)
#include "tst_contiguous.moc"
