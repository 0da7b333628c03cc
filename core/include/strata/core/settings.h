#pragma once
// Strata's environment variables, read in one place: one typed getter per STRATA_* variable.
// A value that does not parse is never fatal: it gets a one-line warning (the variable, the
// value and what is accepted; once per process) and the default is used. An unset or empty
// variable is the default, silently. Each getter reads the environment when called; callers
// that read once keep the value themselves.
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace strata::settings {

// One variable, as the warnings and the README's table describe it.
struct Variable {
    const char* name;     // "STRATA_IO_THREADS"
    const char* accepted; // "an integer from 1 to 256"
    const char* fallback; // what holds when it is unset or not valid
    const char* what;     // what it does
};
// Every variable Strata reads, in the README's order.
const std::vector<Variable>& variables();

// STRATA_CPU: compute on the CPU even where a CUDA device is usable.
bool cpu();
// STRATA_CPU_ISA: Base keeps the CPU kernels on the baseline instruction set; Auto takes AVX2
// where the processor has it.
enum class CpuIsa { Auto, Base };
CpuIsa cpuIsa();
// STRATA_MEMORY_BUDGET: the most bytes one request may allocate; nullopt: unlimited.
std::optional<std::size_t> memoryBudget();
// STRATA_RESIDENT_BUDGET: bytes for variables kept whole, a share ("50%") taken of `available`;
// nullopt: not set (the saved setting, else 60 % of what is free).
std::optional<std::size_t> residentBudget(std::size_t available);
// STRATA_OPEN_FILES: member files of a set kept open at once; nullopt: from the descriptor limit.
std::optional<std::size_t> openFiles();
// STRATA_IO_THREADS: the reader's threads; nullopt: the machine's cores.
std::optional<int> ioThreads();
// STRATA_READ: NetcdfC reads everything through netCDF-C.
enum class Reader { Parallel, NetcdfC };
Reader reader();
// STRATA_HTTP_TOKEN: a bearer token for http(s) stores. Its value appears in no message.
std::optional<std::string> httpToken();
// STRATA_HTTP_TIMEOUT: seconds a stalled HTTP transfer may last.
int httpTimeoutSeconds();
// STRATA_TRACE_FRAMES: the window writes each frame's timing to stderr.
bool traceFrames();
// STRATA_TRACE_STARTUP: a line on stderr at each milestone to the first frame (startup_trace.h).
bool traceStartup();
// STRATA_TRACE_TRANSFERS: device-to-host copies of this many bytes or more are written to
// stderr with their stack; nullopt: none.
std::optional<std::size_t> traceTransfers();
// STRATA_QUIT_AFTER_MS: the window quits after this many milliseconds; 0: never.
int quitAfterMs();
// STRATA_COASTLINES_DIR: the folder of the GSHHS shapefiles.
std::string coastlinesDir();
// STRATA_GSHHG_DIR: the folder of GMT's binned GSHHG shorelines, preferred to the shapefiles.
std::string gshhgDir();
// STRATA_VTKVIEWS: the VTK views module to load; nullopt: the usual places.
std::optional<std::string> vtkViewsPath();
// STRATA_FONT_FILE: the font file of VTK's text; nullopt: DejaVu Sans where it is found.
std::optional<std::string> fontFile();

// Reads every variable, so that each bad value is reported when the program starts.
void checkAll();

// Where warnings go: stderr by default. Setting a sink also forgets which warnings were given,
// so that each is given again (for tests). Returns the sink it replaces.
using WarningSink = std::function<void(const std::string&)>;
WarningSink setWarningSink(WarningSink sink);

} // namespace strata::settings
