#pragma once
// What the window tests check a window against: frames computed by the core on the host, a
// difference that names the first differing value, a mouse drag, and a test case's window with
// its waits (opened file, settled frame, idle frame service).
#include <QApplication>
#include <QFileInfo>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QtTest>
#include <cmath>

#include "main_window.h"
#include "view_roles.h"
#include "view_spec.h"
#include "window_fixture.h"

namespace test {

using strata::DataArray;
using strata::Device;
using strata::Stream;
using strata::app::FrameService;
using strata::app::MainWindow;
using strata::app::ViewSpec;

// The values of two arrays, on the host, NaN equal to NaN; the reason they differ, or empty.
inline QString difference(const DataArray& shown, const DataArray& expected) {
    if (shown.dims() != expected.dims()) {
        QStringList a, b;
        for (const auto& d : shown.dims()) a << QString::fromStdString(d);
        for (const auto& d : expected.dims()) b << QString::fromStdString(d);
        return "dims (" + a.join(",") + ") != (" + b.join(",") + ")";
    }
    if (shown.shape() != expected.shape()) return "shapes differ";
    const auto x = shown.asHost().values<double>(), y = expected.asHost().values<double>();
    for (std::size_t i = 0; i < x.size(); ++i)
        if (!(x[i] == y[i] || (std::isnan(x[i]) && std::isnan(y[i]))))
            return QString("value %1: %2 != %3").arg(i).arg(x[i]).arg(y[i]);
    return {};
}

inline DataArray coreFrame(const MainWindow& w, const ViewSpec& spec) {
    return strata::computeView(strata::app::variableOf(*w.dataset(), spec.variable), spec, Device::host(),
                               Stream::host());
}

// A drag with the mouse: press on the chip, moves (with the button held) to the middle of
// `target`, release there. Events go to the chip, which holds the mouse while it is down.
inline void drag(QWidget* chip, QWidget* target) {
    const QPoint start = chip->rect().center();
    const QPoint from = chip->mapToGlobal(start), to = target->mapToGlobal(target->rect().center());
    QTest::mousePress(chip, Qt::LeftButton, Qt::NoModifier, start);
    for (int i = 1; i <= 6; ++i) {
        const QPoint g = from + (to - from) * i / 6;
        QMouseEvent move(QEvent::MouseMove, chip->mapFromGlobal(g), g, Qt::NoButton, Qt::LeftButton,
                         Qt::NoModifier);
        QApplication::sendEvent(chip, &move);
    }
    QTest::mouseRelease(chip, Qt::LeftButton, Qt::NoModifier, chip->mapFromGlobal(to));
}

// A test case's window: opened files, frames settled, and the frame service left idle.
class WindowCase {
protected:
    std::unique_ptr<MainWindow> w_;

    // Opens `path` and waits for its first frame.
    bool open(const QString& path) { return test::openAndShow(*w_, path); }
    // The file open (opening it when another is), so that each test stands alone.
    bool ensure(const QString& path) {
        if (w_->dataset() && QFileInfo(QString::fromStdString(w_->dataset()->path)) == QFileInfo(path))
            return true;
        return open(path);
    }
    // Waits until the frame of the current view is shown (a newer request may be on its way).
    bool settle() {
        QSignalSpy shown(w_.get(), &MainWindow::frameShown);
        for (int i = 0; i < 200; ++i) {
            if (!w_->frameService()->busy() && shown.count() > 0) return true;
            if (!w_->frameService()->busy() && w_->shownFrame().ndim() > 0 &&
                difference(w_->shownFrame(), coreFrame(*w_, w_->view())).isEmpty())
                return true;
            QTest::qWait(25);
        }
        return false;
    }
    // Waits until the frame service does nothing more on its own (FrameService::isIdle).
    bool serviceIdle() {
        FrameService* service = w_->frameService();
        QSignalSpy idle(service, &FrameService::idle);
        while (!service->isIdle())
            if (!idle.wait(20000)) return service->isIdle();
        return true;
    }
    void verifyShown() {
        QVERIFY(settle());
        const QString why = difference(w_->shownFrame(), coreFrame(*w_, w_->view()));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

} // namespace test
