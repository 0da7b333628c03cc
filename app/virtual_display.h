#pragma once
// VirtualDisplay: when there is no X display (a batch job, ssh), starts a private Xvfb for the
// life of this object and points DISPLAY at it; Debian's VTK draws only through X. The server
// is stopped (and waited for) by the destructor, and also when this process dies first.
#include <sys/types.h>

#include <string>

namespace strata::app {

class VirtualDisplay {
public:
    // Does nothing when DISPLAY is set. Throws IoError when Xvfb cannot be started.
    VirtualDisplay();
    ~VirtualDisplay();
    VirtualDisplay(const VirtualDisplay&) = delete;
    VirtualDisplay& operator=(const VirtualDisplay&) = delete;
    bool started() const { return pid_ > 0; }
    const std::string& display() const { return display_; } // ":N" when started
    pid_t pid() const { return pid_; }

private:
    pid_t pid_ = -1;
    std::string display_;
};

} // namespace strata::app
