#include "strata/core/startup_trace.h"

#include <unistd.h>

#include <array>
#include <atomic>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string>

#include "strata/core/monotonic_clock.h"
#include "strata/core/settings.h"

namespace strata::startup {
namespace {

constexpr std::array<const char*, kMilestoneCount> kNames{
    "process-start",   "main",        "check-begun",   "qapplication",    "window",
    "open-begun",      "check-ended", "netcdf-opened", "open-delivered",  "panel-filled",
    "frame-requested", "slab-read",   "coloured",      "frame-delivered", "painted",
    "presented"};

std::int64_t clockNs(clockid_t clock) {
    timespec ts{};
    clock_gettime(clock, &ts);
    return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace

const char* name(Milestone m) { return kNames[std::size_t(m)]; }

bool on() {
    static const bool traced = settings::traceStartup();
    return traced;
}

void mark(Milestone m) {
    if (!on()) return;
    static std::array<std::atomic<bool>, kMilestoneCount> marked{};
    if (marked[std::size_t(m)].exchange(true)) return;
    // One line at a time, its moment and its peak read together: lines from the GUI thread and
    // the opener's come in the order of both.
    static std::mutex one;
    const std::lock_guard lock(one);
    std::int64_t ns = monotonicNs();
    if (m == Milestone::ProcessStart) {
        const std::optional<std::int64_t> start = processStartNs();
        if (!start) return;
        ns = *start;
    }
    std::fprintf(stderr, "strata-startup %s %lld %ld\n", name(m), static_cast<long long>(ns), peakRssKb());
    std::fflush(stderr);
}

long peakRssKb() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
    return 0;
}

std::optional<std::uint64_t> startTicksOf(std::string_view statLine) {
    const std::size_t paren = statLine.rfind(')');
    if (paren == std::string_view::npos) return std::nullopt;
    // After ") " come field 3 (state) onwards: starttime, field 22, is the 20th of them.
    std::string_view rest = statLine.substr(paren + 1);
    for (int field = 3; field < 22; ++field) {
        const std::size_t start = rest.find_first_not_of(' ');
        if (start == std::string_view::npos) return std::nullopt;
        const std::size_t end = rest.find(' ', start);
        if (end == std::string_view::npos) return std::nullopt;
        rest = rest.substr(end);
    }
    const std::size_t start = rest.find_first_not_of(' ');
    if (start == std::string_view::npos) return std::nullopt;
    rest = rest.substr(start);
    std::uint64_t ticks = 0;
    const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), ticks);
    if (ec != std::errc() || end == rest.data() ||
        (end != rest.data() + rest.size() && *end != ' ' && *end != '\n'))
        return std::nullopt;
    return ticks;
}

std::optional<std::int64_t> processStartNs() {
    std::ifstream in("/proc/self/stat");
    const std::string line((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::optional<std::uint64_t> ticks = startTicksOf(line);
    const long perSecond = ::sysconf(_SC_CLK_TCK);
    if (!ticks || perSecond <= 0) return std::nullopt;
    const auto tps = std::uint64_t(perSecond);
    const auto sinceBootNs = std::int64_t(*ticks / tps * 1000000000 + *ticks % tps * 1000000000 / tps);
    const std::int64_t suspendedNs = clockNs(CLOCK_BOOTTIME) - clockNs(CLOCK_MONOTONIC);
    return sinceBootNs - suspendedNs;
}

} // namespace strata::startup
