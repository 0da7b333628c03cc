// Calendar ticks for time axes (see ticks.h).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "strata/core/error.h"
#include "strata/render/ticks.h"

namespace strata {
namespace {

constexpr double kDay = 86400.0;
constexpr double kYearDays = 365.242198781; // UDUNITS' year, as cftime.h uses

enum class Resolution { Years, Months, Days, Minutes, Seconds };

struct Step {
    Resolution res;
    double count;   // of years, months or seconds (Days/Minutes/Seconds are all in seconds)
    double seconds; // approximate length
};

std::vector<Step> candidateSteps() {
    std::vector<Step> s;
    for (double n : {1, 2, 5, 10, 15, 30}) s.push_back({Resolution::Seconds, n, n});
    for (double n : {1, 2, 5, 10, 15, 30}) s.push_back({Resolution::Minutes, n * 60, n * 60});
    for (double n : {1, 2, 3, 6, 12}) s.push_back({Resolution::Minutes, n * 3600, n * 3600});
    for (double n : {1, 2, 5, 10}) s.push_back({Resolution::Days, n * kDay, n * kDay});
    for (double n : {1, 2, 3, 6}) s.push_back({Resolution::Months, n, n * kYearDays / 12 * kDay});
    for (double mag = 1; mag <= 1e6; mag *= 10)
        for (double m : {1, 2, 5}) s.push_back({Resolution::Years, m * mag, m * mag * kYearDays * kDay});
    return s;
}

std::string label(const DateTime& d, Resolution res) {
    char buf[64];
    switch (res) {
    case Resolution::Years:
        std::snprintf(buf, sizeof buf, "%04d", d.year);
        break;
    case Resolution::Months:
        std::snprintf(buf, sizeof buf, "%04d-%02d", d.year, d.month);
        break;
    case Resolution::Days:
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d", d.year, d.month, d.day);
        break;
    case Resolution::Minutes:
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d", d.year, d.month, d.day, d.hour, d.minute);
        break;
    case Resolution::Seconds:
        std::snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d", d.year, d.month, d.day, d.hour,
                      d.minute, static_cast<int>(d.second));
        break;
    }
    return buf;
}

long long floorDiv(long long a, long long b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

} // namespace

std::vector<Tick> dateTicks(double lo, double hi, const TimeAxis& time, int target) {
    std::vector<Tick> out;
    if (!std::isfinite(lo) || !std::isfinite(hi) || lo == hi) return out;
    if (lo > hi) std::swap(lo, hi);
    const TimeUnits& units = time.units;
    const Calendar cal = time.calendar;
    const double perUnit = secondsPerUnit(units.unit);
    const double span = (hi - lo) * perUnit;
    const double eps = (hi - lo) * 1e-9;
    try {
        std::vector<Step> steps = candidateSteps();
        Step step = steps.back();
        for (const Step& s : steps)
            if (span / s.seconds <= target) {
                step = s;
                break;
            }
        DateTime d0 = decodeTime(lo, units, cal), d1 = decodeTime(hi, units, cal);
        auto push = [&](const DateTime& d, double v) {
            if (v >= lo - eps && v <= hi + eps) out.push_back({v, label(d, step.res)});
        };
        if (step.res == Resolution::Years) {
            long long n = static_cast<long long>(step.count);
            for (long long y = floorDiv(d0.year, n) * n; y <= d1.year; y += n) {
                DateTime d{static_cast<int>(y), 1, 1, 0, 0, 0};
                push(d, encodeTime(d, units, cal));
            }
        } else if (step.res == Resolution::Months) {
            long long n = static_cast<long long>(step.count);
            long long m0 = static_cast<long long>(d0.year) * 12 + (d0.month - 1);
            long long m1 = static_cast<long long>(d1.year) * 12 + (d1.month - 1);
            for (long long m = floorDiv(m0, n) * n; m <= m1; m += n) {
                DateTime d{static_cast<int>(floorDiv(m, 12)),
                           static_cast<int>(m - floorDiv(m, 12) * 12) + 1,
                           1,
                           0,
                           0,
                           0};
                push(d, encodeTime(d, units, cal));
            }
        } else {
            // Fixed-length steps: multiples of the step from the epoch's midnight.
            DateTime midnight = units.epoch;
            midnight.hour = midnight.minute = 0;
            midnight.second = 0;
            double origin = encodeTime(midnight, units, cal);
            double stepValue = step.count / perUnit;
            double halfSecond = 0.5 / perUnit;
            for (double k = std::ceil((lo - origin - eps) / stepValue);; k += 1) {
                double v = origin + k * stepValue;
                if (v > hi + eps || out.size() > 1000) break;
                DateTime d = decodeTime(v + halfSecond, units, cal); // label the nearest second
                d.second = std::floor(d.second);
                push(d, v);
            }
        }
    } catch (const Error&) {
        return niceTicks(lo, hi, target); // dates out of the decodable range: plain numbers
    }
    return out;
}

} // namespace strata
