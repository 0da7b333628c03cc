#include "virtual_display.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "strata/core/error.h"

namespace strata::app {

VirtualDisplay::VirtualDisplay() {
    const char* current = std::getenv("DISPLAY");
    if (current && *current) return;
    int fds[2];
    STRATA_EXPECTS(pipe(fds) == 0, IoError,
                   std::string("no display, and no pipe for Xvfb: ") + std::strerror(errno));
    const pid_t parent = getpid();
    const pid_t pid = fork();
    STRATA_EXPECTS(pid >= 0, IoError,
                   std::string("no display, and Xvfb could not be started: ") + std::strerror(errno));
    if (pid == 0) {
        // Xvfb must not outlive us, even when we are killed before the destructor runs.
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(127); // died between fork and prctl
        close(fds[0]);
        const int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, STDIN_FILENO);
            dup2(devnull, STDOUT_FILENO);
            dup2(devnull, STDERR_FILENO);
        }
        const std::string fd = std::to_string(fds[1]);
        execlp("Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1920x1080x24", "-nolisten", "tcp",
               static_cast<char*>(nullptr));
        _exit(127);
    }
    close(fds[1]);
    pid_ = pid;
    // Xvfb writes the display number it chose, then a newline, once it accepts clients.
    std::string number;
    pollfd p{fds[0], POLLIN, 0};
    char c = 0;
    while (poll(&p, 1, 10000) > 0 && read(fds[0], &c, 1) == 1 && c != '\n') number += c;
    close(fds[0]);
    if (number.empty()) {
        kill(pid_, SIGTERM);
        waitpid(pid_, nullptr, 0);
        pid_ = -1;
        STRATA_FAIL(IoError, "no display (DISPLAY is unset) and Xvfb could not be started: install xvfb, or "
                             "run under xvfb-run");
    }
    display_ = ":" + number;
    setenv("DISPLAY", display_.c_str(), 1);
}

VirtualDisplay::~VirtualDisplay() {
    if (pid_ <= 0) return;
    unsetenv("DISPLAY");
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
}

} // namespace strata::app
