// Parsing of CF/UDUNITS time units ("hours since 1970-1-1 0:0:0 +5:30") and ISO 8601 dates.
#include <cctype>
#include <cmath>
#include <optional>
#include <string>

#include "strata/core/cftime.h"
#include "strata/core/error.h"

namespace strata {
namespace {

std::string lowered(std::string_view s) {
    std::string out;
    for (char ch : s) out += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return out;
}

// A cursor over the text; every parse step either advances or leaves it where it was.
class Cursor {
public:
    explicit Cursor(std::string_view s) : s_(s) {}
    bool done() const { return i_ >= s_.size(); }
    char peek(std::size_t ahead = 0) const { return i_ + ahead < s_.size() ? s_[i_ + ahead] : '\0'; }
    bool isDigit(std::size_t ahead = 0) const {
        return std::isdigit(static_cast<unsigned char>(peek(ahead))) != 0;
    }
    void skipSpaces() {
        while (!done() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
    }
    bool eat(char c) {
        if (peek() != c) return false;
        ++i_;
        return true;
    }
    bool eatWord(std::string_view w) { // case-insensitive
        if (s_.size() - i_ < w.size() || lowered(s_.substr(i_, w.size())) != w) return false;
        i_ += w.size();
        return true;
    }
    // 1..maxDigits decimal digits.
    std::optional<long long> number(int maxDigits) {
        long long v = 0;
        int n = 0;
        while (n < maxDigits && isDigit()) {
            v = v * 10 + (s_[i_++] - '0');
            ++n;
        }
        if (n == 0) return std::nullopt;
        return v;
    }
    std::size_t pos() const { return i_; }

private:
    std::string_view s_;
    std::size_t i_ = 0;
};

struct ParsedDate {
    DateTime date;
    int offsetMinutes = 0;
};

// [+-]Y[-M[-D]] [(T|spaces)h[:m[:s[.f]]]] [Z|UTC|GMT] [[+-]h[:mm]|[+-]hhmm]; nullopt if malformed.
std::optional<ParsedDate> parseDate(std::string_view text) {
    Cursor c(text);
    ParsedDate out;
    DateTime& d = out.date;
    c.skipSpaces();
    const bool negative = c.eat('-');
    if (!negative) c.eat('+');
    const auto year = c.number(7);
    if (!year) return std::nullopt;
    d.year = static_cast<int>(negative ? -*year : *year);
    d.month = 1;
    d.day = 1;
    if (c.eat('-')) {
        const auto month = c.number(2);
        if (!month) return std::nullopt;
        d.month = static_cast<int>(*month);
        if (c.eat('-')) {
            const auto day = c.number(2);
            if (!day) return std::nullopt;
            d.day = static_cast<int>(*day);
        }
    }
    // Time: after 'T', or after spaces when digits follow that are not an offset.
    const std::size_t beforeTime = c.pos();
    bool hasTime = c.eat('T') || c.eat('t');
    if (!hasTime) {
        c.skipSpaces();
        hasTime = c.pos() > beforeTime && c.isDigit();
    }
    if (hasTime) {
        const auto hour = c.number(2);
        if (!hour) return std::nullopt;
        d.hour = static_cast<int>(*hour);
        if (c.eat(':')) {
            const auto minute = c.number(2);
            if (!minute) return std::nullopt;
            d.minute = static_cast<int>(*minute);
            if (c.eat(':')) {
                const auto sec = c.number(2);
                if (!sec) return std::nullopt;
                double second = static_cast<double>(*sec);
                if (c.eat('.')) {
                    double scale = 0.1;
                    while (c.isDigit()) {
                        second += scale * (c.peek() - '0');
                        scale /= 10;
                        c.eat(c.peek());
                    }
                }
                d.second = second;
            }
        }
    }
    c.skipSpaces();
    if (c.eat('Z') || c.eat('z') || c.eatWord("utc") || c.eatWord("gmt")) c.skipSpaces();
    if (c.peek() == '+' || c.peek() == '-') {
        const int sign = c.eat('-') ? -1 : (c.eat('+'), 1);
        const std::size_t start = c.pos();
        const auto first = c.number(4);
        if (!first) return std::nullopt;
        long long hours = *first, minutes = 0;
        if (c.pos() - start > 2) { // hhmm
            hours = *first / 100;
            minutes = *first % 100;
        } else if (c.eat(':')) {
            const auto m = c.number(2);
            if (!m) return std::nullopt;
            minutes = *m;
        }
        if (hours > 14 || minutes > 59) return std::nullopt;
        out.offsetMinutes = sign * static_cast<int>(hours * 60 + minutes);
    }
    c.skipSpaces();
    if (!c.done()) return std::nullopt;
    const bool inRange = d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31 && d.hour >= 0 &&
                         d.hour < 24 && d.minute >= 0 && d.minute < 60 && d.second >= 0 && d.second < 60;
    if (!inRange) return std::nullopt;
    return out;
}

std::optional<TimeUnit> parseUnit(std::string_view word) {
    const std::string w = lowered(word);
    auto is = [&](std::initializer_list<const char*> names) {
        for (const char* n : names)
            if (w == n) return true;
        return false;
    };
    if (is({"microseconds", "microsecond", "microsec", "microsecs", "us"})) return TimeUnit::Microseconds;
    if (is({"milliseconds", "millisecond", "millisec", "millisecs", "msec", "msecs", "ms"}))
        return TimeUnit::Milliseconds;
    if (is({"seconds", "second", "sec", "secs", "s"})) return TimeUnit::Seconds;
    if (is({"minutes", "minute", "min", "mins"})) return TimeUnit::Minutes;
    if (is({"hours", "hour", "hr", "hrs", "h"})) return TimeUnit::Hours;
    if (is({"days", "day", "d"})) return TimeUnit::Days;
    if (is({"months", "month"})) return TimeUnit::Months;
    if (is({"years", "year", "yr", "yrs"})) return TimeUnit::Years;
    return std::nullopt;
}

std::optional<TimeUnits> tryParseTimeUnits(std::string_view text, std::string* why) {
    Cursor c(text);
    c.skipSpaces();
    const std::size_t unitStart = c.pos();
    while (!c.done() && !std::isspace(static_cast<unsigned char>(c.peek()))) c.eat(c.peek());
    const std::string_view unitWord = text.substr(unitStart, c.pos() - unitStart);
    c.skipSpaces();
    if (!c.eatWord("since") || !(c.done() || std::isspace(static_cast<unsigned char>(c.peek())))) {
        *why = "expected '<unit> since <date>'";
        return std::nullopt;
    }
    const auto unit = parseUnit(unitWord);
    if (!unit) {
        *why = "unknown time unit '" + std::string(unitWord) + "'";
        return std::nullopt;
    }
    const auto date = parseDate(text.substr(c.pos()));
    if (!date) {
        *why = "cannot read the reference date '" + std::string(text.substr(c.pos())) + "'";
        return std::nullopt;
    }
    TimeUnits u;
    u.unit = *unit;
    u.epoch = date->date;
    u.utcOffsetMinutes = date->offsetMinutes;
    u.text = std::string(text);
    return u;
}

} // namespace

TimeUnits parseTimeUnits(std::string_view units) {
    std::string why;
    if (auto u = tryParseTimeUnits(units, &why)) return *u;
    STRATA_FAIL(DecodeError, "bad time units '" + std::string(units) + "': " + why);
}

bool isTimeUnits(std::string_view units) {
    std::string why;
    return tryParseTimeUnits(units, &why).has_value();
}

DateTime parseIsoDate(std::string_view text) {
    const auto d = parseDate(text);
    if (!d)
        STRATA_FAIL(ValueError,
                    "cannot read the date '" + std::string(text) + "' (expected e.g. 2005-03-16T12:00:00)");
    if (d->offsetMinutes != 0)
        STRATA_FAIL(ValueError,
                    "the date '" + std::string(text) + "' has a UTC offset; give the date in UTC");
    return d->date;
}

} // namespace strata
