#include "strata/core/healpix_grid.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>

#include "strata/core/error.h"

namespace strata::healpix {
namespace {

// A number as it reads: "768", "3.5".
std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

struct Said {
    std::optional<std::int64_t> nside;
    std::optional<std::string> order;
    std::string form;
};

// What a grid mapping variable or a cell_ids coordinate's attributes say.
std::optional<Said> saidBy(const Attributes& a, bool mapping) {
    Said s;
    const auto level = [&](std::string_view name) -> std::optional<std::int64_t> {
        const auto v = a.number(name);
        if (!v) return std::nullopt;
        return *v >= 0 && *v <= 29 && *v == std::floor(*v) ? std::int64_t(1) << std::int64_t(*v) : -1;
    };
    if (mapping && lower(a.text("grid_mapping_name").value_or("")) == "healpix" &&
        !(a.contains("healpix_nside") && !a.contains("refinement_level"))) {
        s.form = "CF healpix";
        s.nside = level("refinement_level");
        s.order = a.text("indexing_scheme");
    } else if (mapping && a.contains("healpix_nside")) {
        s.form = "healpix_nside";
        const double n = a.number("healpix_nside").value_or(0);
        s.nside = n == std::floor(n) && n >= 1 && n <= double(kMaxNside) ? std::int64_t(n) : -1;
        s.order = a.text("healpix_order");
    } else if (!mapping && lower(a.text("grid_name").value_or("")) == "healpix") {
        s.form = "xdggs";
        s.nside = level("level");
        if (!s.nside && a.contains("nside")) s.nside = std::int64_t(a.number("nside").value_or(-1));
        s.order = a.text("indexing_scheme");
    } else {
        return std::nullopt;
    }
    return s;
}

} // namespace

std::optional<Grid> gridOf(const Dataset& ds, const DataArray& var) {
    const std::string where = ds.path + ": " + var.name() + ": ";
    std::optional<Said> said;
    if (const auto mapping = var.attrs().text("grid_mapping"))
        if (const Variable* m = ds.findVariable(*mapping)) said = saidBy(m->attrs(), true);
    const Coordinate* index = nullptr; // the cells' indices, where the file gives them
    for (const Coordinate& c : var.coords()) {
        const bool named = c.name == "cell_ids" || c.attrs.text("standard_name") == "healpix_index";
        if (!named || c.dims.size() != 1) continue;
        index = &c;
        if (!said) said = saidBy(c.attrs, false);
    }
    if (!said) return std::nullopt;
    Grid g;
    g.form = said->form;
    STRATA_EXPECTS(said->nside && *said->nside > 0, ValueError,
                   where + "a HEALPix grid (" + g.form + ") without a valid nside or refinement level");
    g.nside = *said->nside;
    const std::string order = lower(said->order.value_or(""));
    if (order == "nest" || order == "nested" || order == "nested_unique")
        g.order = Order::Nest;
    else if (order == "ring")
        g.order = Order::Ring;
    else
        STRATA_FAIL(ValueError, where + "a HEALPix grid (" + g.form + ") whose order is '" + order +
                                    "', not nest (nested) or ring");
    if (const std::string why = nsideProblem(g.nside, g.order); !why.empty())
        STRATA_FAIL(ValueError, where + "a HEALPix grid (" + g.form + ") with " + why);
    const std::int64_t all = cellCount(g.nside);
    const std::string sky = "12 × " + std::to_string(g.nside) + "² = " + std::to_string(all);
    if (index) {
        g.dim = index->dims[0];
        g.cells.reserve(index->values.size());
        for (double v : index->values) {
            STRATA_EXPECTS(v == std::floor(v) && v >= 0 && v < double(all), ValueError,
                           where + "cell index " + number(v) + " in " + index->name +
                               " is not a cell of nside " + std::to_string(g.nside) + " (0 to " +
                               std::to_string(all - 1) + ")");
            g.cells.push_back(std::int64_t(v));
        }
        std::vector<std::int64_t> sorted = g.cells;
        std::sort(sorted.begin(), sorted.end());
        if (const auto twice = std::adjacent_find(sorted.begin(), sorted.end()); twice != sorted.end())
            STRATA_FAIL(ValueError,
                        where + "cell " + std::to_string(*twice) + " appears twice in " + index->name);
        bool inOrder = std::int64_t(g.cells.size()) == all;
        for (std::size_t i = 0; inOrder && i < g.cells.size(); ++i) inOrder = g.cells[i] == std::int64_t(i);
        if (inOrder) g.cells.clear(); // the whole sky, in order
    } else {
        const auto& dims = var.dims();
        g.dim = std::find(dims.begin(), dims.end(), "cell") != dims.end() ? "cell"
                : dims.empty()                                            ? std::string()
                                                                          : dims.back();
        STRATA_EXPECTS(!g.dim.empty() && var.sizeOf(g.dim) == all, ValueError,
                       where + "has " +
                           (g.dim.empty() ? std::string("no dims")
                                          : std::to_string(var.sizeOf(g.dim)) + " values along " + g.dim) +
                           ", not the " + sky +
                           " cells of the whole sky, and no cell_ids coordinate says which cells they are");
    }
    return g;
}

} // namespace strata::healpix
