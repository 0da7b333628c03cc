// Variable: views (isel, transpose) on loaded data, and lazy hyperslabs read on load.
#include <QtTest>

#include <numeric>

#include "strata/core/data_array.h"
#include "strata/core/error.h"

using namespace strata;

namespace {

// An in-memory source of a C-order int32 array whose value at (i, j, k) is 100*i + 10*j + k,
// which records the hyperslabs it is asked for.
class GridSource : public DataSource {
public:
    explicit GridSource(Shape shape) : shape_(std::move(shape)) {}
    void read(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
              std::span<const std::int64_t> stride, void* out) const override {
        lastStart.assign(start.begin(), start.end());
        lastCount.assign(count.begin(), count.end());
        lastStride.assign(stride.begin(), stride.end());
        ++reads;
        auto* o = static_cast<std::int32_t*>(out);
        for (std::int64_t i = 0; i < count[0]; ++i)
            for (std::int64_t j = 0; j < count[1]; ++j)
                for (std::int64_t k = 0; k < count[2]; ++k)
                    *o++ = std::int32_t(100 * (start[0] + i * stride[0]) + 10 * (start[1] + j * stride[1]) +
                                        (start[2] + k * stride[2]));
    }
    std::string describe() const override { return "grid.nc: variable 'g'"; }
    mutable std::vector<std::int64_t> lastStart, lastCount, lastStride;
    mutable int reads = 0;

private:
    Shape shape_;
};

Variable lazyGrid(std::shared_ptr<GridSource> src, Shape shape) {
    CfEncoding enc;
    enc.packed = enc.decoded = DType::Int32;
    return Variable::lazy({"t", "y", "x"}, shape, enc, std::move(src));
}

std::vector<double> hostValues(const Variable& v) { return DataArray("", v).values<double>(); }

DataArray grid(Shape shape) {
    std::vector<std::int32_t> values;
    for (std::int64_t i = 0; i < shape[0]; ++i)
        for (std::int64_t j = 0; j < shape[1]; ++j)
            for (std::int64_t k = 0; k < shape[2]; ++k) values.push_back(std::int32_t(100 * i + 10 * j + k));
    return DataArray::fromHost("g", {"t", "y", "x"}, shape, values);
}

} // namespace

class TestVariable : public QObject {
    Q_OBJECT
private slots:
    void iselIndexDropsTheDim() {
        DataArray g = grid({3, 4, 5});
        DataArray f = g.isel({{"t", std::int64_t(2)}});
        QCOMPARE(f.dims(), (std::vector<std::string>{"y", "x"}));
        QCOMPARE(f.shape(), (Shape{4, 5}));
        const auto v = f.values<double>();
        QCOMPARE(v.front(), 200.0);
        QCOMPARE(v.back(), 234.0);
        QCOMPARE(f.variable().buffer().get(), g.variable().buffer().get()); // a view, no copy
    }

    void iselNegativeIndexAndSliceWithStep() {
        DataArray g = grid({3, 4, 5});
        DataArray s = g.isel({{"t", std::int64_t(-1)}, {"x", Slice{1, std::nullopt, 2}}});
        QCOMPARE(s.shape(), (Shape{4, 2}));
        QCOMPARE(s.values<double>(), (std::vector<double>{201, 203, 211, 213, 221, 223, 231, 233}));
        QVERIFY(!s.variable().isContiguous());
    }

    void sliceClampsLikePython() {
        DataArray g = grid({3, 4, 5});
        QCOMPARE(g.isel({{"y", Slice{2, 100, 1}}}).sizeOf("y"), std::int64_t(2));
        QCOMPARE(g.isel({{"y", Slice{-3, -1, 1}}}).sizeOf("y"), std::int64_t(2));
        QCOMPARE(g.isel({{"y", Slice{3, 1, 1}}}).sizeOf("y"), std::int64_t(0));
    }

    void badIndexersNameTheDim() {
        DataArray g = grid({3, 4, 5});
        try {
            g.isel({{"t", std::int64_t(3)}});
            QFAIL("no IndexError");
        } catch (const IndexError& e) {
            QVERIFY(QString(e.what()).contains("'t'"));
            QVERIFY(QString(e.what()).contains("length 3"));
        }
        try {
            g.isel({{"lat", std::int64_t(0)}});
            QFAIL("no ValueError");
        } catch (const ValueError& e) {
            QVERIFY(QString(e.what()).contains("'lat'"));
            QVERIFY(QString(e.what()).contains("(t, y, x)"));
        }
        QVERIFY_THROWS_EXCEPTION(ValueError, g.isel({{"x", Slice{0, 5, 0}}}));
        QVERIFY_THROWS_EXCEPTION(ValueError, g.isel({{"x", std::int64_t(0)}, {"x", std::int64_t(1)}}));
    }

    void transposeIsAView() {
        DataArray g = grid({2, 3, 4});
        DataArray t = g.transpose({"x", "t", "y"});
        QCOMPARE(t.shape(), (Shape{4, 2, 3}));
        const auto v = t.values<double>();
        // t[x=1, t=1, y=2] = 100*1 + 10*2 + 1
        QCOMPARE(v[1 * 6 + 1 * 3 + 2], 121.0);
        QVERIFY_THROWS_EXCEPTION(ValueError, g.transpose({"x", "t"}));
    }

    void lazyIselNarrowsTheRead() {
        auto src = std::make_shared<GridSource>(Shape{6, 7, 8});
        Variable v = lazyGrid(src, {6, 7, 8});
        Variable s = v.isel({{"t", std::int64_t(4)}, {"y", Slice{1, 7, 3}}, {"x", Slice{2, 5, 1}}});
        QVERIFY(!s.isLoaded());
        QCOMPARE(src->reads, 0); // nothing read until load
        Variable loaded = s.load(Device::host(), Stream::host());
        QCOMPARE(src->reads, 1);
        QCOMPARE(src->lastStart, (std::vector<std::int64_t>{4, 1, 2}));
        QCOMPARE(src->lastCount, (std::vector<std::int64_t>{1, 2, 3}));
        QCOMPARE(src->lastStride, (std::vector<std::int64_t>{1, 3, 1}));
        QCOMPARE(loaded.shape(), (Shape{2, 3}));
        QCOMPARE(hostValues(loaded), (std::vector<double>{412, 413, 414, 442, 443, 444}));
    }

    void lazyTransposeLoadsInItsOrder() {
        auto src = std::make_shared<GridSource>(Shape{2, 3, 4});
        Variable v = lazyGrid(src, {2, 3, 4}).transpose({"x", "y", "t"}).isel({{"y", std::int64_t(1)}});
        Variable loaded = v.load(Device::host(), Stream::host());
        QCOMPARE(loaded.dims(), (std::vector<std::string>{"x", "t"}));
        QCOMPARE(hostValues(loaded), (std::vector<double>{10, 110, 11, 111, 12, 112, 13, 113}));
    }

    void loadRefusesWhatCannotFit() {
        auto src = std::make_shared<GridSource>(Shape{1 << 20, 1 << 20, 1 << 10});
        Variable v = lazyGrid(src, {1 << 20, 1 << 20, 1 << 10});
        try {
            v.load(Device::host(), Stream::host());
            QFAIL("no OutOfMemoryError");
        } catch (const OutOfMemoryError& e) {
            QVERIFY(QString(e.what()).contains("grid.nc: variable 'g'"));
            QVERIFY(QString(e.what()).contains("MiB"));
        }
        QCOMPARE(src->reads, 0);
    }

    void encodingProblemIsReportedOnLoad() {
        auto src = std::make_shared<GridSource>(Shape{1, 1, 1});
        CfEncoding enc;
        enc.packed = enc.decoded = DType::Int32;
        enc.problem = "scale_factor is text (\"0.01\"), not a number";
        Variable v = Variable::lazy({"t", "y", "x"}, {1, 1, 1}, enc, src);
        try {
            v.load(Device::host(), Stream::host());
            QFAIL("no DecodeError");
        } catch (const DecodeError& e) {
            QVERIFY(QString(e.what()).contains("grid.nc: variable 'g'"));
            QVERIFY(QString(e.what()).contains("scale_factor"));
        }
    }

    void emptyVariableLoads() {
        auto src = std::make_shared<GridSource>(Shape{0, 3, 4});
        Variable v = lazyGrid(src, {0, 3, 4}).load(Device::host(), Stream::host());
        QCOMPARE(v.size(), std::int64_t(0));
        QCOMPARE(src->reads, 0);
    }
};

QTEST_APPLESS_MAIN(TestVariable)
#include "tst_variable.moc"
