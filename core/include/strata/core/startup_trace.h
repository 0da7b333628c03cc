#pragma once
// The startup trace (STRATA_TRACE_STARTUP): where the time to the window's first frame goes.
// Each milestone, at its first occurrence only, writes one line on stderr,
//     strata-startup <name> <CLOCK_MONOTONIC ns> <peak RSS kB>
// on the clock of Python's time.monotonic and of the strata-frame lines, with the process's
// peak resident memory so far (VmHWM, read as the line is written: from outside, the load
// that starts with the first frame blurs it), for bench/app/run_app_bench.py. Off (the
// default), a mark tests one flag read once.
#include <cstdint>
#include <optional>
#include <string_view>

namespace strata::startup {

// In the order they come when the window opens one netCDF file and shows it on the CPU path.
enum class Milestone {
    ProcessStart,   // the process's start (see processStartNs): before exec and dynamic linking
    Main,           // main() entered: from ProcessStart, exec, dynamic linking and static init
    CheckBegun,     // the open check in a child process started (fork), before Qt starts
    Application,    // QApplication constructed
    Window,         // the main window constructed
    OpenBegun,      // the window asked for the file to be opened
    CheckEnded,     // the check's answer taken: the file is sound
    NetcdfOpened,   // netCDF-C's open and metadata read in this process: the Dataset made
    OpenDelivered,  // the dataset reached the GUI thread
    PanelFilled,    // the dataset panel shows it
    FrameRequested, // the first frame asked of the frame service
    SlabRead,       // its slab read from the file and decoded
    Coloured,       // a frame colour-mapped (on the GPU path: issued on its stream)
    FrameDelivered, // the first frame reached the GUI thread
    Painted,        // the first paint of a frame returned
    Presented,      // that frame presented (the first strata-frame line's moment)
};
inline constexpr int kMilestoneCount = int(Milestone::Presented) + 1;

const char* name(Milestone m); // "process-start", "main", ..., "presented"
bool on();                     // STRATA_TRACE_STARTUP, read at the first call
// Writes `m`'s line the first time it is marked (from any thread); nothing when off.
void mark(Milestone m);

// VmHWM of /proc/self/status in kB; 0 where it cannot be read.
long peakRssKb();

// The process's start on CLOCK_MONOTONIC. /proc/self/stat's field 22 (starttime) is the start
// in clock ticks (sysconf(_SC_CLK_TCK), 100 a second) since boot on CLOCK_BOOTTIME, truncated;
// CLOCK_MONOTONIC is CLOCK_BOOTTIME less the time suspended, read now as the difference of the
// two clocks. So this is up to one tick (10 ms) before the fork's moment. nullopt where
// /proc/self/stat cannot be read.
std::optional<std::int64_t> processStartNs();
// Field 22 of a /proc/<pid>/stat line (read after the last ')': the command may hold spaces
// and parentheses); nullopt when the line is malformed.
std::optional<std::uint64_t> startTicksOf(std::string_view statLine);

} // namespace strata::startup
