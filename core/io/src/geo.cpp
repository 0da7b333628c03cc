#include "strata/io/geo.h"

#include "strata/core/healpix_grid.h"
#include "strata/core/mesh.h"

#include <functional>

#include <cmath>
#include <limits>

#include "strata/core/cf_axis.h"
#include "strata/core/error.h"
#include "strata/io/grid_mapping.h"

namespace strata::io {
namespace {

// A coordinate over the frame's two dims (in either order) whose attributes `is` holds for
// (isLatitudeLike, isLongitudeLike), and the flat position of (row, column) in it.
const Coordinate* over(const DataArray& frame, bool (*is)(const Attributes&)) {
    const std::vector<std::string> reversed(frame.dims().rbegin(), frame.dims().rend());
    for (const auto& c : frame.coords())
        if (!c.isIndex() && (c.dims == frame.dims() || c.dims == reversed) && is(c.attrs)) return &c;
    return nullptr;
}
std::int64_t flat(const DataArray& frame, const Coordinate& c, std::int64_t row, std::int64_t column) {
    return c.dims == frame.dims() ? row * frame.shape()[1] + column : column * frame.shape()[0] + row;
}

ValueFormat angleFormat(ValueFormat::Kind kind, double step) {
    ValueFormat f;
    f.kind = kind;
    // Decimals that resolve a fifth of a cell.
    f.decimals = step > 0 ? std::max(0, static_cast<int>(std::ceil(-std::log10(0.2 * step)))) : 3;
    return f;
}

} // namespace

struct LatLonLocator::Axes {
    const Coordinate *x, *y;
    bool xIsColumn; // frame dims (y, x); else (x, y)
};

LatLonLocator::LatLonLocator(const Dataset& ds, const DataArray& var)
    : path_(ds.path), variable_(var.name()) {
    const auto mappingName = var.attrs().text("grid_mapping");
    if (!mappingName || mappingName->empty()) return;
    try {
        const Variable* mapping = ds.findVariable(*mappingName);
        STRATA_EXPECTS(mapping, ValueError,
                       "its grid_mapping '" + *mappingName + "' is not a variable of the file");
        for (const auto& d : var.dims()) {
            const Coordinate* c = var.coords().find(d);
            if (!c || !c->isIndex()) continue;
            const CfAxis kind = cfAxisOf(c->attrs);
            if (kind == CfAxis::ProjectionX) xDim_ = d;
            if (kind == CfAxis::ProjectionY) yDim_ = d;
        }
        if (xDim_.empty() || yDim_.empty()) {
            for (const auto& d : var.dims()) { // CF's axis attribute, when the standard names are absent
                const Coordinate* c = var.coords().find(d);
                const std::string axis = c ? c->attrs.text("axis").value_or("") : std::string();
                if (xDim_.empty() && axis == "X") xDim_ = d;
                if (yDim_.empty() && axis == "Y") yDim_ = d;
            }
        }
        const std::string definition = projDefinition(mapping->attrs());
        const bool angular = isAngular(MapCrs{definition});
        if (angular) { // a rotated pole: its axes are grid_longitude and grid_latitude, in degrees
            xDim_.clear();
            yDim_.clear();
            for (const auto& d : var.dims()) {
                const Coordinate* c = var.coords().find(d);
                const std::string sn = c && c->isIndex() ? c->attrs.text("standard_name").value_or("") : "";
                if (sn == "grid_longitude") xDim_ = d;
                if (sn == "grid_latitude") yDim_ = d;
            }
            STRATA_EXPECTS(!xDim_.empty() && !yDim_.empty(), ValueError,
                           "it has no grid_longitude and grid_latitude dims");
        }
        STRATA_EXPECTS(!xDim_.empty() && !yDim_.empty(), ValueError,
                       "it has no projection_x_coordinate and projection_y_coordinate dims");
        const auto unitsOf = [&](const std::string& d) {
            return var.coords().find(d)->attrs.text("units").value_or("");
        };
        xScale_ = angular ? 1 : metresPerUnit(unitsOf(xDim_), mapping->attrs());
        yScale_ = angular ? 1 : metresPerUnit(unitsOf(yDim_), mapping->attrs());
        unprojection_ = std::make_unique<Unprojection>(definition);
        definition_ = definition;
    } catch (const Error& e) {
        problem_ = variable_ + ": no latitude and longitude from its grid mapping: " + e.what();
        unprojection_.reset();
    }
}

LatLonLocator::~LatLonLocator() = default;

std::optional<LatLonLocator::Axes> LatLonLocator::projectedAxes(const DataArray& frame) const {
    if (!unprojection_ || frame.ndim() != 2) return std::nullopt;
    const Coordinate* x = frame.coords().find(xDim_);
    const Coordinate* y = frame.coords().find(yDim_);
    if (!x || !y || !x->isIndex() || !y->isIndex()) return std::nullopt;
    if (frame.dims()[0] == yDim_ && frame.dims()[1] == xDim_) return Axes{x, y, true};
    if (frame.dims()[0] == xDim_ && frame.dims()[1] == yDim_) return Axes{x, y, false};
    return std::nullopt;
}

std::optional<MapCrs> LatLonLocator::crs(const DataArray& frame) const {
    const auto axes = projectedAxes(frame);
    if (!axes || !axes->xIsColumn) return std::nullopt;
    return MapCrs{definition_, xScale_, yScale_};
}

std::optional<LatLon> LatLonLocator::at(const DataArray& frame, std::int64_t row, std::int64_t column) const {
    if (frame.ndim() != 2 || row < 0 || column < 0 || row >= frame.shape()[0] || column >= frame.shape()[1])
        return std::nullopt;
    const Coordinate* lat = over(frame, isLatitudeLike);
    const Coordinate* lon = over(frame, isLongitudeLike);
    if (lat && lon)
        return LatLon{lat->values[std::size_t(flat(frame, *lat, row, column))],
                      lon->values[std::size_t(flat(frame, *lon, row, column))]};
    const auto axes = projectedAxes(frame);
    if (!axes) return std::nullopt;
    const std::int64_t xi = axes->xIsColumn ? column : row, yi = axes->xIsColumn ? row : column;
    const auto p = (*unprojection_)(axes->x->values[std::size_t(xi)] * xScale_,
                                    axes->y->values[std::size_t(yi)] * yScale_);
    return LatLon{p.lat, p.lon};
}

double LatLonLocator::cellDegrees(const DataArray& frame) const {
    const auto axes = projectedAxes(frame);
    if (!axes || axes->x->values.size() < 2) return 0;
    const double step = std::fabs(axes->x->values[1] - axes->x->values[0]);
    if (isAngular(MapCrs{definition_})) return step; // a rotated pole's grid degrees
    return step * xScale_ / 111'195.0;               // metres in a degree of a great circle
}

ValueFormat LatLonLocator::latFormat(const DataArray& frame) const {
    if (const Coordinate* lat = over(frame, isLatitudeLike)) return lat->valueFormat();
    return angleFormat(ValueFormat::Kind::Latitude, cellDegrees(frame));
}

ValueFormat LatLonLocator::lonFormat(const DataArray& frame) const {
    if (const Coordinate* lon = over(frame, isLongitudeLike)) return lon->valueFormat();
    return angleFormat(ValueFormat::Kind::Longitude, cellDegrees(frame));
}

DataArray LatLonLocator::withLatLon(const DataArray& frame) const {
    const auto axes = projectedAxes(frame);
    if (!axes || frame.coords().contains("lat") || frame.coords().contains("lon")) return frame;
    Coordinate lat, lon;
    lat.name = "lat";
    lon.name = "lon";
    for (Coordinate* c : {&lat, &lon}) {
        c->dims = frame.dims();
        c->shape = frame.shape();
        c->values.reserve(std::size_t(frame.size()));
    }
    lat.attrs.set({"units", DType::Char, std::string("degrees_north")});
    lon.attrs.set({"units", DType::Char, std::string("degrees_east")});
    for (std::int64_t r = 0; r < frame.shape()[0]; ++r)
        for (std::int64_t c = 0; c < frame.shape()[1]; ++c) {
            const auto p = at(frame, r, c);
            lat.values.push_back(p->lat);
            lon.values.push_back(p->lon);
        }
    lat.format = latFormat(frame);
    lon.format = lonFormat(frame);
    Coordinates coords = frame.coords();
    coords.set(std::move(lat));
    coords.set(std::move(lon));
    return DataArray(frame.name(), frame.variable(), std::move(coords));
}

namespace {

// `frame` (the values along cells' dim `dim`, all n of them) with each cell's centre (`centre(k,
// lon, lat)`, degrees) as 1-D `lat` and `lon` coordinates; `frame` as it is otherwise.
DataArray withCellCentres(const DataArray& frame, const std::string& dim, std::int64_t n,
                          const std::function<void(std::int64_t, double&, double&)>& centre) {
    if (frame.ndim() != 1 || frame.dims()[0] != dim || frame.size() != n || frame.coords().contains("lat") ||
        frame.coords().contains("lon"))
        return frame;
    Coordinate lat, lon;
    lat.name = "lat";
    lon.name = "lon";
    for (Coordinate* c : {&lat, &lon}) {
        c->dims = {dim};
        c->shape = {n};
        c->values.resize(std::size_t(n));
    }
    lat.attrs.set({"units", DType::Char, std::string("degrees_north")});
    lon.attrs.set({"units", DType::Char, std::string("degrees_east")});
    for (std::int64_t k = 0; k < n; ++k) centre(k, lon.values[std::size_t(k)], lat.values[std::size_t(k)]);
    Coordinates coords = frame.coords();
    coords.set(std::move(lat));
    coords.set(std::move(lon));
    return DataArray(frame.name(), frame.variable(), std::move(coords));
}

} // namespace

DataArray withLatLon(const DataArray& frame, const Dataset& ds, const Dataset* grid) {
    const DataArray* var = nullptr;
    DataArray found;
    try {
        found = ds[frame.name()];
        var = &found;
    } catch (const Error&) {
        return frame; // not a variable of the file (a computed one): nothing to project
    }
    try { // a HEALPix variable's cells, a mesh's faces or nodes: their centres
        if (const std::optional<healpix::Grid> g = healpix::gridOf(ds, *var)) {
            const std::int64_t n =
                g->cells.empty() ? healpix::cellCount(g->nside) : std::int64_t(g->cells.size());
            return withCellCentres(frame, g->dim, n, [&](std::int64_t k, double& lon, double& lat) {
                healpix::centreOf(g->nside, g->order, g->cells.empty() ? k : g->cells[std::size_t(k)], lon,
                                  lat);
            });
        }
        if (const std::optional<mesh::Placement> m = mesh::meshOf(ds, *var, grid)) {
            const bool faces = m->location == mesh::Location::Face;
            const std::vector<double>& lons = faces ? m->mesh.faceLon : m->mesh.nodeLon;
            const std::vector<double>& lats = faces ? m->mesh.faceLat : m->mesh.nodeLat;
            return withCellCentres(frame, faces ? m->mesh.faceDim : m->mesh.nodeDim,
                                   std::int64_t(lons.size()), [&](std::int64_t k, double& lon, double& lat) {
                                       lon = lons[std::size_t(k)];
                                       lat = lats[std::size_t(k)];
                                   });
        }
    } catch (const Error&) {
        return frame; // a grid the file says but cannot be (--info says why): the values alone
    }
    return LatLonLocator(ds, *var).withLatLon(frame);
}

} // namespace strata::io
