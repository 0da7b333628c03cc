// checkInChildProcess / openDatasetIsolated: a file is opened first in a forked child, so that a
// crash or an endless loop inside netCDF-C or HDF5 costs the child, not the app.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string>
#include <vector>

#include "nc_call.h"
#include "strata/core/error.h"
#include "strata/core/format.h"
#include "strata/core/startup_trace.h"
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

[[noreturn]] void runChild(const std::string& path, std::size_t readBytes, int fd) {
    std::string report;
    try {
        OpenNotes notes;
        const Dataset ds = openDataset(path, notes);
        readValues(ds, readBytes);
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

void checkInChildProcess(const std::string& path, const IsolatedCheck& options) {
    const std::string what = "cannot open '" + path + "'";
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
        runChild(path, options.readBytes, fds[1]);
    }
    detail::netcdfMutex().unlock();
    ::close(fds[1]);
    if (pid < 0) {
        ::close(fds[0]);
        STRATA_FAIL(NetcdfError, what + ": no checking process (" + std::string(std::strerror(errno)) + ")");
    }

    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::milliseconds(options.timeoutMs);
    std::string report;
    bool timedOut = false;
    for (;;) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        pollfd p{fds[0], POLLIN, 0};
        const int ready = ::poll(&p, 1, int(std::min<long long>(left, 1000)));
        if (ready < 0 && errno == EINTR) continue;
        if (ready <= 0) continue;
        char buffer[4096];
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break; // the child closed its end: it finished or died
        report.append(buffer, std::size_t(n));
    }
    ::close(fds[0]);
    if (timedOut) ::kill(pid, SIGKILL);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (timedOut)
        STRATA_FAIL(NetcdfError,
                    what + ": reading its metadata took longer than " +
                        formatNumber(options.timeoutMs / 1000.0) +
                        " s (netCDF-C or HDF5 may be looping on a damaged file); the reading was stopped");
    if (WIFSIGNALED(status))
        STRATA_FAIL(NetcdfError,
                    what + ": netCDF-C or HDF5 crashed while reading it (" + signalText(WTERMSIG(status)) +
                        "); the file is damaged. It was read in a separate process, so nothing else was "
                        "affected");
    if (report.empty() || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        STRATA_FAIL(NetcdfError, what + ": the process reading it failed (exit status " +
                                     std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                                     "): netCDF-C or HDF5 met something in the file they could not survive");
    if (report[0] != kOk) rethrow(report[0], report.substr(1));
}

Dataset openDatasetIsolated(const std::string& path, OpenNotes& notes, const IsolatedCheck& options) {
    if (looksLikeZarr(path)) return openZarr(path, notes); // Strata's own reader: no netCDF-C or HDF5
    startup::mark(startup::Milestone::CheckBegun);
    checkInChildProcess(path, options);
    startup::mark(startup::Milestone::CheckEnded);
    Dataset ds = openDataset(path, notes);
    startup::mark(startup::Milestone::NetcdfOpened);
    return ds;
}

} // namespace strata::io
