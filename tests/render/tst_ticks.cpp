// Nice ticks, their labels, and calendar ticks on time axes (values worked out by hand).
#include <QtTest/QtTest>

#include "strata/render/ticks.h"

using namespace strata;

namespace {

QStringList labels(const std::vector<Tick>& t) {
    QStringList out;
    for (const Tick& k : t) out << QString::fromStdString(k.label);
    return out;
}

QList<double> values(const std::vector<Tick>& t) {
    QList<double> out;
    for (const Tick& k : t) out << k.value;
    return out;
}

TimeAxis timeAxis(const char* units, Calendar cal) {
    TimeAxis a;
    a.units = parseTimeUnits(units);
    a.calendar = cal;
    return a;
}

} // namespace

class TestTicks : public QObject {
    Q_OBJECT
private slots:
    void steps() {
        QCOMPARE(niceStep(10, 5), 2.0);
        QCOMPARE(niceStep(1, 4), 0.25);
        QCOMPARE(niceStep(180, 6), 50.0);
        QCOMPARE(niceStep(360, 4), 100.0);
        QCOMPARE(niceStep(0.03, 3), 0.01);
        QCOMPARE(niceStep(0, 5), 0.0);
    }
    void ticksInside() {
        auto t = niceTicks(0, 1, 5);
        QCOMPARE(labels(t), (QStringList{"0.0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
        auto l = niceTicks(-87.5, 87.5, 6);
        QCOMPARE(values(l), (QList<double>{-50, 0, 50}));
        // Order of the ends does not matter.
        QCOMPARE(values(niceTicks(87.5, -87.5, 6)), values(l));
        QCOMPARE(labels(niceTicks(-1, 1, 8)),
                 (QStringList{"-1.00", "-0.75", "-0.50", "-0.25", "0.00", "0.25", "0.50", "0.75", "1.00"}));
        QVERIFY(niceTicks(NAN, 1).empty());
        QVERIFY(niceTicks(3, 3).empty());
    }
    void labelsFollowTheStep() {
        QCOMPARE(QString::fromStdString(formatTick(1.25, 0.25)), QString("1.25"));
        QCOMPARE(QString::fromStdString(formatTick(20, 10)), QString("20"));
        QCOMPARE(QString::fromStdString(formatTick(-1e-17, 0.1)), QString("0.0")); // never "-0.0"
        QCOMPARE(QString::fromStdString(formatTick(2.5e6, 5e5)), QString("2.5e+06"));
        QCOMPARE(QString::fromStdString(formatTick(3e-5, 1e-5)), QString("3e-05"));
        QCOMPARE(QString::fromStdString(formatTick(273.15, 0.05)), QString("273.15"));
    }
    void degrees() {
        QCOMPARE(values(degreeTicks(-91.25, 91.25, 6)), (QList<double>{-90, -45, 0, 45, 90}));
        QCOMPARE(values(degreeTicks(-1.25, 358.75, 5)), (QList<double>{0, 90, 180, 270}));
        QCOMPARE(values(degreeTicks(-1.25, 358.75, 12)),
                 (QList<double>{0, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 330}));
        QCOMPARE(labels(degreeTicks(10, 12, 4)), (QStringList{"10.0", "10.5", "11.0", "11.5", "12.0"}));
        // A rotated pole's grid longitudes (EURO-CORDEX, -28.4…18.2) on a narrow axis: 30° would
        // leave 0° alone; 15° gives three.
        QCOMPARE(values(degreeTicks(-28.375, 18.155, 3)), (QList<double>{-15, 0, 15}));
    }
    void integers() {
        QCOMPARE(values(integerTicks(-0.5, 0.5, 5)), (QList<double>{0}));
        QCOMPARE(values(integerTicks(-0.5, 3.5, 8)), (QList<double>{0, 1, 2, 3}));
        QCOMPARE(labels(integerTicks(-0.5, 39.5, 4)), (QStringList{"0", "10", "20", "30"}));
    }
    // One leap year in days since 2000-01-01: every second month, on the first.
    void monthsOfALeapYear() {
        auto t = dateTicks(0, 366, timeAxis("days since 2000-01-01", Calendar::Standard), 7);
        QCOMPARE(labels(t),
                 (QStringList{"2000-01", "2000-03", "2000-05", "2000-07", "2000-09", "2000-11", "2001-01"}));
        // Jan 31 + Feb 29 = 60; + Mar 31 + Apr 30 = 121; + May, Jun = 182; + Jul, Aug = 244; ...
        QCOMPARE(values(t), (QList<double>{0, 60, 121, 182, 244, 305, 366}));
    }
    // Ten years of a 360-day calendar: every second year, 360 days apart.
    void yearsOf360DayCalendar() {
        auto t = dateTicks(0, 3600, timeAxis("days since 0001-01-01", Calendar::Day360), 6);
        QCOMPARE(labels(t), (QStringList{"0002", "0004", "0006", "0008", "0010"}));
        QCOMPARE(values(t), (QList<double>{360, 1080, 1800, 2520, 3240}));
    }
    void hoursOfADay() {
        auto t = dateTicks(0, 24, timeAxis("hours since 2020-01-01 00:00:00", Calendar::Standard), 6);
        QCOMPARE(labels(t), (QStringList{"2020-01-01 00:00", "2020-01-01 06:00", "2020-01-01 12:00",
                                         "2020-01-01 18:00", "2020-01-02 00:00"}));
        QCOMPARE(values(t), (QList<double>{0, 6, 12, 18, 24}));
    }
    void daysFromSeconds() {
        // Seconds since 1970 over 10 days: a tick every 2 days at midnight.
        auto t = dateTicks(86400.0 * 3 + 5, 86400.0 * 13,
                           timeAxis("seconds since 1970-01-01", Calendar::Standard), 6);
        QCOMPARE(labels(t),
                 (QStringList{"1970-01-05", "1970-01-07", "1970-01-09", "1970-01-11", "1970-01-13"}));
        QCOMPARE(t.front().value, 86400.0 * 4);
    }
};

QTEST_APPLESS_MAIN(TestTicks)
#include "tst_ticks.moc"
