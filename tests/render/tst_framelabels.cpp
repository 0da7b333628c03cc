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
    void nameWhenNoAttributes() {
        std::vector<double> v(2, 0.0);
        DataArray a = DataArray::fromHost("sst", {"x"}, {2}, v);
        QCOMPARE(QString::fromStdString(frameTitle(a)), QString("sst"));
    }
};

QTEST_APPLESS_MAIN(TestFrameLabels)
#include "tst_framelabels.moc"
