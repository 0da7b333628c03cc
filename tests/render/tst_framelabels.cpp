// Titles: the variable's long name and units, and the slice (decoded dates) it is at.
#include <QtTest/QtTest>

#include "strata/render/frame_labels.h"

using namespace strata;

class TestFrameLabels : public QObject {
    Q_OBJECT
private slots:
    void titleWithSliceDate() {
        Coordinate time;
        time.name = "time";
        time.dims = {"time"};
        time.shape = {2};
        time.values = {0, 31};
        time.attrs.set({"units", DType::Char, std::string("days since 2005-01-01")});
        TimeAxis ta;
        ta.units = parseTimeUnits("days since 2005-01-01");
        ta.dates = {DateTime{2005, 1, 1}, DateTime{2005, 2, 1}};
        time.time = ta;
        Coordinate lev;
        lev.name = "lev";
        lev.dims = {"lev"};
        lev.shape = {2};
        lev.values = {1000, 850};
        lev.attrs.set({"units", DType::Char, std::string("hPa")});
        Coordinates cs;
        cs.set(time);
        cs.set(lev);
        std::vector<float> v(2 * 2 * 3, 0.f);
        Variable var({"time", "lev", "x"}, {2, 2, 3}, DType::Float32,
                     Buffer(v.size() * 4, Device::host(), Stream::host()));
        var.attrs().set({"long_name", DType::Char, std::string("air temperature")});
        var.attrs().set({"units", DType::Char, std::string("K")});
        DataArray a("ta", var, cs);
        QCOMPARE(QString::fromStdString(variableTitle(a)), QString("air temperature [K]"));
        DataArray f = a.isel({{"time", std::int64_t(1)}, {"lev", std::int64_t(1)}});
        QCOMPARE(QString::fromStdString(sliceDescription(f)), QString("time = 2005-02-01, lev = 850 hPa"));
        QCOMPARE(QString::fromStdString(frameTitle(f)),
                 QString("air temperature [K]  time = 2005-02-01, lev = 850 hPa"));
        QCOMPARE(QString::fromStdString(frameTitle(a)), QString("air temperature [K]"));
    }
    // A slice at latitude/longitude reads like a map's label, not like a double's digits.
    void anglesAndNumbersAreShort_data() {
        QTest::addColumn<QString>("units");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("label");
        QTest::newRow("north") << "degrees_north" << 45.6986923217773 << "45.699°N";
        QTest::newRow("south") << "degree_N" << -84.7532330 << "84.753°S";
        QTest::newRow("half") << "degrees_north" << 45.5 << "45.5°N";
        QTest::newRow("equator") << "degrees_north" << 0.0 << "0°";
        QTest::newRow("east") << "degrees_east" << 9.375 << "9.375°E";
        QTest::newRow("east past 180") << "degrees_east" << 358.125 << "358.125°E";
        QTest::newRow("west") << "degreesE" << -70.0004 << "70°W";
        QTest::newRow("whole number") << "hPa" << 850.0 << "850 hPa";
        QTest::newRow("long fraction") << "m" << 0.12345678901234 << "0.123457 m";
        QTest::newRow("no units") << "" << 2.0 / 3.0 << "0.666667";
    }
    void anglesAndNumbersAreShort() {
        QFETCH(QString, units);
        QFETCH(double, value);
        QFETCH(QString, label);
        Coordinate c;
        c.name = "c";
        c.values = {value};
        if (!units.isEmpty()) c.attrs.set({"units", DType::Char, units.toStdString()});
        QCOMPARE(QString::fromStdString(sliceValueLabel(c)), label);
    }

    void reductionsInTheTitle() {
        std::vector<double> v(2, 0.0);
        Variable var = DataArray::fromHost("t", {"x"}, {2}, v).variable();
        var.attrs().set({"units", DType::Char, std::string("K")});
        Coordinates cs;
        Coordinate lat;
        lat.name = "lat";
        lat.values = {-30};
        lat.attrs.set({"units", DType::Char, std::string("degrees_north")});
        cs.set(lat);
        DataArray a("t", var, cs);
        QCOMPARE(
            QString::fromStdString(reductionDescription({{"lon", ReduceOp::Mean}, {"time", ReduceOp::Max}})),
            QString("mean over lon, max over time"));
        QCOMPARE(QString::fromStdString(frameTitle(a, {{"lon", ReduceOp::Std}})),
                 QString("t [K]  lat = 30°S, std over lon"));
        QCOMPARE(QString::fromStdString(frameTitle(a)), QString("t [K]  lat = 30°S"));
    }

    // A plain mean over latitude weighs a polar cell like an equatorial one: the title says so,
    // unless the means are area-weighted; a mean over another dim needs no such word.
    void aMeanOverLatitudeSaysItIsUnweighted() {
        QCOMPARE(QString::fromStdString(reductionDescription({{"lat", ReduceOp::Mean}}, false, "lat")),
                 QString("mean over lat (unweighted)"));
        QCOMPARE(QString::fromStdString(reductionDescription({{"lat", ReduceOp::Mean}}, true, "lat")),
                 QString("area-weighted mean over lat"));
        QCOMPARE(QString::fromStdString(
                     reductionDescription({{"lon", ReduceOp::Mean}, {"lat", ReduceOp::Max}}, false, "lat")),
                 QString("mean over lon, max over lat"));
    }

    void nameWhenNoAttributes() {
        std::vector<double> v(2, 0.0);
        DataArray a = DataArray::fromHost("sst", {"x"}, {2}, v);
        QCOMPARE(QString::fromStdString(frameTitle(a)), QString("sst"));
    }
};

QTEST_APPLESS_MAIN(TestFrameLabels)
#include "tst_framelabels.moc"
