// The STRATA_* variables: their descriptions, their parsers and the warnings for bad values.
#include "strata/core/settings.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>

#include "strata/core/memory_budget.h"
#include "strata/core/residency.h"

namespace strata::settings {
namespace {

constexpr const char* kSwitch = "1, true, yes or on; 0, false, no or off";
constexpr const char* kSize =
    "a size: bytes, or a number with K, M, G or T (powers of 1024) such as 512M or 8G";
constexpr const char* kPath = "a path in UTF-8 without control characters";
constexpr const char* kCoastlines = "/usr/share/cartopy/data/shapefiles/gshhs";
constexpr const char* kGshhg = "/usr/share/gmt-gshhg";
constexpr int kHttpTimeoutS = 30;

// Each variable's entry; variables() lists them in this order.
constexpr Variable kCpu{"STRATA_CPU", kSwitch, "off: CUDA device 0 when one is usable",
                        "Computes on the CPU even where a CUDA device is usable (as --cpu does)."};
constexpr Variable kCpuIsa{"STRATA_CPU_ISA", "auto or base", "auto: AVX2 where the processor has it",
                           "base keeps the CPU kernels on the baseline instruction set."};
constexpr Variable kMemoryBudget{
    "STRATA_MEMORY_BUDGET", kSize, "unlimited",
    "The most bytes one load or coordinate read may allocate; a larger one is refused with a message."};
constexpr Variable kResidentBudget{
    "STRATA_RESIDENT_BUDGET", "a size (512M, 8G) or a share of the free memory above 0 and up to 100% (50%)",
    "the window's Memory Budget setting, else 60% of the free memory",
    "Memory for variables kept whole on the GPU (on the host on the CPU path); 0 keeps none. Wins "
    "over the window's setting."};
constexpr Variable kOpenFiles{"STRATA_OPEN_FILES", "an integer from 1 to 100000",
                              "a quarter of the open-file limit, 16 to 1024",
                              "Member files of a multi-file dataset kept open at once."};
constexpr Variable kIoThreads{"STRATA_IO_THREADS", "an integer from 1 to 256",
                              "the machine's cores, at most 64",
                              "Threads that read files and inflate chunks."};
constexpr Variable kRead{"STRATA_READ", "parallel or netcdf-c", "parallel",
                         "netcdf-c reads all data through netCDF-C instead of Strata's parallel reader."};
constexpr Variable kHttpToken{"STRATA_HTTP_TOKEN", "printable ASCII without spaces", "none",
                              "A bearer token sent to http(s) Zarr stores. Never shown, not even in "
                              "warnings."};
constexpr Variable kHttpTimeout{"STRATA_HTTP_TIMEOUT", "seconds, an integer from 1 to 3600", "30",
                                "A stalled HTTP transfer (below 1 byte/s) fails after this long."};
constexpr Variable kTraceFrames{"STRATA_TRACE_FRAMES", kSwitch, "off",
                                "The window writes each frame's timing to stderr (a GL paint then waits "
                                "for the GPU)."};
constexpr Variable kTraceStartup{
    "STRATA_TRACE_STARTUP", kSwitch, "off",
    "The window writes a line to stderr at each milestone on the way to its first "
    "frame (strata/core/startup_trace.h)."};
constexpr Variable kTraceTransfers{"STRATA_TRACE_TRANSFERS", kSize, "off",
                                   "Each device-to-host copy of at least this many bytes is written to "
                                   "stderr with the stack that made it."};
constexpr Variable kQuitAfter{"STRATA_QUIT_AFTER_MS", "milliseconds, an integer from 0 to 2147483647",
                              "0: never", "The window quits after this long (for scripts and sanitizers)."};
constexpr Variable kCoastlinesDir{
    "STRATA_COASTLINES_DIR", kPath, kCoastlines,
    "The folder of the GSHHS coastline shapefiles ({c,l,i,h,f}/GSHHS_?_L1.shp), read when the GSHHG folder "
    "holds no binned file."};
constexpr Variable kGshhgDir{"STRATA_GSHHG_DIR", kPath, kGshhg,
                             "The folder of GMT's binned GSHHG shorelines (binned_GSHHS_{c,l,i,h,f}.nc), "
                             "preferred to the shapefiles."};
constexpr Variable kVtkViews{"STRATA_VTKVIEWS", kPath, "beside the executable, else where the build put it",
                             "The VTK views module (libstrata_vtkviews.so) to load."};
constexpr Variable kFontFile{"STRATA_FONT_FILE", "the path of a font file that is there",
                             "DejaVu Sans as fontconfig finds it, else at the usual paths",
                             "The font file of the text VTK draws (exports, GL frames, plots)."};

struct Warnings {
    std::mutex mutex;
    std::set<std::string> given;
    WarningSink sink; // empty: stderr
};

// A function's static, so that readers running during static initialisation find it ready.
Warnings& warnings() {
    static Warnings w;
    return w;
}

// The value as a warning may show it: printable ASCII as is, other bytes as \xNN, at most 64.
std::string shown(std::string_view value) {
    std::string out;
    for (const char c : value.substr(0, 64)) {
        const auto b = static_cast<unsigned char>(c);
        if (b >= 0x20 && b < 0x7f && b != '\\') {
            out += c;
        } else {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", b);
            out += hex;
        }
    }
    return value.size() > 64 ? out + "..." : out;
}

void warn(const Variable& v, const std::string& valueText) {
    const std::string line = std::string("strata: ") + v.name + valueText + " ignored: expected " +
                             v.accepted + "; using the default (" + v.fallback + ")";
    Warnings& w = warnings();
    std::lock_guard lock(w.mutex);
    if (!w.given.insert(line).second) return;
    if (w.sink) {
        w.sink(line);
    } else {
        std::fprintf(stderr, "%s\n", line.c_str());
        std::fflush(stderr);
    }
}

// The variable's text; nullopt when unset or empty.
std::optional<std::string_view> text(const Variable& v) {
    const char* value = std::getenv(v.name);
    if (!value || !*value) return std::nullopt;
    return std::string_view(value);
}

// Parses `v` with `parse` (text → optional<T>); a value it rejects is warned about.
template <class Parse> auto read(const Variable& v, Parse parse) -> decltype(parse(std::string_view())) {
    const auto value = text(v);
    if (!value) return std::nullopt;
    if (auto parsed = parse(*value)) return parsed;
    warn(v, "='" + shown(*value) + "'");
    return std::nullopt;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

bool equalsNoCase(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
        if (lower(a[i]) != lower(b[i])) return false;
    }
    return true;
}

std::optional<bool> parseSwitch(std::string_view s) {
    s = trimmed(s);
    for (const char* yes : {"1", "true", "yes", "on"})
        if (equalsNoCase(s, yes)) return true;
    for (const char* no : {"0", "false", "no", "off"})
        if (equalsNoCase(s, no)) return false;
    return std::nullopt;
}

// A decimal integer in [lo, hi], spaces around allowed; nothing else.
std::optional<long long> parseInteger(std::string_view s, long long lo, long long hi) {
    s = trimmed(s);
    long long v = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (s.empty() || error != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
        return std::nullopt;
    return v;
}

bool validUtf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        const auto b = static_cast<unsigned char>(s[i]);
        const int more = b < 0x80   ? 0
                         : b < 0xc2 ? -1 // a continuation byte, or an overlong lead
                         : b < 0xe0 ? 1
                         : b < 0xf0 ? 2
                         : b < 0xf5 ? 3
                                    : -1;
        if (more < 0 || s.size() - i <= std::size_t(more)) return false;
        for (int k = 1; k <= more; ++k)
            if ((static_cast<unsigned char>(s[i + std::size_t(k)]) >> 6) != 0x2) return false;
        i += std::size_t(more) + 1;
    }
    return true;
}

std::optional<std::string> parsePath(std::string_view s) {
    if (trimmed(s).empty() || !validUtf8(s)) return std::nullopt;
    for (const char c : s)
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) return std::nullopt;
    return std::string(s);
}

} // namespace

const std::vector<Variable>& variables() {
    static const std::vector<Variable> all{
        kCpu,       kCpuIsa,        kMemoryBudget, kResidentBudget, kOpenFiles,    kIoThreads,
        kRead,      kHttpToken,     kHttpTimeout,  kTraceFrames,    kTraceStartup, kTraceTransfers,
        kQuitAfter, kCoastlinesDir, kGshhgDir,     kVtkViews,       kFontFile};
    return all;
}

bool cpu() { return read(kCpu, parseSwitch).value_or(false); }

CpuIsa cpuIsa() {
    return read(kCpuIsa,
                [](std::string_view s) -> std::optional<CpuIsa> {
                    s = trimmed(s);
                    if (equalsNoCase(s, "auto")) return CpuIsa::Auto;
                    if (equalsNoCase(s, "base")) return CpuIsa::Base;
                    return std::nullopt;
                })
        .value_or(CpuIsa::Auto);
}

std::optional<std::size_t> memoryBudget() { return read(kMemoryBudget, parseByteSize); }

std::optional<std::size_t> residentBudget(std::size_t available) {
    return read(kResidentBudget,
                [available](std::string_view s) { return parseResidentBudget(s, available); });
}

std::optional<std::size_t> openFiles() {
    const auto n = read(kOpenFiles, [](std::string_view s) { return parseInteger(s, 1, 100000); });
    return n ? std::optional<std::size_t>(std::size_t(*n)) : std::nullopt;
}

std::optional<int> ioThreads() {
    const auto n = read(kIoThreads, [](std::string_view s) { return parseInteger(s, 1, 256); });
    return n ? std::optional<int>(int(*n)) : std::nullopt;
}

Reader reader() {
    return read(kRead,
                [](std::string_view s) -> std::optional<Reader> {
                    s = trimmed(s);
                    if (equalsNoCase(s, "parallel")) return Reader::Parallel;
                    if (equalsNoCase(s, "netcdf-c")) return Reader::NetcdfC;
                    return std::nullopt;
                })
        .value_or(Reader::Parallel);
}

std::optional<std::string> httpToken() {
    const auto value = text(kHttpToken);
    if (!value) return std::nullopt;
    for (const char c : *value) {
        if (c <= 0x20 || c >= 0x7f) { // also the bytes of non-ASCII text (char is signed)
            warn(kHttpToken, " (" + std::to_string(value->size()) + " bytes, not shown)");
            return std::nullopt;
        }
    }
    return std::string(*value);
}

int httpTimeoutSeconds() {
    return int(read(kHttpTimeout, [](std::string_view s) {
                   return parseInteger(s, 1, 3600);
               }).value_or(kHttpTimeoutS));
}

bool traceFrames() { return read(kTraceFrames, parseSwitch).value_or(false); }

bool traceStartup() { return read(kTraceStartup, parseSwitch).value_or(false); }

std::optional<std::size_t> traceTransfers() { return read(kTraceTransfers, parseByteSize); }

int quitAfterMs() {
    return int(
        read(kQuitAfter, [](std::string_view s) { return parseInteger(s, 0, 2147483647); }).value_or(0));
}

std::string coastlinesDir() { return read(kCoastlinesDir, parsePath).value_or(kCoastlines); }

std::string gshhgDir() { return read(kGshhgDir, parsePath).value_or(kGshhg); }

std::optional<std::string> vtkViewsPath() { return read(kVtkViews, parsePath); }

std::optional<std::string> fontFile() {
    return read(kFontFile, [](std::string_view s) -> std::optional<std::string> {
        std::optional<std::string> path = parsePath(s);
        std::error_code ec;
        if (path && !std::filesystem::is_regular_file(*path, ec)) path.reset(); // warned of: passed over
        return path;
    });
}

void checkAll() {
    (void)cpu();
    (void)cpuIsa();
    (void)memoryBudget();
    (void)residentBudget(0);
    (void)openFiles();
    (void)ioThreads();
    (void)reader();
    (void)httpToken();
    (void)httpTimeoutSeconds();
    (void)traceFrames();
    (void)traceStartup();
    (void)traceTransfers();
    (void)quitAfterMs();
    (void)coastlinesDir();
    (void)gshhgDir();
    (void)vtkViewsPath();
    (void)fontFile();
}

WarningSink setWarningSink(WarningSink sink) {
    Warnings& w = warnings();
    std::lock_guard lock(w.mutex);
    w.given.clear();
    std::swap(w.sink, sink);
    return sink;
}

} // namespace strata::settings
