// Unstructured meshes as files say them (issue 37): uxarray's test meshes (UGRID, MPAS, SCRIP),
// an ICON-layout mesh made from the MPAS one (make_icon_fixture.py), a global lon/lat mesh
// written here with faces across the antimeridian and caps around the poles, and each way a
// file can say an impossible mesh, refused with a message naming the file, the variable and
// what is wrong. FaceLocator finds every face at its centre, where the value Strata reads
// equals netCDF-C's reading of that face.
#include <QtTest/QtTest>

#include <QTemporaryDir>
#include <chrono>
#include <numbers>
#include <random>

#include "mesh_write.h"
#include "nc_write.h"
#include "strata/core/error.h"
#include "strata/core/face_locator.h"
#include "strata/core/mesh.h"
#include "strata/io/netcdf.h"

using namespace strata;
using mesh::FaceLocator;
using mesh::Location;

namespace {

const std::string kData = STRATA_TEST_DATA "/mesh/";

// `var`'s values along `dim` (its other dims at index 0), read by netCDF-C alone.
std::vector<double> netcdfC(const std::string& path, const std::string& var, const std::string& dim) {
    int nc = 0, id = 0, ndims = 0;
    nctest::ok(nc_open(path.c_str(), NC_NOWRITE, &nc), path.c_str());
    nctest::ok(nc_inq_varid(nc, var.c_str(), &id), var.c_str());
    nctest::ok(nc_inq_varndims(nc, id, &ndims), "nc_inq_varndims");
    std::vector<int> dims(std::size_t(ndims), 0);
    nctest::ok(nc_inq_vardimid(nc, id, dims.data()), "nc_inq_vardimid");
    std::vector<size_t> start(dims.size(), 0), count(dims.size(), 1);
    size_t n = 0;
    for (std::size_t k = 0; k < dims.size(); ++k) {
        char name[NC_MAX_NAME + 1];
        size_t len = 0;
        nctest::ok(nc_inq_dim(nc, dims[k], name, &len), "nc_inq_dim");
        if (name == dim) count[k] = n = len;
    }
    std::vector<double> out(n);
    nctest::ok(nc_get_vara_double(nc, id, start.data(), count.data(), out.data()), "nc_get_vara_double");
    nc_close(nc);
    return out;
}

// `var`'s values along `dim`, its other dims at index 0, as Strata reads them.
std::vector<double> strataValues(const DataArray& var, const std::string& dim) {
    std::vector<Indexer> others;
    for (const auto& d : var.dims())
        if (d != dim) others.push_back({d, std::int64_t(0)});
    return var.isel(others).asHost().values<double>();
}

// An independent answer: is (lon, lat) inside face f, every edge's great circle seen from it
// on the same side as the face's other corners?
bool oracleInside(const mesh::Mesh& m, std::int64_t f, double lon, double lat) {
    const auto vec = [](double lo, double la) {
        const double r = std::numbers::pi / 180;
        return std::array<double, 3>{std::cos(la * r) * std::cos(lo * r), std::cos(la * r) * std::sin(lo * r),
                                     std::sin(la * r)};
    };
    const int n = m.nodesOf(f);
    const auto p = vec(lon, lat);
    std::vector<std::array<double, 3>> v;
    for (int k = 0; k < n; ++k) {
        const auto i = std::size_t(m.faceNodes[std::size_t(f * m.maxNodes + k)]);
        v.push_back(vec(m.nodeLon[i], m.nodeLat[i]));
    }
    for (int k = 0; k < n; ++k) {
        const auto& a = v[std::size_t(k)];
        const auto& b = v[std::size_t((k + 1) % n)];
        const std::array<double, 3> e{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                      a[0] * b[1] - a[1] * b[0]};
        const auto side = [&](const std::array<double, 3>& q) {
            return e[0] * q[0] + e[1] * q[1] + e[2] * q[2];
        };
        const auto& other = v[std::size_t((k + 2) % n)];
        if (side(p) * side(other) < -1e-13) return false;
    }
    return true;
}

// Every face found at its own centre, and the value Strata reads there netCDF-C's.
void everyFaceAtItsCentre(const mesh::Placement& p, const Dataset& ds, const std::string& var) {
    const auto m = std::make_shared<const mesh::Mesh>(p.mesh);
    const FaceLocator locator(m);
    const std::string& dim = p.location == Location::Face ? m->faceDim : m->nodeDim;
    const std::vector<double> mine = strataValues(ds[var], dim);
    const std::vector<double> theirs = netcdfC(ds.path, var, dim);
    QCOMPARE(std::int64_t(theirs.size()), p.location == Location::Face ? m->faces() : m->nodes());
    for (std::int64_t f = 0; f < m->faces(); ++f) {
        const std::int64_t found = locator.find(m->faceLon[std::size_t(f)], m->faceLat[std::size_t(f)]);
        QVERIFY2(found == f, qPrintable(QString("%1: face %2 at its centre (%3, %4) found as %5")
                                            .arg(ds.path.c_str())
                                            .arg(f)
                                            .arg(m->faceLon[std::size_t(f)])
                                            .arg(m->faceLat[std::size_t(f)])
                                            .arg(found)));
        if (p.location == Location::Face) QCOMPARE(mine[std::size_t(found)], theirs[std::size_t(f)]);
    }
    if (p.location == Location::Node) QCOMPARE(mine, theirs);
}

// Random points: find() gives a face that holds the point, and -1 only where none does.
void agreesWithTheOracle(const mesh::Mesh& m, int points) {
    const FaceLocator locator(std::make_shared<const mesh::Mesh>(m));
    std::mt19937_64 rng(37);
    std::uniform_real_distribution<double> u(-1, 1), lon(-540, 540);
    std::vector<double> lons, lats;
    for (int i = 0; i < points; ++i) {
        lons.push_back(lon(rng));
        lats.push_back(std::asin(u(rng)) * 180 / std::numbers::pi);
    }
    const std::vector<std::int64_t> all = locator.findAll(lons.data(), lats.data(), lons.size());
    for (int i = 0; i < points; ++i) {
        const std::int64_t f = all[std::size_t(i)];
        QCOMPARE(f, locator.find(lons[std::size_t(i)], lats[std::size_t(i)]));
        if (f >= 0) {
            QVERIFY2(oracleInside(m, f, lons[std::size_t(i)], lats[std::size_t(i)]),
                     qPrintable(QString("(%1, %2) is not in face %3")
                                    .arg(lons[std::size_t(i)])
                                    .arg(lats[std::size_t(i)])
                                    .arg(f)));
        } else {
            for (std::int64_t g = 0; g < m.faces(); ++g)
                QVERIFY2(!oracleInside(m, g, lons[std::size_t(i)], lats[std::size_t(i)]),
                         qPrintable(QString("(%1, %2) not found, but face %3 holds it")
                                        .arg(lons[std::size_t(i)])
                                        .arg(lats[std::size_t(i)])
                                        .arg(g)));
        }
    }
}

} // namespace

using namespace meshtest;

class TestMeshGrid : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

private slots:
    // uxarray's UGRID meshes: data along the grid's face dim by name (quad-hexagon, the
    // DYAMOND subset), and along `ncol` beside a grid along nMesh2_face (outCSne30): by size.
    void ugridMeshes() {
        {
            const Dataset grid = io::openDataset(kData + "ugrid_outCSne30.ug");
            const Dataset data = io::openDataset(kData + "ugrid_outCSne30_vortex.nc");
            QVERIFY(!mesh::meshOf(data, data["psi"])); // alone, nothing says a mesh
            const auto p = mesh::meshOf(data, data["psi"], &grid);
            QVERIFY(p);
            QCOMPARE(QString::fromStdString(p->mesh.form), QString("UGRID"));
            QVERIFY(p->location == Location::Face);
            QCOMPARE(QString::fromStdString(p->mesh.faceDim), QString("ncol")); // the data's dim
            QCOMPARE(QString::fromStdString(p->mesh.nodeDim), QString("nMesh2_node"));
            QCOMPARE(p->mesh.faces(), std::int64_t(5400));
            QCOMPARE(p->mesh.nodes(), std::int64_t(5402));
            QCOMPARE(p->mesh.maxNodes, 4);
            QVERIFY(p->mesh.faceArea.empty());
            everyFaceAtItsCentre(*p, data, "psi");
            agreesWithTheOracle(p->mesh, 2000);
        }
        for (const auto& [gridFile, dataFile, var, faces, nodes, most] :
             {std::tuple{"ugrid_quadhex_grid.nc", "ugrid_quadhex_data.nc", "t2m", 4, 16, 6},
              std::tuple{"mpas_dyamond_grid_subset.nc", "mpas_dyamond_data_subset.nc", "gaussian", 195, 442,
                         10}}) {
            const Dataset grid = io::openDataset(kData + gridFile);
            const Dataset data = io::openDataset(kData + dataFile);
            const auto p = mesh::meshOf(data, data[var], &grid);
            QVERIFY2(p, gridFile);
            QCOMPARE(QString::fromStdString(p->mesh.form), QString("UGRID"));
            QCOMPARE(QString::fromStdString(p->mesh.faceDim), QString("n_face"));
            QCOMPARE(p->mesh.faces(), std::int64_t(faces));
            QCOMPARE(p->mesh.nodes(), std::int64_t(nodes));
            QCOMPARE(p->mesh.maxNodes, most);
            everyFaceAtItsCentre(*p, data, var);
            // regional meshes: points off them are in no face
            const FaceLocator locator(std::make_shared<const mesh::Mesh>(p->mesh));
            for (const auto& [lon, lat] : {std::pair{40.0, 0.0},
                                           {45.0, 5.0},
                                           {-135.0, 0.0},
                                           {1.0, 1.0},
                                           {-0.5, 0.4},
                                           {180.0, -89.0},
                                           {0.0, 90.0}})
                QCOMPARE(locator.find(lon, lat), std::int64_t(-1));
            // and the grid's own variables lie on it by name
            const auto own = mesh::meshOf(grid, grid["face_lat"]);
            QVERIFY(own && own->location == Location::Face);
        }
    }

    void mpasMesh() {
        const Dataset ds = io::openDataset(kData + "mpas_QU1920km.nc");
        const auto p = mesh::meshOf(ds, ds["areaCell"]);
        QVERIFY(p);
        QCOMPARE(QString::fromStdString(p->mesh.form), QString("MPAS"));
        QCOMPARE(QString::fromStdString(p->mesh.faceDim), QString("nCells"));
        QCOMPARE(QString::fromStdString(p->mesh.nodeDim), QString("nVertices"));
        QCOMPARE(p->mesh.faces(), std::int64_t(162));
        QCOMPARE(p->mesh.nodes(), std::int64_t(320));
        QCOMPARE(p->mesh.maxNodes, 6);
        QCOMPARE(p->mesh.faceArea, netcdfC(ds.path, "areaCell", "nCells"));
        // latCell in radians, as degrees
        QCOMPARE(p->mesh.faceLat[7], netcdfC(ds.path, "latCell", "nCells")[7] * 180 / std::numbers::pi);
        everyFaceAtItsCentre(*p, ds, "meshDensity");
        agreesWithTheOracle(p->mesh, 4000);
        const auto nodes = mesh::meshOf(ds, ds["areaTriangle"]);
        QVERIFY(nodes && nodes->location == Location::Node);
        everyFaceAtItsCentre(*nodes, ds, "areaTriangle");
    }

    void scripMeshes() {
        const Dataset ds = io::openDataset(kData + "scrip_outCSne8.nc");
        const auto p = mesh::meshOf(ds, ds["grid_area"]);
        QVERIFY(p);
        QCOMPARE(QString::fromStdString(p->mesh.form), QString("SCRIP"));
        QCOMPARE(QString::fromStdString(p->mesh.faceDim), QString("grid_size"));
        QVERIFY(p->mesh.nodeDim.empty()); // corners, each face its own
        QCOMPARE(p->mesh.faces(), std::int64_t(384));
        QCOMPARE(p->mesh.nodes(), std::int64_t(384 * 4));
        QCOMPARE(p->mesh.faceArea.size(), std::size_t(384));
        everyFaceAtItsCentre(*p, ds, "grid_area");
        agreesWithTheOracle(p->mesh, 2000);

        const Dataset rad = io::openDataset(kData + "scrip_radians_grid.nc");
        const auto r = mesh::meshOf(rad, rad["grid_area"]);
        QVERIFY(r);
        QCOMPARE(r->mesh.faces(), std::int64_t(2));
        QVERIFY(std::abs(r->mesh.faceLon[1] - 20) < 1e-9); // 0.349 rad
        QVERIFY(std::abs(r->mesh.nodeLat[0] - 25) < 1e-9);
        everyFaceAtItsCentre(*r, rad, "grid_area");
    }

    // ICON's two layouts (make_icon_fixture.py): the output file's bounds, and the grid file's
    // vertex_of_cell with data in a file of its own along `cell` (faces) or `vertex` (nodes).
    void iconMeshes() {
        const Dataset out = io::openDataset(kData + "icon_data.nc");
        const auto b = mesh::meshOf(out, out["tas"]);
        QVERIFY(b);
        QCOMPARE(QString::fromStdString(b->mesh.form), QString("ICON"));
        QCOMPARE(QString::fromStdString(b->mesh.faceDim), QString("ncells"));
        QVERIFY(b->mesh.nodeDim.empty());
        QCOMPARE(b->mesh.faces(), std::int64_t(320));
        QCOMPARE(b->mesh.nodes(), std::int64_t(960));
        everyFaceAtItsCentre(*b, out, "tas");
        agreesWithTheOracle(b->mesh, 2000);

        const Dataset grid = io::openDataset(kData + "icon_grid.nc");
        const auto g = mesh::meshOf(grid, grid["cell_area"]);
        QVERIFY(g);
        QCOMPARE(QString::fromStdString(g->mesh.faceDim), QString("cell"));
        QCOMPARE(QString::fromStdString(g->mesh.nodeDim), QString("vertex"));
        QCOMPARE(g->mesh.nodes(), std::int64_t(162));
        QCOMPARE(g->mesh.maxNodes, 3);
        QCOMPARE(g->mesh.faceArea, netcdfC(grid.path, "cell_area", "cell"));
        std::vector<float> onCells(320), onVertices(162);
        for (std::size_t i = 0; i < onCells.size(); ++i) onCells[i] = float(i) * 0.5f;
        for (std::size_t i = 0; i < onVertices.size(); ++i) onVertices[i] = float(i) + 0.25f;
        const Dataset cells = io::openDataset(writeData(dir_, "icon_cells.nc", "cell", "pr", onCells));
        const auto c = mesh::meshOf(cells, cells["pr"], &grid);
        QVERIFY(c && c->location == Location::Face);
        everyFaceAtItsCentre(*c, cells, "pr");
        const Dataset vertices =
            io::openDataset(writeData(dir_, "icon_vertices.nc", "vertex", "ps", onVertices));
        const auto v = mesh::meshOf(vertices, vertices["ps"], &grid);
        QVERIFY(v && v->location == Location::Node);
        everyFaceAtItsCentre(*v, vertices, "ps");
    }

    // Faces across the antimeridian, caps around both poles, edges that bulge poleward.
    void antimeridianAndPoles() {
        const Dataset ds = io::openDataset(write(dir_, "globe.nc", globe()));
        const auto p = mesh::meshOf(ds, ds["value"]);
        QVERIFY(p);
        QCOMPARE(p->mesh.faces(), std::int64_t(16 * 36 + 2));
        QCOMPARE(p->mesh.maxNodes, 36);
        everyFaceAtItsCentre(*p, ds, "value");
        const FaceLocator locator(std::make_shared<const mesh::Mesh>(p->mesh));
        const std::int64_t across = 8 * 36 + 35, north = 16 * 36, south = north + 1;
        for (double lon : {180.0, -180.0, 179.99, -179.99, 540.0, -900.0})
            QCOMPARE(locator.find(lon, 5), across);
        for (const auto& [lon, lat] : {std::pair{0.0, 85.0}, {123.0, 89.9}, {0.0, 90.0}, {-170.0, 80.05}})
            QCOMPARE(locator.find(lon, lat), north);
        for (const auto& [lon, lat] : {std::pair{-10.0, -88.0}, {0.0, -90.0}, {77.0, -80.05}})
            QCOMPARE(locator.find(lon, lat), south);
        // the cap's edge between nodes at lat 80 bulges to 80.035° midway: below it, the quad
        QCOMPARE(locator.find(-170, 80.02), std::int64_t(15 * 36));
        QCOMPARE(locator.find(-170, -80.02), std::int64_t(0));
        QCOMPARE(locator.find(NAN, 0), std::int64_t(-1));
        QCOMPARE(locator.find(0, 91), std::int64_t(-1));
        agreesWithTheOracle(p->mesh, 5000);
    }

    void nodeWeights() {
        const Dataset grid = io::openDataset(kData + "icon_grid.nc");
        const auto g = mesh::meshOf(grid, grid["cell_area"]);
        const auto m = std::make_shared<const mesh::Mesh>(g->mesh);
        const FaceLocator locator(m);
        const double r = std::numbers::pi / 180;
        for (std::int64_t f : {0, 17, 319}) {
            std::array<std::array<double, 3>, 3> v;
            std::array<double, 3> values;
            for (int k = 0; k < 3; ++k) {
                const auto i = std::size_t(m->faceNodes[std::size_t(f * 3 + k)]);
                v[k] = {std::cos(m->nodeLat[i] * r) * std::cos(m->nodeLon[i] * r),
                        std::cos(m->nodeLat[i] * r) * std::sin(m->nodeLon[i] * r),
                        std::sin(m->nodeLat[i] * r)};
                values[std::size_t(k)] = 2 + 3.0 * k * k;
            }
            const std::array<double, 3> bary{0.2, 0.5, 0.3};
            std::array<double, 3> q{};
            for (int k = 0; k < 3; ++k)
                for (int j = 0; j < 3; ++j) q[j] += bary[std::size_t(k)] * v[std::size_t(k)][j];
            const double lon = std::atan2(q[1], q[0]) / r, lat = std::atan2(q[2], std::hypot(q[0], q[1])) / r;
            QCOMPARE(locator.find(lon, lat), f);
            double w[3];
            QVERIFY(locator.weights(f, lon, lat, w));
            QVERIFY(std::abs(w[0] + w[1] + w[2] - 1) < 1e-12);
            double got = 0, want = 0;
            for (int k = 0; k < 3; ++k) {
                QVERIFY(std::abs(w[k] - bary[std::size_t(k)]) < 1e-9);
                got += w[k] * values[std::size_t(k)];
                want += bary[std::size_t(k)] * values[std::size_t(k)];
            }
            QVERIFY(std::abs(got - want) < 1e-9); // a linear function, reproduced
        }
        // other polygons: the mean of the nodes
        const Dataset mpas = io::openDataset(kData + "mpas_QU1920km.nc");
        const auto hex = std::make_shared<const mesh::Mesh>(mesh::meshOf(mpas, mpas["areaCell"])->mesh);
        const FaceLocator hexes(hex);
        std::vector<double> w(std::size_t(hex->maxNodes), -1);
        QVERIFY(hexes.weights(5, hex->faceLon[5], hex->faceLat[5], w.data()));
        const int n = hex->nodesOf(5);
        double sum = 0;
        for (int k = 0; k < hex->maxNodes; ++k) {
            QCOMPARE(w[std::size_t(k)], k < n ? 1.0 / n : 0.0);
            sum += w[std::size_t(k)];
        }
        QVERIFY(std::abs(sum - 1) < 1e-12);
        QVERIFY(!hexes.weights(-1, 0, 0, w.data()));
        QVERIFY(!hexes.weights(hex->faces(), 0, 0, w.data()));
    }

    void plainFilesSayNoMesh() {
        const Dataset plain = io::openDataset(STRATA_TEST_DATA "/tas_rectilinear_grid_2D.nc");
        QVERIFY(!mesh::meshOf(plain, plain["tas"]));
        const Dataset grid = io::openDataset(kData + "ugrid_quadhex_grid.nc");
        QVERIFY(!mesh::meshOf(plain, plain["tas"], &grid)); // no dim of 4 or 16 values
        const Dataset edges = io::openDataset(kData + "mpas_dyamond_grid_subset.nc");
        QVERIFY(!mesh::meshOf(edges, edges["edge_lat"])); // on edges: not drawn, not a mesh here
    }

    void badInputIsNamed_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("message");
        QTest::newRow("ugrid index out of range")
            << "range"
            << "connectivity index out of range: face 1 names node 7 in face_nodes, outside 0 to 3";
        QTest::newRow("ugrid 1-based index 0")
            << "start1"
            << "connectivity index out of range: face 1 names node 0 in face_nodes, outside 1 to 4";
        QTest::newRow("ugrid two nodes") << "two"
                                         << "face 1 has 2 nodes, fewer than three";
        QTest::newRow("ugrid mismatched sizes")
            << "sizes"
            << "mismatched sizes: node_lat lies along (n_node_lat), not (n_node)";
        QTest::newRow("ugrid NaN node") << "nan"
                                        << "non-finite node coordinates: node 3, used by face 1";
        QTest::newRow("ugrid latitude past a pole") << "pole"
                                                    << "node 2, used by face 0, lies at lat 95";
        QTest::newRow("mpas two edges") << "mpas2"
                                        << "face 0 has 2 nodes, fewer than three";
        QTest::newRow("mpas vertex 0") << "mpas0"
                                       << "face 0 names node 0 in verticesOnCell, outside 1 to 3";
        QTest::newRow("mpas count past maxEdges") << "mpas9"
                                                  << "face 0 has 9 nodes by its count, outside 0 to 4";
        QTest::newRow("icon vertex 4") << "icon4"
                                       << "face 0 names node 4 in vertex_of_cell, outside 1 to 3";
        QTest::newRow("scrip NaN corner") << "scrip"
                                          << "non-finite node coordinates: node 7, used by face 1";
        QTest::newRow("data of no grid's size")
            << "size"
            << "data whose size matches no grid: 3 values along n_face, where the mesh has 2";
    }
    void badInputIsNamed() {
        QFETCH(QString, kind);
        QFETCH(QString, message);
        Ugrid u = twoTriangles();
        std::string path, var = "value", gridPath;
        if (kind == "range") u.faces[1] = {0, 2, 7};
        if (kind == "start1") u.start = 1, u.faces = {{1, 2, 3}, {0, 1, 3}};
        if (kind == "two") u.faces[1] = {0, 2};
        if (kind == "sizes") u.latOwnDim = true, u.lat.push_back(2);
        if (kind == "nan") u.lon[3] = NAN;
        if (kind == "pole") u.lat[2] = 95;
        if (kind.startsWith("mpas")) {
            var = "h";
            path = kind == "mpas2"   ? writeMpas(dir_, "mpas2.nc", 2, {1, 2, 0, 0})
                   : kind == "mpas0" ? writeMpas(dir_, "mpas0.nc", 3, {1, 0, 2, 0})
                                     : writeMpas(dir_, "mpas9.nc", 9, {1, 2, 3, 0});
        } else if (kind == "icon4") {
            var = "t";
            path = writeIcon(dir_, "icon4.nc", {1, 2, 4});
        } else if (kind == "scrip") {
            var = "grid_area";
            path = writeScrip(dir_, "scrip.nc", true);
        } else if (kind == "size") {
            gridPath = write(dir_, "size_grid.nc", u);
            var = "tos";
            path = writeData(dir_, "size_data.nc", "n_face", "tos", {1, 2, 3});
        } else {
            path = write(dir_, qPrintable(kind + ".nc"), u);
        }
        const Dataset ds = io::openDataset(path);
        const Dataset grid = gridPath.empty() ? Dataset{} : io::openDataset(gridPath);
        QString said;
        try {
            (void)mesh::meshOf(ds, ds[var], gridPath.empty() ? nullptr : &grid);
        } catch (const ValueError& e) {
            said = e.what();
        }
        QVERIFY2(said.startsWith(QString::fromStdString(path + ": " + var + ": ")), qPrintable(said));
        if (!gridPath.empty())
            QVERIFY2(said.contains(QString::fromStdString(" in " + gridPath)), qPrintable(said));
        QVERIFY2(said.contains(message), qPrintable(said));
    }

    // Faces that overlap (as a hostile file's may): the bins coarsen rather than hold every
    // large face many times over, and each point still gets a face that holds it.
    void overlappingFacesStayBounded() {
        auto m = std::make_shared<mesh::Mesh>();
        m->maxNodes = 3;
        for (int f = 0; f < 40000; ++f) {
            const double lon = -170 + (f % 340), lat = -60 + (f / 340) % 120, size = f % 2 ? 0.01 : 60;
            const std::int64_t a = m->nodes();
            m->nodeLon.insert(m->nodeLon.end(), {lon, lon + size, lon});
            m->nodeLat.insert(m->nodeLat.end(), {lat, lat, std::min(89.0, lat + size)});
            m->faceNodes.insert(m->faceNodes.end(), {a, a + 1, a + 2});
            m->faceLon.push_back(lon), m->faceLat.push_back(lat);
        }
        const auto t0 = std::chrono::steady_clock::now();
        const FaceLocator locator(m);
        const double built = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        QVERIFY2(built < 5, qPrintable(QString("%1 s").arg(built)));
        for (double lon : {-100.0, 0.0, 33.3})
            for (double lat : {-30.0, 0.0, 45.0}) {
                const std::int64_t f = locator.find(lon, lat);
                QVERIFY(f >= 0 && oracleInside(*m, f, lon, lat));
            }
    }

    // A million faces (a 0.25° lon/lat mesh) index in about a second on one core; a 1080p
    // screen's pixels are found over the machine's threads.
    void buildsFast() {
        auto m = std::make_shared<mesh::Mesh>();
        const int nx = 1440, ny = 720;
        m->form = "UGRID";
        m->maxNodes = 4;
        for (int r = 0; r <= ny; ++r)
            for (int i = 0; i < nx; ++i)
                m->nodeLon.push_back(-180 + 0.25 * i), m->nodeLat.push_back(-90 + 0.25 * r);
        for (int r = 0; r < ny; ++r)
            for (int i = 0; i < nx; ++i) {
                const std::int64_t a = std::int64_t(r) * nx;
                const std::int64_t b = a + nx;
                const std::int64_t next = (i + 1) % nx;
                if (r == 0) // the row at the south pole: triangles, the pole one node of them
                    m->faceNodes.insert(m->faceNodes.end(), {a + i, b + next, b + i, -1});
                else if (r == ny - 1)
                    m->faceNodes.insert(m->faceNodes.end(), {a + i, a + next, b + i, -1});
                else
                    m->faceNodes.insert(m->faceNodes.end(), {a + i, a + next, b + next, b + i});
                m->faceLon.push_back(-180 + 0.25 * i + 0.125);
                m->faceLat.push_back(-90 + 0.25 * r + 0.125);
            }
        const auto t0 = std::chrono::steady_clock::now();
        const FaceLocator locator(m);
        const double built = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        // the pixels of a 1920 × 1080 plate carrée screen, row by row, as a frame asks for them
        std::vector<double> lon, lat;
        for (int y = 0; y < 1080; ++y)
            for (int x = 0; x < 1920; ++x)
                lon.push_back(-180 + (x + 0.5) * 360 / 1920), lat.push_back(90 - (y + 0.5) * 180 / 1080);
        const auto t1 = std::chrono::steady_clock::now();
        const auto found = locator.findAll(lon.data(), lat.data(), lon.size());
        const double searched = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        qInfo("1,036,800 faces indexed in %.3f s (%d × %d bins); 1920 × 1080 pixels found in %.3f s", built,
              locator.binsAcross(), locator.binsDown(), searched);
        QVERIFY(std::count(found.begin(), found.end(), -1) == 0);
        for (std::size_t i = 0; i < lon.size(); i += 997) QVERIFY(oracleInside(*m, found[i], lon[i], lat[i]));
        QVERIFY2(built < 10, "indexing a million faces should take about a second");
    }
};

QTEST_GUILESS_MAIN(TestMeshGrid)
#include "tst_meshgrid.moc"
