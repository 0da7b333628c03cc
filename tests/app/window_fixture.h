#pragma once
// The window the app tests drive: one per test class, with Qt's test-mode settings cleared, at
// 1300 × 850; and a file opened in it, waited for until its first frame is shown.
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
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
    // Exposed (its GL set up, its drivers loaded) before a file is opened. The first open of a
    // fresh window that did not wait timed out twice (tst_exportview, the one class that did
    // not). The likely cause: the open forks a child to read the file, and a fork while another
    // thread holds a lock (the dynamic loader's, loading the GL driver) leaves the child
    // waiting on it until the 10 s limit.
    if (!QTest::qWaitForWindowExposed(w.get()))
        qWarning("makeTestWindow: the window was not exposed in time");
    return w;
}

// Opens `path` and waits (up to 20 s) for a frame of it to be shown.
inline bool openAndShow(strata::app::MainWindow& w, const QString& path) {
    QSignalSpy shown(&w, &strata::app::MainWindow::frameShown);
    w.openFile(path);
    return shown.wait(20000) || shown.count() > 0;
}

} // namespace test
