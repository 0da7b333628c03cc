// Which variables make a vector (CF standard names, then u/v names), and whether two arrays are
// on one grid.
#include <algorithm>
#include <cctype>

#include "strata/core/dataset.h"
#include "strata/core/error.h"
#include "strata/core/flow.h"

namespace strata {

namespace {

std::vector<std::string> words(const std::string& name) {
    std::vector<std::string> out(1);
    for (char c : name) {
        if (c == '_')
            out.emplace_back();
        else
            out.back() += char(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
}

std::string joined(const std::vector<std::string>& w) {
    std::string s;
    for (std::size_t k = 0; k < w.size(); ++k) s += (k ? "_" : "") + w[k];
    return s;
}

// The standard name of v's partner for u's standard name, and whether they are grid relative:
// eastward → northward, x → y (the first such word). Empty when u's name is neither.
std::pair<std::string, bool> partnerName(const std::string& standardName) {
    std::vector<std::string> w = words(standardName);
    for (std::string& word : w) {
        if (word == "eastward") {
            word = "northward";
            return {joined(w), false};
        }
        if (word == "x") {
            word = "y";
            return {joined(w), true};
        }
    }
    return {};
}

} // namespace

std::vector<VectorPair> findVectorPairs(const Dataset& ds) {
    std::vector<VectorPair> out;
    const std::vector<std::string> names = ds.dataVariables();
    auto standardName = [&](const std::string& n) {
        const Variable* v = ds.findVariable(n);
        return words(v ? v->attrs().text("standard_name").value_or("") : "");
    };
    auto sameDims = [&](const std::string& a, const std::string& b) {
        const Variable *x = ds.findVariable(a), *y = ds.findVariable(b);
        return x && y && x->dims() == y->dims() && x->shape() == y->shape();
    };
    auto taken = [&](const std::string& n) {
        return std::any_of(out.begin(), out.end(), [&](const VectorPair& p) { return p.u == n || p.v == n; });
    };
    for (const std::string& u : names) {
        const auto [want, grid] = partnerName(joined(standardName(u)));
        if (want.empty() || taken(u)) continue;
        for (const std::string& v : names)
            if (v != u && !taken(v) && joined(standardName(v)) == want && sameDims(u, v)) {
                out.push_back({u, v, grid});
                break;
            }
    }
    for (const std::string& u : names) { // u10 and v10, uas and vas: names alone
        if (u.size() < 1 || (u[0] != 'u' && u[0] != 'U') || taken(u) || !standardName(u)[0].empty()) continue;
        std::string v = u;
        v[0] = u[0] == 'u' ? 'v' : 'V';
        if (ds.findVariable(v) && !taken(v) && standardName(v)[0].empty() && sameDims(u, v))
            out.push_back({u, v, false});
    }
    return out;
}

VectorStyle parseVectorStyle(std::string_view text) {
    for (VectorStyle s : {VectorStyle::None, VectorStyle::Arrows, VectorStyle::Barbs,
                          VectorStyle::Streamlines, VectorStyle::Particles})
        if (toString(s) == text) return s;
    STRATA_FAIL(ValueError, "vectors: '" + std::string(text) +
                                "' is not a style; use arrows, barbs, streamlines, particles or none");
}

std::string toString(VectorStyle style) {
    switch (style) {
    case VectorStyle::Arrows:
        return "arrows";
    case VectorStyle::Barbs:
        return "barbs";
    case VectorStyle::Streamlines:
        return "streamlines";
    case VectorStyle::Particles:
        return "particles";
    default:
        return "none";
    }
}

std::string describeGrid(const DataArray& a) {
    std::string s = "'" + a.name() + "' (";
    for (std::size_t k = 0; k < a.dims().size(); ++k)
        s += (k ? ", " : "") + a.dims()[k] + " " + std::to_string(a.shape()[k]);
    return s + ")";
}

bool sameGrid(const DataArray& a, const DataArray& b) {
    bool same = a.dims() == b.dims() && a.shape() == b.shape();
    for (std::size_t k = 0; same && k < a.dims().size(); ++k) {
        const Coordinate *x = a.coords().find(a.dims()[k]), *y = b.coords().find(a.dims()[k]);
        same = (x == nullptr) == (y == nullptr) && (!x || x->values == y->values);
    }
    return same;
}

std::string vectorPairProblem(const DataArray& u, const DataArray& v) {
    for (const DataArray* a : {&u, &v})
        if (a->ndim() != 2)
            return "the vector component " + describeGrid(*a) + " is not a 2-D frame (u " + describeGrid(u) +
                   ", v " + describeGrid(v) + ")";
    if (sameGrid(u, v)) return {};
    return "the vector components " + describeGrid(u) + " and " + describeGrid(v) +
           " are on different grids (their dims, sizes or coordinate values differ)";
}

} // namespace strata
