#include "strata/core/dataset.h"

#include <algorithm>
#include <sstream>

#include "strata/core/error.h"

namespace strata {
namespace {

std::vector<std::string> words(const std::string& s) {
    std::vector<std::string> out;
    std::istringstream in(s);
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::string fileName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

const Variable* Dataset::findVariable(std::string_view name) const {
    for (const auto& [n, v] : variables)
        if (n == name) return &v;
    return nullptr;
}

const Dimension* Dataset::findDim(std::string_view name) const {
    for (const auto& d : dims)
        if (d.name == name) return &d;
    return nullptr;
}

DataArray Dataset::operator[](std::string_view name) const {
    const Variable* v = findVariable(name);
    if (!v) {
        std::string list;
        for (const auto& [n, unused] : variables) list += (list.empty() ? "" : ", ") + n;
        STRATA_FAIL(ValueError, fileName(path) + ": no variable '" + std::string(name) + "'" +
                                    (group.empty() || group == "/" ? "" : " in group " + group) +
                                    " (variables: " + list + ")");
    }
    Coordinates coords;
    for (const auto& d : v->dims())
        if (const Coordinate* c = this->coords.find(d); c && c->isIndex()) coords.set(*c);
    std::vector<std::string> named;
    if (auto text = v->attrs().text("coordinates")) named = words(*text);
    if (auto text = v->attrs().text("cell_measures")) { // "area: cell_area": the cell areas, for area means
        const auto w = words(*text);
        for (std::size_t i = 0; i + 1 < w.size(); ++i)
            if (w[i] == "area:") named.push_back(w[i + 1]);
    }
    {
        for (const auto& w : named) {
            const Coordinate* c = this->coords.find(w);
            if (!c) continue;
            const bool within = std::all_of(c->dims.begin(), c->dims.end(), [&](const std::string& d) {
                return std::find(v->dims().begin(), v->dims().end(), d) != v->dims().end();
            });
            if (within) coords.set(*c);
            // A 2-D coordinate's bounds: its dims and one more (the corners of each cell).
            const Coordinate* b = within && c->dims.size() == 2
                                      ? this->coords.find(c->attrs.text("bounds").value_or(""))
                                      : nullptr;
            if (b && b->dims.size() == 3 && std::equal(c->dims.begin(), c->dims.end(), b->dims.begin()))
                coords.set(*b);
        }
    }
    return DataArray(std::string(name), *v, std::move(coords));
}

const Dataset& Dataset::findGroup(std::string_view path) const {
    std::string_view p = path;
    while (!p.empty() && p.front() == '/') p.remove_prefix(1);
    if (p.empty()) return *this;
    const auto slash = p.find('/');
    const std::string_view head = p.substr(0, slash);
    for (const auto& g : groups) {
        const auto last = g.group.find_last_of('/');
        if (g.group.substr(last + 1) == head)
            return slash == std::string_view::npos ? g : g.findGroup(p.substr(slash + 1));
    }
    STRATA_FAIL(ValueError, fileName(this->path) + ": no group '" + std::string(path) + "' in " +
                                (group.empty() ? "/" : group));
}

std::vector<std::string> Dataset::dataVariables() const {
    std::vector<std::string> out;
    for (const auto& [n, v] : variables)
        if (!coords.contains(n)) out.push_back(n);
    return out;
}

} // namespace strata
