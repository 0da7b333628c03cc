#pragma once
// CF time: "<unit> since <date>" units and every CF calendar, decoded to calendar dates.
#include <cstdint>
#include <string>
#include <string_view>

namespace strata {

enum class Calendar {
    Standard,           // "standard"/"gregorian": Julian before 1582-10-15, Gregorian after
    ProlepticGregorian, // "proleptic_gregorian"
    Julian,             // "julian"
    NoLeap,             // "noleap"/"365_day"
    AllLeap,            // "all_leap"/"366_day"
    Day360,             // "360_day"
};

// Case-insensitive CF names; throws DecodeError naming the calendar for an unknown one.
Calendar parseCalendar(std::string_view name);
std::string_view name(Calendar c); // the canonical CF name

struct DateTime {
    int year = 1970;
    int month = 1; // 1..12
    int day = 1;   // 1..31 (1..30 in 360_day)
    int hour = 0;
    int minute = 0;
    double second = 0; // 0 <= second < 60, fractional
    // ISO 8601: "2005-01-16T12:00:00" (date only, "2005-01-16", when the time is midnight
    // and `dateOnlyAtMidnight`); fractional seconds printed when present.
    std::string iso(bool dateOnlyAtMidnight = false) const;
    friend bool operator==(const DateTime&, const DateTime&) = default;
};

enum class TimeUnit { Microseconds, Milliseconds, Seconds, Minutes, Hours, Days, Months, Years };
// The length of one unit in seconds, a month and a year being UDUNITS' (365.242198781 days a
// year): for spacing and resolution, never for dates (those are exact, per calendar).
double secondsPerUnit(TimeUnit u);

struct TimeUnits {
    TimeUnit unit = TimeUnit::Days;
    DateTime epoch;           // the reference date as written (local to utcOffsetMinutes)
    std::string text;         // the units attribute as written
    int utcOffsetMinutes = 0; // the date's UTC offset ("+5:30" → 330); decoded dates are UTC
};

// Parses "days since 1850-01-01", "Hour since 2001-12-31T23:00:00Z", "seconds since
// 1970-1-1 0:0:0 +5:30", ... (case-insensitive unit, singular or plural, optional time and
// UTC offset). Throws DecodeError naming the text for anything else.
TimeUnits parseTimeUnits(std::string_view units);
// True if `units` has the "<unit> since <date>" shape (does not throw).
bool isTimeUnits(std::string_view units);

// The date `value` units after the epoch in `calendar`. Months and years: integral values
// step calendar months/years from the epoch; fractional ones use UDUNITS' lengths
// (a year = 365.242198781 days, a month = a twelfth of that). Throws DecodeError for a
// non-finite value or a date outside years -999999..999999.
DateTime decodeTime(double value, const TimeUnits& units, Calendar calendar);
// The inverse, for sel by date: the value (in `units`) nearest to `date`.
double encodeTime(const DateTime& date, const TimeUnits& units, Calendar calendar);
// Parses an ISO 8601 date or date-time ("2005-03", "2005-03-16", "2005-03-16T12:00:00Z").
DateTime parseIsoDate(std::string_view text);

} // namespace strata
