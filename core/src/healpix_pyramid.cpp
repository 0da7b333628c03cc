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
    Pyramid p;
    std::vector<std::string> shared;
    std::vector<std::pair<PyramidLevel, std::vector<std::string>>> found;
    std::vector<std::pair<std::int64_t, std::string>> dims; // each level's nside and cell dim
    for (const Dataset& g : root.groups) {
        std::optional<LevelGrid> grid;
        try {
            grid = levelGrid(g);
        } catch (const Error&) {
            return std::nullopt;
        }
        if (!grid) continue;
        if (!powerOfTwo(grid->nside)) return std::nullopt;
        if (!found.empty() && grid->order != p.order) return std::nullopt;
        p.order = grid->order;
        found.push_back({PyramidLevel{levelOf(grid->nside), grid->nside, g.group}, grid->variables});
        dims.push_back({grid->nside, grid->dim});
    }
    if (found.size() < 2) return std::nullopt;
    std::sort(found.begin(), found.end(),
              [](const auto& a, const auto& b) { return a.first.nside < b.first.nside; });
    for (std::size_t i = 0; i < found.size(); ++i) {
        if (i > 0 && found[i].first.nside == found[i - 1].first.nside) return std::nullopt;
        shared = i == 0 ? found[i].second : common(shared, found[i].second);
        p.levels.push_back(found[i].first);
    }
    if (shared.empty()) return std::nullopt;
    p.variables = std::move(shared);
    p.dim = std::min_element(dims.begin(), dims.end())->second;
    return p;
}

Dataset combinePyramid(std::vector<Dataset> levels, const std::string& path) {
    STRATA_EXPECTS(levels.size() >= 2, ValueError, "a HEALPix pyramid needs two zooms or more");
    std::vector<std::pair<LevelGrid, Dataset*>> grids;
    for (Dataset& ds : levels) {
        std::optional<LevelGrid> g = levelGrid(ds);
        STRATA_EXPECTS(g, ValueError,
                       ds.path + ": no variable on a HEALPix grid: it cannot be a zoom of a HEALPix pyramid");
        STRATA_EXPECTS(powerOfTwo(g->nside), ValueError,
                       ds.path + ": nside " + std::to_string(g->nside) +
                           " is not a power of two: it cannot be a zoom of a HEALPix pyramid");
        grids.push_back({std::move(*g), &ds});
    }
    std::sort(grids.begin(), grids.end(),
              [](const auto& a, const auto& b) { return a.first.nside < b.first.nside; });
    std::vector<std::string> shared = grids.front().first.variables;
    for (std::size_t i = 1; i < grids.size(); ++i) {
        const auto& [g, ds] = grids[i];
        const auto& [before, dsBefore] = grids[i - 1];
        STRATA_EXPECTS(g.nside != before.nside, ValueError,
                       ds->path + " and " + dsBefore->path + " are both HEALPix nside " +
                           std::to_string(g.nside) + ": a pyramid has one store a zoom");
        STRATA_EXPECTS(g.order == before.order, ValueError,
                       ds->path + " numbers its cells in " + (g.order == Order::Nest ? "nest" : "ring") +
                           " order, " + dsBefore->path + " in " +
                           (before.order == Order::Nest ? "nest" : "ring") +
                           ": the zooms of a pyramid share one order");
        shared = common(shared, g.variables);
    }
    STRATA_EXPECTS(!shared.empty(), ValueError,
                   grids.front().second->path + " and " + grids.back().second->path +
                       ": the zooms share no variable on their HEALPix grids: not one pyramid");
    Dataset root;
    root.path = path.empty() ? grids.front().second->path : path;
    root.group = "/";
    takeRoot(root, *grids.front().second);
    for (auto& [g, ds] : grids) {
        moveUnder(*ds, "/" + zoomName(levelOf(g.nside)));
        root.groups.push_back(std::move(*ds));
    }
    return root;
}

bool rootPyramid(Dataset& ds) {
    const std::optional<Pyramid> p = pyramidOf(ds);
    if (!p) return false;
    for (const std::string& v : p->variables)
        if (ds.findVariable(v)) return false;
    takeRoot(ds, ds.findGroup(p->levels.front().group));
    return true;
}

} // namespace strata::healpix
