#include "strata/core/mesh.h"

#include "mesh_forms.h"
#include "strata/core/error.h"

namespace strata::mesh {

int Mesh::nodesOf(std::int64_t face) const {
    int n = 0;
    const std::size_t row = std::size_t(face) * std::size_t(maxNodes);
    while (n < maxNodes && faceNodes[row + std::size_t(n)] >= 0) ++n;
    return n;
}

namespace detail {
namespace {

std::string firstDim(const Dataset& ds, const std::string& name) {
    const Variable* v = ds.findVariable(name);
    return v && v->ndim() >= 1 ? v->dims()[0] : std::string();
}

std::int64_t lengthOf(const Dataset& ds, const std::string& dim) {
    const Dimension* d = dim.empty() ? nullptr : ds.findDim(dim);
    return d ? d->length : -1;
}

} // namespace

std::vector<Found> meshesIn(const Dataset& ds) {
    std::vector<Found> found;
    const auto has = [&](const char* name) { return ds.findVariable(name) != nullptr; };
    for (const auto& [name, v] : ds.variables) {
        const Attributes& a = v.attrs();
        if (a.text("cf_role") != "mesh_topology" || a.number("topology_dimension") != 2.0) continue;
        Found f{"UGRID", name};
        const std::string fnc = a.text("face_node_connectivity").value_or("");
        f.faceDim = a.text("face_dimension").value_or(firstDim(ds, fnc));
        const std::string coords = a.text("node_coordinates").value_or("");
        f.nodeDim = a.text("node_dimension").value_or(firstDim(ds, coords.substr(0, coords.find(' '))));
        found.push_back(f);
    }
    if (has("latCell") && has("lonCell") && has("verticesOnCell") && has("nEdgesOnCell") &&
        has("latVertex") && has("lonVertex"))
        found.push_back({"MPAS", "", firstDim(ds, "verticesOnCell"), firstDim(ds, "latVertex")});
    if (has("clon") && has("clat")) {
        if (has("vertex_of_cell") && has("vlon") && has("vlat"))
            found.push_back({"ICON", "", firstDim(ds, "clon"), firstDim(ds, "vlon")});
        else if (has("clon_bnds") && has("clat_bnds"))
            found.push_back({"ICON", "", firstDim(ds, "clon"), ""});
    }
    if (has("grid_corner_lat") && has("grid_corner_lon"))
        found.push_back({"SCRIP", "", firstDim(ds, "grid_corner_lat"), ""});
    for (Found& f : found) {
        f.file = &ds;
        f.faceCount = lengthOf(ds, f.faceDim);
        f.nodeCount = lengthOf(ds, f.nodeDim);
    }
    return found;
}

} // namespace detail

namespace {

using detail::Found;
using detail::Where;

Where whereOf(const Dataset& ds, const DataArray& var, const Found& f) {
    std::string p = ds.path + ": " + var.name() + ": " + f.form + " mesh";
    if (!f.topology.empty()) p += " " + f.topology;
    if (f.file != &ds) p += " in " + f.file->path;
    return {p + ": "};
}

Mesh read(const Found& f, const Where& w) {
    if (f.form == "UGRID") return detail::readUgrid(f, w);
    if (f.form == "MPAS") return detail::readMpas(f, w);
    if (f.form == "ICON") return detail::readIcon(f, w);
    return detail::readScrip(f, w);
}

// Fails when `var` has `dim` with another length than the mesh's.
void sameLength(const Dataset& ds, const DataArray& var, const std::string& dim, std::int64_t want,
                const Found& f) {
    const std::int64_t have = var.sizeOf(dim);
    if (have != want)
        whereOf(ds, var, f)
            .fail("data whose size matches no grid: " + std::to_string(have) + " values along " + dim +
                  ", where the mesh has " + std::to_string(want));
}

bool hasDim(const DataArray& var, const std::string& dim) {
    if (dim.empty()) return false;
    for (const auto& d : var.dims())
        if (d == dim) return true;
    return false;
}

} // namespace

namespace {

// Where `var` lies on one of `meshes` (found in the files' metadata, nothing read): the mesh, the
// dim and whether on faces or nodes; nullopt where it lies on none (or on UGRID edges).
struct Place {
    const Found* mesh = nullptr;
    std::string dim;
    Location at = Location::Face;
};

std::optional<Place> placeOf(const Dataset& ds, const DataArray& var, const Dataset* grid,
                             const std::vector<Found>& meshes) {
    // UGRID's own way: the variable names its mesh and where on it its values sit.
    if (const auto name = var.attrs().text("mesh")) {
        const Found* f = nullptr;
        for (const Found& m : meshes)
            if (m.form == "UGRID" && m.topology == *name && !f) f = &m;
        if (!f)
            STRATA_FAIL(ValueError, ds.path + ": " + var.name() + ": its mesh " + *name +
                                        " is not a 2-D UGRID mesh topology in " + ds.path +
                                        (grid ? " or " + grid->path : std::string()));
        const std::string location = var.attrs().text("location").value_or("face");
        if (location != "face" && location != "node") return std::nullopt; // edges: not drawn
        const bool onFaces = location == "face";
        const std::string& dim = onFaces ? f->faceDim : f->nodeDim;
        if (!hasDim(var, dim))
            whereOf(ds, var, *f)
                .fail("its values lie on the mesh's " + location + "s, but it has no dim " + dim);
        sameLength(ds, var, dim, onFaces ? f->faceCount : f->nodeCount, *f);
        return Place{f, dim, onFaces ? Location::Face : Location::Node};
    }

    // A dim of the mesh's name: the first mesh (this file's before the grid file's) whose face or
    // node dim the variable has.
    for (const Found& f : meshes) {
        for (const Location at : {Location::Face, Location::Node}) {
            const std::string& dim = at == Location::Face ? f.faceDim : f.nodeDim;
            if (!hasDim(var, dim)) continue;
            sameLength(ds, var, dim, at == Location::Face ? f.faceCount : f.nodeCount, f);
            return Place{&f, dim, at};
        }
    }

    // A dim of the grid file's faces' or nodes' length alone, when only one fits.
    Place fit;
    int fits = 0;
    for (const Found& f : meshes) {
        if (f.file == &ds) continue;
        for (const auto& d : var.dims()) {
            if (var.coords().find(d)) continue; // an index coordinate: time, levels
            for (const Location at : {Location::Face, Location::Node}) {
                const std::int64_t n = at == Location::Face ? f.faceCount : f.nodeCount;
                if (n < 0 || var.sizeOf(d) != n) continue;
                ++fits;
                fit = Place{&f, d, at};
            }
        }
    }
    if (fits != 1) return std::nullopt;
    return fit;
}

std::vector<Found> meshesOf(const Dataset& ds, const Dataset* grid) {
    std::vector<Found> meshes = detail::meshesIn(ds);
    if (grid && grid != &ds)
        for (Found& f : detail::meshesIn(*grid)) meshes.push_back(f);
    return meshes;
}

} // namespace

std::optional<Placement> meshOf(const Dataset& ds, const DataArray& var, const Dataset* grid) {
    const std::vector<Found> meshes = meshesOf(ds, grid);
    const std::optional<Place> at = placeOf(ds, var, grid, meshes);
    if (!at) return std::nullopt;
    Placement p{read(*at->mesh, whereOf(ds, var, *at->mesh)), at->at};
    (at->at == Location::Face ? p.mesh.faceDim : p.mesh.nodeDim) = at->dim;
    return p;
}

std::optional<MeshDim> meshDimOf(const Dataset& ds, const DataArray& var, const Dataset* grid) {
    const std::vector<Found> meshes = meshesOf(ds, grid);
    const std::optional<Place> at = placeOf(ds, var, grid, meshes);
    if (!at) return std::nullopt;
    return MeshDim{at->mesh->form, at->dim, at->at};
}

} // namespace strata::mesh
