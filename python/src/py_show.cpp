#include "py_show.h"

#include <pybind11/stl.h>

#include <QApplication>
#include <QEventLoop>
#include <QLabel>
#include <QPointer>
#include <QSocketNotifier>
#include <QStatusBar>
#include <QSurfaceFormat>
#include <QTimer>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <optional>
#include <tuple>

#include "cluster_progress.h"
#include "display_probe.h"
#include "main_window.h"
#include "py_array.h"
#include "py_dataset.h"
#include "slice_panel.h"
#include "strata/core/contour.h"
#include "strata/core/error.h"
#include "strata/render/vtk_views.h"

namespace py = pybind11;

namespace strata::py {
namespace {

// The one QApplication: Qt's own if there is one, else ours (made once, never destroyed: the
// interpreter may still hold windows at exit).
void ensureApplication() {
    if (QCoreApplication::instance()) {
        STRATA_EXPECTS(qobject_cast<QApplication*>(QCoreApplication::instance()), ValueError,
                       "a QCoreApplication without widgets runs in this process: the Strata window needs a "
                       "QApplication");
        return;
    }
    // Qt would end the process where it cannot reach the display: refused here instead.
    if (const std::optional<std::string> why = app::displayProblem()) STRATA_FAIL(ValueError, *why);
    QSurfaceFormat::setDefaultFormat(glSurfaceFormat());
    if (!qEnvironmentVariableIsSet("QT_QPA_UPDATE_IDLE_TIME")) qputenv("QT_QPA_UPDATE_IDLE_TIME", "0");
    static int argc = 1;
    static char name[] = "strata";
    static char* argv[] = {name, nullptr};
    auto* app = new QApplication(argc, argv);
    QApplication::setOrganizationName("Strata");
    QApplication::setApplicationName("Strata");
    app->setQuitOnLastWindowClosed(false); // Python, not the last window, ends the process
}

// show's vmin and vmax: a fixed colour range when both are given (then nothing of the data is
// read back for the colours or the colour bar), none when neither is.
std::optional<ColourRange> fixedRange(std::optional<double> vmin, std::optional<double> vmax) {
    if (!vmin && !vmax) return std::nullopt;
    STRATA_EXPECTS(vmin && vmax, ValueError, "vmin and vmax go together: give both, or neither");
    STRATA_EXPECTS(std::isfinite(*vmin) && std::isfinite(*vmax) && *vmin < *vmax, ValueError,
                   "vmin (" + std::to_string(*vmin) + ") must be finite and below vmax (" +
                       std::to_string(*vmax) + ")");
    return ColourRange{RangeMode::Fixed, *vmin, *vmax};
}

// Runs Qt's events until `fd` can be read (Python's input is ready): the input hook's body.
void pumpUntilReadable(int fd) {
    if (!QCoreApplication::instance()) return;
    QEventLoop loop;
    QSocketNotifier ready(fd, QSocketNotifier::Read);
    QObject::connect(&ready, &QSocketNotifier::activated, &loop, &QEventLoop::quit);
    loop.exec();
}

int pyosInputHook() { // PyOS_InputHook: called without the GIL while the REPL waits on stdin
    pumpUntilReadable(0);
    return 0;
}

class Window {
public:
    // `stepsAhead` ≥ 0: the steps computed ahead of the one shown (none behind) instead of the
    // window's default, as for data whose every step is a computation on a Dask cluster.
    Window(const HeldDataset& ds, const std::string& title, const std::string& variable,
           std::optional<ColourRange> range, int stepsAhead) {
        ensureApplication();
        window_ = new app::MainWindow;
        ownAhead_ = window_->frameService()->stepsAhead();
        ownBehind_ = window_->frameService()->stepsBehind();
        if (stepsAhead >= 0) window_->frameService()->setPrefetch(stepsAhead, 0);
        window_->setAttribute(Qt::WA_DeleteOnClose);
        frameConnection_ = QObject::connect(window_, &app::MainWindow::frameShown, [this] {
            ++shown_;
            if (onFrame_) {
                ::py::gil_scoped_acquire gil;
                try {
                    (*onFrame_)();
                } catch (::py::error_already_set& e) {
                    e.discard_as_unraisable("strata.View.on_frame callback");
                }
            }
        });
        clusterProgress_ = new app::ClusterProgress(window_->statusBar());
        relay_ = std::make_unique<QObject>();
        window_->show();
        show(ds, title, variable, range);
    }

    // What the Dask computations of the frames say ("computing on Dask (2 workers): 3/13 tasks"),
    // called by Python's threads (with the GIL, as ~Window is: the relay is alive): shown in the
    // status bar from Qt's event loop; empty text clears it.
    void setClusterProgress(const std::string& text, double fraction) {
        QMetaObject::invokeMethod(
            relay_.get(),
            [this, t = QString::fromStdString(text), fraction] {
                if (clusterProgress_) clusterProgress_->setProgress(t, fraction);
            },
            Qt::QueuedConnection);
    }

    // What the status bar says of the cluster, and its bar's fill (-1: a stripe); ("", -1) hidden.
    std::pair<std::string, int> clusterProgress() const {
        alive();
        if (!clusterProgress_ || clusterProgress_->text().isEmpty()) return {std::string(), -1};
        return {clusterProgress_->text().toStdString(), clusterProgress_->percent()};
    }

    void show(const HeldDataset& ds, const std::string& title, const std::string& variable,
              std::optional<ColourRange> range) {
        alive();
        held_ = ds.dataset; // the arrays shown stay alive while the window shows them
        wanted_ = shown_ + 1;
        window_->showDataset(ds.dataset, QString::fromStdString(title), QString::fromStdString(variable),
                             range);
    }

    bool isOpen() const { return !window_.isNull() && window_->isVisible(); }

    // The steps computed around the one shown; -1: the window's own.
    void setPrefetch(int stepsAhead, int stepsBehind) {
        alive();
        window_->frameService()->setPrefetch(stepsAhead < 0 ? ownAhead_ : stepsAhead,
                                             stepsBehind < 0 ? ownBehind_ : stepsBehind);
    }
    std::pair<int, int> prefetch() const {
        alive();
        return {window_->frameService()->stepsAhead(), window_->frameService()->stepsBehind()};
    }

    // Pumps events until the frame of the view last asked for is on the screen; throws with the
    // window's message when the view cannot be shown.
    void waitFrame(double timeoutS) {
        alive();
        if (shown_ >= wanted_) return;
        QEventLoop loop;
        auto c1 = QObject::connect(window_, &app::MainWindow::frameShown, &loop, [&] {
            if (shown_ >= wanted_) loop.quit();
        });
        auto c2 = QObject::connect(window_, &QObject::destroyed, &loop, &QEventLoop::quit);
        QTimer limit;
        limit.setSingleShot(true);
        QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
        limit.start(static_cast<int>(timeoutS * 1000));
        // Errors are shown in the status bar; a dataset that cannot be shown never gets a frame.
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
            if (window_ && !window_->lastError().isEmpty() && shown_ < wanted_) loop.quit();
        });
        poll.start(50);
        {
            ::py::gil_scoped_release nogil;
            loop.exec();
        }
        QObject::disconnect(c1);
        QObject::disconnect(c2);
        alive();
        if (shown_ < wanted_) {
            const QString error = window_->lastError();
            STRATA_EXPECTS(error.isEmpty(), ValueError, "the view cannot be shown: " + error.toStdString());
            STRATA_FAIL(ValueError, "no frame on the screen after " + std::to_string(timeoutS) + " s");
        }
    }

    ExportedArray frame(double timeoutS) {
        waitFrame(timeoutS);
        const DataArray& f = window_->shownFrame();
        return ExportedArray::of(f.variable(), "the frame shown");
    }

    ::py::dict view() const {
        alive();
        const app::ViewSpec& s = window_->view();
        ::py::dict d;
        d["variable"] = s.variable;
        d["x"] = s.xDim;
        d["y"] = s.yDim;
        const ColourRange& r = s.colouring.range;
        d["range"] = r.mode == RangeMode::Fixed
                         ? ::py::make_tuple(std::string(name(r.mode)), r.fixedMin, r.fixedMax)
                         : ::py::make_tuple(std::string(name(r.mode)));
        return d;
    }

    // The decoded value the slider of `dim` shows ("2005-01-16"), and the window's title.
    std::string sliceLabel(const std::string& dim) const {
        alive();
        QLabel* l = window_->slicePanel()->valueLabel(QString::fromStdString(dim));
        STRATA_EXPECTS(l, ValueError, "no slider for dim '" + dim + "'");
        return l->text().toStdString();
    }
    std::string title() const {
        alive();
        return window_->windowTitle().toStdString();
    }

    std::string frameName() const {
        alive();
        return window_->shownFrame().name();
    }

    void close() {
        if (window_) window_->close();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete); // WA_DeleteOnClose
        held_.reset();
        ::py::gil_scoped_acquire gil; // called without it
        onFrame_.reset();
    }

    // Closes the window from Qt's event loop (as the user's close would), not from here.
    void closeLater() {
        if (window_) QMetaObject::invokeMethod(window_, &QWidget::close, Qt::QueuedConnection);
    }

    void waitClosed() {
        while (isOpen()) {
            QEventLoop loop;
            QObject::connect(window_, &QObject::destroyed, &loop, &QEventLoop::quit);
            QTimer check; // a window hidden rather than destroyed
            QObject::connect(&check, &QTimer::timeout, &loop, [&] {
                if (!isOpen()) loop.quit();
            });
            check.start(100);
            {
                ::py::gil_scoped_release nogil;
                loop.exec();
            }
            if (PyErr_CheckSignals() != 0) throw ::py::error_already_set(); // Ctrl+C ends the wait
        }
        held_.reset();
    }

    std::uint64_t framesShown() const { return shown_; }

    // show's contours=: the isolines at these levels (as --contours spells them), or none.
    void setContours(const std::optional<std::string>& levels) {
        alive();
        if (!levels) {
            window_->setContours(false);
            return;
        }
        app::ContourChoice choice = window_->contourChoice();
        choice.levels = parseContourSpec(*levels); // ValueError saying what is wrong
        window_->setContourChoice(choice);
    }
    std::optional<std::string> contours() const {
        alive();
        const auto& c = window_->imageView()->settings().contours;
        return c ? std::optional<std::string>(toString(*c)) : std::nullopt;
    }

    // View.export_movie: the view on the screen as a movie along `dim` (its active slider's when
    // empty), as File ▸ Export Animation… writes it, with the window's progress bar and Cancel.
    ::py::dict exportMovie(const std::string& path, const std::string& dim, double fps,
                           std::optional<std::tuple<qint64, qint64, qint64>> frames,
                           std::optional<std::pair<int, int>> size) {
        alive();
        app::MainWindow::MovieChoice c = window_->defaultMovieChoice();
        if (!dim.empty()) c.dim = QString::fromStdString(dim);
        STRATA_EXPECTS(!c.dim.isEmpty(), ValueError,
                       "export_movie: the view has no dim to step through (one neither on x nor on y, "
                       "nor reduced)");
        c.fps = fps;
        if (frames) std::tie(c.start, c.stop, c.step) = *frames;
        if (size) {
            STRATA_EXPECTS(size->first >= 16 && size->first <= 16384 && size->second >= 16 &&
                               size->second <= 16384,
                           ValueError,
                           "size takes (width, height) with each between 16 and 16384, not (" +
                               std::to_string(size->first) + ", " + std::to_string(size->second) + ")");
            c.size = QSize(size->first, size->second);
        }
        app::MovieResult r;
        {
            ::py::gil_scoped_release nogil; // the window answers while the frames are written
            r = window_->writeMovie(QString::fromStdString(path), c);
        }
        ::py::dict d;
        d["path"] = r.path;
        d["frames"] = r.frames;
        d["size"] = ::py::make_tuple(r.width, r.height);
        d["encoder"] = r.encoder;
        d["encoder_note"] = r.encoderNote;
        d["bytes_from_device"] = r.bytesFromDevice;
        return d;
    }

    // Called (with the GIL) after each frame is on the screen; None: no call.
    void setOnFrame(::py::object f) {
        if (!f.is_none()) alive(); // a closed window would never call it
        if (f.is_none())
            onFrame_.reset();
        else
            onFrame_ = std::make_shared<::py::object>(std::move(f));
    }

    // The window stays open (it holds its own Dataset) when Python drops its handle.
    ~Window() {
        QObject::disconnect(frameConnection_);
        ::py::gil_scoped_acquire gil;
        relay_.reset(); // its queued calls go with it (Python's threads call it with the GIL)
        onFrame_.reset();
    }
    Window(const Window&) = delete;
    Window& operator=(const Window&) = delete;

private:
    void alive() const {
        STRATA_EXPECTS(!window_.isNull(), ValueError,
                       "the Strata window was closed (strata.show opens another)");
    }

    QPointer<app::MainWindow> window_;
    QPointer<app::ClusterProgress> clusterProgress_; // the window's child
    std::unique_ptr<QObject> relay_;                 // the GUI thread's, for setClusterProgress
    std::shared_ptr<const Dataset> held_;
    std::shared_ptr<::py::object> onFrame_;
    QMetaObject::Connection frameConnection_;
    std::uint64_t shown_ = 0, wanted_ = 0;
    int ownAhead_ = 0, ownBehind_ = 0; // the window's own steps ahead and behind
};

} // namespace

void bindShow(::py::module_& m) {
    ::py::class_<Window>(m, "_Window")
        // Without the GIL where Qt may wait on the frame workers, which may drop the last view
        // of a borrowed array (and take the GIL to release its producer).
        .def(::py::init([](const HeldDataset& ds, const std::string& title, const std::string& variable,
                           std::optional<double> vmin, std::optional<double> vmax, int stepsAhead) {
                 const std::optional<ColourRange> range = fixedRange(vmin, vmax); // before the window
                 ::py::gil_scoped_release nogil;
                 return std::make_unique<Window>(ds, title, variable, range, stepsAhead);
             }),
             ::py::arg("dataset"), ::py::arg("title"), ::py::arg("variable"),
             ::py::arg("vmin") = ::py::none(), ::py::arg("vmax") = ::py::none(),
             ::py::arg("steps_ahead") = -1)
        .def(
            "set_prefetch",
            [](Window& w, int stepsAhead, int stepsBehind) { w.setPrefetch(stepsAhead, stepsBehind); },
            ::py::arg("steps_ahead"), ::py::arg("steps_behind"))
        .def_property_readonly("prefetch", &Window::prefetch)
        .def(
            "show",
            [](Window& w, const HeldDataset& ds, const std::string& title, const std::string& variable,
               std::optional<double> vmin, std::optional<double> vmax) {
                const std::optional<ColourRange> range = fixedRange(vmin, vmax);
                ::py::gil_scoped_release nogil;
                w.show(ds, title, variable, range);
            },
            ::py::arg("dataset"), ::py::arg("title"), ::py::arg("variable"), ::py::arg("vmin") = ::py::none(),
            ::py::arg("vmax") = ::py::none())
        .def("frame", &Window::frame, ::py::arg("timeout") = 60.0)
        .def("wait_frame", &Window::waitFrame, ::py::arg("timeout") = 60.0)
        .def_property_readonly("view", &Window::view)
        .def_property_readonly("frame_name", &Window::frameName)
        .def_property_readonly("title", &Window::title)
        .def("slice_label", &Window::sliceLabel, ::py::arg("dim"))
        .def_property_readonly("is_open", &Window::isOpen)
        .def_property_readonly("frames_shown", &Window::framesShown)
        .def("set_contours", &Window::setContours, ::py::arg("levels"))
        .def_property_readonly("contours", &Window::contours)
        .def("set_on_frame", &Window::setOnFrame, ::py::arg("callback"))
        .def("set_cluster_progress", &Window::setClusterProgress, ::py::arg("text"), ::py::arg("fraction"))
        .def_property_readonly("cluster_progress", &Window::clusterProgress)
        .def("export_movie", &Window::exportMovie, ::py::arg("path"), ::py::arg("dim") = "",
             ::py::arg("fps") = 10.0, ::py::arg("frames") = ::py::none(), ::py::arg("size") = ::py::none())
        .def("close", &Window::close, ::py::call_guard<::py::gil_scoped_release>())
        .def("close_later", &Window::closeLater)
        .def("wait_closed", &Window::waitClosed);
    m.def(
        "_pump_until_readable",
        [](int fd) {
            ::py::gil_scoped_release nogil;
            pumpUntilReadable(fd);
        },
        ::py::arg("fd"), "Runs Qt's events until `fd` can be read: the body of an input hook.");
    m.def("_process_events", [] {
        ::py::gil_scoped_release nogil;
        if (QCoreApplication::instance()) QCoreApplication::processEvents();
    });
    m.def(
        "_install_pyos_input_hook",
        [] {
            if (!PyOS_InputHook) PyOS_InputHook = pyosInputHook;
            return PyOS_InputHook == pyosInputHook;
        },
        "Keeps the window live while Python's own prompt waits (not IPython's: see strata.show)");
}

} // namespace strata::py
