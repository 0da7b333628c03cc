#pragma once
// What the window tests check a window against: frames read with netCDF-C and sliced and reduced
// by plain loops (nc_frame.h), apart from Strata; frames computed by the core on the host, as a
// second check; a difference that names the first differing value, the extremes of values by a
// plain loop, a mouse drag, the coastlines switched off for a scope, and a test case's window
// with its waits (opened file, settled frame, idle frame service).
#include <QAction>
#include <QApplication>
#include <QFileInfo>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "main_window.h"
#include "nc_frame.h"
#include "strata/core/ops.h"
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

// The values shown against an oracle's, to a relative 1e-5 (the frame may be float32, reduced
// in float32; the oracle reduces in double); the reason they differ, or empty.
inline QString difference(const DataArray& shown, const nctest::NdValues& expected) {
    std::vector<std::size_t> shape;
    for (auto n : shown.shape()) shape.push_back(std::size_t(n));
    if (shown.dims() != expected.dims || shape != expected.shape)
        return "dims or shape differ from the oracle's";
    const auto x = shown.asHost().values<double>();
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double e = expected.values[i];
        if (std::isnan(x[i]) != std::isnan(e) ||
            (!std::isnan(e) && std::fabs(x[i] - e) > 1e-5 * std::max(1.0, std::fabs(e))))
            return QString("value %1: %2, netCDF-C and a plain loop give %3")
                .arg(i)
                .arg(x[i], 0, 'g', 9)
                .arg(e, 0, 'g', 9);
    }
    return {};
}

// The least and greatest of `v`, NaN skipped, by a plain loop.
inline strata::MinMax extremes(const std::vector<float>& v) {
    strata::MinMax m{INFINITY, -INFINITY};
    for (float x : v)
        if (!std::isnan(x)) m = {std::min<double>(m.first, x), std::max<double>(m.second, x)};
    return m;
}

// The view's frame from netCDF-C and plain loops (nc_frame.h), or nullopt where that oracle does
// not reach: a variable the file does not hold (a derived one), a file set, cell areas from
// cell_measures or a change of units.
inline std::optional<nctest::NdValues> oracleFrame(const MainWindow& w, const ViewSpec& spec) {
    if (!w.dataset() || !spec.files.empty() || !spec.units.empty()) return std::nullopt;
    std::vector<std::pair<std::string, std::string>> reductions;
    for (const auto& [dim, op] : spec.reductions) reductions.emplace_back(dim, std::string(strata::name(op)));
    return nctest::frameOf(w.dataset()->path, spec.variable, spec.xDim, spec.yDim, spec.indices, reductions,
                           spec.areaWeighted);
}

// Whether the file itself holds the view's variable (it is not a derived one).
inline bool inFile(const MainWindow& w, const ViewSpec& spec) {
    return w.dataset() && nctest::readDecoded(w.dataset()->path, spec.variable).has_value();
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

// View ▸ Coastlines switched off for a scope (their ink covers cells), and back on at its end
// however the scope is left, so that a failure leaves them as the next test expects.
class CoastlinesOff {
public:
    explicit CoastlinesOff(MainWindow& w) : action_(w.findChild<QAction*>("coastlinesAction")) {
        if (action_ && action_->isChecked()) action_->trigger();
    }
    ~CoastlinesOff() {
        if (action_ && !action_->isChecked()) action_->trigger();
    }
    bool ok() const { return action_ && !action_->isChecked(); }
    CoastlinesOff(const CoastlinesOff&) = delete;
    CoastlinesOff& operator=(const CoastlinesOff&) = delete;

private:
    QAction* action_;
};

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
    // The frame shown is the view's: against netCDF-C and plain loops wherever the view is of a
    // variable in the file (a view of one the oracle does not reach fails), and against the core.
    // A derived variable's frame is checked against the core only here; its tests compute its
    // values themselves.
    void verifyShown() {
        QVERIFY(settle());
        const ViewSpec& view = w_->view();
        if (inFile(*w_, view)) {
            const auto expected = oracleFrame(*w_, view);
            QVERIFY2(expected, "no netCDF-C oracle for this view (a file set, cell areas or units)");
            const QString why = difference(w_->shownFrame(), *expected);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }
        const QString why = difference(w_->shownFrame(), coreFrame(*w_, view));
        QVERIFY2(why.isEmpty(), qPrintable(why));
    }
};

} // namespace test
