#include "py_export.h"

#include <pybind11/stl.h>

#include "batch.h"
#include "strata/core/contour.h"
#include "strata/io/multifile.h"

namespace py = pybind11;

namespace strata::py {
namespace {

std::vector<std::pair<std::string, std::string>> textPairs(const ::py::dict& d) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [k, v] : d)
        out.emplace_back(::py::str(k).cast<std::string>(), ::py::str(v).cast<std::string>());
    return out;
}

bool endsWith(const std::string& s, const std::string& end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

::py::dict exportViewOf(const ::py::object& paths, const std::string& out, const std::string& var,
                        const std::string& x, const std::string& y, const ::py::dict& isel,
                        const ::py::dict& sel, const ::py::dict& reduce, const std::string& cmap,
                        const std::string& range, const std::string& projection, std::pair<int, int> size,
                        bool coastlines, const std::string& grid, const std::string& contours,
                        const std::string& contourVar) {
    app::CliOptions o;
    if (::py::isinstance<::py::str>(paths) || ::py::hasattr(paths, "__fspath__"))
        o.files = {::py::str(paths).cast<std::string>()};
    else
        for (const auto& p : paths) o.files.push_back(::py::str(p).cast<std::string>());
    STRATA_EXPECTS(!o.files.empty(), ValueError, "export_view needs a file to read");
    o.file = o.files.front();
    o.variable = var;
    o.xDim = x;
    o.yDim = y;
    o.isel = textPairs(isel);
    o.sel = textPairs(sel);
    o.reduce = textPairs(reduce);
    o.colormap = cmap;
    o.range = range;
    o.projection = projection;
    STRATA_EXPECTS(size.first >= 16 && size.first <= 16384 && size.second >= 16 && size.second <= 16384,
                   ValueError,
                   "size takes (width, height) with each between 16 and 16384, not (" +
                       std::to_string(size.first) + ", " + std::to_string(size.second) + ")");
    o.width = size.first;
    o.height = size.second;
    o.coastlines = coastlines;
    STRATA_EXPECTS(grid == "lonlat" || grid == "index", ValueError,
                   "grid must be 'lonlat' or 'index', not '" + grid + "'");
    o.lonLatGrid = grid == "lonlat";
    if (!contours.empty()) (void)parseContourSpec(contours); // ValueError saying what is wrong
    o.contours = contours;
    o.contourVariable = contourVar;
    if (endsWith(out, ".csv"))
        o.exportCsv = out;
    else if (endsWith(out, ".png"))
        o.exportPng = out;
    else
        STRATA_FAIL(ValueError, "cannot tell what to write to " + out + ": name a .csv or a .png file");

    OpenNotes notes;
    const Dataset ds = io::openPaths(o.files, notes);
    const app::ViewSpec view = app::resolveView(o, ds);
    app::ExportReport report;
    {
        ::py::gil_scoped_release unlocked; // the frame and the file are made without Python
        report = app::exportView(ds, view, app::exportTargetsOf(o), app::exportOptionsOf(o));
    }
    const app::ExportResult& r = report.files.at(0);
    ::py::dict d;
    d["path"] = r.path;
    d["rows"] = r.rows;
    d["bytes_from_device"] = r.bytesFromDevice;
    d["variable"] = view.variable;
    return d;
}

} // namespace

void bindExport(::py::module_& m) {
    m.def("export_view", &exportViewOf, ::py::arg("paths"), ::py::arg("out"), ::py::kw_only(),
          ::py::arg("var") = "", ::py::arg("x") = "", ::py::arg("y") = "", ::py::arg("isel") = ::py::dict(),
          ::py::arg("sel") = ::py::dict(), ::py::arg("reduce") = ::py::dict(), ::py::arg("cmap") = "viridis",
          ::py::arg("range") = "frame", ::py::arg("projection") = "",
          ::py::arg("size") = std::pair<int, int>(1024, 768), ::py::arg("coastlines") = true,
          ::py::arg("grid") = "lonlat", ::py::arg("contours") = "", ::py::arg("contour_var") = "",
          "Writes a view of a file (or a file set) to `out` (.csv or .png) through the export the\n"
          "window and the command line use: the same view gives the same bytes from all three.\n"
          "The view is said in the command line's words: var, x, y, isel={dim: index},\n"
          "sel={dim: value}, reduce={dim: op}, cmap, range, projection, size=(width, height),\n"
          "coastlines, grid ('lonlat' or 'index'), contours ('auto', a count 'N', levels\n"
          "'v1,v2,...' or 'step:base'), contour_var (another variable's isolines, on the frame's\n"
          "grid). Returns what was written (path, rows, bytes_from_device, variable).");
}

} // namespace strata::py
