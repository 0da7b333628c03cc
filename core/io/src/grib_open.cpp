// openGrib: a GRIB file's hypercubes (grib_cube.h) as a Dataset, cfgrib's names and attributes.
#include <eccodes.h>

#include <algorithm>
#include <functional>
#include <optional>

#include "grib_cube.h"
#include "grib_handle.h"
#include "grib_index.h"
#include "grib_mapping.h"
#include "grib_reduced.h"
#include "grib_set.h"
#include "grib_source.h"
#include "nc_coords.h"
#include "strata/core/error.h"
#include "strata/io/grib.h"
#include "strata/io/multifile.h"

namespace strata::io {
namespace detail {
namespace {

Attribute textAttr(std::string name, std::string value) {
    Attribute a;
    a.name = std::move(name);
    a.type = DType::Char;
    a.value = std::move(value);
    return a;
}

Attribute keyAttr(const GribKey& k) {
    if (k.text) return textAttr("GRIB_" + k.name, *k.text);
    Attribute a;
    a.name = "GRIB_" + k.name;
    if (!k.array.empty()) { // pl
        a.type = DType::Int64;
        a.value = std::vector<std::int64_t>(k.array.begin(), k.array.end());
    } else if (k.integer) {
        a.type = DType::Int64;
        a.value = std::vector<std::int64_t>{std::int64_t(k.number)};
    } else {
        a.type = DType::Float64;
        a.value = std::vector<double>{k.number};
    }
    return a;
}

// cfgrib's attributes of its coordinates.
Attributes axisAttrs(const std::string& name) {
    struct Row {
        const char* name;
        std::vector<std::pair<const char*, const char*>> attrs;
    };
    static const std::vector<Row> rows = {
        {"number",
         {{"long_name", "ensemble member numerical id"}, {"units", "1"}, {"standard_name", "realization"}}},
        {"time",
         {{"long_name", "initial time of forecast"},
          {"standard_name", "forecast_reference_time"},
          {"units", "seconds since 1970-01-01T00:00:00"},
          {"calendar", "proleptic_gregorian"}}},
        {"step",
         {{"long_name", "time since forecast_reference_time"},
          {"standard_name", "forecast_period"},
          {"units", "hours"}}},
        {"valid_time",
         {{"standard_name", "time"},
          {"long_name", "time"},
          {"units", "seconds since 1970-01-01T00:00:00"},
          {"calendar", "proleptic_gregorian"}}},
        {"isobaricInhPa",
         {{"long_name", "pressure"},
          {"units", "hPa"},
          {"positive", "down"},
          {"stored_direction", "decreasing"},
          {"standard_name", "air_pressure"}}},
        {"isobaricInPa",
         {{"long_name", "pressure"},
          {"units", "Pa"},
          {"positive", "down"},
          {"stored_direction", "decreasing"},
          {"standard_name", "air_pressure"}}},
        {"isobaricLayer",
         {{"long_name", "pressure"},
          {"units", "Pa"},
          {"positive", "down"},
          {"standard_name", "air_pressure"}}},
        {"hybrid",
         {{"long_name", "hybrid level"},
          {"units", "1"},
          {"positive", "down"},
          {"standard_name", "atmosphere_hybrid_sigma_pressure_coordinate"}}},
        {"heightAboveGround",
         {{"long_name", "height above the surface"},
          {"units", "m"},
          {"positive", "up"},
          {"standard_name", "height"}}},
        {"depthBelowLand",
         {{"long_name", "soil depth"}, {"units", "m"}, {"positive", "down"}, {"standard_name", "depth"}}},
        {"depthBelowLandLayer",
         {{"long_name", "soil depth"}, {"units", "m"}, {"positive", "down"}, {"standard_name", "depth"}}},
        {"latitude", {{"units", "degrees_north"}, {"standard_name", "latitude"}, {"long_name", "latitude"}}},
        {"longitude",
         {{"units", "degrees_east"}, {"standard_name", "longitude"}, {"long_name", "longitude"}}},
    };
    Attributes out;
    for (const Row& r : rows)
        if (name == r.name) {
            for (const auto& [k, v] : r.attrs) out.set(textAttr(k, v));
            return out;
        }
    out.set(textAttr("long_name", "original GRIB coordinate for key: level(" + name + ")"));
    out.set(textAttr("units", "1"));
    return out;
}

class CubeBuilder {
public:
    // `path` names the dataset (its first file); `what` names it in errors (the file, or the set).
    CubeBuilder(std::shared_ptr<const GribFiles> files, std::string path, std::string what,
                const GribIndex& index, OpenNotes& notes)
        : files_(std::move(files)), path_(std::move(path)), what_(std::move(what)), index_(index),
          notes_(notes) {}

    Dataset build(const GribCube& cube, const std::string& group) {
        Dataset ds;
        ds.path = path_;
        ds.group = group;
        ds.format = formatOf(index_.messages);
        const GribMessage& first = index_.messages[cube.first];
        for (const GribKey& k : first.globals) ds.attrs.set(keyAttr(k));
        globalAttrs(ds.attrs);
        std::vector<std::string> coordNames; // cfgrib's order: the axes, latitude, longitude, valid_time
        std::vector<std::string> headerDims;
        std::vector<std::int64_t> headerShape;
        for (const GribAxis& a : cube.axes) {
            const bool dim = a.values.size() > 1;
            const std::vector<std::string> dims =
                dim ? std::vector<std::string>{a.name} : std::vector<std::string>{};
            addCoordinate(ds, a.name, dims, a.values, axisAttrs(a.name));
            coordNames.push_back(a.name);
            if (dim) {
                headerDims.push_back(a.name);
                headerShape.push_back(std::int64_t(a.values.size()));
            }
        }
        // A projected grid's CF grid-mapping variable, a reduced Gaussian grid's UGRID mesh.
        std::string mappingName, meshName;
        const std::vector<std::string> geoDims = addGrid(ds, cube, coordNames, mappingName, meshName);
        addValidTime(ds, cube, coordNames);
        std::string coordinates;
        for (const std::string& c : coordNames) coordinates += (coordinates.empty() ? "" : " ") + c;
        for (const GribCubeVariable& v : cube.variables)
            addVariable(ds, v, headerDims, headerShape, geoDims, coordinates, mappingName, meshName);
        for (const std::string& name : coordinateNames(ds)) {
            const Variable* v = ds.findVariable(name);
            if (!v) continue;
            if (auto c = decodeCoordinate(name, *v, what_ + ": variable '" + name + "'", notes_)) {
                if (name == "number") c->dtype = DType::Int64;
                ds.coords.set(std::move(*c));
            }
        }
        return ds;
    }

    static std::string formatOf(const std::vector<GribMessage>& messages) {
        bool one = false, two = false;
        for (const GribMessage& m : messages) (m.span.edition == 1 ? one : two) = true;
        return one && two ? "GRIB 1 and 2" : one ? "GRIB 1" : "GRIB 2";
    }

    static void globalAttrs(Attributes& attrs) {
        attrs.set(textAttr("Conventions", "CF-1.7"));
        if (auto d = attrs.text("GRIB_centreDescription")) attrs.set(textAttr("institution", *d));
    }

private:
    void addCoordinate(Dataset& ds, const std::string& name, std::vector<std::string> dims,
                       std::vector<double> values, Attributes attrs) {
        Shape shape;
        for (const std::string& d : dims) {
            const Dimension* dim = ds.findDim(d);
            shape.push_back(dim ? dim->length : std::int64_t(values.size()));
            if (!dim) ds.dims.push_back({d, std::int64_t(values.size()), false});
        }
        auto source = std::make_shared<GribValuesSource>(shape, std::move(values),
                                                         what_ + ": coordinate '" + name + "'");
        CfEncoding enc = CfEncoding::fromAttributes(attrs, DType::Float64);
        ds.variables.emplace_back(name, Variable::lazy(std::move(dims), std::move(shape), std::move(enc),
                                                       std::move(source), std::move(attrs)));
    }

    // A variable whose values `make` makes on each read (a reduced grid's mesh: big, and read
    // only when drawn).
    void addMade(Dataset& ds, const std::string& name, std::vector<std::string> dims,
                 std::function<std::vector<double>()> make, Attributes attrs) {
        Shape shape;
        for (const std::string& d : dims) shape.push_back(ds.findDim(d)->length);
        auto source =
            std::make_shared<GribValuesSource>(shape, std::move(make), what_ + ": variable '" + name + "'");
        CfEncoding enc = CfEncoding::fromAttributes(attrs, DType::Float64);
        ds.variables.emplace_back(name, Variable::lazy(std::move(dims), std::move(shape), std::move(enc),
                                                       std::move(source), std::move(attrs)));
    }

    // A reduced Gaussian grid's cells (grib_reduced.h) as a UGRID mesh on the `values` dim.
    void addMesh(Dataset& ds, std::shared_ptr<const GribReducedGrid> grid, const std::string& name) {
        ds.dims.push_back({name + "_node", grid->nodes(), false});
        ds.dims.push_back({name + "_corner", 4, false});
        Attributes lonAttrs = axisAttrs("longitude"), latAttrs = axisAttrs("latitude");
        lonAttrs.set(textAttr("long_name", "longitude of the cells' corners"));
        latAttrs.set(textAttr("long_name", "latitude of the cells' corners"));
        addMade(
            ds, name + "_node_lon", {name + "_node"}, [grid] { return grid->nodeLongitudes(); },
            std::move(lonAttrs));
        addMade(
            ds, name + "_node_lat", {name + "_node"}, [grid] { return grid->nodeLatitudes(); },
            std::move(latAttrs));
        Attributes faces;
        faces.set(textAttr("cf_role", "face_node_connectivity"));
        faces.set(textAttr("long_name", "each point's cell: its corners, anticlockwise from the south-west"));
        Attribute start;
        start.name = "start_index";
        start.type = DType::Int64;
        start.value = std::vector<std::int64_t>{0};
        faces.set(start);
        addMade(
            ds, name + "_face_nodes", {"values", name + "_corner"}, [grid] { return grid->faceNodes(); },
            std::move(faces));
        Attributes topo;
        topo.set(textAttr("cf_role", "mesh_topology"));
        topo.set(textAttr("long_name",
                          "the reduced Gaussian grid's cells around its points, bounded by the "
                          "midpoints between rows and between points of a row (no interpolation)"));
        Attribute dim;
        dim.name = "topology_dimension";
        dim.type = DType::Int64;
        dim.value = std::vector<std::int64_t>{2};
        topo.set(dim);
        topo.set(textAttr("node_coordinates", name + "_node_lon " + name + "_node_lat"));
        topo.set(textAttr("face_node_connectivity", name + "_face_nodes"));
        topo.set(textAttr("face_dimension", "values"));
        topo.set(textAttr("face_coordinates", "longitude latitude"));
        addMade(
            ds, name, {}, [] { return std::vector<double>{0.0}; }, std::move(topo));
    }

    struct GridAxes {
        std::vector<double> lat, lon;
        std::optional<GribMapping> mapping;
        std::string mappingProblem;
        std::shared_ptr<const GribReducedGrid> reduced; // a reduced Gaussian grid's cells
    };

    // A message's latitudes and longitudes: distinct ones (regular grids) or every point's, and
    // a projected grid's mapping. Throws NetcdfError naming the message when ecCodes gives no
    // latitudes and longitudes, or too few.
    GridAxes gridAxes(const GribMessage& m) {
        const std::string& file = files_->paths[m.span.file];
        const GribHandle h = GribHandle::read(*files_->files[m.span.file], m.span, file);
        const bool regular = gribGridIsRegular(m.gridType);
        GridAxes g;
        g.lat = h.doubles(regular ? "distinctLatitudes" : "latitudes");
        g.lon = h.doubles(regular ? "distinctLongitudes" : "longitudes");
        const bool fits = regular ? std::int64_t(g.lat.size()) == m.nj && std::int64_t(g.lon.size()) == m.ni
                                  : std::int64_t(g.lat.size()) == m.ni * m.nj && g.lon.size() == g.lat.size();
        STRATA_EXPECTS(fits, NetcdfError,
                       file + ": message " + std::to_string(m.span.number) + ": ecCodes gives " +
                           std::to_string(g.lat.size()) + " latitudes and " + std::to_string(g.lon.size()) +
                           " longitudes for its " + m.gridType + " grid of " + std::to_string(m.nj) + " x " +
                           std::to_string(m.ni) + " points" + ecCodesSays());
        if (gribGridIsReduced(m.gridType)) {
            const std::vector<double> pl = h.doubles("pl");
            long n = 0;
            codes_get_long(h.get(), "N", &n);
            std::string problem;
            GribReducedGrid cells =
                gribReducedGrid(std::vector<long>(pl.begin(), pl.end()), n, g.lat, g.lon, problem);
            if (problem.empty())
                g.reduced = std::make_shared<const GribReducedGrid>(std::move(cells));
            else
                g.mappingProblem = problem + "; kept as points, without cells to draw";
        } else if (!regular) {
            g.mapping = gribMapping(h.get(), m.gridType, m.ni, m.nj, g.lat, g.lon, g.mappingProblem);
        }
        return g;
    }

    // latitude and longitude (and a projected grid's x, y and grid mapping) from the first of
    // the cube's messages that gives them; the dims of a field. Throws NetcdfError when none does.
    std::vector<std::string> addGrid(Dataset& ds, const GribCube& cube, std::vector<std::string>& coordNames,
                                     std::string& mappingName, std::string& meshName) {
        GridAxes g;
        std::string firstError;
        const GribMessage* from = nullptr;
        for (std::size_t i : cube.messages) {
            try {
                g = gridAxes(index_.messages[i]);
                from = &index_.messages[i];
                break;
            } catch (const CancelledError&) {
                throw;
            } catch (const Error& e) {
                if (firstError.empty()) firstError = e.what();
            }
        }
        STRATA_EXPECTS(from, NetcdfError,
                       "no message gives its grid's latitudes and longitudes: " + firstError);
        const GribMessage& m = *from;
        if (gribGridIsReduced(m.gridType)) { // cfgrib's `values`, with latitude and longitude on it
            ds.dims.push_back({"values", m.ni, false});
            addCoordinate(ds, "latitude", {"values"}, std::move(g.lat), axisAttrs("latitude"));
            addCoordinate(ds, "longitude", {"values"}, std::move(g.lon), axisAttrs("longitude"));
            coordNames.insert(coordNames.end(), {"latitude", "longitude"});
            if (g.reduced) {
                meshName = "mesh";
                addMesh(ds, std::move(g.reduced), meshName);
            } else {
                notes_.lines.push_back(files_->paths[m.span.file] + ": group '" + cube.name + "': message " +
                                       std::to_string(m.span.number) + ": " + g.mappingProblem);
            }
            return {"values"};
        }
        if (gribGridIsRegular(m.gridType)) {
            Attributes latAttrs = axisAttrs("latitude");
            if (g.lat.size() > 1 && g.lat.front() > g.lat.back())
                latAttrs.set(textAttr("stored_direction", "decreasing"));
            ds.dims.push_back({"latitude", m.nj, false});
            ds.dims.push_back({"longitude", m.ni, false});
            addCoordinate(ds, "latitude", {"latitude"}, std::move(g.lat), std::move(latAttrs));
            addCoordinate(ds, "longitude", {"longitude"}, std::move(g.lon), axisAttrs("longitude"));
            coordNames.insert(coordNames.end(), {"latitude", "longitude"});
            return {"latitude", "longitude"};
        }
        ds.dims.push_back({"y", m.nj, false});
        ds.dims.push_back({"x", m.ni, false});
        if (g.mapping) { // x and y on the mapping's lattice, and the mapping as CF's variable
            addCoordinate(ds, "y", {"y"}, std::move(g.mapping->y), std::move(g.mapping->yAttrs));
            addCoordinate(ds, "x", {"x"}, std::move(g.mapping->x), std::move(g.mapping->xAttrs));
            mappingName = "crs";
            addCoordinate(ds, mappingName, {}, {0.0}, std::move(g.mapping->mapping));
        } else if (!g.mappingProblem.empty()) {
            notes_.lines.push_back(files_->paths[m.span.file] + ": group '" + cube.name + "': message " +
                                   std::to_string(m.span.number) + ": " + g.mappingProblem);
        }
        addCoordinate(ds, "latitude", {"y", "x"}, std::move(g.lat), axisAttrs("latitude"));
        addCoordinate(ds, "longitude", {"y", "x"}, std::move(g.lon), axisAttrs("longitude"));
        coordNames.insert(coordNames.end(), {"latitude", "longitude"});
        return {"y", "x"};
    }

    void addValidTime(Dataset& ds, const GribCube& cube, std::vector<std::string>& coordNames) {
        const GribAxis *time = nullptr, *step = nullptr;
        for (const GribAxis& a : cube.axes) {
            if (a.name == "time") time = &a;
            if (a.name == "step") step = &a;
        }
        if (!time || !step) return;
        std::vector<std::string> dims;
        if (time->values.size() > 1) dims.push_back("time");
        if (step->values.size() > 1) dims.push_back("step");
        std::vector<double> values;
        for (std::size_t i = 0; i < (time->values.size() > 1 ? time->values.size() : 1); ++i)
            for (std::size_t j = 0; j < (step->values.size() > 1 ? step->values.size() : 1); ++j)
                values.push_back(time->values[i] + step->values[j] * 3600.0);
        addCoordinate(ds, "valid_time", std::move(dims), std::move(values), axisAttrs("valid_time"));
        coordNames.push_back("valid_time");
    }

    void addVariable(Dataset& ds, const GribCubeVariable& v, const std::vector<std::string>& headerDims,
                     const std::vector<std::int64_t>& headerShape, const std::vector<std::string>& geoDims,
                     const std::string& coordinates, const std::string& mappingName,
                     const std::string& meshName) {
        const GribMessage& first = index_.messages[v.first];
        Attributes attrs;
        for (const GribKey& k : first.attrs) attrs.set(keyAttr(k));
        attrs.set(textAttr("long_name", first.name.empty()
                                            ? "original GRIB paramId: " + std::to_string(v.paramId)
                                            : first.name));
        attrs.set(textAttr("units", first.units.empty() ? std::string("1") : first.units));
        if (!first.cfName.empty() && first.cfName != "unknown" && first.cfName != "undef")
            attrs.set(textAttr("standard_name", first.cfName));
        attrs.set(textAttr("coordinates", coordinates));
        if (!mappingName.empty()) attrs.set(textAttr("grid_mapping", mappingName));
        if (!meshName.empty()) {
            attrs.set(textAttr("mesh", meshName));
            attrs.set(textAttr("location", "face"));
        }
        std::vector<GribField> fields(v.fields.size());
        for (std::size_t i = 0; i < fields.size(); ++i)
            if (v.fields[i] >= 0) {
                const GribMessage& m = index_.messages[std::size_t(v.fields[i])];
                fields[i] = {m.span, true, m.alternativeRows};
            }
        const std::string label = ds.group == "/" ? v.name : ds.group.substr(1) + "/" + v.name;
        if (v.missing > 0)
            notes_.lines.push_back(what_ + ": variable '" + label + "': " + std::to_string(v.missing) +
                                   " of " + std::to_string(v.fields.size()) +
                                   " fields have no message in the file; they read as NaN");
        if (!v.repeated.empty()) { // in a file set, the file is named: numbers count from each file's start
            const GribSpan& first = v.repeated.front();
            const std::size_t n = v.repeated.size();
            notes_.lines.push_back(what_ + ": variable '" + label + "': " + std::to_string(n) +
                                   (n == 1 ? " message repeats a field already read and is"
                                           : " messages repeat fields already read and are") +
                                   " left out (the first: message " + std::to_string(first.number) + " of " +
                                   files_->paths[first.file] + ")");
        }
        std::vector<std::string> dims = headerDims;
        dims.insert(dims.end(), geoDims.begin(), geoDims.end());
        const bool flat = geoDims.size() == 1; // a reduced grid's `values`
        Shape shape = headerShape;
        if (!flat) shape.push_back(first.nj);
        shape.push_back(first.ni);
        auto source = std::make_shared<GribSource>(files_, what_, label, headerShape, std::move(fields),
                                                   first.nj, first.ni, flat);
        CfEncoding enc = CfEncoding::fromAttributes(attrs, DType::Float32);
        ds.variables.emplace_back(v.name, Variable::lazy(std::move(dims), std::move(shape), std::move(enc),
                                                         std::move(source), std::move(attrs)));
    }

    std::shared_ptr<const GribFiles> files_;
    std::string path_, what_;
    const GribIndex& index_;
    OpenNotes& notes_;
};

} // namespace
} // namespace detail

bool gribSupported() { return true; }

std::string gribLibraryVersion() {
    const long v = codes_get_api_version();
    return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + std::to_string(v % 100);
}

Dataset openGrib(const std::string& path, OpenNotes& notes) { return openGribFiles({path}, notes); }

Dataset openGribFiles(const std::vector<std::string>& paths, OpenNotes& notes) {
    STRATA_EXPECTS(!paths.empty(), ValueError, "no GRIB file to open");
    const std::string& path = paths.front();
    const std::string what = paths.size() == 1 ? path : fileSetLabel(paths);
    try {
        detail::GribSet set = detail::indexGribFiles(paths, notes);
        const detail::GribIndex& index = set.index;
        std::vector<std::string> sparse;
        const std::vector<detail::GribCube> cubes = detail::buildGribCubes(index.messages, sparse);
        for (const std::string& p : sparse) notes.lines.push_back(what + ": " + p);
        STRATA_EXPECTS(!cubes.empty(), NetcdfError, "cannot open '" + what + "': " + sparse.front());
        const std::vector<std::string> files = set.files->paths;
        detail::CubeBuilder builder(std::move(set.files), path, what, index, notes);
        // A hypercube whose grid cannot be read is left out with a note; the others are read.
        std::vector<Dataset> built;
        std::string firstError;
        for (const detail::GribCube& c : cubes) {
            try {
                built.push_back(builder.build(c, cubes.size() == 1 ? "/" : "/" + c.name));
                if (files.size() > 1) built.back().files = files;
            } catch (const NetcdfError& e) {
                notes.lines.push_back(what + ": group '" + c.name + "': skipped: " + e.what());
                if (firstError.empty()) firstError = e.what();
            }
        }
        STRATA_EXPECTS(!built.empty(), NetcdfError, "cannot open '" + what + "': " + firstError);
        if (cubes.size() == 1) return std::move(built.front());
        Dataset root;
        root.path = path;
        if (files.size() > 1) root.files = files;
        root.group = "/";
        root.format = detail::CubeBuilder::formatOf(index.messages);
        root.groups = std::move(built);
        // The groups' global attributes that all share are the file's.
        for (const Attribute& a : root.groups.front().attrs) {
            bool shared = true;
            for (const Dataset& g : root.groups) {
                const Attribute* b = g.attrs.find(a.name);
                shared = shared && b && b->text() == a.text();
            }
            if (shared) root.attrs.set(a);
        }
        return root;
    } catch (const std::bad_alloc&) {
        STRATA_FAIL(OutOfMemoryError,
                    "cannot open '" + what + "': out of memory while indexing its messages");
    } catch (const std::length_error&) {
        STRATA_FAIL(OutOfMemoryError,
                    "cannot open '" + what + "': its messages declare more than can be held");
    }
}

} // namespace strata::io
