#include "strata/core/memory_budget.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "strata/core/error.h"
#include "strata/core/settings.h"

namespace strata {
namespace {

struct Budget {
    std::once_flag fromEnv;
    std::atomic<std::size_t> bytes{kUnlimitedMemory};
    std::atomic<bool> overridden{false};
};

Budget& budget() {
    static Budget b;
    return b;
}

void readEnvironment(Budget& b) {
    std::call_once(b.fromEnv, [&b] {
        if (b.overridden.load()) return;
        if (const auto bytes = settings::memoryBudget()) b.bytes.store(*bytes);
    });
}

} // namespace

std::optional<std::size_t> parseByteSize(std::string_view text) {
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    std::size_t digits = 0;
    bool dot = false;
    while (digits < text.size() &&
           ((text[digits] >= '0' && text[digits] <= '9') || (text[digits] == '.' && !dot))) {
        dot = dot || text[digits] == '.';
        ++digits;
    }
    if (digits == 0 || (digits == 1 && dot)) return std::nullopt;
    const double number = std::strtod(std::string(text.substr(0, digits)).c_str(), nullptr);
    std::string_view unit = text.substr(digits);
    while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
    double scale = 1;
    if (!unit.empty()) {
        const char u = unit.front();
        const std::string_view rest = unit.substr(1);
        if (u == 'b' || u == 'B') {
            if (!rest.empty()) return std::nullopt;
        } else {
            int power = 0;
            switch (u) {
            case 'k':
            case 'K':
                power = 1;
                break;
            case 'm':
            case 'M':
                power = 2;
                break;
            case 'g':
            case 'G':
                power = 3;
                break;
            case 't':
            case 'T':
                power = 4;
                break;
            default:
                return std::nullopt;
            }
            if (!(rest.empty() || rest == "B" || rest == "b" || rest == "iB" || rest == "ib"))
                return std::nullopt;
            scale = std::ldexp(1.0, 10 * power);
        }
    }
    const double bytes = std::floor(number * scale);
    if (!std::isfinite(bytes) || bytes >= 18446744073709551615.0) return std::nullopt;
    return static_cast<std::size_t>(bytes);
}

std::size_t memoryBudget() {
    Budget& b = budget();
    readEnvironment(b);
    return b.bytes.load();
}

void setMemoryBudget(std::size_t bytes) {
    Budget& b = budget();
    b.overridden.store(true);
    readEnvironment(b); // consumes the once-flag so the environment never overrides this
    b.bytes.store(bytes);
}

void checkMemoryBudget(std::size_t bytes, const std::string& what) {
    const std::size_t limit = memoryBudget();
    STRATA_EXPECTS(bytes <= limit, OutOfMemoryError,
                   what + ": needs " + formatBytes(bytes) + ", more than the memory budget of " +
                       formatBytes(limit) + " (STRATA_MEMORY_BUDGET)");
}

std::string formatBytes(std::size_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + " bytes";
    static const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = double(bytes) / 1024;
    int u = 0;
    while (v >= 1024 && u < 5) {
        v /= 1024;
        ++u;
    }
    char text[32];
    std::snprintf(text, sizeof text, v < 10 && v != std::floor(v) ? "%.1f %s" : "%.0f %s", v, units[u]);
    return text;
}

} // namespace strata
