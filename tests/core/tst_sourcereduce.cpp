// Sources that reduce where their values are (Dask, through Python): computeFrame asks
// DataSource::reduceBox before it reads a lazy slab, with the box and the source axes, and gives
// the frame Strata's own reduction would give; views the source is not asked for (an
// area-weighted mean, a count, a packed variable) are read and reduced here as before; and the
// residency never loads such a source whole (wholeLoadRefusal).
#include <QtTest>

#include <mutex>

#include "memory_source.h"
#include "strata/core/ops.h"
#include "strata/core/residency.h"
#include "strata/core/view.h"

using namespace strata;
using namespace test;

namespace {

// A MemorySource that also reduces a box itself (on the host, by Strata's reduce: the oracle
// is the same function over the box read), and refuses whole loads. Records what it was asked.
class ReducingSource final : public MemorySource {
public:
    using MemorySource::MemorySource;

    std::optional<Buffer> reduceBox(std::span<const std::int64_t> start, std::span<const std::int64_t> count,
                                    std::span<const std::int64_t> stride,
                                    std::span<const Reduction> reductions, Device device,
                                    Stream stream) const override {
        std::vector<std::int64_t> shape(count.begin(), count.end());
        std::int64_t n = 1;
        for (std::int64_t c : shape) n *= c;
        std::vector<float> box(static_cast<std::size_t>(n));
        read(start, count, stride, box.data());
        std::vector<double> values(box.begin(), box.end());
        DataArray a = makeArray(DType::Float32, dimNames(int(shape.size())), shape, values);
        std::vector<std::string> dims = a.dims();
        {
            std::lock_guard lock(mutex);
            asked.clear();
            boxStart.assign(start.begin(), start.end());
            boxCount.assign(count.begin(), count.end());
        }
        for (const Reduction& r : reductions) {
            {
                std::lock_guard lock(mutex);
                asked.emplace_back(r.axis, r.op);
            }
            a = reduce(a, {dims[std::size_t(r.axis)]}, r.op);
        }
        ++reduces;
        Buffer out(a.variable().nbytes(), Device::host(), Stream::host());
        std::memcpy(out.data(), a.variable().buffer()->data(), out.size());
        if (device.isHost()) return out;
        return out.copyTo(device, stream);
    }
    std::string wholeLoadRefusal() const override { return "computed elsewhere box by box"; }

    mutable std::mutex mutex;
    mutable std::vector<std::pair<int, ReduceOp>> asked;
    mutable std::vector<std::int64_t> boxStart, boxCount;
    mutable std::atomic<int> reduces{0};
};

FrameSpec spec(std::string x, std::string y) {
    FrameSpec s;
    s.variable = "v";
    s.xDim = std::move(x);
    s.yDim = std::move(y);
    return s;
}

DataArray frameOf(const DataArray& var, const FrameSpec& s) {
    FallbackNote note;
    return computeFrame(var, s, Device::host(), note);
}

} // namespace

class TestSourceReduce : public QObject {
    Q_OBJECT
private slots:
    void reducesWhereTheValuesAre_data() {
        QTest::addColumn<int>("op");
        for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Mean, ReduceOp::Min, ReduceOp::Max, ReduceOp::Std})
            QTest::newRow(std::string(name(op)).c_str()) << int(op);
    }
    void reducesWhereTheValuesAre() {
        QFETCH(int, op);
        const Shape shape{6, 5, 4};
        std::mt19937_64 rng(38);
        const std::vector<double> values = randomValues(rng, DType::Float32, 120, 0.1);
        auto source = std::make_shared<ReducingSource>(shape, DType::Float32, values);
        const DataArray lazy =
            DataArray("v", Variable::lazy({"t", "y", "x"}, shape, plain(DType::Float32), source));
        const DataArray loaded = makeArray(DType::Float32, {"t", "y", "x"}, shape, values);

        // Over time: the whole box, axis 0.
        FrameSpec overTime = spec("x", "y");
        overTime.reductions = {{"t", ReduceOp(op)}};
        const DataArray f = frameOf(lazy, overTime);
        QCOMPARE(source->reduces.load(), 1);
        QCOMPARE(source->asked, (std::vector<std::pair<int, ReduceOp>>{{0, ReduceOp(op)}}));
        QCOMPARE(bytesOf(f), bytesOf(frameOf(loaded, overTime)));
        QCOMPARE(f.dims(), (std::vector<std::string>{"y", "x"}));
        QCOMPARE(f.dtype(), DType::Float32);

        // A step's zonal profile: the box of that step, the source's axis 2 (x).
        FrameSpec zonal = spec("y", "");
        zonal.indices = {{"t", 3}};
        zonal.reductions = {{"x", ReduceOp(op)}};
        const DataArray z = frameOf(lazy, zonal);
        QCOMPARE(source->reduces.load(), 2);
        QCOMPARE(source->asked, (std::vector<std::pair<int, ReduceOp>>{{2, ReduceOp(op)}}));
        QCOMPARE(source->boxStart, (std::vector<std::int64_t>{3, 0, 0}));
        QCOMPARE(source->boxCount, (std::vector<std::int64_t>{1, 5, 4}));
        QCOMPARE(bytesOf(z), bytesOf(frameOf(loaded, zonal)));
    }

    void twoReductionsInTheirOrder() {
        const Shape shape{6, 5, 4};
        std::mt19937_64 rng(7);
        const std::vector<double> values = randomValues(rng, DType::Float32, 120, 0.0);
        auto source = std::make_shared<ReducingSource>(shape, DType::Float32, values);
        const DataArray lazy =
            DataArray("v", Variable::lazy({"t", "y", "x"}, shape, plain(DType::Float32), source));
        FrameSpec s = spec("x", "");
        s.reductions = {{"t", ReduceOp::Max}, {"y", ReduceOp::Mean}};
        const DataArray f = frameOf(lazy, s);
        QCOMPARE(source->asked,
                 (std::vector<std::pair<int, ReduceOp>>{{0, ReduceOp::Max}, {1, ReduceOp::Mean}}));
        QCOMPARE(bytesOf(f), bytesOf(frameOf(makeArray(DType::Float32, {"t", "y", "x"}, shape, values), s)));
    }

    void viewsItIsNotAskedForAreReadHere() {
        const Shape shape{4, 5, 6};
        std::vector<double> values(120);
        for (std::size_t i = 0; i < values.size(); ++i) values[i] = double(i % 17);
        auto source = std::make_shared<ReducingSource>(shape, DType::Float32, values);
        const DataArray lazy =
            DataArray("v", Variable::lazy({"t", "y", "x"}, shape, plain(DType::Float32), source));
        FrameSpec count = spec("x", "y");
        count.reductions = {{"t", ReduceOp::Count}};
        frameOf(lazy, count);
        FrameSpec transposed = spec("t", "x"); // a variance: not among the ops a source is asked
        transposed.reductions = {{"y", ReduceOp::Var}};
        frameOf(lazy, transposed);
        QCOMPARE(source->reduces.load(), 0);
        QVERIFY(source->reads.load() >= 2);
    }

    void theResidencyStreamsItWithItsReason() {
        const Shape shape{4, 5, 6};
        auto source = std::make_shared<ReducingSource>(shape, DType::Float32, std::vector<double>(120, 1.0));
        const DataArray lazy =
            DataArray("v", Variable::lazy({"t", "y", "x"}, shape, plain(DType::Float32), source));
        Residency residency(std::size_t(1) << 30);
        residency.request("v", lazy, Device::host());
        residency.wait();
        QCOMPARE(residency.status("v").state, Residence::Streamed);
        QCOMPARE(residency.status("v").describe(), std::string("streamed (computed elsewhere box by box)"));
        QCOMPARE(source->reads.load(), 0);
    }
};

QTEST_GUILESS_MAIN(TestSourceReduce)
#include "tst_sourcereduce.moc"
