// The models' own mesh layouts (mesh_forms.h): MPAS, ICON and SCRIP.
#include <cmath>
#include <numbers>

#include "mesh_forms.h"

namespace strata::mesh::detail {
namespace {

constexpr double kDegrees = 180 / std::numbers::pi;

// `name`'s values along `dims`, in degrees: converted when its units say radians (or say
// nothing and the form's default is radians).
std::vector<double> degrees(const Dataset& ds, const std::string& name, const std::vector<std::string>& dims,
                            bool radiansByDefault, const Where& w) {
    std::vector<double> v = valuesAlong(ds, name, dims, w);
    if (saysRadians(need(ds, name, w), radiansByDefault))
        for (double& x : v) x *= kDegrees;
    return v;
}

const std::string& dimOf(const Dataset& ds, const std::string& name, std::size_t rank, const Where& w) {
    const Variable& v = need(ds, name, w);
    if (std::size_t(v.ndim()) != rank)
        w.fail("mismatched sizes: " + name + " has " + std::to_string(v.ndim()) + " dims, not " +
               std::to_string(rank));
    return v.dims()[0];
}

bool samePlace(double lon0, double lat0, double lon1, double lat1) {
    if (lat0 != lat1) return false;
    return std::abs(lat0) == 90 || std::fmod(lon0 - lon1, 360.0) == 0;
}

// Faces whose corners are given each on its own (ICON's bounds, SCRIP's corners): every corner
// becomes a node, and a corner at the place of the one before it (or of the first) is left out.
void cornersAsNodes(Mesh& m, std::vector<double> lon, std::vector<double> lat, std::int64_t faces,
                    int perFace) {
    m.maxNodes = perFace;
    m.faceNodes.assign(std::size_t(faces * perFace), -1);
    for (std::int64_t f = 0; f < faces; ++f) {
        const std::size_t row = std::size_t(f * perFace);
        int kept = 0;
        for (int k = 0; k < perFace; ++k) {
            const std::size_t i = row + std::size_t(k);
            if (kept > 0) {
                const std::size_t prev = std::size_t(m.faceNodes[row + std::size_t(kept - 1)]);
                if (samePlace(lon[i], lat[i], lon[prev], lat[prev])) continue;
                if (k == perFace - 1 && kept > 1 && samePlace(lon[i], lat[i], lon[row], lat[row])) continue;
            }
            m.faceNodes[row + std::size_t(kept++)] = std::int64_t(i);
        }
    }
    m.nodeLon = std::move(lon);
    m.nodeLat = std::move(lat);
}

void areaIf(Mesh& m, const Dataset& ds, const std::string& name, const Where& w) {
    if (ds.findVariable(name)) m.faceArea = valuesAlong(ds, name, {m.faceDim}, w);
}

} // namespace

Mesh readMpas(const Found& f, const Where& w) {
    const Dataset& ds = *f.file;
    Mesh m;
    m.form = "MPAS";
    const Variable& voc = need(ds, "verticesOnCell", w);
    if (voc.ndim() != 2) w.fail("mismatched sizes: verticesOnCell is not (nCells, maxEdges)");
    m.faceDim = voc.dims()[0];
    m.nodeDim = dimOf(ds, "latVertex", 1, w);
    m.nodeLat = degrees(ds, "latVertex", {m.nodeDim}, true, w);
    m.nodeLon = degrees(ds, "lonVertex", {m.nodeDim}, true, w);
    m.faceLat = degrees(ds, "latCell", {m.faceDim}, true, w);
    m.faceLon = degrees(ds, "lonCell", {m.faceDim}, true, w);
    const std::vector<double> counts = valuesAlong(ds, "nEdgesOnCell", {m.faceDim}, w);
    if (voc.shape()[1] > 1 << 16)
        w.fail("verticesOnCell gives " + std::to_string(voc.shape()[1]) + " per cell");
    connect(m, valuesOf(voc), voc.shape()[0], int(voc.shape()[1]), 1, &counts, "verticesOnCell", w);
    areaIf(m, ds, "areaCell", w);
    finish(m, w);
    return m;
}

Mesh readIcon(const Found& f, const Where& w) {
    const Dataset& ds = *f.file;
    Mesh m;
    m.form = "ICON";
    m.faceDim = dimOf(ds, "clon", 1, w);
    m.faceLon = degrees(ds, "clon", {m.faceDim}, true, w);
    m.faceLat = degrees(ds, "clat", {m.faceDim}, true, w);
    const std::int64_t faces = std::int64_t(m.faceLon.size());
    if (!f.nodeDim.empty()) { // vertex_of_cell (nv, cell), 1-based, with vlon/vlat
        const Variable& voc = need(ds, "vertex_of_cell", w);
        if (voc.ndim() != 2 || (voc.dims()[0] != m.faceDim && voc.dims()[1] != m.faceDim))
            w.fail("mismatched sizes: vertex_of_cell does not lie along " + m.faceDim);
        const bool transposed = voc.dims()[1] == m.faceDim; // ICON's own order
        const std::int64_t perFace = voc.shape()[transposed ? 0 : 1];
        if (perFace > 1 << 16) w.fail("vertex_of_cell gives " + std::to_string(perFace) + " per cell");
        m.nodeDim = dimOf(ds, "vlon", 1, w);
        m.nodeLon = degrees(ds, "vlon", {m.nodeDim}, true, w);
        m.nodeLat = degrees(ds, "vlat", {m.nodeDim}, true, w);
        std::vector<double> raw = valuesOf(voc);
        if (transposed) {
            std::vector<double> t(raw.size());
            for (std::int64_t k = 0; k < perFace; ++k)
                for (std::int64_t i = 0; i < faces; ++i)
                    t[std::size_t(i * perFace + k)] = raw[std::size_t(k * faces + i)];
            raw.swap(t);
        }
        connect(m, raw, faces, int(perFace), 1, nullptr, "vertex_of_cell", w);
    } else { // clon_bnds/clat_bnds (cell, nv): each cell's own corners
        const Variable& b = need(ds, "clon_bnds", w);
        if (b.ndim() != 2 || b.dims()[0] != m.faceDim)
            w.fail("mismatched sizes: clon_bnds does not lie along (" + m.faceDim + ", vertices)");
        if (b.shape()[1] > 1 << 16) w.fail("clon_bnds gives " + std::to_string(b.shape()[1]) + " per cell");
        cornersAsNodes(m, degrees(ds, "clon_bnds", b.dims(), true, w),
                       degrees(ds, "clat_bnds", b.dims(), true, w), faces, int(b.shape()[1]));
    }
    areaIf(m, ds, "cell_area", w);
    finish(m, w);
    return m;
}

Mesh readScrip(const Found& f, const Where& w) {
    const Dataset& ds = *f.file;
    Mesh m;
    m.form = "SCRIP";
    const Variable& c = need(ds, "grid_corner_lat", w);
    if (c.ndim() != 2) w.fail("mismatched sizes: grid_corner_lat is not (grid_size, grid_corners)");
    if (c.shape()[1] > 1 << 16) w.fail("grid_corner_lat gives " + std::to_string(c.shape()[1]) + " per cell");
    m.faceDim = c.dims()[0];
    cornersAsNodes(m, degrees(ds, "grid_corner_lon", c.dims(), false, w),
                   degrees(ds, "grid_corner_lat", c.dims(), false, w), c.shape()[0], int(c.shape()[1]));
    if (ds.findVariable("grid_center_lon") && ds.findVariable("grid_center_lat")) {
        m.faceLon = degrees(ds, "grid_center_lon", {m.faceDim}, false, w);
        m.faceLat = degrees(ds, "grid_center_lat", {m.faceDim}, false, w);
    }
    areaIf(m, ds, "grid_area", w);
    finish(m, w);
    return m;
}

} // namespace strata::mesh::detail
