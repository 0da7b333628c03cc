// DataArray: host coordinates follow isel; sel picks the nearest label; data moves only on request.
#include "gpu_skip.h"
#include <QtTest>

#include "strata/core/data_array.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"
#include "strata/core/transfer.h"

using namespace strata;

namespace {

Coordinate indexCoord(const std::string& name, std::vector<double> values) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {std::int64_t(values.size())};
    c.values = std::move(values);
    return c;
}

// time(3) × lat(2) × lon(4) with value 100*t + 10*lat + lon, monthly time axis in 360_day.
DataArray sample() {
    std::vector<float> v;
    for (int t = 0; t < 3; ++t)
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 4; ++x) v.push_back(float(100 * t + 10 * y + x));
    Coordinates coords;
    Coordinate time = indexCoord("time", {15, 45, 75});
    TimeAxis axis;
    axis.units = parseTimeUnits("days since 2000-01-01");
    axis.calendar = Calendar::Day360;
    for (double d : time.values) axis.dates.push_back(decodeTime(d, axis.units, axis.calendar));
    time.time = axis;
    coords.set(time);
    coords.set(indexCoord("lat", {-45, 45}));
    coords.set(indexCoord("lon", {0, 90, 180, 270}));
    Coordinate area;
    area.name = "area";
    area.dims = {"lat", "lon"};
    area.shape = {2, 4};
    area.values = {1, 2, 3, 4, 5, 6, 7, 8};
    coords.set(area);
    return DataArray::fromHost("tas", {"time", "lat", "lon"}, {3, 2, 4}, v, coords);
}

} // namespace

class TestDataArray : public QObject {
    Q_OBJECT
private slots:
    void coordinatesFollowIsel() {
        DataArray a = sample().isel({{"time", std::int64_t(1)}, {"lon", Slice{1, 4, 2}}});
        const Coordinate* lon = a.coords().find("lon");
        QVERIFY(lon);
        QCOMPARE(lon->values, (std::vector<double>{90, 270}));
        const Coordinate* area = a.coords().find("area");
        QVERIFY(area);
        QCOMPARE(area->shape, (std::vector<std::int64_t>{2, 2}));
        QCOMPARE(area->values, (std::vector<double>{2, 4, 6, 8}));
        // The indexed time stays as a scalar coordinate, with its date, for titles.
        const Coordinate* time = a.coords().find("time");
        QVERIFY(time);
        QVERIFY(time->dims.empty());
        QCOMPARE(time->values, (std::vector<double>{45}));
        QVERIFY(time->time);
        QCOMPARE(QString::fromStdString(time->label(0)), QString("2000-02-16"));
        QCOMPARE(a.values<double>(), (std::vector<double>{101, 103, 111, 113}));
    }

    void selPicksNearest() {
        DataArray a = sample();
        QCOMPARE(a.nearestIndex("lon", 100), std::int64_t(1));
        QCOMPARE(a.nearestIndex("lon", 359), std::int64_t(3));
        QCOMPARE(a.sel("lat", 10).values<double>().front(), 110 - 100.0); // lat=45 → row 1 → 10
        QVERIFY_THROWS_EXCEPTION(ValueError, a.sel("lon", std::nan("")));
        DataArray noCoords = DataArray::fromHost("x", {"n"}, {2}, std::vector<float>{1, 2});
        QVERIFY_THROWS_EXCEPTION(ValueError, noCoords.sel("n", 1.0));
    }

    void selByDate() {
        DataArray a = sample();
        DateTime d = parseIsoDate("2000-03-10");
        DataArray s = a.sel("time", d);
        QCOMPARE(s.values<double>().front(), 200.0);
    }

    void hostStaysHostAndCountsNothing() {
        DataArray a = sample();
        const TransferCounters before = transferCounters();
        DataArray h = a.asHost();
        QCOMPARE(h.variable().buffer().get(), a.variable().buffer().get());
        QCOMPARE(transferredSince(before).deviceToHost, std::uint64_t(0));
    }

    void deviceRoundTripMovesExactlyTheView() {
        if (cudaDeviceCount() == 0) STRATA_SKIP_WITHOUT_GPU("no CUDA device");
        const Device gpu = Device::cuda(0);
        DataArray view = sample().isel({{"lat", std::int64_t(1)}}); // non-contiguous: 3×4 of 24
        const TransferCounters before = transferCounters();
        DataArray d = view.asDevice(gpu, defaultStream(gpu));
        QVERIFY(d.device() == gpu);
        QCOMPARE(d.coords().find("lon")->values, view.coords().find("lon")->values);
        DataArray back = d.asHost();
        const TransferCounters moved = transferredSince(before);
        QCOMPARE(back.values<double>(), view.values<double>());
        QCOMPARE(moved.deviceToHost, std::uint64_t(12 * sizeof(float)));
    }
};

QTEST_APPLESS_MAIN(TestDataArray)
#include "tst_dataarray.moc"
