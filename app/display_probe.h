#pragma once
// Whether a window can be opened: Qt's platform plugin ends the process (qFatal) when it cannot
// reach the display, so the window's callers ask first and refuse with the reason instead.
#include <optional>
#include <string>

namespace strata::app {

// Why no window can be opened here ("no display ...", "cannot connect to the X display ':9'
// ..."), or nothing when Qt may try: QT_QPA_PLATFORM names another platform, Wayland's socket
// is named, or the X server named by DISPLAY accepts a connection.
std::optional<std::string> displayProblem();

} // namespace strata::app
