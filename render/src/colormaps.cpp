#include "strata/render/colormaps.h"

#include <algorithm>

#include "colormap_tables.h"
#include "strata/core/error.h"

namespace strata {
namespace {

const detail::BuiltinColormap* findMap(std::string_view name) {
    for (const auto& m : detail::builtinColormaps())
        if (name == m.name) return &m;
    return nullptr;
}

} // namespace

const std::vector<std::string>& colormapNames() {
    static const std::vector<std::string> names = [] {
        // Menu order: the perceptual maps first; then diverging maps, cmocean's, Crameri's
        // and ColorBrewer's sequential ones; any other table after them.
        std::vector<std::string> order = {
            "viridis",  "magma",     "plasma",  "inferno",   "cividis", "turbo",       "gray",
            "RdBu",     "RdYlBu",    "BrBG",    "PuOr",      "PiYG",    "Spectral",    "cmo.balance",
            "cmo.curl", "vik",       "roma",    "berlin",    "cork",    "cmo.thermal", "cmo.haline",
            "cmo.deep", "cmo.dense", "cmo.amp", "cmo.tempo", "cmo.ice", "batlow",      "lajolla",
            "oslo",     "davos",     "Blues",   "Greens",    "Reds",    "Greys",       "YlOrRd",
            "YlGnBu",   "PuBu"};
        std::vector<std::string> out;
        for (const auto& n : order)
            if (findMap(n)) out.push_back(n);
        for (const auto& m : detail::builtinColormaps())
            if (std::find(out.begin(), out.end(), m.name) == out.end()) out.emplace_back(m.name);
        return out;
    }();
    return names;
}

bool hasColormap(std::string_view name) { return findMap(name) != nullptr; }

std::vector<Rgba8> colormapTable(std::string_view name, bool reversed) {
    const detail::BuiltinColormap* m = findMap(name);
    if (!m) {
        std::string known;
        for (const auto& n : colormapNames()) known += (known.empty() ? "" : ", ") + n;
        STRATA_FAIL(ValueError, "unknown colour map '" + std::string(name) + "' (known: " + known + ")");
    }
    std::vector<Rgba8> table(static_cast<std::size_t>(m->entries));
    for (int i = 0; i < m->entries; ++i)
        table[static_cast<std::size_t>(i)] = {m->rgb[3 * i], m->rgb[3 * i + 1], m->rgb[3 * i + 2], 255};
    if (reversed) std::reverse(table.begin(), table.end());
    return table;
}

DataArray colormapLut(const std::vector<Rgba8>& table, Device device, Stream stream) {
    STRATA_EXPECTS(!table.empty(), ValueError, "colormapLut: the table is empty");
    std::vector<std::uint8_t> bytes;
    bytes.reserve(table.size() * 4);
    for (const Rgba8& c : table) bytes.insert(bytes.end(), {c.r, c.g, c.b, c.a});
    DataArray host =
        DataArray::fromHost("lut", {"entry", "channel"}, {static_cast<std::int64_t>(table.size()), 4}, bytes);
    if (device.isHost()) return host;
    return host.asDevice(device, stream);
}

std::vector<Rgba8> bandedTable(const std::vector<Rgba8>& table, MinMax range,
                               const std::vector<double>& levels, int entries) {
    STRATA_EXPECTS(!table.empty() && entries >= 1, ValueError, "bandedTable: an empty table");
    const auto [lo, hi] = range;
    std::vector<double> inside;
    for (double l : levels)
        if (l > lo && l < hi) inside.push_back(l);
    std::sort(inside.begin(), inside.end());
    std::vector<Rgba8> out(static_cast<std::size_t>(entries));
    for (int i = 0; i < entries; ++i) {
        const double v = lo + (i + 0.5) / entries * (hi - lo);
        const std::size_t k = std::size_t(std::lower_bound(inside.begin(), inside.end(), v) - inside.begin());
        const double a = k == 0 ? lo : inside[k - 1], b = k == inside.size() ? hi : inside[k];
        const double t = hi > lo ? ((a + b) / 2 - lo) / (hi - lo) : 0.5;
        const auto e =
            static_cast<std::size_t>(std::clamp(t * double(table.size()), 0.0, double(table.size() - 1)));
        out[static_cast<std::size_t>(i)] = table[e];
    }
    return out;
}

} // namespace strata
