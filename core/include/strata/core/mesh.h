#pragma once
// Which variables of a file lie on an unstructured mesh, as the file (or a separate grid file
// opened beside it) says it in one of the four layouts in use (issue 37):
// - UGRID 2-D: a variable with cf_role = "mesh_topology" and topology_dimension = 2, its
//   face_node_connectivity (start_index 0 or 1, _FillValue pads) and node_coordinates; data
//   name it in `mesh` with `location` = face or node, or lie along its face or node dim;
// - MPAS: latCell/lonCell, latVertex/lonVertex (radians), verticesOnCell (1-based, padded past
//   nEdgesOnCell); data along nCells (faces) or nVertices (nodes);
// - ICON: clon/clat (radians) with clon_bnds/clat_bnds, or with vertex_of_cell (nv × cell,
//   1-based) and vlon/vlat; data along clon's dim (`ncells` or `cell`) or vlon's (nodes);
// - SCRIP: grid_corner_lat/grid_corner_lon and grid_center_lat/grid_center_lon in the degrees
//   or radians their units say; data along grid_size.
// ICON's bounds and SCRIP's corners are taken as they are, each face its own nodes (not
// deduplicated, so such a mesh has no node dim for data); a corner that repeats the one before
// it (SCRIP's padding) is dropped.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/dataset.h"

namespace strata::mesh {

// A mesh's geometry on the sphere, in degrees, with the dims its data lie along.
struct Mesh {
    std::string form;                     // "UGRID", "MPAS", "ICON", "SCRIP"
    std::string faceDim, nodeDim;         // the dims data lie along on faces and on nodes (nodeDim empty
                                          // where the form has none usable for data)
    std::vector<double> nodeLon, nodeLat; // degrees (MPAS radians converted), longitudes as the
                                          // file gives them
    int maxNodes = 0;                     // nodes per face at most
    std::vector<std::int64_t> faceNodes;  // faces × maxNodes, 0-based node indices, -1 pads
    std::vector<double> faceLon, faceLat; // each face's centre, degrees (the file's, else the
                                          // mean of its nodes' unit vectors)
    std::vector<double> faceArea;         // from the file (MPAS areaCell, ICON cell_area, SCRIP
                                          // grid_area, UGRID a var whose standard_name is cell_area on
                                          // the face dim) in its units; empty when none
    std::int64_t faces() const { return std::int64_t(faceLon.size()); }
    std::int64_t nodes() const { return std::int64_t(nodeLon.size()); }
    // The nodes of `face` (its first n entries of faceNodes are not -1).
    int nodesOf(std::int64_t face) const;
};

enum class Location { Face, Node };

// The mesh a variable lies on and where its values sit. The variable's dim along the mesh is
// mesh.faceDim (Face) or mesh.nodeDim (Node).
struct Placement {
    Mesh mesh;
    Location location = Location::Face;
};

// The mesh `var` lies on, looking for the mesh's variables in `ds` and then in `grid` (a
// separate grid file, as MPAS, ICON and uxarray often ship it), with where its values sit;
// nullopt when neither says it lies on a mesh (or it lies on UGRID edges, not drawn). A dim
// matches a mesh's face or node dim by name and size. A variable of `ds` whose dims name none
// of the grid file's mesh dims may still match one by size alone: when exactly one of its dims
// (one with no index coordinate) has the length of the grid's faces or nodes, and of only one
// of them (uxarray ships data along `ncol` beside a grid along `nMesh2_face`); that dim then
// stands as faceDim or nodeDim. Throws ValueError naming the file, the variable and the
// problem: a dim named as a mesh dim but of another length ("data whose size matches no
// grid"), connectivity out of range, a face with fewer than three nodes, coordinate arrays of
// mismatched sizes, a non-finite or impossible node position that a face uses.
std::optional<Placement> meshOf(const Dataset& ds, const DataArray& var, const Dataset* grid = nullptr);

// What meshOf would say of `var` without reading the mesh (from the files' metadata: cheap, for
// choosing a view as a file opens): the mesh's form, the dim `var` lies along on it and whether
// on faces or nodes. nullopt and throws as meshOf, but for a mesh whose arrays are bad (found
// only when read).
struct MeshDim {
    std::string form, dim;
    Location location = Location::Face;
};
std::optional<MeshDim> meshDimOf(const Dataset& ds, const DataArray& var, const Dataset* grid = nullptr);

} // namespace strata::mesh
