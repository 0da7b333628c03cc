#include "nc_group.h"

#include <netcdf.h>

#include <algorithm>
#include <limits>
#include <set>
#include <sstream>

#include "nc_call.h"
#include "nc_coords.h"
#include "nc_meta.h"
#include "nc_source.h"
#include "strata/core/array_view.h"
#include "strata/core/error.h"
#include "strata/core/memory_budget.h"

namespace strata::io::detail {
namespace {

std::string dimName(int groupId, int dimId, const std::string& context) {
    char name[NC_MAX_NAME + 1] = {};
    check(nc_inq_dimname(groupId, dimId, name), context + ": dimension " + std::to_string(dimId));
    return name;
}

// "(a = 1099511627776, b = 1073741824)"; `pending` is the length not yet in `shape`.
std::string describeShape(const std::vector<std::string>& dims, const Shape& shape, std::size_t pending) {
    std::string s = "(";
    for (std::size_t i = 0; i < dims.size(); ++i) {
        if (i) s += ", ";
        s += dims[i] + " = " +
             std::to_string(i < shape.size() ? std::uint64_t(shape[i]) : std::uint64_t(pending));
    }
    return s + ")";
}

// The group and id of variable `name` seen from `groupId`: there, or in an enclosing group.
std::optional<std::pair<int, int>> findInScope(int groupId, const std::string& name) {
    for (int g = groupId;;) {
        int varId = -1;
        if (nc_inq_varid(g, name.c_str(), &varId) == NC_NOERR) return std::pair{g, varId};
        int parent = -1;
        if (nc_inq_grp_parent(g, &parent) != NC_NOERR) return std::nullopt;
        g = parent;
    }
}

} // namespace

void GroupReader::readDims(int groupId, const Dataset* parent, Dataset& ds) {
    const std::string context = file_->name() + ": group '" + ds.group + "'";
    int ndims = 0;
    check(nc_inq_dimids(groupId, &ndims, nullptr, 0), context + ": dimensions");
    std::vector<int> ids(static_cast<std::size_t>(ndims));
    if (ndims) check(nc_inq_dimids(groupId, &ndims, ids.data(), 0), context + ": dimensions");
    int nunlim = 0;
    check(nc_inq_unlimdims(groupId, &nunlim, nullptr), context + ": unlimited dimensions");
    std::vector<int> unlimited(static_cast<std::size_t>(nunlim));
    if (nunlim)
        check(nc_inq_unlimdims(groupId, &nunlim, unlimited.data()), context + ": unlimited dimensions");
    for (int id : ids) {
        char name[NC_MAX_NAME + 1] = {};
        std::size_t len = 0;
        check(nc_inq_dim(groupId, id, name, &len), context + ": dimension " + std::to_string(id));
        STRATA_EXPECTS(len <= static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()), NetcdfError,
                       context + ": dimension '" + std::string(name) + "' declares an impossible length");
        Dimension d;
        d.name = name;
        d.length = static_cast<std::int64_t>(len);
        d.unlimited = std::find(unlimited.begin(), unlimited.end(), id) != unlimited.end();
        ds.dims.push_back(std::move(d));
    }
    if (parent)
        for (const Dimension& d : parent->dims)
            if (!ds.findDim(d.name)) ds.dims.push_back(d);
}

std::optional<std::pair<std::string, Variable>> GroupReader::readVariable(int groupId, int varId,
                                                                          const std::string& group) {
    char cname[NC_MAX_NAME + 1] = {};
    nc_type type = 0;
    int ndims = 0;
    check(nc_inq_var(groupId, varId, cname, &type, &ndims, nullptr, nullptr),
          file_->name() + ": variable " + std::to_string(varId) + " of group '" + group + "'");
    const std::string name = cname;
    const std::string context = describeVariable(*file_, variableLabel(group, name));
    std::vector<int> dimIds(static_cast<std::size_t>(ndims));
    if (ndims) check(nc_inq_vardimid(groupId, varId, dimIds.data()), context + ": dimensions");

    std::optional<DType> dtype = dtypeOfNc(type);
    if (!dtype && type > NC_MAX_ATOMIC_TYPE) { // an enum reads as its base integer type
        nc_type base = 0;
        int kind = 0;
        if (nc_inq_user_type(groupId, type, nullptr, nullptr, &base, nullptr, &kind) == NC_NOERR &&
            kind == NC_ENUM)
            dtype = dtypeOfNc(base);
    }
    if (!dtype) {
        notes_.lines.push_back(context + ": skipped (a user-defined netCDF-4 type)");
        return std::nullopt;
    }

    std::vector<std::string> dims;
    Shape shape;
    std::int64_t elements = 1;
    for (int id : dimIds) {
        dims.push_back(dimName(groupId, id, context));
        std::size_t len = 0;
        check(nc_inq_dimlen(groupId, id, &len), context + ": dimension '" + dims.back() + "'");
        const auto n = static_cast<std::int64_t>(len);
        STRATA_EXPECTS(n >= 0 && !__builtin_mul_overflow(elements, n, &elements), NetcdfError,
                       context + ": its declared size " + describeShape(dims, shape, len) +
                           " overflows 64 bits");
        shape.push_back(n);
    }
    std::int64_t bytes = 0;
    STRATA_EXPECTS(
        !__builtin_mul_overflow(elements, static_cast<std::int64_t>(sizeOf(*dtype)), &bytes), NetcdfError,
        context + ": its declared size in bytes " + describeShape(dims, shape, 0) + " overflows 64 bits");
    if (ndims > kMaxDims) {
        notes_.lines.push_back(context + ": skipped (" + std::to_string(ndims) + " dims; at most " +
                               std::to_string(kMaxDims) + " are supported)");
        return std::nullopt;
    }
    if (std::set<std::string>(dims.begin(), dims.end()).size() != dims.size()) {
        notes_.lines.push_back(context + ": skipped (it uses one dimension twice)");
        return std::nullopt;
    }

    Attributes attrs = readAttributes(groupId, varId, context);
    CfEncoding encoding = CfEncoding::fromAttributes(attrs, *dtype);
    // An attribute ignored in decoding is worth a line (once: a variable of an enclosing group
    // named by `coordinates` is read again from the group below).
    for (const CfWarning& w : encoding.warnings) {
        std::string line = context + ": " + w.text;
        if (std::find(notes_.lines.begin(), notes_.lines.end(), line) == notes_.lines.end())
            notes_.lines.push_back(std::move(line));
    }
    auto source =
        std::make_shared<NcVariableSource>(file_, groupId, varId, variableLabel(group, name), shape, *dtype);
    return std::pair{name, Variable::lazy(std::move(dims), std::move(shape), std::move(encoding),
                                          std::move(source), std::move(attrs))};
}

void GroupReader::readCoordinates(int groupId, const Dataset* parent, Dataset& ds) {
    const std::vector<std::string> names = coordinateNames(ds);
    for (const std::string& name : names) {
        const Variable* v = ds.findVariable(name);
        std::optional<std::pair<std::string, Variable>> outer;
        std::string label = variableLabel(ds.group, name);
        if (!v && parent && parent->coords.contains(name)) continue; // inherited below
        if (!v) { // named by `coordinates` but defined in an enclosing group (or nowhere)
            const auto where = findInScope(groupId, name);
            if (!where) {
                notes_.lines.push_back(file_->name() + ": coordinate '" + name +
                                       "' named by a 'coordinates'" + " attribute in group '" + ds.group +
                                       "' does not exist");
                continue;
            }
            const std::string group = groupPath(where->first);
            outer = readVariable(where->first, where->second, group);
            if (!outer) continue;
            v = &outer->second;
            label = variableLabel(group, name);
        }
        const std::string context = describeVariable(*file_, label);
        if (isNumeric(v->encoding().packed) &&
            !admitCoordinate(std::size_t(v->size()), context + ": a coordinate"))
            continue;
        if (auto c = decodeCoordinate(name, *v, context, notes_)) ds.coords.set(std::move(*c));
    }
}

bool GroupReader::admitCoordinate(std::size_t values, const std::string& what) {
    // Values as doubles, and a date for each when they are times.
    const std::size_t bytes = values * (sizeof(double) + sizeof(DateTime));
    const std::size_t limit = std::min(kMaxCoordinateBytes, memoryBudget());
    if (bytes <= limit && coordinateBytes_ <= limit - bytes) {
        coordinateBytes_ += bytes;
        return true;
    }
    notes_.lines.push_back(what + " of " + std::to_string(values) + " values (" + formatBytes(bytes) +
                           " on the host) is not kept: more than the " + formatBytes(limit) +
                           " a file's coordinates may take (the smaller of 4 GiB and STRATA_MEMORY_BUDGET)");
    return false;
}

Dataset GroupReader::read(int groupId, const Dataset* parent) {
    Depth depth(depth_);
    Dataset ds;
    ds.path = file_->path();
    ds.format = format_;
    ds.group = groupPath(groupId);
    readDims(groupId, parent, ds);
    ds.attrs = readAttributes(groupId, NC_GLOBAL, file_->name() + ": group '" + ds.group + "'");

    int nvars = 0;
    check(nc_inq_nvars(groupId, &nvars), file_->name() + ": variables of group '" + ds.group + "'");
    for (int id = 0; id < nvars; ++id)
        if (auto v = readVariable(groupId, id, ds.group)) ds.variables.push_back(std::move(*v));
    readCoordinates(groupId, parent, ds);
    if (parent)
        for (const Coordinate& c : parent->coords)
            if (!ds.coords.contains(c.name) &&
                admitCoordinate(c.values.size(), file_->name() + ": group '" + ds.group + "': coordinate '" +
                                                     c.name + "' (inherited)"))
                ds.coords.set(c);

    if (depth_ > kMaxGroupDepth) {
        notes_.lines.push_back(file_->name() + ": group '" + ds.group +
                               "': its groups are not read (more than " + std::to_string(kMaxGroupDepth) +
                               " levels deep)");
        return ds;
    }
    int ngroups = 0;
    check(nc_inq_grps(groupId, &ngroups, nullptr), file_->name() + ": groups of '" + ds.group + "'");
    std::vector<int> children(static_cast<std::size_t>(ngroups));
    if (ngroups) check(nc_inq_grps(groupId, &ngroups, children.data()), file_->name() + ": groups");
    for (int child : children) ds.groups.push_back(read(child, &ds));
    return ds;
}

} // namespace strata::io::detail
