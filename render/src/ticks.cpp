#include "strata/render/ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace strata {

double niceStep(double span, int target) {
    span = std::abs(span);
    if (!(span > 0) || !std::isfinite(span)) return 0;
    double raw = span / std::max(1, target);
    double mag = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw * (1 - 1e-9)) return m * mag;
    return 10 * mag;
}

std::string formatTick(double value, double step) {
    if (!std::isfinite(value)) return value != value ? "nan" : (value > 0 ? "inf" : "-inf");
    step = std::abs(step);
    if (step > 0 && std::abs(value) < step * 1e-9) value = 0; // no "-0" or "1e-17"
    char buf[64];
    double mag = std::max(std::abs(value), step);
    if (mag != 0 && (mag >= 1e6 || mag < 1e-4)) {
        // Significant digits: those of the step relative to the value's magnitude.
        int digits = 1;
        if (step > 0 && value != 0)
            digits = std::clamp(static_cast<int>(std::floor(std::log10(std::abs(value)))) -
                                    static_cast<int>(std::floor(std::log10(step))) + 2,
                                1, 15);
        std::snprintf(buf, sizeof buf, "%.*g", digits, value);
        return buf;
    }
    int decimals = 0;
    if (step > 0) {
        // The fewest decimals that write the step exactly (2.5 → 1, 0.25 → 2, 20 → 0).
        for (decimals = 0; decimals < 12; ++decimals) {
            double scaled = step * std::pow(10.0, decimals);
            if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
        }
    }
    std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
    return buf;
}

std::vector<Tick> niceTicks(double lo, double hi, int target) {
    std::vector<Tick> out;
    if (!std::isfinite(lo) || !std::isfinite(hi)) return out;
    if (lo > hi) std::swap(lo, hi);
    double step = niceStep(hi - lo, target);
    if (step == 0) return out;
    double eps = step * 1e-9;
    double first = std::ceil((lo - eps) / step);
    for (double k = first;; k += 1) {
        double v = k * step;
        if (v > hi + eps) break;
        out.push_back({v, formatTick(v, step)});
        if (out.size() > 1000) break; // guard against pathological inputs
    }
    return out;
}

namespace {

std::vector<Tick> ticksWithStep(double lo, double hi, double step) {
    std::vector<Tick> out;
    const double eps = step * 1e-9;
    for (double k = std::ceil((lo - eps) / step);; k += 1) {
        const double v = k * step;
        if (v > hi + eps || out.size() > 1000) break;
        out.push_back({v, formatTick(v, step)});
    }
    return out;
}

} // namespace

std::vector<Tick> degreeTicks(double lo, double hi, int target) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
    if (lo > hi) std::swap(lo, hi);
    const double span = hi - lo;
    if (span < 10) return niceTicks(lo, hi, target);
    const double raw = span / std::max(1, target);
    // The first round step at least raw, unless it leaves fewer than two ticks in the span (a
    // rotated pole's -28°…18° at 30°: 0° alone): then the step before it.
    double previous = 0;
    for (double step : {1.0, 2.0, 5.0, 10.0, 15.0, 30.0, 45.0, 60.0, 90.0, 180.0, 360.0}) {
        if (step >= raw * (1 - 1e-9)) {
            std::vector<Tick> ticks = ticksWithStep(lo, hi, step);
            return ticks.size() >= 2 || previous == 0 ? ticks : ticksWithStep(lo, hi, previous);
        }
        previous = step;
    }
    return ticksWithStep(lo, hi, 360);
}

std::vector<Tick> integerTicks(double lo, double hi, int target) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) return {};
    if (lo > hi) std::swap(lo, hi);
    const double step = std::max(1.0, niceStep(hi - lo, target));
    return ticksWithStep(lo, hi, step == 2.5 ? 2.0 : step);
}

std::vector<Tick> axisTicks(const AxisGrid& g, double lo, double hi, int target) {
    if (g.time) return dateTicks(lo, hi, *g.time, target);
    if (g.fromIndices) return integerTicks(lo, hi, target);
    if (g.coordinate && g.coordinate->attrs.text("units").value_or("").rfind("degree", 0) == 0)
        return degreeTicks(lo, hi, target);
    return niceTicks(lo, hi, target);
}

int tickTarget(double pixels, double perTick) {
    return std::clamp(static_cast<int>(pixels / perTick), 2, 10);
}

} // namespace strata
