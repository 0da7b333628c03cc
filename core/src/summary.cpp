// Dataset::summary(): the text of `strata --info`, in the spirit of xarray's repr.
#include <algorithm>
#include <sstream>

#include "mesh_forms.h"
#include "strata/core/dataset.h"
#include "strata/core/healpix_grid.h"
#include "strata/core/healpix_pyramid.h"

namespace strata {
namespace {

std::string dimList(const std::vector<std::string>& dims) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + dims[i];
    return s + ")";
}

std::string pad(std::string s, std::size_t width) {
    if (s.size() < width) s.append(width - s.size(), ' ');
    return s;
}

std::string shapeText(const Shape& shape) {
    std::string s;
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "×" : "") + std::to_string(shape[i]);
    return s.empty() ? "scalar" : s;
}

std::string firstLast(const Coordinate& c) {
    if (!c.problem.empty()) return "(" + c.problem + ")";
    if (c.values.empty()) return "(empty)";
    const std::int64_t last = std::int64_t(c.values.size()) - 1;
    return last == 0 ? c.label(0) : c.label(0) + " … " + c.label(last);
}

// "  HEALPix nside 1024 nest, cells along cell: the whole sky" (or "1000 of them"), or what is
// wrong with the grid the file says; empty for a variable on no HEALPix grid.
std::string healpixNote(const Dataset& ds, const std::string& variable) {
    try {
        const auto g = healpix::gridOf(ds, ds[variable]);
        if (!g) return {};
        return "  HEALPix nside " + std::to_string(g->nside) +
               (g->order == healpix::Order::Nest ? " nest" : " ring") + ", cells along " + g->dim + ": " +
               (g->cells.empty() ? std::string("the whole sky")
                                 : std::to_string(g->cells.size()) + " of them");
    } catch (const std::exception& e) {
        return std::string("  (HEALPix grid refused: ") + e.what() + ")";
    }
}

// "  MPAS mesh: on its 2562 faces along nCells" (or nodes) for a variable along a mesh's face or
// node dim in this file (from the metadata: nothing is read); empty otherwise.
std::string meshNote(const std::vector<mesh::detail::Found>& meshes, const Variable& v) {
    for (const mesh::detail::Found& f : meshes)
        for (std::size_t i = 0; i < v.dims().size(); ++i) {
            const bool face = !f.faceDim.empty() && v.dims()[i] == f.faceDim && v.shape()[i] == f.faceCount;
            const bool node = !f.nodeDim.empty() && v.dims()[i] == f.nodeDim && v.shape()[i] == f.nodeCount;
            if (face || node)
                return "  " + f.form + " mesh" + (f.topology.empty() ? "" : " " + f.topology) + ": on its " +
                       std::to_string(face ? f.faceCount : f.nodeCount) + (face ? " faces" : " nodes") +
                       " along " + v.dims()[i];
        }
    return {};
}

void printGroup(std::ostringstream& out, const Dataset& ds, const std::string& indent) {
    std::size_t width = 4, dimsWidth = 8;
    for (const auto& [n, v] : ds.variables) {
        width = std::max(width, n.size());
        dimsWidth = std::max(dimsWidth, dimList(v.dims()).size());
    }
    width += 1;
    dimsWidth += 1;
    out << indent << "Dimensions:  (";
    for (std::size_t i = 0; i < ds.dims.size(); ++i)
        out << (i ? ", " : "") << ds.dims[i].name << ": " << ds.dims[i].length
            << (ds.dims[i].unlimited ? " unlimited" : "");
    out << ")\n";
    if (!ds.coords.empty()) {
        out << indent << "Coordinates:\n";
        for (const auto& c : ds.coords) {
            const Variable* v = ds.findVariable(c.name);
            out << indent << (c.isIndex() ? "  * " : "    ") << pad(c.name, width)
                << pad(dimList(c.dims), dimsWidth) << (v ? std::string(name(v->dtype())) : "") << "  "
                << firstLast(c);
            if (auto units = c.attrs.text("units")) out << "  [" << *units << "]";
            if (c.time) out << "  calendar " << name(c.time->calendar);
            out << "\n";
        }
    }
    const auto data = ds.dataVariables();
    std::vector<mesh::detail::Found> meshes;
    try {
        meshes = mesh::detail::meshesIn(ds);
    } catch (const std::exception&) { // what the window and --export say when drawing it
    }
    if (!data.empty()) {
        out << indent << "Data variables:\n";
        for (const auto& n : data) {
            const Variable& v = *ds.findVariable(n);
            out << indent << "    " << pad(n, width) << pad(dimList(v.dims()), dimsWidth)
                << pad(std::string(name(v.dtype())), 8) << shapeText(v.shape());
            if (v.encoding().packed != v.dtype()) out << "  (stored as " << name(v.encoding().packed) << ")";
            if (auto units = v.attrs().text("units")) out << "  [" << *units << "]";
            if (auto ln = v.attrs().text("long_name")) out << "  " << *ln;
            out << healpixNote(ds, n) << meshNote(meshes, v) << "\n";
        }
    }
    if (!ds.attrs.empty()) {
        out << indent << "Attributes:\n";
        for (const auto& a : ds.attrs) {
            std::string text = a.text();
            std::replace(text.begin(), text.end(), '\n', ' ');
            if (text.size() > 100) text = text.substr(0, 97) + "...";
            out << indent << "    " << a.name << ": " << text << "\n";
        }
    }
    if (const std::optional<healpix::Pyramid> p = healpix::pyramidOf(ds)) {
        std::string names;
        for (const std::string& v : p->variables) names += (names.empty() ? "" : ", ") + v;
        out << indent << p->describe() << " in the groups below: " << names
            << " shown at the zoom that fits the screen (the root holds the coarsest)\n";
    }
    for (const auto& g : ds.groups) {
        out << indent << "Group " << g.group << ":\n";
        printGroup(out, g, indent + "    ");
    }
}

} // namespace

std::string Dataset::summary() const {
    std::ostringstream out;
    out << "<strata.Dataset> " << path << (format.empty() ? "" : " (" + format + ")") << "\n";
    printGroup(out, *this, "");
    return out.str();
}

} // namespace strata
