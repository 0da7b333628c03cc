#pragma once
// The parts of meshOf (mesh.h): finding which layouts a file holds (cheaply, from its
// metadata), reading one into a Mesh, and the checks every reader ends with.
#include <cstdint>
#include <string>
#include <vector>

#include "strata/core/dataset.h"
#include "strata/core/mesh.h"

namespace strata::mesh::detail {

// A mesh a file holds, as its metadata says it (nothing read yet).
struct Found {
    std::string form;     // "UGRID", "MPAS", "ICON", "SCRIP"
    std::string topology; // UGRID: the mesh_topology variable
    std::string faceDim;  // the dims data lie along ("" when the file gives none)
    std::string nodeDim;  //
    const Dataset* file = nullptr;
    std::int64_t faceCount = -1, nodeCount = -1; // the dims' lengths (-1: no such dim)
};

// Where a problem is, for the messages: "<file>: <variable>: <form> mesh [<name>] [in <grid>]: ".
struct Where {
    std::string prefix;
    [[noreturn]] void fail(const std::string& problem) const;
};

// The meshes `ds` holds, UGRID topologies first, then MPAS, ICON and SCRIP.
std::vector<Found> meshesIn(const Dataset& ds);

// Reads the mesh `f` describes; every reader ends with finish().
Mesh readUgrid(const Found& f, const Where& w);
Mesh readMpas(const Found& f, const Where& w);
Mesh readIcon(const Found& f, const Where& w);
Mesh readScrip(const Found& f, const Where& w);

// A variable's decoded values as doubles (masked: NaN); fails when `name` is not in `ds`.
const Variable& need(const Dataset& ds, const std::string& name, const Where& w);
std::vector<double> valuesOf(const Variable& v);
// `v`'s values, which must lie along exactly `dims` (by name; lengths as `ds` says them).
std::vector<double> valuesAlong(const Dataset& ds, const std::string& name,
                                const std::vector<std::string>& dims, const Where& w);
bool saysRadians(const Variable& v, bool byDefault);
// A number as it reads: "768", "3.5".
std::string number(double v);

// Sets m.faceNodes from `raw`, faces × maxNodes values as the file stores them: `start` is the
// first node's number, NaN (a masked fill) is a pad, and with `counts` (MPAS' nEdgesOnCell)
// the entries past each face's count are pads too. Pads inside a row are closed up.
void connect(Mesh& m, const std::vector<double>& raw, std::int64_t faces, int maxNodes, double start,
             const std::vector<double>* counts, const std::string& name, const Where& w);
// Checks what every form must hold (matching sizes, at least three nodes a face, indices in
// range, finite node positions on the sphere), and fills face centres the file left out.
void finish(Mesh& m, const Where& w);

} // namespace strata::mesh::detail
