#pragma once
// Area means over cells of the sphere that are not rows of latitude and longitude (issue 37): a
// mesh's faces weigh by their areas (the file's own, else their spherical polygons'), a HEALPix
// grid's cells by nothing (they all have one area, so the area mean is the plain mean).
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "strata/core/data_array.h"
#include "strata/core/dataset.h"
#include "strata/core/mesh.h"
#include "strata/core/view.h"

namespace strata {

// What `var`'s cells along `dim` weigh in an area mean.
struct CellAreas {
    std::string dim;
    std::shared_ptr<const std::vector<double>> values; // one per cell, any unit; null: all equal
    std::string source; // "areaCell" (the file's variable), "spherical polygons", "HEALPix"
};

// The cell dim `var` lies along on a HEALPix grid or a mesh's faces (mesh.h, healpix_grid.h;
// the mesh in `ds` or in `grid`, a grid file beside it), from the files' metadata only (cheap);
// empty when it lies on neither, or on a mesh's nodes (which are not cells). Throws as
// healpix::gridOf and mesh::meshDimOf do.
std::string cellAreaDim(const Dataset& ds, const DataArray& var, const Dataset* grid = nullptr);

// The areas of the cells `var` lies along (cellAreaDim), reading the mesh where it is one: the
// file's own areas when it has them (mesh::Mesh::faceArea), else each face's spherical polygon
// (its nodes joined by great circles). The last few are kept, so a view scrubbed step by step
// reads its mesh once. nullopt where cellAreaDim is empty.
std::optional<CellAreas> cellAreasOf(const Dataset& ds, const DataArray& var, const Dataset* grid = nullptr);

// The areas of a mesh's faces as spherical polygons on the unit sphere (steradians): each face
// a fan of spherical triangles from its first node, their signed excesses summed, so a face
// that is not convex (but seen whole from its first node) is measured right too.
std::vector<double> sphericalFaceAreas(const mesh::Mesh& m);

// validate(spec, var) (view.h) where an area mean may also weigh by `var`'s cells on a HEALPix
// grid or a mesh (cellAreaDim): the mean is then over that dim, among others.
void validate(const FrameSpec& spec, const DataArray& var, const Dataset& ds, const Dataset* grid);

// What an area mean is computed with: `var` and `spec` as given, but where the spec averages
// over a dim of cells (cellAreaDim) and `var` has no cell areas of its own there, the cells'
// areas become a coordinate of `var` named by its cell_measures ("area: <name>"), or, for a
// HEALPix grid's equal cells averaged alone, the spec's mean a plain one (the same number).
struct AreaMeanInput {
    DataArray var;
    FrameSpec spec;
};
AreaMeanInput areaMeanInput(const Dataset& ds, const DataArray& var, const FrameSpec& spec,
                            const Dataset* grid = nullptr);

} // namespace strata
