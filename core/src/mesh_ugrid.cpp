// UGRID 2-D meshes (mesh_forms.h): a mesh_topology variable naming its face_node_connectivity,
// node_coordinates and, where given, face_coordinates and its dims.
#include <numbers>
#include <sstream>

#include "mesh_forms.h"

namespace strata::mesh::detail {
namespace {

std::vector<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

// 1 for a longitude, 2 for a latitude, 0 when its attributes do not say.
int axisOf(const Variable& v) {
    const std::string sn = v.attrs().text("standard_name").value_or("");
    const std::string u = v.attrs().text("units").value_or("");
    if (sn == "longitude" || u == "degrees_east" || u == "degree_east") return 1;
    if (sn == "latitude" || u == "degrees_north" || u == "degree_north") return 2;
    return 0;
}

// The longitude and latitude among the variables a coordinates attribute names: by
// standard_name or units, else the first two in order (UGRID writes x before y).
std::pair<std::string, std::string> lonLat(const Dataset& ds, const std::string& attr,
                                           const std::string& said, const Where& w) {
    const std::vector<std::string> names = words(said);
    std::string lon, lat;
    for (const auto& n : names) {
        const int a = axisOf(need(ds, n, w));
        if (a == 1 && lon.empty()) lon = n;
        if (a == 2 && lat.empty()) lat = n;
    }
    if (lon.empty() || lat.empty()) {
        if (names.size() < 2) w.fail(attr + " '" + said + "' does not name a longitude and a latitude");
        lon = names[0];
        lat = names[1];
    }
    return {lon, lat};
}

std::vector<double> degrees(const Dataset& ds, const std::string& name, const std::string& dim,
                            const Where& w) {
    std::vector<double> v = valuesAlong(ds, name, {dim}, w);
    if (saysRadians(need(ds, name, w), false))
        for (double& x : v) x *= 180 / std::numbers::pi;
    return v;
}

} // namespace

Mesh readUgrid(const Found& f, const Where& w) {
    const Dataset& ds = *f.file;
    const Attributes& topo = need(ds, f.topology, w).attrs();
    Mesh m;
    m.form = "UGRID";
    const auto fnc = topo.text("face_node_connectivity");
    if (!fnc) w.fail("has no face_node_connectivity");
    const Variable& c = need(ds, *fnc, w);
    if (c.ndim() != 2)
        w.fail(*fnc + " has " + std::to_string(c.ndim()) + " dims, not (faces, nodes per face)");
    m.faceDim = topo.text("face_dimension").value_or(c.dims()[0]);
    const bool transposed = m.faceDim == c.dims()[1] && m.faceDim != c.dims()[0];
    if (!transposed && m.faceDim != c.dims()[0])
        w.fail("its face_dimension " + m.faceDim + " is not a dim of " + *fnc);
    const std::int64_t faces = c.shape()[transposed ? 1 : 0];
    const std::int64_t perFace = c.shape()[transposed ? 0 : 1];
    if (perFace > 1 << 16) w.fail(*fnc + " gives " + std::to_string(perFace) + " nodes per face");

    const auto nodeCoords = topo.text("node_coordinates");
    if (!nodeCoords) w.fail("has no node_coordinates");
    const auto [lon, lat] = lonLat(ds, "node_coordinates", *nodeCoords, w);
    const Variable& lonVar = need(ds, lon, w);
    if (lonVar.ndim() != 1) w.fail("mismatched sizes: node coordinate " + lon + " is not 1-D");
    m.nodeDim = topo.text("node_dimension").value_or(lonVar.dims()[0]);
    m.nodeLon = degrees(ds, lon, m.nodeDim, w);
    m.nodeLat = degrees(ds, lat, m.nodeDim, w);

    const double start = c.attrs().number("start_index").value_or(0);
    if (start != 0 && start != 1) w.fail(*fnc + " has start_index " + number(start) + ", not 0 or 1");
    std::vector<double> raw = valuesOf(c);
    if (transposed) {
        std::vector<double> t(raw.size());
        for (std::int64_t k = 0; k < perFace; ++k)
            for (std::int64_t i = 0; i < faces; ++i)
                t[std::size_t(i * perFace + k)] = raw[std::size_t(k * faces + i)];
        raw.swap(t);
    }
    connect(m, raw, faces, int(perFace), start, nullptr, *fnc, w);

    if (const auto faceCoords = topo.text("face_coordinates")) {
        const auto [flon, flat] = lonLat(ds, "face_coordinates", *faceCoords, w);
        m.faceLon = degrees(ds, flon, m.faceDim, w);
        m.faceLat = degrees(ds, flat, m.faceDim, w);
    }
    for (const auto& [name, v] : ds.variables)
        if (v.attrs().text("standard_name") == "cell_area" &&
            v.dims() == std::vector<std::string>{m.faceDim}) {
            m.faceArea = valuesOf(v);
            break;
        }
    finish(m, w);
    return m;
}

} // namespace strata::mesh::detail
