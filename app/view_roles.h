#pragma once
// The view as plain data, and the pure rules the dimension bar follows: the roles a variable
// starts with, and moving a dim to X, Y, Slice or Reduce (dropping on an occupied slot swaps).
// Used by the window and the command line alike; no Qt here.
#include <string>
#include <vector>

#include "strata/core/dataset.h"
#include "view_spec.h"

namespace strata::app {

// The variable a spec names: "name" in the root group, "/a/b/name" in a group. Throw
// ValueError naming the file when there is no such group or variable.
const Dataset& groupOf(const Dataset& root, const std::string& variablePath);
DataArray variableOf(const Dataset& root, const std::string& variablePath);

// computeFrame and validate (view.h) for the view `spec` of `var` (root's spec.variable, or its
// resident copy), where an area mean may also weigh by the cells of the sphere the variable lies
// on (cell_areas.h: a HEALPix grid, a mesh's faces, the mesh in its group or in `grid`).
DataArray computeViewFrame(const Dataset& root, const DataArray& var, const FrameSpec& spec, Device device,
                           FallbackNote& note, const ViewLimits& limits, const Dataset* grid = nullptr);
void validateView(const Dataset& root, const DataArray& var, const FrameSpec& spec,
                  const Dataset* grid = nullptr);

enum class Role { X, Y, Slice, Reduce };
const char* roleName(Role r); // "X", "Y", "Slice", "Reduce"

// Where `dim` is in `spec` (Slice for a dim the spec does not mention).
Role roleOf(const ViewSpec& spec, const std::string& dim);

// The dims of `var` whose coordinates prefer the screen's Y (X) axis by CF (screenAxisOf in
// cf_axis.h: latitude, grid_latitude, projection_y_coordinate, axis Y; and the X equivalents),
// empty when none is.
std::string latitudeLikeDim(const DataArray& var);
std::string longitudeLikeDim(const DataArray& var);

// The dim of `var` along which its file places it on cells of the sphere (a HEALPix grid, a
// mesh's faces or nodes); empty when it says none, or says one that cannot be.
std::string cellDimOf(const Dataset& ds, const DataArray& var, const Dataset* grid = nullptr);

// The view a variable opens with: its cell dim alone on X for a variable on cells of the sphere
// (cellDimOf), else lat/lon-like dims on Y and X when recognised, else its last two dims (a 1-D variable is a
// line along its dim); every other dim sliced at index 0. `grid`: a file holding the mesh the variable's own
// file lacks (--grid-file).
ViewSpec defaultView(const Dataset& ds, const std::string& variable, const Dataset* grid = nullptr);

// The variable to show first: the first numeric data variable with the most dims that is not
// a coordinate's bounds, in the root group, else in the first group that has one (as a path,
// "/a/b/name"). Empty when there is none.
std::string defaultVariable(const Dataset& ds);

// `spec` with `dim` (one of `dims`, the variable's) moved to `role`. When it lands on an
// occupied X or Y slot, the dim there takes the place `dim` came from (a swap). When X is left
// empty, the first sliced dim fills it if `dim` went to Y; otherwise Y moves to X (a line).
// A dim leaving Slice forgets its index; one entering it starts at index 0. A move that changes
// X or Y drops the zoom and pan window (it was in the other axes' coordinates). A move that would
// leave nothing displayed is refused (returns `spec` unchanged).
// `s` with sliced dim `dim` at `index` (its entry set where it has one, else added).
ViewSpec withIndex(ViewSpec s, const std::string& dim, std::int64_t index);

ViewSpec assignRole(ViewSpec spec, const std::vector<std::string>& dims, const std::string& dim, Role role,
                    ReduceOp op = ReduceOp::Mean);

// The reduce ops the dimension bar offers.
const std::vector<ReduceOp>& chipReduceOps();

// `saved` made to fit `var` (a file may have changed since): dims it names that `var` lacks
// are dropped, indices are clamped, and when X is gone the default view is taken. Returns
// false (and leaves `out` alone) when the saved view is for another variable.
bool fitViewTo(const ViewSpec& saved, const Dataset& ds, ViewSpec& out, const Dataset* grid = nullptr);

} // namespace strata::app
