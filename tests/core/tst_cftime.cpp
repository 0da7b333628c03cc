// CF time: calendars, units parsing, exact decoding. Reference dates come from Python's
// datetime (proleptic Gregorian) or are worked out by hand in the comments.
#include <QtTest>

#include <cmath>
#include <limits>

#include "strata/core/cftime.h"
#include "strata/core/error.h"

using namespace strata;

namespace {

DateTime dt(int y, int mo, int d, int h = 0, int mi = 0, double s = 0) {
    DateTime t;
    t.year = y;
    t.month = mo;
    t.day = d;
    t.hour = h;
    t.minute = mi;
    t.second = s;
    return t;
}

DateTime decode(double value, const char* units, Calendar c) {
    return decodeTime(value, parseTimeUnits(units), c);
}

template <class E, class F> QString messageOf(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace

class TestCfTime : public QObject {
    Q_OBJECT
private slots:
    void calendarsByName_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("calendar");
        QTest::newRow("standard") << "standard" << int(Calendar::Standard);
        QTest::newRow("gregorian upper") << "GREGORIAN" << int(Calendar::Standard);
        QTest::newRow("proleptic") << "proleptic_gregorian" << int(Calendar::ProlepticGregorian);
        QTest::newRow("julian") << "Julian" << int(Calendar::Julian);
        QTest::newRow("noleap") << "noleap" << int(Calendar::NoLeap);
        QTest::newRow("365_day") << "365_day" << int(Calendar::NoLeap);
        QTest::newRow("all_leap") << "ALL_LEAP" << int(Calendar::AllLeap);
        QTest::newRow("366_day") << "366_day" << int(Calendar::AllLeap);
        QTest::newRow("360_day") << "360_day" << int(Calendar::Day360);
    }
    void calendarsByName() {
        QFETCH(QString, text);
        QFETCH(int, calendar);
        QCOMPARE(int(parseCalendar(text.toStdString())), calendar);
    }
    void unknownCalendarIsNamed() {
        const QString m = messageOf<DecodeError>([] { parseCalendar("foo_cal"); });
        QVERIFY2(m.contains("foo_cal"), qPrintable(m));
        QCOMPARE(QString::fromLatin1(name(Calendar::Day360).data()), QString("360_day"));
        QCOMPARE(parseCalendar(name(Calendar::AllLeap)), Calendar::AllLeap);
    }

    void unitsParsing_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("unit");
        QTest::addColumn<QString>("epoch");
        QTest::addColumn<int>("offset");
        QTest::newRow("days") << "days since 1850-01-01" << int(TimeUnit::Days) << "1850-01-01T00:00:00" << 0;
        QTest::newRow("short fields")
            << "hours since 1850-1-1 0:0:0" << int(TimeUnit::Hours) << "1850-01-01T00:00:00" << 0;
        QTest::newRow("iso Z") << "Hour since 2001-12-31T23:00:00Z" << int(TimeUnit::Hours)
                               << "2001-12-31T23:00:00" << 0;
        QTest::newRow("offset") << "seconds since 1970-01-01 00:00:00.0 +5:30" << int(TimeUnit::Seconds)
                                << "1970-01-01T00:00:00" << 330;
        QTest::newRow("offset hhmm") << "minutes since 1970-01-01 12:00 -0230" << int(TimeUnit::Minutes)
                                     << "1970-01-01T12:00:00" << -150;
        QTest::newRow("negative year")
            << "days since -4712-01-01 12:00:00" << int(TimeUnit::Days) << "-4712-01-01T12:00:00" << 0;
        QTest::newRow("months") << "months since 1958-1-1 00:00:00" << int(TimeUnit::Months)
                                << "1958-01-01T00:00:00" << 0;
        QTest::newRow("YEARS") << "YEARS since 0001-01-01" << int(TimeUnit::Years) << "0001-01-01T00:00:00"
                               << 0;
        QTest::newRow("sec") << "sec since 1970-01-01 00:00:00 UTC" << int(TimeUnit::Seconds)
                             << "1970-01-01T00:00:00" << 0;
        QTest::newRow("s") << "s since 1970-01-01" << int(TimeUnit::Seconds) << "1970-01-01T00:00:00" << 0;
        QTest::newRow("min") << "min since 1970-01-01" << int(TimeUnit::Minutes) << "1970-01-01T00:00:00"
                             << 0;
        QTest::newRow("hr") << "hr since 1970-01-01" << int(TimeUnit::Hours) << "1970-01-01T00:00:00" << 0;
        QTest::newRow("h") << "h since 1970-01-01" << int(TimeUnit::Hours) << "1970-01-01T00:00:00" << 0;
        QTest::newRow("d") << "d since 1970-01-01" << int(TimeUnit::Days) << "1970-01-01T00:00:00" << 0;
        QTest::newRow("Day") << "Day since 1970-01-01" << int(TimeUnit::Days) << "1970-01-01T00:00:00" << 0;
        QTest::newRow("micro") << "microseconds since 2000-01-01" << int(TimeUnit::Microseconds)
                               << "2000-01-01T00:00:00" << 0;
        QTest::newRow("milli") << "Milliseconds since 2000-01-01 00:00:00.5" << int(TimeUnit::Milliseconds)
                               << "2000-01-01T00:00:00.5" << 0;
    }
    void unitsParsing() {
        QFETCH(QString, text);
        QFETCH(int, unit);
        QFETCH(QString, epoch);
        QFETCH(int, offset);
        QVERIFY(isTimeUnits(text.toStdString()));
        const TimeUnits u = parseTimeUnits(text.toStdString());
        QCOMPARE(int(u.unit), unit);
        QCOMPARE(QString::fromStdString(u.epoch.iso()), epoch);
        QCOMPARE(u.utcOffsetMinutes, offset);
        QCOMPARE(QString::fromStdString(u.text), text);
    }
    void badUnitsAreNamed_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("no since") << "days after 1850-01-01";
        QTest::newRow("unknown unit") << "fortnights since 1850-01-01";
        QTest::newRow("bad date") << "days since yesterday";
        QTest::newRow("bad month") << "days since 1850-13-01";
        QTest::newRow("trailing") << "days since 1850-01-01 00:00:00 junk";
        QTest::newRow("not time") << "degrees_north";
        QTest::newRow("empty") << "";
    }
    void badUnitsAreNamed() {
        QFETCH(QString, text);
        QVERIFY(!isTimeUnits(text.toStdString()));
        const QString m = messageOf<DecodeError>([&] { parseTimeUnits(text.toStdString()); });
        QVERIFY2(!m.isEmpty() && m.contains(text), qPrintable(m));
    }

    // A month added to the 31st lands on the month's last day: 2001's month lengths written
    // here, and in a leap year February's 29. A day past the month's end is no date.
    void monthLengths() {
        const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
        for (int k = 0; k < 12; ++k)
            QCOMPARE(decode(k, "months since 2001-01-31", Calendar::Standard), dt(2001, k + 1, days[k]));
        QCOMPARE(decode(1, "months since 2000-01-31", Calendar::Standard), dt(2000, 2, 29));
        QVERIFY_THROWS_EXCEPTION(DecodeError, decode(0, "days since 2001-04-31", Calendar::Standard));
    }

    void prolepticGregorian() {
        const Calendar pg = Calendar::ProlepticGregorian;
        // Python: datetime(1850,1,1) + timedelta(days=56978.5) == 2006-01-01 12:00.
        QCOMPARE(decode(56978.5, "days since 1850-01-01", pg), dt(2006, 1, 1, 12));
        // (date(2005,1,16) - date(1850,1,1)).days == 56628 (tas's first month, mid-month).
        QCOMPARE(decode(56628.5, "days since 1850-01-01 00:00:00", pg), dt(2005, 1, 16, 12));
        // 1900 is not a leap year, 2000 is.
        QCOMPARE(decode(1, "days since 1900-02-28", pg), dt(1900, 3, 1));
        QCOMPARE(decode(1, "days since 2000-02-28", pg), dt(2000, 2, 29));
        // Before 1582 the proleptic calendar keeps Gregorian rules: no gap.
        QCOMPARE(decode(1, "days since 1582-10-04", pg), dt(1582, 10, 5));
    }
    void exactArithmetic() {
        const Calendar pg = Calendar::ProlepticGregorian;
        // Python: datetime(1970,1,1) + timedelta(hours=1e6) == 2084-01-29 16:00:00 exactly.
        QCOMPARE(decode(1e6, "hours since 1970-01-01", pg), dt(2084, 1, 29, 16));
        // 1e9 + 0.25 s: 2001-09-09 01:46:40.25.
        QCOMPARE(decode(1e9 + 0.25, "seconds since 1970-01-01", pg), dt(2001, 9, 9, 1, 46, 40.25));
        // One hour written as a fraction of a day, as float data would: lands on the hour.
        QCOMPARE(decode(56978.041666666664, "days since 1850-01-01", pg), dt(2006, 1, 1, 1));
        // Every hour of ten years lands exactly on the hour.
        const TimeUnits u = parseTimeUnits("hours since 2000-01-01");
        for (int h = 0; h < 24 * 3653; h += 7) {
            const DateTime t = decodeTime(h, u, pg);
            QCOMPARE(t.minute, 0);
            QCOMPARE(t.second, 0.0);
            QCOMPARE(t.hour, h % 24);
        }
        QCOMPARE(decode(1e15, "microseconds since 2000-01-01", pg),
                 decode(1e9, "seconds since 2000-01-01", pg));
        QCOMPARE(decode(-1, "days since 2000-01-01", pg), dt(1999, 12, 31));
        QCOMPARE(decode(-0.25, "days since 2000-01-01", pg), dt(1999, 12, 31, 18));
    }
    void utcOffset() {
        const Calendar s = Calendar::Standard;
        // Midnight at +5:30 is 18:30 UTC the day before.
        QCOMPARE(decode(0, "seconds since 1970-01-01 00:00:00.0 +5:30", s), dt(1969, 12, 31, 18, 30));
        QCOMPARE(decode(1, "Hour since 2001-12-31T23:00:00Z", s), dt(2002, 1, 1));
        QCOMPARE(decode(30, "minutes since 2000-01-01 00:00 -01", s), dt(2000, 1, 1, 1, 30));
    }
    void standardCalendarGap() {
        const Calendar s = Calendar::Standard;
        // Julian 1582-10-04 is followed by Gregorian 1582-10-15.
        QCOMPARE(decode(1, "days since 1582-10-04", s), dt(1582, 10, 15));
        QCOMPARE(decode(-1, "days since 1582-10-15", s), dt(1582, 10, 4));
        QCOMPARE(decode(4, "days since 1582-10-01", s), dt(1582, 10, 15));
        // Julian 1000-01-01 is Gregorian 1000-01-06: date(1000,1,6).toordinal() - date(1970,1,1).toordinal()
        // == -354280.
        QCOMPARE(decode(-354280, "days since 1970-01-01", s), dt(1000, 1, 1));
        // Julian day numbers: JD 0 is noon of 4713 BC January 1 (Julian; written -4713, as there is
        // no year 0); J2000.0 = JD 2451545.0 = 2000-01-01T12:00; JD 2299160.5 is the reform's first day.
        QCOMPARE(decode(2451545.0, "days since -4713-01-01 12:00:00", s), dt(2000, 1, 1, 12));
        QCOMPARE(decode(2299160.5, "days since -4713-01-01 12:00:00", s), dt(1582, 10, 15));
        QCOMPARE(decode(2299159.5, "days since -4713-01-01 12:00:00", s), dt(1582, 10, 4));
        // Julian leap rule before the reform: 1500 is a leap year there.
        QCOMPARE(decode(1, "days since 1500-02-28", s), dt(1500, 2, 29));
        // A date inside the gap does not exist.
        const QString m =
            messageOf<DecodeError>([] { decode(0, "days since 1582-10-10", Calendar::Standard); });
        QVERIFY2(m.contains("1582-10-10"), qPrintable(m));
    }
    void julian() {
        const Calendar j = Calendar::Julian;
        QCOMPARE(decode(1, "days since 1900-02-28", j), dt(1900, 2, 29));
        QCOMPARE(decode(2, "days since 1900-02-28", j), dt(1900, 3, 1));
        // 4 Julian years are 1461 days.
        QCOMPARE(decode(1461, "days since 1801-03-01", j), dt(1805, 3, 1));
        // No year 0: 1 BC (-1) is a leap year, followed by AD 1.
        QCOMPARE(decode(366, "days since -0001-01-01", j), dt(1, 1, 1));
    }
    void noLeap() {
        const Calendar c = Calendar::NoLeap;
        QCOMPARE(decode(1, "days since 2000-02-28", c), dt(2000, 3, 1));
        QCOMPARE(decode(365, "days since 2000-02-28", c), dt(2001, 2, 28));
        QCOMPARE(decode(365 * 30, "days since 1970-01-01", c), dt(2000, 1, 1));
        const TimeUnits u = parseTimeUnits("days since 1999-01-01");
        int daysInFebruary = 0;
        for (int d = 0; d < 365 * 8; ++d) {
            const DateTime t = decodeTime(d, u, c);
            QVERIFY(!(t.month == 2 && t.day == 29));
            daysInFebruary += t.month == 2;
        }
        QCOMPARE(daysInFebruary, 28 * 8);
        QVERIFY(
            !messageOf<DecodeError>([] { decode(0, "days since 2000-02-29", Calendar::NoLeap); }).isEmpty());
    }
    void allLeap() {
        const Calendar c = Calendar::AllLeap;
        QCOMPARE(decode(1, "days since 2001-02-28", c), dt(2001, 2, 29));
        QCOMPARE(decode(366, "days since 1901-01-01", c), dt(1902, 1, 1));
        const TimeUnits u = parseTimeUnits("days since 1901-01-01");
        int leapDays = 0;
        for (int d = 0; d < 366 * 7; ++d) {
            const DateTime t = decodeTime(d, u, c);
            leapDays += t.month == 2 && t.day == 29;
        }
        QCOMPARE(leapDays, 7);
    }
    void day360() {
        const Calendar c = Calendar::Day360;
        QCOMPARE(decode(29, "days since 1900-1-1", c), dt(1900, 1, 30));
        QCOMPARE(decode(30, "days since 1900-1-1", c), dt(1900, 2, 1));
        QCOMPARE(decode(59, "days since 1900-1-1", c), dt(1900, 2, 30));
        QCOMPARE(decode(359, "days since 1900-1-1", c), dt(1900, 12, 30));
        QCOMPARE(decode(360, "days since 1900-1-1", c), dt(1901, 1, 1));
        // 2299 = 6 * 360 + 139; 139 = 4 * 30 + 19: 1906-05-20.
        QCOMPARE(decode(2299, "days since 1900-1-1", c), dt(1906, 5, 20));
        // Feb 30 exists here and is a valid epoch.
        QCOMPARE(decode(1, "days since 2000-02-30", c), dt(2000, 3, 1));
        QCOMPARE(decode(1, "months since 2000-01-30", c), dt(2000, 2, 30));
    }
    void calendarMonthsAndYears() {
        const Calendar s = Calendar::Standard;
        QCOMPARE(decode(0, "months since 1958-1-1 00:00:00", s), dt(1958, 1, 1));
        QCOMPARE(decode(13, "months since 1958-1-1 00:00:00", s), dt(1959, 2, 1));
        QCOMPARE(decode(-1, "months since 1958-1-1 00:00:00", s), dt(1957, 12, 1));
        // The day is clamped to the end of a shorter month.
        QCOMPARE(decode(1, "months since 2000-01-31", s), dt(2000, 2, 29));
        QCOMPARE(decode(1, "years since 2000-02-29", s), dt(2001, 2, 28));
        QCOMPARE(decode(4, "years since 2000-02-29 06:00", s), dt(2004, 2, 29, 6));
        // Fractional months use UDUNITS' length (365.242198781 / 12 days): Python gives
        // datetime(2000,1,1) + timedelta(days=365.242198781/24) == 2000-01-16 05:14:31.915612.
        const DateTime half = decode(0.5, "months since 2000-01-01", Calendar::ProlepticGregorian);
        QCOMPARE(half.iso(), std::string("2000-01-16T05:14:31.915612"));
    }
    void negativeAndZeroYears() {
        // Proleptic Gregorian has year 0 (a leap year); -1 is not leap.
        const Calendar pg = Calendar::ProlepticGregorian;
        QCOMPARE(decode(365, "days since -0001-01-01", pg), dt(0, 1, 1));
        QCOMPARE(decode(365 + 366, "days since -0001-01-01", pg), dt(1, 1, 1));
        QCOMPARE(decode(0, "days since -4712-01-01 12:00:00", Calendar::Julian), dt(-4712, 1, 1, 12));
        const QString m =
            messageOf<DecodeError>([] { decode(0, "days since 0000-01-01", Calendar::Standard); });
        QVERIFY2(m.contains("year 0"), qPrintable(m));
    }
    void badValues() {
        const TimeUnits u = parseTimeUnits("days since 2000-01-01");
        QVERIFY(!messageOf<DecodeError>([&] { decodeTime(std::nan(""), u, Calendar::Standard); }).isEmpty());
        QVERIFY(!messageOf<DecodeError>([&] { decodeTime(1e300, u, Calendar::Standard); }).isEmpty());
        QVERIFY(!messageOf<DecodeError>([&] { decodeTime(1e12, u, Calendar::Standard); }).isEmpty());
        QVERIFY(!messageOf<DecodeError>([&] {
                     decodeTime(std::numeric_limits<double>::infinity(), u, Calendar::Day360);
                 }).isEmpty());
        // The largest supported year decodes.
        QCOMPARE(decode(999999 - 2000, "years since 2000-01-01", Calendar::NoLeap).year, 999999);
    }
    void encodeInverts_data() {
        QTest::addColumn<QString>("units");
        QTest::addColumn<int>("calendar");
        QTest::addColumn<double>("value");
        QTest::newRow("days pg") << "days since 1850-01-01" << int(Calendar::ProlepticGregorian) << 56978.5;
        QTest::newRow("hours std") << "hours since 1800-01-01" << int(Calendar::Standard) << -3e6;
        QTest::newRow("secs offset") << "seconds since 1970-01-01 +5:30" << int(Calendar::Standard)
                                     << 12345.0;
        QTest::newRow("360") << "days since 1900-1-1" << int(Calendar::Day360) << 2299.25;
        QTest::newRow("noleap") << "minutes since 0001-01-01" << int(Calendar::NoLeap) << 1e9;
        QTest::newRow("months") << "months since 1958-1-1" << int(Calendar::Standard) << 20.0;
        QTest::newRow("years") << "years since 2000-02-29" << int(Calendar::AllLeap) << 7.0;
    }
    void encodeInverts() {
        QFETCH(QString, units);
        QFETCH(int, calendar);
        QFETCH(double, value);
        const TimeUnits u = parseTimeUnits(units.toStdString());
        const auto c = Calendar(calendar);
        const DateTime t = decodeTime(value, u, c);
        QCOMPARE(encodeTime(t, u, c), value);
    }
    void isoText() {
        QCOMPARE(dt(2005, 1, 16, 12).iso(), std::string("2005-01-16T12:00:00"));
        QCOMPARE(dt(2005, 1, 16).iso(true), std::string("2005-01-16"));
        QCOMPARE(dt(2005, 1, 16, 0, 0, 1).iso(true), std::string("2005-01-16T00:00:01"));
        QCOMPARE(dt(2005, 1, 16, 3, 4, 5.5).iso(), std::string("2005-01-16T03:04:05.5"));
        QCOMPARE(dt(-44, 3, 15).iso(true), std::string("-0044-03-15"));
        QCOMPARE(dt(12345, 1, 1).iso(true), std::string("12345-01-01"));
    }
    void isoDates() {
        QCOMPARE(parseIsoDate("2005-03"), dt(2005, 3, 1));
        QCOMPARE(parseIsoDate("2005-03-16"), dt(2005, 3, 16));
        QCOMPARE(parseIsoDate("2005-03-16T12:00:00Z"), dt(2005, 3, 16, 12));
        QCOMPARE(parseIsoDate("2005"), dt(2005, 1, 1));
        QCOMPARE(parseIsoDate(" 1999-12-31 23:59:59.25 "), dt(1999, 12, 31, 23, 59, 59.25));
        QVERIFY(!messageOf<ValueError>([] { parseIsoDate("March 2005"); }).isEmpty());
        QVERIFY(!messageOf<ValueError>([] { parseIsoDate("2005-02-30T25:00"); }).isEmpty());
    }
};

QTEST_APPLESS_MAIN(TestCfTime)
#include "tst_cftime.moc"
