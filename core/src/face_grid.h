#pragma once
// FaceLocator's tables (face_locator.h), built on the host's threads: each node's unit vector,
// each face's winding, and the uniform lon/lat bin grid over the faces' boxes, each bin's faces
// in ascending order. The same mesh gives the same tables, bit for bit, on any thread count.
#include <cstdint>
#include <vector>

#include "face_find.h"
#include "strata/core/mesh.h"

namespace strata::mesh::detail {

struct FaceGrid {
    std::vector<double> xyz;       // nodes × 3: each node's unit vector
    std::vector<std::int8_t> sign; // each face's winding: 1 or -1 (0: no area, never found)
    double latMin = 0, dLat = 1, lonStart = -180, dLon = 360;
    int nx = 0, ny = 0;
    bool allLon = true;                 // the bins go round the whole circle of longitude
    std::vector<std::int64_t> binStart; // bins (row-major) + 1 offsets into binFaces; empty: no bins
    std::vector<std::uint32_t> binFaces;

    // Views of the tables, with `m`'s faceNodes (the mesh they were built from).
    FaceTables tables(const Mesh& m) const;
};

// The tables of `m` on `threads` threads (at least 1). Throws ValueError when m has more faces
// than 2^32 - 1, arrays whose sizes disagree, or a face naming a node it does not have.
FaceGrid buildFaceGrid(const Mesh& m, int threads);

} // namespace strata::mesh::detail
