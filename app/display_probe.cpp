#include "display_probe.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string_view>

namespace strata::app {
namespace {

std::string_view env(const char* name) {
    const char* v = std::getenv(name);
    return v ? v : "";
}

// Connects to the X server as Qt's xcb plugin would (libxcb, loaded here only for this):
// why it fails, or nothing when it connects or libxcb is absent (then Qt says so itself).
// A connection that works stays open for the process's life: Xvfb resets now and then a
// connection opened right after another closed (docs/reliability.md), and Qt's own would be
// that one, which it answers by aborting.
std::optional<std::string> xcbProblem(const std::string& display) {
    static std::string answered; // the display a kept connection is open to
    if (!answered.empty() && answered == display) return std::nullopt;
    void* xcb = dlopen("libxcb.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (!xcb) return std::nullopt;
    using Connect = void* (*)(const char*, int*);
    using HasError = int (*)(void*);
    using Disconnect = void (*)(void*);
    auto connect = reinterpret_cast<Connect>(dlsym(xcb, "xcb_connect"));
    auto hasError = reinterpret_cast<HasError>(dlsym(xcb, "xcb_connection_has_error"));
    auto disconnect = reinterpret_cast<Disconnect>(dlsym(xcb, "xcb_disconnect"));
    int error = 0;
    if (connect && hasError && disconnect) {
        void* c = connect(display.c_str(), nullptr); // never null: an error connection at worst
        error = hasError(c);
        if (error == 0) {
            answered = display; // kept open, and libxcb with it
            return std::nullopt;
        }
        disconnect(c);
    }
    dlclose(xcb);
    switch (error) {
    case 0:
        return std::nullopt;
    case 5: // XCB_CONN_CLOSED_PARSE_ERR
        return std::string("DISPLAY is not understood");
    case 6: // XCB_CONN_CLOSED_INVALID_SCREEN
        return std::string("the server has no such screen");
    default: // XCB_CONN_ERROR and the rest: no server there, or it refused us
        return std::string("no X server answers there, or it refused this user");
    }
}

} // namespace

std::optional<std::string> displayProblem() {
    const std::string_view platform = env("QT_QPA_PLATFORM");
    if (!platform.empty() && platform.rfind("xcb", 0) != 0) return std::nullopt; // offscreen, ...
    const std::string display(env("DISPLAY"));
    const bool wayland = !env("WAYLAND_DISPLAY").empty();
    if (display.empty()) {
        if (wayland) return std::nullopt;
        return std::string("no display to open the Strata window on (DISPLAY is not set)");
    }
    const std::optional<std::string> why = xcbProblem(display);
    if (!why || wayland) return std::nullopt; // Qt may take Wayland instead
    return "cannot connect to the X display '" + display + "' (DISPLAY): " + *why;
}

} // namespace strata::app
