// checkInChildProcess / openDatasetIsolated: a file is opened first in a forked child, so that a
// crash or an endless loop inside netCDF-C or HDF5 costs the child, not the app.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/core/format.h"
#include "strata/core/startup_trace.h"
#include "strata/io/grib.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"
#include "strata/io/zarr.h"

namespace strata::io {
namespace {

// What the child reports through the pipe: one letter for the outcome, then the message.
constexpr char kOk = 'K';

// Reads small variables whole (up to `left` bytes in all) and the first value of the others, so
// that decompression and the data path of the file are exercised too; errors here are left to
// the real loads.
void readValues(const Dataset& ds, std::size_t& left) {
    for (const auto& [name, v] : ds.variables) {
        if (!isNumeric(v.encoding().packed) || v.size() == 0 || !v.source()) continue;
        const std::size_t bytes = std::size_t(v.size()) * sizeOf(v.encoding().packed);
        const std::vector<std::int64_t> ones(v.sourceStart().size(), 1);
        const bool whole = bytes <= left;
        try {
            std::vector<unsigned char> values(whole ? bytes : sizeOf(v.encoding().packed));
            v.source()->read(v.sourceStart(), whole ? v.sourceCount() : ones, ones, values.data());
        } catch (const Error&) {
        }
        if (whole) left -= bytes;
    }
    for (const Dataset& g : ds.groups) readValues(g, left);
}

void writeAll(int fd, const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        done += std::size_t(n);
    }
}

// One file, or GRIB files opened together (openGribFiles: files that do not form one dataset
// are no harm to the child; the open here says how they part).
[[noreturn]] void runChild(const std::vector<std::string>& paths, std::size_t readBytes, int fd) {
    std::string report;
    try {
        OpenNotes notes;
        const Dataset ds =
            paths.size() == 1 ? openDataset(paths.front(), notes) : openGribFiles(paths, notes);
        readValues(ds, readBytes);
        report = std::string(1, kOk);
    } catch (const FileSetError&) {
        report = std::string(1, kOk);
    } catch (const NetcdfError& e) {
        report = std::string("N") + e.what();
    } catch (const DecodeError& e) {
        report = std::string("D") + e.what();
    } catch (const OutOfMemoryError& e) {
        report = std::string("O") + e.what();
    } catch (const ValueError& e) {
        report = std::string("V") + e.what();
    } catch (const Error& e) {
        report = std::string("E") + e.what();
    } catch (const std::exception& e) {
        report = std::string("X") + e.what();
    }
    writeAll(fd, report);
    ::_exit(0); // no exit handlers, no destructors: nothing of the parent's state is touched
}

[[noreturn]] void rethrow(char code, const std::string& message) {
    switch (code) {
    case 'D':
        STRATA_FAIL(DecodeError, message);
    case 'O':
        STRATA_FAIL(OutOfMemoryError, message);
    case 'V':
        STRATA_FAIL(ValueError, message);
    default:
        STRATA_FAIL(NetcdfError, message);
    }
}

std::string signalText(int sig) {
    const char* text = ::strsignal(sig);
    return "signal " + std::to_string(sig) + (text ? std::string(", ") + text : std::string());
}

} // namespace

namespace {

// What identifies a file for a check begun earlier: the same inode, size and modification time.
struct FileIdentity {
    dev_t device = 0;
    ino_t inode = 0;
    off_t size = 0;
    timespec modified{};
    bool operator==(const FileIdentity& o) const {
        return device == o.device && inode == o.inode && size == o.size &&
               modified.tv_sec == o.modified.tv_sec && modified.tv_nsec == o.modified.tv_nsec;
    }
};

std::optional<FileIdentity> identityOf(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return FileIdentity{st.st_dev, st.st_ino, st.st_size, st.st_mtim};
}

// A checking child, running: its pipe's reading end and when it is given up.
struct Child {
    pid_t pid = -1;
    int fd = -1;
    std::chrono::steady_clock::time_point deadline;
    int timeoutMs = 0;
};

// The check begun by beginCheckInChildProcess, until a check of the same file takes it.
struct Begun {
    FileIdentity file;
    Child child;
};
std::mutex& begunMutex() {
    static std::mutex m;
    return m;
}
std::optional<Begun>& begun() {
    static std::optional<Begun> b;
    return b;
}
std::atomic<int> childrenStarted{0};

void discard(Child& c) {
    ::close(c.fd);
    ::kill(c.pid, SIGKILL);
    while (::waitpid(c.pid, nullptr, 0) < 0 && errno == EINTR) {
    }
}

Child startChild(const std::vector<std::string>& paths, const IsolatedCheck& options) {
    const std::string what =
        "cannot open '" + (paths.size() == 1 ? paths.front() : fileSetLabel(paths)) + "'";
    int fds[2];
    STRATA_EXPECTS(::pipe2(fds, O_CLOEXEC) == 0, NetcdfError,
                   what + ": no pipe to a checking process (" + std::strerror(errno) + ")");
    // Fork while no other thread is inside netCDF-C, so the child finds its state consistent.
    detail::netcdfMutex().lock();
    const pid_t pid = ::fork();
    if (pid == 0) {
        // A crash must end the child: the parent's crash handlers (a test framework's, a crash
        // reporter's) are not for it.
        for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) ::signal(sig, SIG_DFL);
        ::close(fds[0]);
        detail::replaceNetcdfMutexInChild();
        runChild(paths, options.readBytes, fds[1]);
    }
    detail::netcdfMutex().unlock();
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        STRATA_FAIL(NetcdfError, what + ": no checking process (" + std::string(std::strerror(errno)) + ")");
    }
    ++childrenStarted;
    return Child{pid, fds[0], std::chrono::steady_clock::now() + std::chrono::milliseconds(options.timeoutMs),
                 options.timeoutMs};
}

// Waits for the child's report and its end; throws as checkInChildProcess says.
void collect(const std::vector<std::string>& paths, const Child& child) {
    const std::string& path = paths.front();
    const std::string what = "cannot open '" + (paths.size() == 1 ? path : fileSetLabel(paths)) + "'";
    const std::string readers = looksLikeGrib(path) ? "ecCodes" : "netCDF-C or HDF5"; // who read it
    using Clock = std::chrono::steady_clock;
    std::string report;
    bool timedOut = false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(child.deadline - Clock::now()).count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{child.fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char buffer[4096];
        const ssize_t n = ::read(child.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // the child closed its end: it finished or died
        report.append(buffer, std::size_t(n));
    }
    ::close(child.fd);
    if (timedOut) ::kill(child.pid, SIGKILL);
    int status = 0;
    while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut)
        STRATA_FAIL(NetcdfError, what + ": reading its metadata took longer than " +
                                     formatNumber(child.timeoutMs / 1000.0) + " s (" + readers +
                                     " may be looping on a damaged file); the reading was stopped");
    if (WIFSIGNALED(status))
        STRATA_FAIL(NetcdfError,
                    what + ": " + readers + " crashed while reading it (" + signalText(WTERMSIG(status)) +
                        "); the file is damaged. It was read in a separate process, so nothing else was "
                        "affected");
    if (report.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        STRATA_FAIL(NetcdfError, what + ": the process reading it failed (exit status " +
                                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                     "): " + readers + " met something in the file it could not survive");
    if (report[0] != kOk) rethrow(report[0], report.substr(1));
}

} // namespace

void beginCheckInChildProcess(const std::string& path, const IsolatedCheck& options) {
    const std::optional<FileIdentity> file = identityOf(path);
    if (!file || looksLikeZarr(path)) return; // left to the check itself, which says why
    const std::lock_guard lock(begunMutex());
    if (begun()) discard(begun()->child);
    begun().reset();
    try {
        begun() = Begun{*file, startChild({path}, options)};
        startup::mark(startup::Milestone::CheckBegun);
    } catch (const Error&) {
        // no pipe or no process now: the check proper tries again and says why
    }
}

int checkProcessesStarted() { return childrenStarted.load(); }

void checkInChildProcess(const std::string& path, const IsolatedCheck& options) {
    std::optional<Child> child;
    {
        const std::lock_guard lock(begunMutex());
        if (begun()) {
            if (identityOf(path) == std::optional<FileIdentity>(begun()->file))
                child = begun()->child; // begun earlier: its answer stands for this file, unchanged
            else
                discard(begun()->child); // another file, or this one changed since
            begun().reset();
        }
    }
    if (!child) {
        startup::mark(startup::Milestone::CheckBegun);
        child = startChild({path}, options);
    }
    collect({path}, *child);
}

void checkGribFilesInChildProcess(const std::vector<std::string>& paths, const IsolatedCheck& options) {
    STRATA_EXPECTS(!paths.empty(), ValueError, "no GRIB file to check");
    {
        const std::lock_guard lock(begunMutex());
        if (begun()) discard(begun()->child); // a check begun for one file stands for no set
        begun().reset();
    }
    IsolatedCheck each = options; // the time allowed grows with the files
    each.timeoutMs = int(std::min<long long>(std::numeric_limits<int>::max(),
                                             (long long)options.timeoutMs * (long long)paths.size()));
    startup::mark(startup::Milestone::CheckBegun);
    collect(paths, startChild(paths, each));
}

Dataset openDatasetIsolated(const std::string& path, OpenNotes& notes, const IsolatedCheck& options) {
    if (looksLikeZarr(path)) return openZarr(path, notes); // Strata's own reader: no netCDF-C or HDF5
    checkInChildProcess(path, options);
    startup::mark(startup::Milestone::CheckEnded);
    Dataset ds = openDataset(path, notes);
    startup::mark(startup::Milestone::NetcdfOpened);
    return ds;
}

} // namespace strata::io
