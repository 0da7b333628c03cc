#include "batch.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "export_view.h"
#include "strata/core/derived.h"
#include "strata/core/runtime.h"
#include "strata/core/units.h"
#include "strata/io/multifile.h"
#include "strata/io/netcdf.h"
#include "view_roles.h"

#if STRATA_HAVE_RENDER
#include "strata/render/colormaps.h"
#endif

namespace strata::app {

#if !STRATA_HAVE_RENDER
// The colour maps' names, from the tables' file names at build time (app/CMakeLists.txt).
const std::vector<std::string>& colormapNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        std::string all = STRATA_COLORMAP_NAMES;
        for (std::size_t start = 0; start <= all.size();) {
            const std::size_t end = std::min(all.find(',', start), all.size());
            if (end > start) out.push_back(all.substr(start, end - start));
            start = end + 1;
        }
        return out;
    }();
    return names;
}
bool hasColormap(const std::string& name) {
    const auto& names = colormapNames();
    return std::find(names.begin(), names.end(), name) != names.end();
}
#endif

std::string colormapList(const std::string& separator) {
    std::string out;
    for (const auto& n : colormapNames()) out += (out.empty() ? "" : separator) + n;
    return out;
}
namespace {

std::int64_t parseIndex(const std::string& dim, const std::string& text) {
    std::int64_t v = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        throw UsageError("--isel " + dim + "=" + text + ": the index must be an integer");
    return v;
}

double parseNumber(const std::string& what, const std::string& text) {
    double v = 0;
    auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        throw UsageError(what + ": '" + text + "' is not a number");
    return v;
}

// The variable a user most likely wants (the window's rule: defaultVariable).
std::string firstDataVariable(const Dataset& ds) {
    const std::string best = defaultVariable(ds);
    if (best.empty()) throw UsageError(ds.path + ": no numeric data variable to show (use --var)");
    return best;
}

} // namespace

std::shared_ptr<const Dataset> openGridFile(const CliOptions& o) {
    if (o.gridFile.empty()) return nullptr;
    OpenNotes notes;
    return std::make_shared<const Dataset>(io::openPaths({o.gridFile}, notes));
}

ViewSpec resolveView(const CliOptions& o, const Dataset& ds, const Dataset* grid) {
    ViewSpec spec;
    spec.file = ds.path;
    spec.variable = o.variable.empty() ? firstDataVariable(ds) : o.variable;
    DataArray found;
    try {
        found = variableOf(ds, spec.variable); // "name", or "/group/name"
    } catch (const Error&) {
    }
    if (found.name().empty()) {
        std::string list;
        for (const auto& n : ds.dataVariables()) list += (list.empty() ? "" : ", ") + n;
        throw UsageError("no variable '" + spec.variable + "' in " + ds.path + " (variables: " + list + ")");
    }
    const DataArray var = found;
    const auto& dims = var.dims();
    if (dims.empty()) throw UsageError("variable '" + spec.variable + "' is a scalar: nothing to show");
    auto knownDim = [&](const std::string& option, const std::string& d) {
        if (std::find(dims.begin(), dims.end(), d) == dims.end()) {
            std::string list;
            for (const auto& x : dims) list += (list.empty() ? "" : ", ") + x;
            throw UsageError(option + ": variable '" + spec.variable + "' has no dim '" + d +
                             "' (dims: " + list + ")");
        }
        return d;
    };
    if (!o.xDim.empty()) spec.xDim = knownDim("--x", o.xDim);
    if (!o.yDim.empty()) spec.yDim = knownDim("--y", o.yDim);
    if (o.xDim.empty() && o.yDim.empty()) {
        // The window's default roles (lat/lon-like dims from CF attributes, else the last two),
        // among the dims the other options leave free.
        std::vector<std::string> free;
        for (const auto& d : dims) {
            auto named = [&](const auto& list) {
                return std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.first == d; });
            };
            if (!named(o.reduce) && !named(o.isel) && !named(o.sel)) free.push_back(d);
        }
        const ViewSpec preferred = defaultView(groupOf(ds, spec.variable), var.name(), grid);
        auto take = [&](const std::string& d) {
            auto it = std::find(free.begin(), free.end(), d);
            if (d.empty() || it == free.end()) return std::string();
            free.erase(it);
            return d;
        };
        spec.xDim = take(preferred.xDim);
        spec.yDim = take(preferred.yDim);
        if (spec.xDim.empty() && !free.empty()) spec.xDim = take(free.back());
        if (spec.yDim.empty() && !preferred.yDim.empty() && !free.empty()) spec.yDim = take(free.back());
        if (spec.xDim.empty())
            throw UsageError("every dim of '" + spec.variable + "' is sliced or reduced: none is left for X");
    } else if (o.xDim.empty()) {
        throw UsageError("--y needs --x as well");
    }
    for (const auto& [d, op] : o.reduce) {
        knownDim("--reduce", d);
        if (op == "area-mean") { // every mean of the view becomes one area-weighted mean
            spec.reductions.push_back({d, ReduceOp::Mean});
            spec.areaWeighted = true;
            continue;
        }
        try {
            const ReduceOp r = parseReduceOp(op);
            if (r != ReduceOp::Mean && r != ReduceOp::Min && r != ReduceOp::Max && r != ReduceOp::Std &&
                r != ReduceOp::Sum)
                throw ValueError("");
            spec.reductions.push_back({d, r});
        } catch (const ValueError&) {
            throw UsageError("--reduce " + d + "=" + op +
                             ": unknown op (mean, area-mean, min, max, std, sum)");
        }
    }
    for (const auto& [d, text] : o.isel) spec.indices.push_back({knownDim("--isel", d), parseIndex(d, text)});
    for (const auto& [d, text] : o.sel) {
        knownDim("--sel", d);
        const Coordinate* c = var.coords().find(d);
        if (!c || !c->isIndex())
            throw UsageError("--sel " + d + "=" + text + ": dim '" + d + "' has no coordinate");
        double value = 0;
        if (c->time) {
            try {
                value = encodeTime(parseIsoDate(text), c->time->units, c->time->calendar);
            } catch (const Error& e) {
                throw UsageError("--sel " + d + "=" + text + ": " + e.what());
            }
        } else {
            value = parseNumber("--sel " + d, text);
        }
        spec.indices.push_back({d, var.nearestIndex(d, value)});
    }
    if (!o.units.empty()) {
        const std::string stored = var.attrs().text("units").value_or("");
        if (stored.empty())
            throw UsageError("--units " + o.units + ": '" + spec.variable + "' has no units to convert from");
        try {
            std::vector<ReduceOp> ops;
            for (const auto& r : spec.reductions) ops.push_back(r.second);
            conversionAfter(unitConversion(stored, o.units), ops, spec.variable);
        } catch (const ValueError& e) {
            throw UsageError("--units " + o.units + ": " + e.what());
        }
        spec.units = o.units;
    }
    spec.projection = o.projection; // checked and named as the render layer names it (cli.cpp)
    Colouring& colouring = spec.colouring;
    std::string cmap = o.colormap;
    if (cmap.size() > 2 && cmap.compare(cmap.size() - 2, 2, "_r") == 0) {
        colouring.reversed = true;
        cmap.resize(cmap.size() - 2);
    }
    if (!hasColormap(cmap))
        throw UsageError("--cmap " + o.colormap + ": unknown colour map (known: " + colormapList(", ") +
                         "; _r reverses)");
    colouring.colormap = cmap;
    if (o.range == "frame")
        colouring.range.mode = RangeMode::Frame;
    else if (o.range == "global")
        colouring.range.mode = RangeMode::Variable;
    else if (o.range == "symmetric")
        colouring.range.mode = RangeMode::Symmetric;
    else {
        const auto comma = o.range.find(',');
        if (comma == std::string::npos)
            throw UsageError("--range takes frame, global or MIN,MAX, got '" + o.range + "'");
        colouring.range.mode = RangeMode::Fixed;
        colouring.range.fixedMin = parseNumber("--range", o.range.substr(0, comma));
        colouring.range.fixedMax = parseNumber("--range", o.range.substr(comma + 1));
        if (!(colouring.range.fixedMin < colouring.range.fixedMax))
            throw UsageError("--range " + o.range + ": MIN must be below MAX");
    }
    try {
        validateView(ds, var, spec, grid);
    } catch (const ValueError& e) {
        throw UsageError(e.what());
    } catch (const IndexError& e) {
        throw UsageError(e.what());
    }
    return spec;
}

std::vector<ExportTarget> exportTargetsOf(const CliOptions& o) {
    std::vector<ExportTarget> targets;
    if (!o.exportCsv.empty()) targets.push_back({ExportFormat::Csv, o.exportCsv});
    if (!o.exportPng.empty()) targets.push_back({ExportFormat::Png, o.exportPng});
    return targets;
}

ExportOptions exportOptionsOf(const CliOptions& o) {
    ExportOptions options;
    options.width = o.width;
    options.height = o.height;
    options.coastlines = o.coastlines;
    if (!o.contours.empty()) options.contours = parseContourSpec(o.contours);
    options.contourVariable = o.contourVariable;
    if (!o.contourVariable.empty() && !options.contours) options.contours = ContourSpec{}; // auto
    options.filledContours = o.filled;
    if (!o.vectors.empty()) options.vectors = parseVectorStyle(o.vectors);
    if (!o.uv.empty()) {
        const auto comma = o.uv.find(',');
        options.vectorU = o.uv.substr(0, comma);
        options.vectorV = o.uv.substr(comma + 1);
        if (options.vectors == VectorStyle::None) options.vectors = VectorStyle::Arrows;
    }
    options.lonLatGrid = o.lonLatGrid;
    options.verbose = o.verbose;
    return options;
}

void applyDerived(const CliOptions& o, Dataset& ds) {
    std::vector<DatasetAlias> others;
    for (const auto& [alias, path] : o.with) {
        OpenNotes notes;
        others.push_back({alias, std::make_shared<const Dataset>(io::openPaths({path}, notes))});
    }
    for (const std::string& statement : o.derive) derive(ds, statement, others);
}

int runBatch(const CliOptions& o) {
    Dataset ds;
    OpenNotes notes;
    try {
        // A file that crashes HDF5 costs a child process; several files open as one set.
        ds = io::openPaths(o.files.empty() ? std::vector<std::string>{o.file} : o.files, notes);
    } catch (const Error& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 1;
    }
    std::shared_ptr<const Dataset> grid;
    try {
        grid = openGridFile(o);
    } catch (const Error& e) {
        std::fprintf(stderr, "strata: --grid-file: %s\n", e.what());
        return 1;
    }
    try {
        applyDerived(o, ds);
    } catch (const ValueError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    } catch (const Error& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 1;
    }
    // What the user is always told (a file named twice), then what the open did not take as it
    // is (a variable skipped, an attribute ignored), for --verbose.
    for (const std::string& line : notes.warnings) std::fprintf(stderr, "strata: %s\n", line.c_str());
    if (o.verbose)
        for (const std::string& line : notes.lines) std::fprintf(stderr, "strata: %s\n", line.c_str());
    if (o.info) {
        std::string summary = ds.summary();
        if (!ds.files.empty()) { // a set: its summary is headed by the set's name, not its first file's
            std::fputs(io::fileSetSummary(ds.files).c_str(), stdout);
            const std::size_t end = summary.find('\n');
            if (const std::size_t at = summary.find(ds.path); at != std::string::npos && at < end)
                summary.replace(at, ds.path.size(), io::fileSetLabel(ds.files));
        }
        std::fputs(summary.c_str(), stdout);
        if (!o.batch()) return 0;
    }
    ViewSpec spec;
    try {
        spec = resolveView(o, ds, grid.get());
    } catch (const UsageError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    }
    try {
        if (o.verbose)
            std::fprintf(stderr, "strata: computing on %s (%s)\n", computeInfo().name.c_str(),
                         computeInfo().reason.c_str());
        if (o.verbose) {
            // How the variable's bytes come off the disk: the parallel reader, or netCDF-C and why.
            const DataArray shown = variableOf(ds, spec.variable);
            const Variable& v = shown.variable();
            if (v.source() && !v.source()->readPath().empty())
                std::fprintf(stderr, "strata: reading %s: %s\n", v.source()->describe().c_str(),
                             v.source()->readPath().c_str());
        }
        ExportOptions options = exportOptionsOf(o);
        options.gridFile = grid;
        options.tell = [](const std::string& line) { std::fprintf(stderr, "strata: %s\n", line.c_str()); };
        if (!o.exportMovie.empty()) {
            if (o.animate.empty())
                throw UsageError("--export-movie needs --animate DIM: the dim to step through");
            const MovieFrames frames = o.frames.empty() ? MovieFrames{} : parseFrames(o.frames);
            MovieExport movie{o.exportMovie, o.animate, frames.start, frames.stop,
                              frames.step,   o.fps,     nullptr};
            const MovieResult m = exportMovie(ds, spec, movie, options);
            std::fprintf(stderr, "strata: wrote %s: %d frames, %dx%d, %s (%llu bytes copied device→host)\n",
                         m.path.c_str(), m.frames, m.width, m.height, m.encoder.c_str(),
                         static_cast<unsigned long long>(m.bytesFromDevice));
            if (!m.encoderNote.empty()) std::fprintf(stderr, "strata: %s\n", m.encoderNote.c_str());
            if (o.exportPng.empty() && o.exportCsv.empty()) return 0;
        }
        const ExportReport report = exportView(ds, spec, exportTargetsOf(o), options);
        // Where the bytes counted came from, for --verbose.
        const std::string from = report.frameDevice.isHost()
                                     ? std::string("the frame is on the host: nothing to copy")
                                     : "from " + report.frameDevice.toString() + ", " + computeInfo().name;
        for (const ExportResult& r : report.files) {
            if (!o.verbose) continue;
            if (r.format == ExportFormat::Csv)
                std::fprintf(stderr, "strata: wrote %s: %lld rows, %llu bytes copied device→host (%s)\n",
                             r.path.c_str(), static_cast<long long>(r.rows),
                             static_cast<unsigned long long>(r.bytesFromDevice), from.c_str());
            else
                std::fprintf(stderr, "strata: wrote %s: %dx%d, %llu bytes copied device→host (%s)\n",
                             r.path.c_str(), o.width, o.height,
                             static_cast<unsigned long long>(r.bytesFromDevice), from.c_str());
        }
    } catch (const UsageError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    } catch (const ValueError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    } catch (const IndexError& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 2;
    } catch (const Error& e) {
        std::fprintf(stderr, "strata: %s\n", e.what());
        return 1;
    }
    return 0;
}

} // namespace strata::app
