#pragma once
// The window the app tests drive: one per test class, with Qt's test-mode settings cleared, at
// 1300 × 850; and a file opened in it, waited for until its first frame is shown.
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <memory>

#include "main_window.h"

namespace test {

// `application` names the settings, so that test classes do not share them.
inline std::unique_ptr<strata::app::MainWindow> makeTestWindow(const char* application) {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("StrataTest");
    QCoreApplication::setApplicationName(application);
    QSettings().clear();
    auto w = std::make_unique<strata::app::MainWindow>();
    w->resize(1300, 850);
    w->show();
    return w;
}

// Opens `path` and waits (up to 20 s) for a frame of it to be shown.
inline bool openAndShow(strata::app::MainWindow& w, const QString& path) {
    QSignalSpy shown(&w, &strata::app::MainWindow::frameShown);
    w.openFile(path);
    return shown.wait(20000) || shown.count() > 0;
}

} // namespace test
