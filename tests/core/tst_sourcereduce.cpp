// Sources that reduce where their values are (Dask, through Python): computeFrame asks
// DataSource::reduceBox before it reads a lazy slab, with the box and the source axes, and gives
// the frame Strata's own reduction would give, area-weighted means included (as a
// WeightedReduceSource's step with Strata's weights); views the source is not asked for (a
// count, a packed variable) are read and reduced here as before; and the
// residency never loads such a source whole (wholeLoadRefusal).
#include <QtTest>

#include <mutex>

#include "memory_source.h"
#include "strata/core/ops.h"
#include "strata/core/residency.h"
#include "strata/core/view.h"
#include "strata/core/weighted_reduce_source.h"

using namespace strata;
using namespace test;

namespace {

// A MemorySource that also reduces a box itself (on the host, by Strata's reduce: the oracle
// is the same function over the box read), and refuses whole loads. Records what it was asked.
class ReducingSource final : public MemorySource, public WeightedReduceSource {
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

    // The steps on the box read, by Strata's reduce and weightedMean (the weights taken over the
    // dims they vary along); records them.
    std::optional<Buffer> reduceBoxSteps(std::span<const std::int64_t> start,
                                         std::span<const std::int64_t> count,
                                         std::span<const std::int64_t> stride, std::span<const Step> steps,
                                         Device device, Stream stream) const override {
        const std::vector<std::int64_t> shape(count.begin(), count.end());
        std::vector<float> box(static_cast<std::size_t>(product(shape)));
        read(start, count, stride, box.data());
        const std::vector<std::string> names = dimNames(int(shape.size()));
        DataArray a = makeArray(DType::Float32, names, shape, std::vector<double>(box.begin(), box.end()));
        {
            std::lock_guard lock(mutex);
            askedSteps.assign(steps.begin(), steps.end());
        }
        for (const Step& s : steps) {
            std::vector<std::string> dims;
            for (int axis : s.axes) dims.push_back(names[std::size_t(axis)]);
            if (!s.weights) {
                a = reduce(a, dims, s.op);
                continue;
            }
            std::vector<std::string> wDims;
            Shape wShape;
            for (std::size_t i = 0; i < s.weightShape.size(); ++i)
                if (s.weightShape[i] != 1 || shape[i] == 1) {
                    wDims.push_back(names[i]);
                    wShape.push_back(s.weightShape[i]);
                }
            a = weightedMean(a, DataArray::fromHost("w", wDims, wShape, *s.weights), dims);
        }
        ++reduces;
        Buffer out(a.variable().nbytes(), Device::host(), Stream::host());
        std::memcpy(out.data(), a.variable().buffer()->data(), out.size());
        if (device.isHost()) return out;
        return out.copyTo(device, stream);
    }

    mutable std::mutex mutex;
    mutable std::vector<Step> askedSteps;
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

    // An area-weighted mean goes to the source as one step with Strata's weights (cos(lat) over
    // the latitude's axis, length 1 elsewhere), after the steps before it, and gives the frame
    // Strata's own weighted mean gives.
    void anAreaMeanIsOneWeightedStep() {
        const Shape shape{6, 5, 4};
        std::mt19937_64 rng(11);
        const std::vector<double> values = randomValues(rng, DType::Float32, 120, 0.1);
        auto source = std::make_shared<ReducingSource>(shape, DType::Float32, values);
        Coordinates coords;
        Coordinate lat;
        lat.name = "d1";
        lat.dims = {"d1"};
        lat.shape = {5};
        lat.values = {-80, -40, 0, 30, 70};
        lat.attrs.set({"units", DType::Char, "degrees_north"});
        coords.set(lat);
        const std::vector<std::string> dims = dimNames(3);
        const DataArray lazy("v", Variable::lazy(dims, shape, plain(DType::Float32), source), coords);
        const DataArray loaded("v", makeArray(DType::Float32, dims, shape, values).variable(), coords);

        FrameSpec global = spec("d0", ""); // each step's area mean: a line over time
        global.reductions = {{"d1", ReduceOp::Mean}, {"d2", ReduceOp::Mean}};
        global.areaWeighted = true;
        const DataArray f = frameOf(lazy, global);
        QCOMPARE(source->reduces.load(), 1);
        QCOMPARE(source->askedSteps.size(), std::size_t(1));
        const WeightedReduceSource::Step s = source->askedSteps[0];
        QCOMPARE(s.axes, (std::vector<int>{1, 2}));
        QCOMPARE(s.weightShape, (std::vector<std::int64_t>{1, 5, 1}));
        QVERIFY(s.weights);
        QCOMPARE(s.weights->size(), std::size_t(5));
        QCOMPARE((*s.weights)[0], std::cos(-80 * M_PI / 180));
        const DataArray expected = frameOf(loaded, global);
        QCOMPARE(f.name(), expected.name());
        QCOMPARE(bytesOf(f), bytesOf(expected));

        FrameSpec afterMax = spec("d2", ""); // the time maximum's area mean over latitude
        afterMax.reductions = {{"d0", ReduceOp::Max}, {"d1", ReduceOp::Mean}};
        afterMax.areaWeighted = true;
        const DataArray g = frameOf(lazy, afterMax);
        QCOMPARE(source->askedSteps.size(), std::size_t(2));
        QCOMPARE(source->askedSteps[0].axes, (std::vector<int>{0}));
        QVERIFY(!source->askedSteps[0].weights);
        QCOMPARE(source->askedSteps[1].axes, (std::vector<int>{1}));
        QCOMPARE(bytesOf(g), bytesOf(frameOf(loaded, afterMax)));
        QCOMPARE(source->reads.load(), 2); // each box read once, by the source itself
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
