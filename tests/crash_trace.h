#pragma once
// A crash after the tests (in teardown, at exit) names where it happened and ends the process.
// QtTest's own handler stays installed after qExec and, on a fault outside a test function,
// can print "Received signal 11" in a loop instead of ending; this one prints the signal, the
// faulting address and the stack (library + offset, for addr2line against the build), then
// ends with 128 + the signal.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <execinfo.h>
#include <unistd.h>

namespace test {

inline void traceCrashes() {
    struct sigaction sa {};
    sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
    sa.sa_sigaction = [](int sig, siginfo_t* info, void*) {
        char line[160];
        const int n =
            std::snprintf(line, sizeof line, "strata-crash: signal %d (code %d) at address %p; stack:\n", sig,
                          info->si_code, info->si_addr);
        if (n > 0) (void)!write(STDERR_FILENO, line, static_cast<size_t>(n));
        void* frames[48];
        backtrace_symbols_fd(frames, backtrace(frames, 48), STDERR_FILENO);
        _exit(128 + sig);
    };
    for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) sigaction(sig, &sa, nullptr);
}

} // namespace test
