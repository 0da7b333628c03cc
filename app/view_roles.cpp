#include "view_roles.h"

#include <algorithm>

#include "strata/core/cell_areas.h"
#include "strata/core/cf_axis.h"
#include "strata/core/error.h"
#include "strata/core/healpix_grid.h"
#include "strata/core/mesh.h"

namespace strata::app {
namespace {

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

// The first dim of `var` whose index coordinate prefers `axis` by CF (cf_axis.h).
std::string dimWithAxis(const DataArray& var, ScreenAxis axis) {
    for (const auto& d : var.dims())
        if (const Coordinate* c = var.coords().find(d);
            c && c->isIndex() && screenAxisOf(cfAxisOf(c->attrs)) == axis)
            return d;
    return {};
}

void removeDim(ViewSpec& spec, const std::string& dim) {
    std::erase_if(spec.indices, [&](const auto& p) { return p.first == dim; });
    std::erase_if(spec.reductions, [&](const auto& p) { return p.first == dim; });
    if (spec.xDim == dim) spec.xDim.clear();
    if (spec.yDim == dim) spec.yDim.clear();
}

// Puts `dim` (in no role now) into `role`.
void place(ViewSpec& spec, const std::string& dim, Role role, ReduceOp op) {
    switch (role) {
    case Role::X:
        spec.xDim = dim;
        break;
    case Role::Y:
        spec.yDim = dim;
        break;
    case Role::Slice:
        break; // sliced at index 0: not listed
    case Role::Reduce:
        spec.reductions.push_back({dim, op});
        break;
    }
}

} // namespace

const Dataset& groupOf(const Dataset& root, const std::string& variablePath) {
    const auto slash = variablePath.rfind('/');
    if (slash == std::string::npos || slash == 0) return root;
    return root.findGroup(variablePath.substr(0, slash));
}

DataArray variableOf(const Dataset& root, const std::string& variablePath) {
    const auto slash = variablePath.rfind('/');
    const std::string name = slash == std::string::npos ? variablePath : variablePath.substr(slash + 1);
    return groupOf(root, variablePath)[name];
}

DataArray computeViewFrame(const Dataset& root, const DataArray& var, const FrameSpec& spec, Device device,
                           FallbackNote& note, const ViewLimits& limits, const Dataset* grid) {
    if (spec.areaMeanDims().empty()) return computeFrame(var, spec, device, note, limits);
    const AreaMeanInput in = areaMeanInput(groupOf(root, spec.variable), var, spec, grid);
    return computeFrame(in.var, in.spec, device, note, limits);
}

void validateView(const Dataset& root, const DataArray& var, const FrameSpec& spec, const Dataset* grid) {
    if (spec.areaMeanDims().empty()) return validate(spec, var);
    validate(spec, var, groupOf(root, spec.variable), grid);
}

const char* roleName(Role r) {
    switch (r) {
    case Role::X:
        return "X";
    case Role::Y:
        return "Y";
    case Role::Slice:
        return "Slice";
    case Role::Reduce:
        return "Reduce";
    }
    return "?";
}

Role roleOf(const ViewSpec& spec, const std::string& dim) {
    if (spec.xDim == dim) return Role::X;
    if (spec.yDim == dim) return Role::Y;
    for (const auto& [d, op] : spec.reductions)
        if (d == dim) return Role::Reduce;
    return Role::Slice;
}

std::string latitudeLikeDim(const DataArray& var) { return dimWithAxis(var, ScreenAxis::Y); }
std::string longitudeLikeDim(const DataArray& var) { return dimWithAxis(var, ScreenAxis::X); }

std::string defaultVariable(const Dataset& ds) {
    std::vector<std::string> bounds;
    for (const auto& [n, v] : ds.variables)
        if (auto b = v.attrs().text("bounds")) bounds.push_back(*b);
    std::string best;
    int bestDims = 0;
    for (const auto& name : ds.dataVariables()) {
        const Variable* v = ds.findVariable(name);
        if (!v || !isNumeric(v->dtype()) || v->ndim() == 0 || contains(bounds, name)) continue;
        if (best.empty() || v->ndim() > bestDims) {
            best = name;
            bestDims = v->ndim();
        }
    }
    if (!best.empty()) return ds.group.empty() || ds.group == "/" ? best : ds.group + "/" + best;
    for (const Dataset& g : ds.groups)
        if (std::string inGroup = defaultVariable(g); !inGroup.empty()) return inGroup;
    return {};
}

std::string cellDimOf(const Dataset& ds, const DataArray& var, const Dataset* grid) {
    try { // a grid that cannot be: --info and the window say why
        if (const std::optional<healpix::Grid> g = healpix::gridOf(ds, var))
            return contains(var.dims(), g->dim) ? g->dim : std::string();
        if (const std::optional<mesh::MeshDim> m = mesh::meshDimOf(ds, var, grid)) // metadata only
            return contains(var.dims(), m->dim) ? m->dim : std::string();
    } catch (const Error&) {
    }
    return {};
}

ViewSpec defaultView(const Dataset& ds, const std::string& variable, const Dataset* grid) {
    const DataArray var = ds[variable];
    const auto& dims = var.dims();
    ViewSpec spec;
    spec.file = ds.path;
    spec.variable = variable;
    if (dims.empty()) return spec;
    // A variable on cells along one dim (HEALPix, a mesh's faces): that dim alone, drawn as a map.
    if (const std::string cells = cellDimOf(ds, var, grid); !cells.empty()) {
        spec.xDim = cells;
        return spec;
    }
    std::string y = latitudeLikeDim(var), x = longitudeLikeDim(var);
    if (dims.size() == 1) {
        spec.xDim = dims[0];
        return spec;
    }
    if (x.empty() || x == y) x = (y == dims.back()) ? dims[dims.size() - 2] : dims.back();
    if (y.empty()) {
        for (auto it = dims.rbegin(); it != dims.rend(); ++it)
            if (*it != x) {
                y = *it;
                break;
            }
    }
    spec.xDim = x;
    spec.yDim = y;
    return spec;
}

ViewSpec assignRole(ViewSpec spec, const std::vector<std::string>& dims, const std::string& dim, Role role,
                    ReduceOp op) {
    if (!contains(dims, dim)) return spec;
    const Role from = roleOf(spec, dim);
    if (from == role) {
        if (role == Role::Reduce) // a new op for the same dim
            for (auto& [d, o] : spec.reductions)
                if (d == dim) o = op;
        return spec;
    }
    ReduceOp fromOp = op;
    for (const auto& [d, o] : spec.reductions)
        if (d == dim) fromOp = o;
    ViewSpec next = spec;
    removeDim(next, dim);
    // The dim already on an X or Y slot takes the place `dim` left.
    const std::string displaced = role == Role::X ? spec.xDim : role == Role::Y ? spec.yDim : std::string();
    if (!displaced.empty()) {
        removeDim(next, displaced);
        place(next, displaced, from, fromOp);
    }
    place(next, dim, role, op);
    if (next.xDim.empty()) {
        // X was left empty. A dim just put on Y keeps its place when a sliced dim can fill X;
        // otherwise Y moves to X (one X and no Y: a line).
        std::string firstSliced;
        for (const auto& d : dims)
            if (roleOf(next, d) == Role::Slice) {
                firstSliced = d;
                break;
            }
        const bool keepY = role == Role::Y && next.yDim == dim && !firstSliced.empty();
        if (!next.yDim.empty() && !keepY) {
            next.xDim = next.yDim;
            next.yDim.clear();
        } else if (!firstSliced.empty()) {
            removeDim(next, firstSliced);
            next.xDim = firstSliced;
        }
    }
    if (next.xDim.empty()) return spec; // nothing left to display
    // The zoom and pan window was in the old axes' coordinates.
    if (next.xDim != spec.xDim || next.yDim != spec.yDim) next.window.reset();
    return next;
}

const std::vector<ReduceOp>& chipReduceOps() {
    static const std::vector<ReduceOp> ops{ReduceOp::Mean, ReduceOp::Min, ReduceOp::Max, ReduceOp::Std,
                                           ReduceOp::Sum};
    return ops;
}

bool fitViewTo(const ViewSpec& saved, const Dataset& ds, ViewSpec& out, const Dataset* grid) {
    DataArray var;
    try {
        var = variableOf(ds, saved.variable);
    } catch (const Error&) {
        return false; // no such variable (or group) in this file
    }
    const auto& dims = var.dims();
    ViewSpec v = saved;
    v.file = ds.path;
    if (!contains(dims, v.xDim)) return false;
    if (!v.yDim.empty() && (!contains(dims, v.yDim) || v.yDim == v.xDim)) {
        v.yDim.clear();
        v.window.reset(); // a line now: no image to zoom
    }
    std::vector<std::string> seen{v.xDim};
    if (!v.yDim.empty()) seen.push_back(v.yDim);
    std::erase_if(v.reductions, [&](const auto& p) {
        if (!contains(dims, p.first) || contains(seen, p.first)) return true;
        seen.push_back(p.first);
        return false;
    });
    std::erase_if(v.indices, [&](const auto& p) {
        if (!contains(dims, p.first) || contains(seen, p.first)) return true;
        seen.push_back(p.first);
        return false;
    });
    for (auto& [d, i] : v.indices) i = std::clamp<std::int64_t>(i, 0, var.sizeOf(d) - 1);
    try {
        validateView(ds, var, v, grid);
    } catch (const Error&) {
        return false;
    }
    out = std::move(v);
    return true;
}

ViewSpec withIndex(ViewSpec s, const std::string& dim, std::int64_t index) {
    for (auto& [d, i] : s.indices)
        if (d == dim) {
            i = index;
            return s;
        }
    s.indices.push_back({dim, index});
    return s;
}

} // namespace strata::app
