#include "strata/core/cell_areas.h"

#include <algorithm>
#include <cmath>
#include <list>
#include <mutex>

#include "for_ranges.h"
#include "strata/core/area.h"
#include "strata/core/error.h"
#include "strata/core/healpix_grid.h"
#include "strata/core/runtime.h"

namespace strata {
namespace {

struct Unit {
    double x, y, z;
};

Unit unitOf(double lonDeg, double latDeg) {
    const double lon = lonDeg * (M_PI / 180), lat = latDeg * (M_PI / 180);
    return {std::cos(lat) * std::cos(lon), std::cos(lat) * std::sin(lon), std::sin(lat)};
}

double dot(const Unit& a, const Unit& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// The signed area of the spherical triangle a, b, c on the unit sphere (positive when
// anticlockwise seen from outside): its excess, from the triple product and the dots.
double signedExcess(const Unit& a, const Unit& b, const Unit& c) {
    const double triple =
        a.x * (b.y * c.z - b.z * c.y) + a.y * (b.z * c.x - b.x * c.z) + a.z * (b.x * c.y - b.y * c.x);
    return 2 * std::atan2(triple, 1 + dot(a, b) + dot(b, c) + dot(c, a));
}

// The last areas read, by the files and the dim: a view scrubbed step by step, or validated and
// then computed, reads its mesh once.
struct Cached {
    std::string key;
    CellAreas areas;
};
std::mutex cacheMutex;
std::list<Cached> cache; // most recent first
constexpr std::size_t kCached = 4;

std::string keyOf(const Dataset& ds, const Dataset* grid, const DataArray& var, const std::string& dim) {
    return ds.path + '\n' + (grid ? grid->path : std::string()) + '\n' + dim + '\n' +
           std::to_string(var.sizeOf(dim));
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
}

} // namespace

std::vector<double> sphericalFaceAreas(const mesh::Mesh& m) {
    std::vector<double> out(static_cast<std::size_t>(m.faces()));
    const int threads = int(std::clamp<std::int64_t>(m.faces() / 65536, 1, std::max(1, hostThreads())));
    detail::forRanges(threads, m.faces(), [&](int, std::int64_t begin, std::int64_t end) {
        for (std::int64_t f = begin; f < end; ++f) {
            const int n = m.nodesOf(f);
            const std::int64_t* nodes = m.faceNodes.data() + f * m.maxNodes;
            auto at = [&](int k) {
                const auto i = static_cast<std::size_t>(nodes[k]);
                return unitOf(m.nodeLon[i], m.nodeLat[i]);
            };
            double sum = 0;
            const Unit first = at(0);
            Unit b = at(1);
            for (int k = 2; k < n; ++k) {
                const Unit c = at(k);
                sum += signedExcess(first, b, c);
                b = c;
            }
            out[static_cast<std::size_t>(f)] = std::fabs(sum);
        }
    });
    return out;
}

std::string cellAreaDim(const Dataset& ds, const DataArray& var, const Dataset* grid) {
    if (std::optional<healpix::Grid> g = healpix::gridOf(ds, var)) return g->dim;
    if (std::optional<mesh::MeshDim> m = mesh::meshDimOf(ds, var, grid);
        m && m->location == mesh::Location::Face)
        return m->dim;
    return {};
}

std::optional<CellAreas> cellAreasOf(const Dataset& ds, const DataArray& var, const Dataset* grid) {
    if (std::optional<healpix::Grid> g = healpix::gridOf(ds, var))
        return CellAreas{g->dim, nullptr, "HEALPix"};
    const std::string dim = cellAreaDim(ds, var, grid);
    if (dim.empty()) return std::nullopt;
    const std::string key = keyOf(ds, grid, var, dim);
    {
        std::lock_guard lock(cacheMutex);
        for (auto it = cache.begin(); it != cache.end(); ++it)
            if (it->key == key) {
                cache.splice(cache.begin(), cache, it);
                return it->areas;
            }
    }
    std::optional<mesh::Placement> p = mesh::meshOf(ds, var, grid);
    if (!p || p->location != mesh::Location::Face) return std::nullopt;
    const mesh::Mesh& m = p->mesh;
    CellAreas areas{m.faceDim, nullptr, ""};
    if (std::int64_t(m.faceArea.size()) == m.faces()) {
        areas.values = std::make_shared<const std::vector<double>>(m.faceArea);
        areas.source = m.form + " file's cell areas";
    } else {
        areas.values = std::make_shared<const std::vector<double>>(sphericalFaceAreas(m));
        areas.source = "spherical polygons";
    }
    std::lock_guard lock(cacheMutex);
    cache.push_front({key, areas});
    if (cache.size() > kCached) cache.pop_back();
    return areas;
}

void validate(const FrameSpec& spec, const DataArray& var, const Dataset& ds, const Dataset* grid) {
    const std::vector<std::string> dims = spec.areaMeanDims();
    if (dims.empty()) return validate(spec, var);
    FrameSpec plain = spec;
    plain.areaWeighted = false;
    validate(plain, var); // the roles, dims and indices
    try {
        checkAreaWeights(var, dims);
    } catch (const ValueError& e) {
        const std::string cells = cellAreaDim(ds, var, grid);
        STRATA_EXPECTS(!cells.empty() && contains(dims, cells), ValueError,
                       std::string(e.what()) +
                           (cells.empty() ? std::string()
                                          : ", or its grid's cells '" + cells + "' among the dims reduced"));
    }
}

AreaMeanInput areaMeanInput(const Dataset& ds, const DataArray& var, const FrameSpec& spec,
                            const Dataset* grid) {
    AreaMeanInput in{var, spec};
    const std::vector<std::string> dims = spec.areaMeanDims();
    if (dims.empty()) return in;
    try {
        checkAreaWeights(var, dims);
        return in; // its own latitude or cell areas weigh it
    } catch (const ValueError&) {
    }
    const std::optional<CellAreas> areas = cellAreasOf(ds, var, grid);
    if (!areas || !contains(dims, areas->dim)) return in; // computeFrame says what is missing
    if (!areas->values && dims.size() == 1) {             // equal cells, averaged alone
        in.spec.areaWeighted = false;
        return in;
    }
    Coordinate c;
    c.name = "cell_area";
    while (var.coords().contains(c.name)) c.name += "_";
    c.dims = {areas->dim};
    c.shape = {var.sizeOf(areas->dim)};
    c.values =
        areas->values ? *areas->values : std::vector<double>(static_cast<std::size_t>(c.shape[0]), 1.0);
    c.attrs.set({"long_name", DType::Char, "cell areas: " + areas->source});
    const std::string name = c.name;
    Coordinates coords = var.coords();
    coords.set(std::move(c));
    Variable v = var.variable();
    v.attrs().set({"cell_measures", DType::Char, "area: " + name});
    in.var = DataArray(var.name(), std::move(v), std::move(coords));
    return in;
}

} // namespace strata
