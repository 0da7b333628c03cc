#include "strata/core/healpix_pyramid.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "strata/core/error.h"
#include "strata/core/healpix_grid.h"

namespace strata::healpix {
namespace {

struct LevelGrid {
    std::int64_t nside = 0;
    Order order = Order::Nest;
    std::vector<std::string> variables; // the data variables on the grid of that nside
    std::string dim;                    // their cell dim
};

// The HEALPix grid of `ds`'s data variables (the first one's nside: others of another are not
// counted), nullopt when none lies on one. Throws gridOf's ValueError for a grid that cannot be.
std::optional<LevelGrid> levelGrid(const Dataset& ds) {
    std::optional<LevelGrid> found;
    for (const std::string& name : ds.dataVariables()) {
        const std::optional<Grid> g = gridOf(ds, ds[name]);
        if (!g) continue;
        if (!found) found = LevelGrid{g->nside, g->order, {}, g->dim};
        if (g->nside == found->nside && g->order == found->order) found->variables.push_back(name);
    }
    return found;
}

bool powerOfTwo(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// The names in `a` that are in `b` too, in a's order.
std::vector<std::string> common(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> out;
    for (const std::string& n : a)
        if (std::find(b.begin(), b.end(), n) != b.end()) out.push_back(n);
    return out;
}

// `ds` and its groups moved under `prefix` ("/z7"): "/" becomes "/z7", "/a" "/z7/a".
void moveUnder(Dataset& ds, const std::string& prefix) {
    ds.group = ds.group.empty() || ds.group == "/" ? prefix : prefix + ds.group;
    for (Dataset& g : ds.groups) {
        // A child's path is its parent's and its name: recompute from the name alone.
        const std::string name = g.group.substr(g.group.find_last_of('/') + 1);
        g.group = "/" + name;
        moveUnder(g, ds.group);
    }
}

// The root given `coarsest`'s dims, variables, coordinates and attributes (the root's own
// attributes kept where it has any).
void takeRoot(Dataset& root, const Dataset& coarsest) {
    root.dims = coarsest.dims;
    root.variables = coarsest.variables;
    root.coords = coarsest.coords;
    if (root.attrs.empty()) root.attrs = coarsest.attrs;
    if (root.format.empty()) root.format = coarsest.format;
}

std::string zoomName(int zoom) { return "z" + std::to_string(zoom); }

std::string orderName(Order o) { return o == Order::Nest ? "nest" : "ring"; }

struct Zoom {
    LevelGrid grid;
    const Dataset* ds;     // the zoom's dataset (a group, or a store's root)
    std::size_t index = 0; // its place among the datasets given
};

// Sorts `zooms` coarsest first and says why they are not one pyramid (empty when they are:
// nsides powers of two, each once, one order, a variable in all), naming their datasets' paths.
// Sets p's variables (those in all, in the coarsest's order), order and cell dim.
std::string checkZooms(std::vector<Zoom>& zooms, Pyramid& p) {
    std::sort(zooms.begin(), zooms.end(),
              [](const Zoom& a, const Zoom& b) { return a.grid.nside < b.grid.nside; });
    p.variables = zooms.front().grid.variables;
    p.order = zooms.front().grid.order;
    p.dim = zooms.front().grid.dim;
    for (std::size_t i = 0; i < zooms.size(); ++i) {
        const Zoom& z = zooms[i];
        if (!powerOfTwo(z.grid.nside))
            return z.ds->path + ": nside " + std::to_string(z.grid.nside) +
                   " is not a power of two: it cannot be a zoom of a HEALPix pyramid";
        if (i == 0) continue;
        const Zoom& before = zooms[i - 1];
        if (z.grid.nside == before.grid.nside)
            return z.ds->path + " and " + before.ds->path + " are both HEALPix nside " +
                   std::to_string(z.grid.nside) + ": a pyramid has one store a zoom";
        if (z.grid.order != before.grid.order)
            return z.ds->path + " numbers its cells in " + orderName(z.grid.order) + " order, " +
                   before.ds->path + " in " + orderName(before.grid.order) +
                   ": the zooms of a pyramid share one order";
        p.variables = common(p.variables, z.grid.variables);
    }
    if (p.variables.empty())
        return zooms.front().ds->path + " and " + zooms.back().ds->path +
               ": the zooms share no variable on their HEALPix grids: not one pyramid";
    return {};
}

} // namespace

bool Pyramid::has(const std::string& variable) const {
    return std::find(variables.begin(), variables.end(), variable) != variables.end();
}

double cellWidth(std::int64_t nside) { return std::sqrt(std::numbers::pi / 3) / double(nside); }

const PyramidLevel& Pyramid::levelFor(double pixelRadians) const {
    STRATA_EXPECTS(!levels.empty(), ValueError, "a HEALPix pyramid without levels");
    if (pixelRadians > 0 && std::isfinite(pixelRadians))
        for (const PyramidLevel& l : levels)
            if (cellWidth(l.nside) <= pixelRadians) return l;
    return levels.back();
}

const PyramidLevel* Pyramid::level(int zoom) const {
    for (const PyramidLevel& l : levels)
        if (l.zoom == zoom) return &l;
    return nullptr;
}

std::string Pyramid::pathOf(const std::string& variable, const PyramidLevel& level) const {
    return level.group + "/" + variable;
}

std::string Pyramid::describe() const {
    if (levels.empty()) return "HEALPix pyramid";
    const PyramidLevel &a = levels.front(), &b = levels.back();
    return "HEALPix pyramid, zoom " + std::to_string(a.zoom) + "\u2013" + std::to_string(b.zoom) +
           " (nside " + std::to_string(a.nside) + "\u2013" + std::to_string(b.nside) + ", " +
           std::to_string(levels.size()) + " levels), " + (order == Order::Nest ? "nest" : "ring");
}

std::optional<Pyramid> pyramidOf(const Dataset& root) {
    std::vector<Zoom> zooms;
    for (const Dataset& g : root.groups) {
        std::optional<LevelGrid> grid;
        try {
            grid = levelGrid(g);
        } catch (const Error&) {
            return std::nullopt;
        }
        if (grid) zooms.push_back({std::move(*grid), &g});
    }
    if (zooms.size() < 2) return std::nullopt;
    Pyramid p;
    if (!checkZooms(zooms, p).empty()) return std::nullopt;
    for (const Zoom& z : zooms) p.levels.push_back({levelOf(z.grid.nside), z.grid.nside, z.ds->group});
    return p;
}

Dataset combinePyramid(std::vector<Dataset> levels, const std::string& path) {
    STRATA_EXPECTS(levels.size() >= 2, ValueError, "a HEALPix pyramid needs two zooms or more");
    std::vector<Zoom> zooms;
    for (std::size_t i = 0; i < levels.size(); ++i) {
        std::optional<LevelGrid> g = levelGrid(levels[i]);
        STRATA_EXPECTS(g, ValueError,
                       levels[i].path +
                           ": no variable on a HEALPix grid: it cannot be a zoom of a HEALPix pyramid");
        zooms.push_back({std::move(*g), &levels[i], i});
    }
    Pyramid p;
    const std::string problem = checkZooms(zooms, p);
    STRATA_EXPECTS(problem.empty(), ValueError, problem);
    Dataset root;
    root.path = path.empty() ? zooms.front().ds->path : path;
    root.group = "/";
    takeRoot(root, *zooms.front().ds);
    for (const Zoom& z : zooms) {
        Dataset& ds = levels[z.index];
        moveUnder(ds, "/" + zoomName(levelOf(z.grid.nside)));
        root.groups.push_back(std::move(ds));
    }
    return root;
}

std::optional<std::int64_t> nsideOf(const Dataset& ds) {
    try {
        const std::optional<LevelGrid> g = levelGrid(ds);
        return g ? std::optional<std::int64_t>(g->nside) : std::nullopt;
    } catch (const Error&) {
        return std::nullopt;
    }
}

std::optional<Pyramid> rootPyramid(Dataset& ds) {
    std::optional<Pyramid> p = pyramidOf(ds);
    if (!p) return std::nullopt;
    for (const std::string& v : p->variables)
        if (ds.findVariable(v)) return std::nullopt;
    takeRoot(ds, ds.findGroup(p->levels.front().group));
    return p;
}

} // namespace strata::healpix
