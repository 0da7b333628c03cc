// strata: the window, or, with --info or --export-*, the headless command line.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "batch.h"
#include "cli.h"
#include "strata/core/runtime.h"
#include "strata/core/settings.h"
#include "strata/core/startup_trace.h"
#include "strata/core/units.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"

#if STRATA_HAVE_GUI
#include <QApplication>
#include <QFileInfo>
#include <QSurfaceFormat>
#include <QTimer>
#include <optional>
#include <thread>

#include "display_probe.h"
#include "main_window.h"
#include "strata/render/coastline_status.h"
#include "strata/render/vtk_views.h"
#endif

#ifndef STRATA_SAMPLE
#define STRATA_SAMPLE "resources/sample/tas_rectilinear_grid_2D.nc"
#endif

namespace {

#if STRATA_HAVE_GUI
// True when the command line asks for a particular view (not only a file).
bool asksForView(const strata::app::CliOptions& o) {
    return !o.variable.empty() || !o.xDim.empty() || !o.yDim.empty() || !o.isel.empty() || !o.sel.empty() ||
           !o.reduce.empty() || o.colormap != "viridis" || o.range != "frame" || !o.vectors.empty() ||
           !o.contourVariable.empty();
}

// The view the command line asks the window for: its frame, and the overlays the window keeps in
// the view (a vector pair, another variable's isolines).
strata::app::ViewSpec windowView(const strata::app::CliOptions& o, const strata::Dataset& ds,
                                 const strata::Dataset* grid) {
    strata::app::ViewSpec v = strata::app::resolveView(o, ds, grid);
    if (!o.vectors.empty()) v.vectors = strata::parseVectorStyle(o.vectors); // checked by the parser
    if (const auto comma = o.uv.find(','); comma != std::string::npos) {
        v.vectorU = o.uv.substr(0, comma);
        v.vectorV = o.uv.substr(comma + 1);
    }
    v.contourVariable = o.contourVariable;
    return v;
}

int runWindow(int argc, char** argv, const strata::app::CliOptions& options) {
    using namespace strata::app;
    if (const std::optional<std::string> why = displayProblem()) { // Qt would abort instead
        std::fprintf(stderr, "strata: %s; --info and --export-png/--export-csv work without one\n",
                     why->c_str());
        return 1;
    }
    // The command line's file is checked in a child process while Qt starts and the window is
    // built, on the other core; the open below then takes the child's answer.
    if (options.files.size() <= 1)
        strata::io::beginCheckInChildProcess(options.files.empty() ? options.file : options.files[0]);
    // Meanwhile, on another thread: udunits2's database, which the first view's units button
    // reads (4-5 ms), and the crude coastlines, which the window checks as it is built (the first
    // netCDF-C open in this process: 8-9 ms).
    // And the compute device: on a GPU, the CUDA driver's start (about 200 ms on an H100), which
    // the first frame's computation needs but the window does not wait for.
    const std::jthread device([] { (void)strata::computeInfo(); });
    const std::jthread early([coastlines = options.coastlines] {
        strata::loadUnitDatabase();
        if (coastlines) (void)strata::coastlineProblem();
    });
    QSurfaceFormat::setDefaultFormat(strata::glSurfaceFormat());
    // A window asks for a repaint with QWindow::requestUpdate, which Qt delivers after an idle
    // timer of 5 ms by default: 5 ms added to every step. 0 delivers it at the next turn of the
    // event loop (requests before it are still merged into one paint).
    if (!qEnvironmentVariableIsSet("QT_QPA_UPDATE_IDLE_TIME")) qputenv("QT_QPA_UPDATE_IDLE_TIME", "0");
    QApplication app(argc, argv);
    strata::startup::mark(strata::startup::Milestone::Application);
    QApplication::setOrganizationName("Strata");
    QApplication::setApplicationName("Strata");
    QApplication::setApplicationVersion(STRATA_VERSION);
    MainWindow window;
    strata::startup::mark(strata::startup::Milestone::Window);
    window.setVerbose(options.verbose);
    if (options.gl) window.imageView()->setPresentation(strata::ImagePresentation::Gl);
    if (!options.coastlines) window.setCoastlines(false);
    if (!options.lonLatGrid) window.setGridSpace(strata::GridSpace::Index);
    if (!options.projection.empty()) window.setProjection(QString::fromStdString(options.projection));
    if (!options.derive.empty() || !options.with.empty()) {
        try { // the --with datasets open here; the --derive variables join the file once it is open
            std::vector<strata::DatasetAlias> others;
            for (const auto& [alias, path] : options.with) {
                strata::OpenNotes notes;
                others.push_back(
                    {alias, std::make_shared<const strata::Dataset>(strata::io::openPaths({path}, notes))});
            }
            window.setInitialDerived(options.derive, std::move(others));
        } catch (const strata::Error& e) {
            std::fprintf(stderr, "strata: %s\n", e.what());
            return 1;
        }
    }
    // Isolines (--contours, or auto for --contour-var) and filled contours, as the window keeps
    // them: in the image view, whatever the file.
    if (!options.contours.empty() || !options.contourVariable.empty() || options.filled) {
        ContourChoice choice;
        if (!options.contours.empty()) choice.levels = strata::parseContourSpec(options.contours);
        if (!options.contours.empty() || !options.contourVariable.empty()) window.setContourChoice(choice);
        if (options.filled) window.setFilledContours(true);
    }
    std::shared_ptr<const strata::Dataset> grid;
    try { // a mesh's geometry from another file
        grid = strata::app::openGridFile(options);
    } catch (const strata::Error& e) {
        std::fprintf(stderr, "strata: --grid-file: %s\n", e.what());
        return 1;
    }
    window.setGridFile(grid);
    if (asksForView(options))
        window.setInitialView(
            [options, grid](const strata::Dataset& ds) { return windowView(options, ds, grid.get()); });
    QStringList files; // several, a glob or a directory: one dataset
    for (const std::string& f :
         options.files.empty() ? std::vector<std::string>{options.file} : options.files)
        files << QString::fromStdString(f);
    window.openFiles(files); // on the opener's thread while the window is shown
    window.show();
    // For scripts that run the window under a tool that reports when it exits (a sanitizer).
    if (const int ms = strata::settings::quitAfterMs(); ms > 0)
        QTimer::singleShot(ms, &app, &QApplication::quit);
    return app.exec();
}
#endif

} // namespace

int main(int argc, char** argv) {
    using namespace strata::app;
    strata::startup::mark(strata::startup::Milestone::ProcessStart); // STRATA_TRACE_STARTUP
    strata::startup::mark(strata::startup::Milestone::Main);
    CliOptions options;
    try {
        options = parseCommandLine(std::vector<std::string>(argv + 1, argv + argc));
    } catch (const UsageError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    }
    if (options.help) {
        std::fputs(helpText().c_str(), stdout);
        return 0;
    }
    if (options.listColormaps) {
        std::printf("%s\n", colormapList("\n").c_str());
        return 0;
    }
    if (options.version) {
        std::printf("strata %s\n", STRATA_VERSION);
        return 0;
    }
    strata::settings::checkAll(); // a bad STRATA_* value is reported now, once, and not fatal
    if (options.cpu) strata::forceCpu(true);
    if (options.file.empty()) options.file = STRATA_SAMPLE;
    if (options.info || options.batch()) return runBatch(options);
#if STRATA_HAVE_GUI
    return runWindow(argc, argv, options);
#else
    options.info = true; // a build without the GUI prints what the window would show
    const int status = runBatch(options);
    if (status == 0) {
        const auto& info = strata::computeInfo();
        std::printf("Compute: %s (%s)\n", info.name.c_str(), info.reason.c_str());
    }
    return status;
#endif
}
