// paint_probe: where a step of the window's time goes, piece by piece, on one file. It shows an
// ImageView alone in a top-level window sized so that the frame is drawn at one pixel per
// cell (or at --size), steps through the first dim, and times per step:
//   compute   computeFrame on the compute device (the frame service's work)
//   colour    colourFrame on the host (what the frame service's worker does ahead)
//   paint     the view's raster paint (colour map when not done ahead, the frame's pixels,
//             annotations); with --gl nothing (the GL window draws: all of it is "present");
//             --bare: the QOpenGLWidget's paintGL
//   present   its end -> presented (the backing store's flush; with --gl VTK's render and the
//             swap of the view's own GL window; --bare: Qt's composition of the window and the
//             swap)
//   total     setFrame -> presented
// medians and p90 over --steps steps. Not a test; for bench/RESULTS.md.
//
//   DISPLAY=:78 paint_probe FILE [--steps N] [--size WxH] [--variable air] [--gl] [--bare]
// --gl: host frames through GL too (ImagePresentation::Gl), as the view drew them before it
// painted host frames itself;
// --bare: a QOpenGLWidget that only clears, for the cost of Qt's composition and the swap;
// --bare-window: a QOpenGLWindow that only clears (no composition: the swap alone);
// --scene-window: the image view's scene drawn in a QOpenGLWindow (prepare, render, present);
// --no-pool: the host buffers' free list off (every buffer fresh memory).
#include <QApplication>
#include <QElapsedTimer>
#include <QOpenGLWidget>
#include <QOpenGLWindow>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <GL/gl.h>
#include <vtkCallbackCommand.h>
#include <vtkCommand.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>

#include "host_pool.h"   // core/src: the host buffers' free list
#include "image_scene.h" // render/src: the scene the image view draws

#include "frame_service.h"
#include "strata/core/ops.h"
#include "strata/core/runtime.h"
#include "strata/io/netcdf.h"
#include "strata/render/colormaps.h"
#include "strata/render/image_view.h"
#include "strata/render/vtk_views.h"

namespace {

double nowMs() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The image view as the window has it, its raster paint timed (through GL it paints nothing:
// its GL window draws).
class TimedView : public strata::ImageView {
public:
    using ImageView::ImageView;
    double paintStart = 0, paintEnd = 0;

protected:
    void paintEvent(QPaintEvent* e) override {
        paintStart = nowMs();
        ImageView::paintEvent(e);
        paintEnd = nowMs();
    }
};

// A bare QOpenGLWidget that only clears: what Qt's composition and the swap cost by themselves.
class BareView : public QOpenGLWidget {
public:
    double paintStart = 0, paintEnd = 0;

protected:
    void paintGL() override {
        paintStart = nowMs();
        glClearColor(0.5f, 0.2f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glFinish();
        paintEnd = nowMs();
    }
};

// The same clear in a window of its own (no composition into a widget tree): the swap alone.
class BareWindow : public QOpenGLWindow {
public:
    double paintStart = 0, paintEnd = 0;

protected:
    void paintGL() override {
        paintStart = nowMs();
        glClearColor(0.5f, 0.2f, 0.1f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glFinish();
        paintEnd = nowMs();
    }
};

// The image view's scene drawn in a window of its own (a QOpenGLWindow, no composition), with
// VTK driven as VtkGlWidget drives it; each phase glFinish'ed so that it can be timed.
class SceneWindow : public QOpenGLWindow {
public:
    SceneWindow() {
        window_->SetOwnContext(false);
        window_->SetFrameBlitModeToBlitToCurrent();
        if (qEnvironmentVariableIsSet("PROBE_NOBLIT")) window_->SetFrameBlitModeToNoBlit();
        window_->SetReadyForRendering(false);
        window_->SetMultiSamples(0);
        cb_->SetClientData(this);
        cb_->SetCallback([](vtkObject*, unsigned long event, void* client, void* data) {
            auto* self = static_cast<SceneWindow*>(client);
            if (event == vtkCommand::WindowMakeCurrentEvent) self->makeCurrent();
            if (event == vtkCommand::WindowIsCurrentEvent)
                *static_cast<bool*>(data) = QOpenGLContext::currentContext() == self->context();
            if (event == vtkCommand::WindowSupportsOpenGLEvent || event == vtkCommand::WindowIsDirectEvent)
                *static_cast<int*>(data) = 1;
        });
        for (auto e : {vtkCommand::WindowMakeCurrentEvent, vtkCommand::WindowIsCurrentEvent,
                       vtkCommand::WindowSupportsOpenGLEvent, vtkCommand::WindowIsDirectEvent})
            window_->AddObserver(e, cb_);
        scene_.attach(window_);
    }
    void setFrame(strata::ImageFrame f) {
        scene_.setFrame(std::move(f));
        update();
    }
    double paintStart = 0, prepared = 0, rendered = 0, paintEnd = 0;

protected:
    void initializeGL() override {
        window_->SetIsCurrent(true);
        window_->OpenGLInitContext();
    }
    void paintGL() override {
        paintStart = nowMs();
        const int w = width(), h = height();
        if (window_->GetSize()[0] != w || window_->GetSize()[1] != h) window_->SetSize(w, h);
        vtkOpenGLState* state = window_->GetState();
        state->Reset();
        state->Push();
        state->vtkglDepthFunc(GL_LEQUAL);
        scene_.prepare(w, h, 1.0);
        glFinish();
        prepared = nowMs();
        window_->SetReadyForRendering(true);
        window_->Render();
        window_->SetReadyForRendering(false);
        state->Pop();
        glFinish();
        rendered = paintEnd = nowMs();
    }

private:
    vtkNew<vtkGenericOpenGLRenderWindow> window_;
    vtkNew<vtkCallbackCommand> cb_;
    strata::detail::ImageScene scene_;
};

struct Stats {
    std::map<std::string, std::vector<double>> v;
    void add(const std::string& k, double ms) { v[k].push_back(ms); }
    void print() const {
        for (const auto& [k, xs] : v) {
            std::vector<double> s = xs;
            std::sort(s.begin(), s.end());
            if (s.empty()) continue;
            std::printf("%-8s median %7.2f ms  p90 %7.2f ms  (n=%zu)\n", k.c_str(), s[s.size() / 2],
                        s[std::min(s.size() - 1, s.size() * 9 / 10)], s.size());
        }
    }
};

} // namespace

int main(int argc, char** argv) {
    QSurfaceFormat::setDefaultFormat(strata::glSurfaceFormat());
    QApplication app(argc, argv);
    std::string file, variable = "air";
    int steps = 60, width = 0, height = 0;
    bool bare = false, bareWindow = false, sceneWindow = false, gl = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--steps" && i + 1 < argc) {
            steps = std::stoi(argv[++i]);
        } else if (a == "--size" && i + 1 < argc) {
            std::sscanf(argv[++i], "%dx%d", &width, &height);
        } else if (a == "--no-pool") { // fresh host memory for every buffer, as before the pool
            strata::detail::HostPoolLimits none;
            none.maxBytes = 0;
            none.maxBlocks = 0;
            strata::detail::setHostPoolLimits(none);
        } else if (a == "--scene-window") {
            sceneWindow = true;
        } else if (a == "--bare-window") {
            bareWindow = true;
        } else if (a == "--bare") {
            bare = true;
        } else if (a == "--gl") {
            gl = true;
        } else if (a == "--variable" && i + 1 < argc) {
            variable = argv[++i];
        } else {
            file = a;
        }
    }
    if (file.empty()) {
        std::fprintf(stderr, "usage: paint_probe FILE [--steps N] [--size WxH] [--variable V]\n");
        return 2;
    }
    const strata::Dataset ds = strata::openDataset(file);
    const strata::DataArray var = ds[variable];
    const std::string tDim = var.dims()[0];
    const std::int64_t ny = var.sizeOf(var.dims()[1]), nx = var.sizeOf(var.dims()[2]);
    // The scene's margins (view_layout.cpp): 84 + 118 px across, 58 + 40 px down.
    if (width == 0) width = int(nx) + 84 + 118;
    if (height == 0) height = int(ny) + 58 + 40;

    if (bareWindow) {
        BareWindow w;
        w.resize(width, height);
        w.show();
        Stats stats;
        int step = 0;
        double requested = 0;
        QObject::connect(&w, &QOpenGLWindow::frameSwapped, &w, [&] {
            const double t = nowMs();
            if (requested > 0 && step > 0) {
                stats.add("paint", w.paintEnd - w.paintStart);
                stats.add("present", t - w.paintEnd);
                stats.add("total", t - requested);
            }
            if (++step > steps) {
                std::printf("QOpenGLWindow clear only, %dx%d\n", width, height);
                stats.print();
                app.quit();
                return;
            }
            QTimer::singleShot(20, &w, [&] {
                requested = nowMs();
                w.update();
            });
        });
        return app.exec();
    }
    if (sceneWindow) {
        SceneWindow w;
        w.resize(width, height);
        w.show();
        Stats stats;
        int step = 0;
        double requested = 0;
        const strata::Device device = strata::computeDevice();
        auto next = [&] {
            strata::app::ViewSpec spec;
            spec.file = file;
            spec.variable = variable;
            spec.xDim = var.dims()[2];
            spec.yDim = var.dims()[1];
            spec.indices = {{tDim, step % var.sizeOf(tDim)}};
            strata::FallbackNote note;
            strata::DataArray frame = strata::computeFrame(var, spec, device, note);
            requested = nowMs();
            w.setFrame(strata::ImageFrame{frame, {}, {}, nullptr, {}});
        };
        QObject::connect(&w, &QOpenGLWindow::frameSwapped, &w, [&] {
            const double t = nowMs();
            if (requested == 0) return;
            if (step > 0) {
                stats.add("prepare", w.prepared - w.paintStart);
                stats.add("render", w.rendered - w.prepared);
                stats.add("present", t - w.paintEnd);
                stats.add("total", t - requested);
            }
            requested = 0;
            if (++step > steps) {
                std::printf("ImageScene in a QOpenGLWindow, %dx%d\n", width, height);
                stats.print();
                app.quit();
                return;
            }
            QTimer::singleShot(20, &w, next);
        });
        QTimer::singleShot(500, &w, next);
        return app.exec();
    }
    TimedView timed;
    if (gl) timed.setPresentation(strata::ImagePresentation::Gl);
    BareView plain;
    QWidget& view = bare ? static_cast<QWidget&>(plain) : timed;
    const double& paintStart = bare ? plain.paintStart : timed.paintStart;
    const double& paintEnd = bare ? plain.paintEnd : timed.paintEnd;
    view.resize(width, height);
    view.show();
    Stats stats;
    int step = 0;
    double requested = 0;
    const strata::Device device = strata::computeDevice();
    auto next = [&] {
        strata::app::ViewSpec spec;
        spec.file = file;
        spec.variable = variable;
        spec.xDim = var.dims()[2];
        spec.yDim = var.dims()[1];
        spec.indices = {{tDim, step % var.sizeOf(tDim)}};
        strata::FallbackNote note;
        const double t0 = nowMs();
        strata::DataArray frame = strata::computeFrame(var, spec, device, note);
        const double t1 = nowMs();
        // The colours, as the frame service's worker makes them ahead for host frames.
        std::shared_ptr<const strata::ColouredFrame> coloured;
        if (frame.device().isHost())
            coloured = std::make_shared<const strata::ColouredFrame>(strata::colourFrame(
                frame, timed.settings().colouring, std::nullopt, strata::kWindowPixelOrder));
        const double t2 = nowMs();
        if (step > 0) {
            stats.add("compute", t1 - t0);
            stats.add("colour", t2 - t1);
        }
        requested = nowMs();
        if (bare)
            plain.update();
        else
            timed.setFrame(strata::ImageFrame{frame, {}, {}, coloured, {}});
    };
    auto presented = [&] {
        const double t = nowMs();
        if (requested == 0) return;
        if (step > 0) { // the first frame pays for shader compilation
            if (!gl) {  // through GL the view itself paints nothing: only the total means anything
                stats.add("paint", paintEnd - paintStart);
                stats.add("present", t - paintEnd);
            }
            stats.add("total", t - requested);
        }
        requested = 0;
        if (++step > steps) {
            std::printf("%s, view %dx%d, frame %lldx%lld\n", file.c_str(), width, height,
                        static_cast<long long>(nx), static_cast<long long>(ny));
            stats.print();
            app.quit();
            return;
        }
        QTimer::singleShot(20, &view, next);
    };
    QObject::connect(&plain, &QOpenGLWidget::frameSwapped, &view, presented);
    QObject::connect(&timed, &strata::ImageView::presented, &view, presented);
    QTimer::singleShot(500, &view, next);
    return app.exec();
}
