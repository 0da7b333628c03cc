// The checks and steps every mesh reader shares (mesh_forms.h).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "mesh_forms.h"
#include "strata/core/error.h"

namespace strata::mesh::detail {
namespace {

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

} // namespace

std::string number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", v);
    return text;
}

void Where::fail(const std::string& problem) const { STRATA_FAIL(ValueError, prefix + problem); }

const Variable& need(const Dataset& ds, const std::string& name, const Where& w) {
    const Variable* v = ds.findVariable(name);
    if (!v) w.fail("names " + name + ", which " + ds.path + " does not have");
    return *v;
}

std::vector<double> valuesOf(const Variable& v) { return DataArray("mesh", v).asHost().values<double>(); }

std::vector<double> valuesAlong(const Dataset& ds, const std::string& name,
                                const std::vector<std::string>& dims, const Where& w) {
    const Variable& v = need(ds, name, w);
    if (v.dims() != dims) {
        std::string want, have;
        for (const auto& d : dims) want += (want.empty() ? "" : ", ") + d;
        for (const auto& d : v.dims()) have += (have.empty() ? "" : ", ") + d;
        w.fail("mismatched sizes: " + name + " lies along (" + have + "), not (" + want + ")");
    }
    return valuesOf(v);
}

bool saysRadians(const Variable& v, bool byDefault) {
    const std::string u = lower(v.attrs().text("units").value_or(""));
    if (u.find("rad") != std::string::npos) return true;
    if (u.find("deg") != std::string::npos) return false;
    return byDefault;
}

void connect(Mesh& m, const std::vector<double>& raw, std::int64_t faces, int maxNodes, double start,
             const std::vector<double>* counts, const std::string& name, const Where& w) {
    if (maxNodes < 1 || faces < 0 || std::int64_t(raw.size()) != faces * maxNodes)
        w.fail("mismatched sizes: " + name + " holds " + std::to_string(raw.size()) + " values, not " +
               std::to_string(faces) + " faces × " + std::to_string(maxNodes) + " nodes");
    const double nodes = double(m.nodes());
    m.maxNodes = maxNodes;
    m.faceNodes.assign(raw.size(), -1);
    for (std::int64_t f = 0; f < faces; ++f) {
        std::int64_t n = maxNodes;
        if (counts) {
            const double c = (*counts)[std::size_t(f)];
            if (!(c >= 0 && c <= maxNodes && c == std::floor(c)))
                w.fail("face " + std::to_string(f) + " has " + number(c) +
                       " nodes by its count, outside 0 to " + std::to_string(maxNodes));
            n = std::int64_t(c);
        }
        int kept = 0;
        for (std::int64_t k = 0; k < n; ++k) {
            const double v = raw[std::size_t(f * maxNodes + k)];
            if (std::isnan(v)) continue; // a pad
            const double i = v - start;
            if (!(i >= 0 && i < nodes && i == std::floor(i)))
                w.fail("connectivity index out of range: face " + std::to_string(f) + " names node " +
                       number(v) + " in " + name + ", outside " + number(start) + " to " +
                       number(nodes - 1 + start) + " (" + number(nodes) + " nodes, first numbered " +
                       number(start) + ")");
            m.faceNodes[std::size_t(f * maxNodes + kept++)] = std::int64_t(i);
        }
    }
}

void finish(Mesh& m, const Where& w) {
    if (m.maxNodes < 3 && !(m.faceNodes.empty() && m.faceLon.empty()))
        w.fail("faces with fewer than three nodes: the file gives at most " + std::to_string(m.maxNodes) +
               " nodes a face");
    const std::int64_t faces = m.maxNodes > 0 ? std::int64_t(m.faceNodes.size()) / m.maxNodes : 0;
    if (m.nodeLon.size() != m.nodeLat.size())
        w.fail("mismatched sizes: " + std::to_string(m.nodeLon.size()) + " node longitudes but " +
               std::to_string(m.nodeLat.size()) + " node latitudes");
    if (m.faceLon.empty() && m.faceLat.empty()) {
        m.faceLon.assign(std::size_t(faces), NAN);
        m.faceLat.assign(std::size_t(faces), NAN);
    }
    if (std::int64_t(m.faceLon.size()) != faces || std::int64_t(m.faceLat.size()) != faces)
        w.fail("mismatched sizes: " + std::to_string(faces) + " faces but " +
               std::to_string(m.faceLon.size()) + " face centre longitudes and " +
               std::to_string(m.faceLat.size()) + " latitudes");
    if (!m.faceArea.empty() && std::int64_t(m.faceArea.size()) != faces)
        w.fail("mismatched sizes: " + std::to_string(faces) + " faces but " +
               std::to_string(m.faceArea.size()) + " face areas");
    constexpr double rad = std::numbers::pi / 180;
    for (std::int64_t f = 0; f < faces; ++f) {
        const int n = m.nodesOf(f);
        if (n < 3)
            w.fail("face " + std::to_string(f) + " has " + std::to_string(n) + (n == 1 ? " node" : " nodes") +
                   ", fewer than three");
        double x = 0, y = 0, z = 0;
        for (int k = 0; k < n; ++k) {
            const std::int64_t i = m.faceNodes[std::size_t(f * m.maxNodes + k)];
            if (i < 0 || i >= m.nodes())
                w.fail("connectivity index out of range: face " + std::to_string(f) + " names node " +
                       std::to_string(i) + " of " + std::to_string(m.nodes()));
            double& lat = m.nodeLat[std::size_t(i)];
            const double lon = m.nodeLon[std::size_t(i)];
            if (!std::isfinite(lon) || !std::isfinite(lat))
                w.fail("non-finite node coordinates: node " + std::to_string(i) + ", used by face " +
                       std::to_string(f) + ", lies at lon " + number(lon) + ", lat " + number(lat));
            if (std::abs(lat) > 90 + 1e-6)
                w.fail("node " + std::to_string(i) + ", used by face " + std::to_string(f) +
                       ", lies at lat " + number(lat) + ", beyond a pole");
            lat = std::clamp(lat, -90.0, 90.0);
            x += std::cos(lat * rad) * std::cos(lon * rad);
            y += std::cos(lat * rad) * std::sin(lon * rad);
            z += std::sin(lat * rad);
        }
        double& lon = m.faceLon[std::size_t(f)];
        double& lat = m.faceLat[std::size_t(f)];
        if (std::isfinite(lon) && std::isfinite(lat) && std::abs(lat) <= 90) continue;
        const double h = std::hypot(x, y);
        lat = std::atan2(z, h) / rad;
        lon = h > 0 ? std::atan2(y, x) / rad : 0;
    }
}

} // namespace strata::mesh::detail
