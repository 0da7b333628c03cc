#pragma once
// Small mesh files for tst_meshgrid, written through netCDF-C (nc_write.h): UGRID (a few faces,
// or a global lon/lat mesh with polar caps), MPAS, ICON and SCRIP files of one or two cells, and
// a data file for a grid in another file.
#include <QTemporaryDir>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "nc_write.h"

namespace meshtest {

// A small UGRID file: nodes, faces (file numbering, `fill` pads), a data variable `value` on
// the faces (1.5 × the face's index) naming the mesh.
struct Ugrid {
    std::vector<double> lon, lat;
    std::vector<std::vector<long long>> faces;
    long long start = 0, fill = -1;
    bool latOwnDim = false; // node latitudes along a dim of their own, one longer
};

inline std::string write(const QTemporaryDir& dir, const char* name, const Ugrid& u) {
    const std::string path = dir.filePath(name).toStdString();
    std::size_t perFace = 0;
    for (const auto& f : u.faces) perFace = std::max(perFace, f.size());
    nctest::Writer w(path, NC_NETCDF4);
    const int node = w.dim("n_node", u.lon.size()), face = w.dim("n_face", u.faces.size()),
              most = w.dim("n_max_face_nodes", perFace);
    const int latDim = u.latOwnDim ? w.dim("n_node_lat", u.lat.size()) : node;
    const int topo = w.var("mesh", NC_INT, {});
    w.text(topo, "cf_role", "mesh_topology");
    w.att(topo, "topology_dimension", NC_INT, std::vector<int>{2});
    w.text(topo, "node_coordinates", "node_lon node_lat");
    w.text(topo, "face_node_connectivity", "face_nodes");
    w.text(topo, "face_dimension", "n_face");
    const int lon = w.var("node_lon", NC_DOUBLE, {node}), lat = w.var("node_lat", NC_DOUBLE, {latDim});
    w.text(lon, "standard_name", "longitude");
    w.text(lat, "standard_name", "latitude");
    const int fn = w.var("face_nodes", NC_INT64, {face, most});
    w.att(fn, "_FillValue", NC_INT64, std::vector<long long>{u.fill});
    w.att(fn, "start_index", NC_INT64, std::vector<long long>{u.start});
    const int value = w.var("value", NC_DOUBLE, {face});
    w.text(value, "mesh", "mesh");
    w.text(value, "location", "face");
    w.enddef();
    w.put(lon, u.lon);
    w.put(lat, u.lat);
    std::vector<long long> flat;
    for (const auto& f : u.faces)
        for (std::size_t k = 0; k < perFace; ++k) flat.push_back(k < f.size() ? f[k] : u.fill);
    w.put(fn, flat);
    std::vector<double> v;
    for (std::size_t f = 0; f < u.faces.size(); ++f) v.push_back(1.5 * double(f));
    w.put(value, v);
    return path;
}

// A global mesh: quads on a 10° lon/lat grid (nodes at lon -175, -165, ... 175 and lat -80 to
// 80; one column of quads across the antimeridian) with a 36-gon cap around each pole. Every
// other quad and the south cap wound the other way.
inline Ugrid globe() {
    Ugrid u;
    for (int r = 0; r < 17; ++r)
        for (int i = 0; i < 36; ++i) u.lon.push_back(-175 + 10 * i), u.lat.push_back(-80 + 10 * r);
    const auto at = [](int r, int i) { return (long long)(r * 36 + (i % 36)); };
    for (int r = 0; r < 16; ++r)
        for (int i = 0; i < 36; ++i) {
            std::vector<long long> q{at(r, i), at(r, i + 1), at(r + 1, i + 1), at(r + 1, i)};
            if ((r + i) % 2) std::reverse(q.begin(), q.end());
            u.faces.push_back(q);
        }
    std::vector<long long> north, south;
    for (int i = 0; i < 36; ++i) north.push_back(at(16, i)), south.push_back(at(0, 35 - i));
    u.faces.push_back(north);
    u.faces.push_back(south);
    return u;
}

// A tiny MPAS file: one cell of `count` edges over three vertices, `voc` its verticesOnCell.
inline std::string writeMpas(const QTemporaryDir& dir, const char* name, int count, std::vector<int> voc) {
    const std::string path = dir.filePath(name).toStdString();
    nctest::Writer w(path, NC_NETCDF4);
    const int cells = w.dim("nCells", 1), vertices = w.dim("nVertices", 3), most = w.dim("maxEdges", 4);
    const double r = std::numbers::pi / 180;
    const auto put1 = [&](const char* n, int dim) { return w.var(n, NC_DOUBLE, {dim}); };
    const int latCell = put1("latCell", cells), lonCell = put1("lonCell", cells);
    const int latVertex = put1("latVertex", vertices), lonVertex = put1("lonVertex", vertices);
    const int v = w.var("verticesOnCell", NC_INT, {cells, most}), n = w.var("nEdgesOnCell", NC_INT, {cells});
    const int h = w.var("h", NC_FLOAT, {cells});
    w.enddef();
    w.put(latCell, std::vector<double>{0.3 * r});
    w.put(lonCell, std::vector<double>{0.3 * r});
    w.put(latVertex, std::vector<double>{0, 0, 1 * r});
    w.put(lonVertex, std::vector<double>{0, 1 * r, 0});
    w.put(v, voc);
    w.put(n, std::vector<int>{count});
    w.put(h, std::vector<float>{1});
    return path;
}

// A tiny ICON grid file: one cell over three vertices, `voc` its vertex_of_cell.
inline std::string writeIcon(const QTemporaryDir& dir, const char* name, std::vector<int> voc) {
    const std::string path = dir.filePath(name).toStdString();
    nctest::Writer w(path, NC_NETCDF4);
    const int cell = w.dim("cell", 1), vertex = w.dim("vertex", 3), nv = w.dim("nv", 3);
    const int clon = w.var("clon", NC_DOUBLE, {cell}), clat = w.var("clat", NC_DOUBLE, {cell});
    const int vlon = w.var("vlon", NC_DOUBLE, {vertex}), vlat = w.var("vlat", NC_DOUBLE, {vertex});
    const int v = w.var("vertex_of_cell", NC_INT, {nv, cell}), t = w.var("t", NC_FLOAT, {cell});
    w.enddef();
    const double r = std::numbers::pi / 180;
    w.put(clon, std::vector<double>{0.3 * r});
    w.put(clat, std::vector<double>{0.3 * r});
    w.put(vlon, std::vector<double>{0, 1 * r, 0});
    w.put(vlat, std::vector<double>{0, 0, 1 * r});
    w.put(v, voc);
    w.put(t, std::vector<float>{1});
    return path;
}

// A tiny SCRIP file: two cells of four corners (degrees); `nanCorner` makes one corner NaN.
inline std::string writeScrip(const QTemporaryDir& dir, const char* name, bool nanCorner) {
    const std::string path = dir.filePath(name).toStdString();
    nctest::Writer w(path, NC_NETCDF4);
    const int size = w.dim("grid_size", 2), corners = w.dim("grid_corners", 4);
    const int clat = w.var("grid_corner_lat", NC_DOUBLE, {size, corners});
    const int clon = w.var("grid_corner_lon", NC_DOUBLE, {size, corners});
    const int area = w.var("grid_area", NC_DOUBLE, {size});
    for (int v : {clat, clon}) w.text(v, "units", "degrees");
    w.enddef();
    w.put(clat, std::vector<double>{0, 0, 1, 1, 0, 0, 1, nanCorner ? NAN : 1});
    w.put(clon, std::vector<double>{0, 1, 1, 0, 1, 2, 2, 1});
    w.put(area, std::vector<double>{1, 1});
    return path;
}

// A data file of `values` along `dim`, for a grid in another file.
inline std::string writeData(const QTemporaryDir& dir, const char* name, const char* dim, const char* var,
                             const std::vector<float>& values) {
    const std::string path = dir.filePath(name).toStdString();
    nctest::Writer w(path, NC_NETCDF4);
    const int d = w.dim(dim, values.size());
    const int v = w.var(var, NC_FLOAT, {d});
    w.enddef();
    w.put(v, values);
    return path;
}

inline Ugrid twoTriangles() {
    Ugrid u;
    u.lon = {0, 1, 1, 0};
    u.lat = {0, 0, 1, 1};
    u.faces = {{0, 1, 2}, {0, 2, 3}};
    return u;
}

} // namespace meshtest
