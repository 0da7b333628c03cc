#include "export_view.h"
#include "pyramid_view.h"

#include <algorithm>

#include "strata/core/area.h"
#include "strata/core/atomic_file.h"
#include "strata/core/colour_range.h"
#include "strata/core/runtime.h"
#include "strata/core/streaming.h"
#include "strata/core/transfer.h"
#include "strata/core/units.h"
#include "strata/io/csv.h"
#include "strata/io/geo.h"
#include "view_roles.h"

#if STRATA_HAVE_RENDER

#include "export_scene.h"
#include "movie_writer.h"
#include "strata/render/coastline_status.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/frame_labels.h"
#include "strata/render/image_export.h"
#include "strata/render/line_plot.h"
#include "virtual_display.h"
#endif

namespace strata::app {
namespace {

#if STRATA_HAVE_RENDER
// Whether a frame goes on a projection: longitude/latitude axes, a grid mapping's (`crs`), or
// a curvilinear grid drawn as its cells (`lonLatGrid`). Else `why` says what it is.
bool projectable(const DataArray& frame, bool crs, bool lonLatGrid, std::string& why) {
    if (isLonLatFrame(frame) || crs) return true;
    bool curvilinear = false;
    try {
        curvilinear = curvilinearGrid(frame).has_value();
    } catch (const Error&) { // cells that cannot be made: not a grid to reproject either
    }
    if (curvilinear && lonLatGrid) return true;
    why = curvilinear ? "its grid is curvilinear and --grid index shows its rows and columns; --grid lonlat "
                        "puts its cells on the map"
                      : "the frame's x/y are neither longitude/latitude nor a grid mapping's";
    return false;
}
#endif

// An export computes one view and is done: a reduction of more than a few slabs is streamed
// (read while the last slab reduces, memory held a few slabs) rather than loaded whole. The same
// limits wherever the export starts, so that a streamed mean sums in the same order.
ViewLimits exportLimits() {
    ViewLimits l;
    l.loadAtOnce = std::size_t(256) << 20;
    l.slabBytes = std::size_t(64) << 20;
    return l;
}

ExportResult writeCsvOf(const Dataset& ds, const DataArray& frame, const std::string& path, bool withUnits,
                        const Dataset* grid) {
    // A frame on a grid mapping (Lambert, rotated pole) gets its cells' latitude and longitude,
    // one along a HEALPix grid or a mesh its cells' centres; one in display units says its units
    // in the header (they are not the file's).
    const io::CsvResult r = writeCsv(io::withLatLon(frame, ds, grid), path, inputsOf(ds),
                                     withUnits ? io::CsvHeader::NamesWithUnits : io::CsvHeader::Names);
    return {path, ExportFormat::Csv, r.rows, r.bytesFromDevice};
}

#if STRATA_HAVE_RENDER
// Variable `name`'s frame, computed as the view's is (its units its own); a failure names
// `option` and both grids.
DataArray otherFrame(const Dataset& ds, const ViewSpec& view, const std::string& name, const DataArray& frame,
                     const std::string& option) {
    DataArray var;
    try {
        var = variableOf(ds, name);
    } catch (const Error& e) { // names the file and lists its variables
        STRATA_FAIL(ValueError, option + " " + name + ": " + e.what());
    }
    FrameSpec spec = view.frame();
    spec.variable = name;
    spec.units.clear(); // another quantity: in its own units
    FallbackNote note;
    try {
        return computeViewFrame(ds, var, spec, frame.device(), note, exportLimits());
    } catch (const Error& e) {
        STRATA_FAIL(ValueError, option + " " + name + ": " + describeGrid(var) + " cannot be shown as " +
                                    describeGrid(variableOf(ds, view.variable)) + " is: " + e.what());
    }
}

// The PNG of `frame`: the image view's scene drawn offscreen, or the line plot of a 1-D frame;
// on a private virtual display when there is none.
ExportResult writePngOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame,
                        const detail::Overlays& overlays, const std::string& path, const ExportOptions& o) {
    auto tell = [&](const std::string& line) {
        if (o.tell) o.tell(line);
    };
    const TransferCounters before = transferCounters();
    AtomicFile file(path, inputsOf(ds));
    std::string xvfb; // "Xvfb on :N (pid P)" when one was started here
    {
        VirtualDisplay display; // only when there is no DISPLAY
        if (display.started()) {
            xvfb = "Xvfb on " + display.display() + " (pid " + std::to_string(display.pid()) + ")";
            if (o.verbose) tell("no DISPLAY: started " + xvfb);
        }
        const QString temp = QString::fromStdString(file.tempPath());
        const QSize size(o.width, o.height);
        const std::shared_ptr<const SphereCells> cells = detail::cellsOf(ds, view, frame, o);
        if (frame.ndim() == 1 && !cells) {
            const DataArray var = variableOf(ds, view.variable);
            LineSeries series = lineSeries(frame.asHost());
            series.title = frameTitle(frame, view.reductions, view.areaWeighted, latitudeDim(var));
            if (o.verbose) tell("title: " + series.title);
            exportLinePlotPng(series, size, temp);
        } else {
            const detail::Scene scene = detail::sceneOf(ds, view, frame, overlays, cells, o);
            exportPng(scene.image, scene.settings, size, temp);
            detail::tellDrawn(scene, size, o);
        }
    } // the virtual display stops here
    if (o.verbose && !xvfb.empty()) tell("stopped " + xvfb);
    file.commit();
    return {path, ExportFormat::Png, 0, transferredSince(before).deviceToHost};
}
#endif

} // namespace

#if STRATA_HAVE_RENDER
namespace detail {

Overlays overlaysOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame,
                    const ExportOptions& options) {
    Overlays overlays;
    if (!options.contourVariable.empty() && options.contours) {
        overlays.contours = otherFrame(ds, view, options.contourVariable, frame, "--contour-var");
        if (const std::string why = contourFrameProblem(frame, *overlays.contours); !why.empty())
            STRATA_FAIL(ValueError, "--contour-var " + options.contourVariable + ": " + why);
    }
    if (options.vectors != VectorStyle::None) {
        VectorPair pair;
        try {
            pair = vectorPairFor(ds, view.variable, options.vectorU, options.vectorV);
        } catch (const Error& e) {
            STRATA_FAIL(ValueError, std::string("--vectors: ") + e.what() + "; name one with --uv U,V");
        }
        overlays.u = otherFrame(ds, view, pair.u, frame, "--uv");
        overlays.v = otherFrame(ds, view, pair.v, frame, "--uv");
        overlays.gridRelative = pair.gridRelative;
        std::string why = vectorPairProblem(*overlays.u, *overlays.v);
        if (why.empty() && !sameGrid(frame, *overlays.u))
            why = "the pair " + describeGrid(*overlays.u) + " is on another grid than " + describeGrid(frame);
        if (!why.empty()) STRATA_FAIL(ValueError, "--uv " + pair.u + "," + pair.v + ": " + why);
    }
    return overlays;
}

std::shared_ptr<const SphereCells> cellsOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame,
                                           const ExportOptions& o) {
    if (frame.ndim() != 1) return nullptr;
    std::shared_ptr<const SphereCells> cells;
    try {
        cells = sphereCellsOf(ds, variableOf(ds, view.variable), o.gridFile.get());
    } catch (const ValueError& e) { // drawn as a line, and said
        if (o.tell) o.tell(std::string("not drawn as a map: ") + e.what());
        return nullptr;
    }
    return cells && isAlong(frame, *cells) ? cells : nullptr;
}

Scene sceneOf(const Dataset& ds, const ViewSpec& view, const DataArray& frame, const Overlays& overlays,
              std::shared_ptr<const SphereCells> cells, const ExportOptions& o) {
    auto tell = [&](const std::string& line) {
        if (o.tell) o.tell(line);
    };
    const DataArray var = variableOf(ds, view.variable);
    const std::string title = frameTitle(frame, view.reductions, view.areaWeighted, latitudeDim(var));
    if (o.verbose) tell("title: " + title);
    Scene scene{ImageFrame{frame, title, std::nullopt, nullptr, std::nullopt}, {}};
    ImageFrame& image = scene.image;
    image.cells = std::move(cells); // a map of sphere cells (HEALPix, a mesh)
    if (!image.cells)
        image.crs = io::LatLonLocator(ds, var).crs(frame); // a grid mapping's: its map, and projections
    image.contourFrame = overlays.contours;
    image.vectorU = overlays.u;
    image.vectorV = overlays.v;
    image.vectorsGridRelative = overlays.gridRelative;
    if (needsVariableRange(view.colouring.range.mode)) // the whole variable's extremes
        image.variableRange = rangeInUnits(minmaxStreamed(var, frame.device(), exportLimits().slabBytes),
                                           var.attrs().text("units").value_or(""), view.units);
    ImageViewSettings& settings = scene.settings;
    settings.colouring = view.colouring;
    settings.window = view.window;
    settings.coastlines = o.coastlines;
    settings.grid = o.lonLatGrid ? GridSpace::LonLat : GridSpace::Index;
    settings.projection = view.projection;
    settings.contours = o.contours;
    settings.filledContours = o.filledContours;
    settings.fillLevels = o.fillLevels;
    settings.vectors = o.vectors;
    settings.particleDensity = o.particleDensity;
    settings.particleSpeed = o.particleSpeed;
    if (o.coastlines && isLonLatFrame(frame))
        if (const std::string why = coastlineProblem(); !why.empty()) tell("coastlines not drawn: " + why);
    std::string why;
    if (!view.projection.empty() && !image.cells &&
        !projectable(frame, image.crs.has_value(), o.lonLatGrid, why))
        tell("--projection " + view.projection + " not applied: " + why);
    return scene;
}

void tellDrawn(const Scene& scene, QSize size, const ExportOptions& o) {
    if (!o.tell) return;
    if (o.contours)
        if (const std::string why = contoursProblem(scene.image, scene.settings); !why.empty())
            o.tell("--contours not drawn: " + why);
    if (o.vectors != VectorStyle::None)
        if (const std::string why = vectorsProblem(scene.image, scene.settings); !why.empty())
            o.tell("--vectors not drawn: " + why);
    if (o.verbose)
        if (const std::string drawn = coastlinesDrawn(scene.image, scene.settings, size); !drawn.empty())
            o.tell("coastlines: " + drawn);
}

} // namespace detail
#endif

ExportReport exportView(const Dataset& ds, const ViewSpec& asked, const std::vector<ExportTarget>& targets,
                        const ExportOptions& options) {
    // A HEALPix pyramid's variable at the zoom that fits the picture's pixels (a frame given is
    // the window's, of the zoom it shows: its view names that zoom).
    const std::optional<healpix::Pyramid> pyramid = pyramidOfDataset(ds);
    const ViewSpec view =
        atPyramidZoom(pyramid ? &*pyramid : nullptr, asked, options.width, options.height).spec;
    ExportReport report;
    report.frameDevice = computeDevice();
    const DataArray frame =
        options.frame.ndim() > 0
            ? options.frame
            : computeViewFrame(ds, variableOf(ds, view.variable), view, report.frameDevice, report.note,
                               exportLimits(), options.gridFile.get());
    report.frameDevice = frame.device();
    if (report.note.fellBack && options.tell) options.tell(report.note.reason);
#if STRATA_HAVE_RENDER
    // Another variable's isolines, and a vector pair: refused before anything is written.
    const detail::Overlays overlays = detail::overlaysOf(ds, view, frame, options);
#endif
    for (const ExportTarget& t : targets) {
        if (t.format == ExportFormat::Csv) {
            report.files.push_back(
                writeCsvOf(ds, frame, t.path, !view.units.empty(), options.gridFile.get()));
            continue;
        }
#if STRATA_HAVE_RENDER
        report.files.push_back(writePngOf(ds, view, frame, overlays, t.path, options));
#else
        (void)options;
        STRATA_FAIL(Error, "--export-png needs the render layer (this build has STRATA_GUI off)");
#endif
    }
    return report;
}

MovieResult exportMovie(const Dataset& ds, const ViewSpec& asked, const MovieExport& movie,
                        const ExportOptions& options) {
#if STRATA_HAVE_RENDER
    const std::string what = "--export-movie " + movie.path;
    const std::optional<healpix::Pyramid> pyramid = pyramidOfDataset(ds);
    const ViewSpec view =
        atPyramidZoom(pyramid ? &*pyramid : nullptr, asked, options.width, options.height).spec;
    const DataArray var = variableOf(ds, view.variable);
    const std::vector<std::string> sliced = view.slicedDims(var.dims());
    const std::shared_ptr<const SphereCells> cells =
        view.yDim.empty() ? sphereCellsOf(ds, var, options.gridFile.get()) : nullptr;
    STRATA_EXPECTS(!view.yDim.empty() || (cells && view.xDim == cells->dim()), ValueError,
                   what + ": a movie needs a map or a section (x and y), not a line");
    if (std::find(sliced.begin(), sliced.end(), movie.dim) == sliced.end()) {
        std::string names;
        for (const std::string& d : sliced) names += (names.empty() ? "" : ", ") + d;
        STRATA_FAIL(ValueError,
                    what + ": --animate " + movie.dim + " is not a sliced dim of " + view.variable +
                        (names.empty() ? std::string(" (it has none)") : " (those are: " + names + ")"));
    }
    const std::int64_t n = var.sizeOf(movie.dim);
    STRATA_EXPECTS(n > 1, ValueError,
                   what + ": --animate " + movie.dim +
                       " has one step, so there is nothing to animate (a movie "
                       "steps a dim of two steps or more)");
    const std::int64_t stop = movie.stop < 0 ? n : movie.stop;
    STRATA_EXPECTS(movie.step > 0, ValueError, what + ": the frames' step must be positive");
    STRATA_EXPECTS(movie.start >= 0 && movie.start < n && stop <= n, IndexError,
                   what + ": frames " + std::to_string(movie.start) + ":" + std::to_string(stop) +
                       " are beyond " + movie.dim + "'s " + std::to_string(n) + " steps");
    STRATA_EXPECTS(movie.start < stop, ValueError,
                   what + ": frames " + std::to_string(movie.start) + ":" + std::to_string(stop) +
                       " hold no step");
    const int total = int((stop - movie.start + movie.step - 1) / movie.step);
    const TransferCounters before = transferCounters();
    MovieResult result{movie.path, {}, {}, 0, 0, 0, 0};
    auto tell = [&](const std::string& line) {
        if (options.tell) options.tell(line);
    };
    VirtualDisplay display; // only when there is no DISPLAY
    if (display.started() && options.verbose) tell("no DISPLAY: started Xvfb on " + display.display());
    const QSize size(options.width, options.height);
    MovieWriter writer(movie.path, size, movie.fps, inputsOf(ds));
    // Step `i`'s picture: its frame computed, its scene drawn (in one GL window for all the
    // frames); told once what is not drawn.
    const std::unique_ptr<ImageRenderer> renderer = makeImageRenderer(size);
    ExportOptions quiet = options;
    auto picture = [&](std::int64_t i, bool first) {
        const ViewSpec spec = withIndex(view, movie.dim, i);
        FallbackNote note;
        const DataArray frame =
            computeViewFrame(ds, var, spec, computeDevice(), note, exportLimits(), options.gridFile.get());
        if (first && note.fellBack) tell(note.reason);
        const detail::Overlays overlays = detail::overlaysOf(ds, spec, frame, options);
        // The cells found once for the whole movie (a mesh is read and its locator built): each
        // frame's map is then the renderer's from the frame before.
        const detail::Scene scene =
            detail::sceneOf(ds, spec, frame, overlays, cells && isAlong(frame, *cells) ? cells : nullptr,
                            first ? options : quiet);
        QImage image = renderer->render(scene.image, scene.settings);
        if (first) detail::tellDrawn(scene, size, options);
        return image;
    };
    quiet.tell = nullptr;
    quiet.verbose = false;
    // Each frame is drawn once: the writer converts and encodes it (or, for a GIF, keeps it
    // until its palette is made) on its own thread while the next is drawn.
    int done = 0;
    for (std::int64_t i = movie.start; i < stop; i += movie.step) {
        writer.add(picture(i, done == 0));
        ++done;
        if (movie.progress && !movie.progress(done, total))
            STRATA_FAIL(CancelledError, what + ": stopped at frame " + std::to_string(done) + " of " +
                                            std::to_string(total) + "; no file was written");
    }
    writer.finish();
    result.encoder = writer.encoderName();
    result.encoderNote = writer.encoderNote();
    result.frames = writer.framesWritten();
    result.width = writer.encodedSize().width();
    result.height = writer.encodedSize().height();
    result.bytesFromDevice = transferredSince(before).deviceToHost;
    return result;
#else
    (void)ds, (void)asked, (void)options;
    STRATA_FAIL(Error,
                "--export-movie " + movie.path + " needs the render layer (this build has STRATA_GUI off)");
#endif
}

VectorPair vectorPairFor(const Dataset& ds, const std::string& variable, const std::string& u,
                         const std::string& v) {
    const std::vector<VectorPair> pairs = findVectorPairs(ds);
    if (!u.empty()) {
        for (const VectorPair& p : pairs)
            if (p.u == u && p.v == v) return p;
        return {u, v, false};
    }
    const DataArray var = variableOf(ds, variable);
    for (const VectorPair& p : pairs)
        if (variableOf(ds, p.u).dims() == var.dims()) return p;
    std::string found;
    for (const VectorPair& p : pairs) found += (found.empty() ? "" : ", ") + p.u + "," + p.v;
    STRATA_FAIL(ValueError,
                ds.path + " has no vector pair with the dims of " + describeGrid(var) +
                    (found.empty() ? " (none by CF standard_name or u/v names)" : " (it has " + found + ")"));
}

std::vector<std::string> inputsOf(const Dataset& ds) {
    std::vector<std::string> out = ds.files.empty() ? std::vector<std::string>{ds.path} : ds.files;
    // A HEALPix pyramid's zooms come from stores of their own (healpix_pyramid.h).
    for (const Dataset& g : ds.groups)
        for (std::string& p : inputsOf(g))
            if (!p.empty() && std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    return out;
}

ExportResult exportView(const Dataset& ds, const ViewSpec& view, const ExportTarget& target,
                        const ExportOptions& options) {
    return exportView(ds, view, std::vector<ExportTarget>{target}, options).files.front();
}

} // namespace strata::app
