// CF calendars and "<unit> since <date>" time units.
//
// Dates become day numbers (an int64 count of days) plus microseconds within the day, so
// decoding is exact integer arithmetic: no value ever goes through a floating-point count of
// seconds. Internally years are astronomical (year 0 exists, -1 before it); the standard and
// julian calendars have no year 0 in their written form (-1 is 1 BC), as CF says.
#include "strata/core/cftime.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "strata/core/error.h"

namespace strata {
namespace {

constexpr std::int64_t kUsPerSecond = 1'000'000;
constexpr std::int64_t kUsPerDay = 86'400 * kUsPerSecond;
constexpr int kMinYear = -999'999;
constexpr int kMaxYear = 999'999;
constexpr double kUdunitsYearDays = 365.242198781;

constexpr std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
    std::int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0))) --q;
    return q;
}

// Day of a March-based year (March 1 = 0); the same month lengths in every real calendar.
constexpr std::int64_t marchDayOfYear(int month, int day) {
    const int mp = (month + 9) % 12; // March = 0 ... February = 11
    return (153 * mp + 2) / 5 + day - 1;
}

// Days since 1970-01-01, proleptic Gregorian, astronomical year.
constexpr std::int64_t gregorianDays(std::int64_t y, int m, int d) {
    const std::int64_t yy = m <= 2 ? y - 1 : y;
    const std::int64_t era = floorDiv(yy, 400);
    const std::int64_t yoe = yy - era * 400; // [0, 399]
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + marchDayOfYear(m, d);
    return era * 146097 + doe - 719468; // 719468: days from 0000-03-01 to 1970-01-01
}

constexpr std::int64_t julianDaysRaw(std::int64_t y, int m, int d) {
    const std::int64_t yy = m <= 2 ? y - 1 : y;
    const std::int64_t era = floorDiv(yy, 4);
    const std::int64_t yoe = yy - era * 4; // [0, 3]; the leap day ends the March-year yoe = 3
    return era * 1461 + yoe * 365 + marchDayOfYear(m, d);
}

// Julian day numbers aligned with gregorianDays: Julian 1582-10-04 is followed by Gregorian 1582-10-15.
constexpr std::int64_t kJulianShift = julianDaysRaw(1582, 10, 5) - gregorianDays(1582, 10, 15);
constexpr std::int64_t julianDays(std::int64_t y, int m, int d) {
    return julianDaysRaw(y, m, d) - kJulianShift;
}
constexpr std::int64_t kGregorianStart = gregorianDays(1582, 10, 15);

struct Ymd {
    std::int64_t year;
    int month, day;
};

Ymd fromMarchDay(std::int64_t yearOfEra, std::int64_t doy) {
    const int mp = static_cast<int>((5 * doy + 2) / 153);
    const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    const int month = mp < 10 ? mp + 3 : mp - 9;
    return {yearOfEra + (month <= 2 ? 1 : 0), month, day};
}

Ymd gregorianFromDays(std::int64_t days) {
    const std::int64_t z = days + 719468;
    const std::int64_t era = floorDiv(z, 146097);
    const std::int64_t doe = z - era * 146097; // [0, 146096]
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    return fromMarchDay(yoe + era * 400, doy);
}

Ymd julianFromDays(std::int64_t days) {
    const std::int64_t z = days + kJulianShift;
    const std::int64_t era = floorDiv(z, 1461);
    const std::int64_t doe = z - era * 1461; // [0, 1460]
    const std::int64_t yoe = (doe - doe / 1460) / 365;
    return fromMarchDay(yoe + era * 4, doe - 365 * yoe);
}

constexpr std::array<int, 13> kNoLeapStart = {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365};
constexpr std::array<int, 13> kAllLeapStart = {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366};

Ymd fixedFromDays(std::int64_t days, const std::array<int, 13>& start) {
    const int length = start[12];
    const std::int64_t y = floorDiv(days, length);
    const int doy = static_cast<int>(days - y * length);
    int m = 1;
    while (doy >= start[m]) ++m;
    return {y, m, doy - start[m - 1] + 1};
}

bool hasYearZero(Calendar c) { return c != Calendar::Standard && c != Calendar::Julian; }

bool isLeap(Calendar c, std::int64_t astroYear) {
    const bool julian = astroYear % 4 == 0;
    const bool gregorian = julian && (astroYear % 100 != 0 || astroYear % 400 == 0);
    switch (c) {
    case Calendar::Standard:
        return astroYear > 1582 ? gregorian : julian;
    case Calendar::ProlepticGregorian:
        return gregorian;
    case Calendar::Julian:
        return julian;
    case Calendar::NoLeap:
        return false;
    case Calendar::AllLeap:
        return true;
    case Calendar::Day360:
        return false;
    }
    return false;
}

int monthLength(Calendar c, std::int64_t astroYear, int month) {
    if (c == Calendar::Day360) return 30;
    static constexpr int kLengths[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return month == 2 && isLeap(c, astroYear) ? 29 : kLengths[month - 1];
}

std::string dateText(std::int64_t astroYear, int month, int day, Calendar c) {
    DateTime d;
    d.year = static_cast<int>(hasYearZero(c) || astroYear > 0 ? astroYear : astroYear - 1);
    d.month = month;
    d.day = day;
    return d.iso(true);
}

bool inGregorianGap(std::int64_t y, int m, int d) { return y == 1582 && m == 10 && d > 4 && d < 15; }

std::int64_t dayNumber(std::int64_t y, int m, int d, Calendar c) {
    switch (c) {
    case Calendar::Standard:
        if (inGregorianGap(y, m, d))
            STRATA_FAIL(DecodeError, "date " + dateText(y, m, d, c) +
                                         " does not exist in the standard calendar (the 1582 Gregorian gap)");
        return (y > 1582 || (y == 1582 && (m > 10 || (m == 10 && d >= 15)))) ? gregorianDays(y, m, d)
                                                                             : julianDays(y, m, d);
    case Calendar::ProlepticGregorian:
        return gregorianDays(y, m, d);
    case Calendar::Julian:
        return julianDays(y, m, d);
    case Calendar::NoLeap:
        return y * 365 + kNoLeapStart[m - 1] + d - 1;
    case Calendar::AllLeap:
        return y * 366 + kAllLeapStart[m - 1] + d - 1;
    case Calendar::Day360:
        return y * 360 + (m - 1) * 30 + d - 1;
    }
    return 0;
}

Ymd fromDayNumber(std::int64_t days, Calendar c) {
    switch (c) {
    case Calendar::Standard:
        return days >= kGregorianStart ? gregorianFromDays(days) : julianFromDays(days);
    case Calendar::ProlepticGregorian:
        return gregorianFromDays(days);
    case Calendar::Julian:
        return julianFromDays(days);
    case Calendar::NoLeap:
        return fixedFromDays(days, kNoLeapStart);
    case Calendar::AllLeap:
        return fixedFromDays(days, kAllLeapStart);
    case Calendar::Day360: {
        const std::int64_t y = floorDiv(days, 360);
        const int doy = static_cast<int>(days - y * 360);
        return {y, doy / 30 + 1, doy % 30 + 1};
    }
    }
    return {1970, 1, 1};
}

// A point in time: a day number of some calendar and microseconds into that day.
struct Instant {
    std::int64_t day = 0;
    std::int64_t us = 0; // [0, kUsPerDay)
};

Instant normalised(std::int64_t day, std::int64_t us) {
    const std::int64_t carry = floorDiv(us, kUsPerDay);
    return {day + carry, us - carry * kUsPerDay};
}

std::int64_t astronomicalYear(int year, Calendar c) {
    if (hasYearZero(c)) return year;
    if (year == 0)
        STRATA_FAIL(DecodeError, "year 0 does not exist in the " + std::string(name(c)) + " calendar");
    return year < 0 ? year + 1 : year;
}

Instant toInstant(const DateTime& t, Calendar c) {
    const std::int64_t y = astronomicalYear(t.year, c);
    const bool valid = t.month >= 1 && t.month <= 12 && t.day >= 1 && t.day <= monthLength(c, y, t.month) &&
                       t.hour >= 0 && t.hour < 24 && t.minute >= 0 && t.minute < 60 && t.second >= 0 &&
                       t.second < 60;
    if (!valid)
        STRATA_FAIL(DecodeError,
                    "date " + t.iso() + " does not exist in the " + std::string(name(c)) + " calendar");
    const std::int64_t us = (t.hour * 3600LL + t.minute * 60LL) * kUsPerSecond + std::llround(t.second * 1e6);
    return normalised(dayNumber(y, t.month, t.day, c), us);
}

DateTime fromInstant(Instant i, Calendar c) {
    const Ymd ymd = fromDayNumber(i.day, c);
    const std::int64_t year = hasYearZero(c) || ymd.year > 0 ? ymd.year : ymd.year - 1;
    if (year < kMinYear || year > kMaxYear)
        STRATA_FAIL(DecodeError, "date out of range: year " + std::to_string(year) + " is outside " +
                                     std::to_string(kMinYear) + ".." + std::to_string(kMaxYear));
    DateTime t;
    t.year = static_cast<int>(year);
    t.month = ymd.month;
    t.day = ymd.day;
    const std::int64_t seconds = i.us / kUsPerSecond;
    t.hour = static_cast<int>(seconds / 3600);
    t.minute = static_cast<int>(seconds / 60 % 60);
    t.second = static_cast<double>(seconds % 60) + static_cast<double>(i.us % kUsPerSecond) / 1e6;
    return t;
}

std::int64_t unitMicroseconds(TimeUnit u) {
    switch (u) {
    case TimeUnit::Microseconds:
        return 1;
    case TimeUnit::Milliseconds:
        return 1000;
    case TimeUnit::Seconds:
        return kUsPerSecond;
    case TimeUnit::Minutes:
        return 60 * kUsPerSecond;
    case TimeUnit::Hours:
        return 3600 * kUsPerSecond;
    default:
        return kUsPerDay;
    }
}

// The epoch, as written, plus `months` calendar months; the day is clamped to the month's end.
DateTime addMonths(const DateTime& epoch, std::int64_t months, Calendar c) {
    const std::int64_t total = astronomicalYear(epoch.year, c) * 12 + (epoch.month - 1) + months;
    const std::int64_t y = floorDiv(total, 12);
    if (y < kMinYear || y > kMaxYear)
        STRATA_FAIL(DecodeError, "date out of range: year " + std::to_string(y));
    DateTime t = epoch;
    t.month = static_cast<int>(total - y * 12) + 1;
    t.day = std::min(epoch.day, monthLength(c, y, t.month));
    if (c == Calendar::Standard && inGregorianGap(y, t.month, t.day)) t.day = 15;
    t.year = static_cast<int>(hasYearZero(c) || y > 0 ? y : y - 1);
    return t;
}

Instant epochInstant(const TimeUnits& units, Calendar c) {
    const Instant local = toInstant(units.epoch, c);
    return normalised(local.day, local.us - units.utcOffsetMinutes * 60LL * kUsPerSecond);
}

Instant shiftedFromLocal(const DateTime& local, const TimeUnits& units, Calendar c) {
    const Instant i = toInstant(local, c);
    return normalised(i.day, i.us - units.utcOffsetMinutes * 60LL * kUsPerSecond);
}

// Adds `value` units of fixed length (microseconds .. days) to `start`, exactly.
Instant addFixed(Instant start, double value, TimeUnit unit) {
    const std::int64_t unitUs = unitMicroseconds(unit);
    const std::int64_t perDay = kUsPerDay / unitUs;
    const double whole = std::floor(value);
    if (std::fabs(whole) > 4e18)
        STRATA_FAIL(DecodeError, "time value " + std::to_string(value) + " is out of range");
    const auto w = static_cast<std::int64_t>(whole);
    const std::int64_t days = floorDiv(w, perDay);
    const std::int64_t rest = w - days * perDay;
    const std::int64_t us = rest * unitUs + std::llround((value - whole) * static_cast<double>(unitUs));
    if (std::fabs(static_cast<double>(start.day) + static_cast<double>(days)) > 1e12)
        STRATA_FAIL(DecodeError, "time value " + std::to_string(value) + " is out of range");
    return normalised(start.day + days, start.us + us);
}

} // namespace

Calendar parseCalendar(std::string_view text) {
    std::string lower;
    for (char ch : text)
        if (!std::isspace(static_cast<unsigned char>(ch)))
            lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lower == "standard" || lower == "gregorian") return Calendar::Standard;
    if (lower == "proleptic_gregorian") return Calendar::ProlepticGregorian;
    if (lower == "julian") return Calendar::Julian;
    if (lower == "noleap" || lower == "365_day") return Calendar::NoLeap;
    if (lower == "all_leap" || lower == "366_day") return Calendar::AllLeap;
    if (lower == "360_day") return Calendar::Day360;
    STRATA_FAIL(DecodeError, "unknown calendar '" + std::string(text) + "'");
}

std::string_view name(Calendar c) {
    switch (c) {
    case Calendar::Standard:
        return "standard";
    case Calendar::ProlepticGregorian:
        return "proleptic_gregorian";
    case Calendar::Julian:
        return "julian";
    case Calendar::NoLeap:
        return "noleap";
    case Calendar::AllLeap:
        return "all_leap";
    case Calendar::Day360:
        return "360_day";
    }
    return "standard";
}

std::string DateTime::iso(bool dateOnlyAtMidnight) const {
    char buf[96];
    const char* sign = year < 0 ? "-" : "";
    const int absYear = year < 0 ? -year : year;
    int n = std::snprintf(buf, sizeof buf, "%s%04d-%02d-%02d", sign, absYear, month, day);
    std::int64_t us = std::llround(second * 1e6);
    if (us >= 60 * kUsPerSecond) us = 60 * kUsPerSecond - 1;
    if (dateOnlyAtMidnight && hour == 0 && minute == 0 && us == 0) return std::string(buf, n);
    n += std::snprintf(buf + n, sizeof buf - n, "T%02d:%02d:%02d", hour, minute,
                       static_cast<int>(us / kUsPerSecond));
    if (const std::int64_t frac = us % kUsPerSecond) {
        char digits[8];
        std::snprintf(digits, sizeof digits, "%06d", static_cast<int>(frac));
        std::string f(digits);
        while (f.back() == '0') f.pop_back();
        return std::string(buf, n) + "." + f;
    }
    return std::string(buf, n);
}

DateTime decodeTime(double value, const TimeUnits& units, Calendar calendar) {
    if (!std::isfinite(value))
        STRATA_FAIL(DecodeError,
                    "time value " + std::to_string(value) + " is not finite ('" + units.text + "')");
    const bool calendarUnit = units.unit == TimeUnit::Months || units.unit == TimeUnit::Years;
    if (calendarUnit && value == std::floor(value)) {
        if (std::fabs(value) > 3e7)
            STRATA_FAIL(DecodeError, "time value " + std::to_string(value) + " is out of range");
        const auto n = static_cast<std::int64_t>(value) * (units.unit == TimeUnit::Years ? 12 : 1);
        return fromInstant(shiftedFromLocal(addMonths(units.epoch, n, calendar), units, calendar), calendar);
    }
    if (calendarUnit) {
        const double days = value * kUdunitsYearDays / (units.unit == TimeUnit::Months ? 12.0 : 1.0);
        return fromInstant(addFixed(epochInstant(units, calendar), days, TimeUnit::Days), calendar);
    }
    return fromInstant(addFixed(epochInstant(units, calendar), value, units.unit), calendar);
}

double encodeTime(const DateTime& date, const TimeUnits& units, Calendar calendar) {
    const Instant target = toInstant(date, calendar);
    const Instant epoch = epochInstant(units, calendar);
    const std::int64_t dDays = target.day - epoch.day;
    const std::int64_t dUs = target.us - epoch.us;
    if (units.unit == TimeUnit::Months || units.unit == TimeUnit::Years) {
        const std::int64_t months =
            (astronomicalYear(date.year, calendar) - astronomicalYear(units.epoch.year, calendar)) * 12 +
            (date.month - units.epoch.month);
        const bool years = units.unit == TimeUnit::Years;
        for (std::int64_t n : {months - 1, months, months + 1}) {
            if (years && n % 12 != 0) continue;
            const Instant step = shiftedFromLocal(addMonths(units.epoch, n, calendar), units, calendar);
            if (step.day == target.day && step.us == target.us)
                return static_cast<double>(years ? n / 12 : n);
        }
        const double days =
            static_cast<double>(dDays) + static_cast<double>(dUs) / static_cast<double>(kUsPerDay);
        return days / (kUdunitsYearDays / (years ? 1.0 : 12.0));
    }
    const std::int64_t unitUs = unitMicroseconds(units.unit);
    const std::int64_t perDay = kUsPerDay / unitUs;
    if (std::llabs(dDays) < std::numeric_limits<std::int64_t>::max() / perDay / 2) {
        const std::int64_t whole = dDays * perDay + floorDiv(dUs, unitUs);
        const std::int64_t rest = dUs - floorDiv(dUs, unitUs) * unitUs;
        return static_cast<double>(whole) + static_cast<double>(rest) / static_cast<double>(unitUs);
    }
    return static_cast<double>(dDays) * static_cast<double>(perDay) +
           static_cast<double>(dUs) / static_cast<double>(unitUs);
}

double secondsPerUnit(TimeUnit u) {
    constexpr double kDay = 86400, kYearDays = 365.242198781;
    switch (u) {
    case TimeUnit::Microseconds:
        return 1e-6;
    case TimeUnit::Milliseconds:
        return 1e-3;
    case TimeUnit::Seconds:
        return 1;
    case TimeUnit::Minutes:
        return 60;
    case TimeUnit::Hours:
        return 3600;
    case TimeUnit::Days:
        return kDay;
    case TimeUnit::Months:
        return kYearDays / 12 * kDay;
    case TimeUnit::Years:
        return kYearDays * kDay;
    }
    return kDay;
}

} // namespace strata
