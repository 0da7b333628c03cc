#pragma once
// An ICON-like triangular mesh made in memory, for benchmarks and tests of the face locator:
// an icosahedron turned so that two of its corners are the poles, each of its 20 faces cut
// into m × m triangles (its edges split into m equal steps, the points of the flat grid pushed
// out onto the sphere), nodes shared between triangles. ICON's RnBk grid has m = n · 2^k:
// R2B4 is m = 32 (20,480 triangles), R2B8 m = 512 (5,242,880).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "strata/core/mesh.h"

namespace benchmesh {

using Vec = std::array<double, 3>;

inline Vec normalised(Vec v) {
    const double r = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    return {v[0] / r, v[1] / r, v[2] / r};
}

// The triangles of RnBk: m = n · 2^k.
inline int icosahedralSplits(int n, int k) { return n << k; }

inline std::shared_ptr<strata::mesh::Mesh> icosahedral(int m) {
    // The corners: (0, ±1, ±φ) and its cyclic turns, turned about x so that (0, 1, φ) is north.
    const double phi = (1 + std::sqrt(5.0)) / 2, turn = std::atan(1 / phi);
    std::vector<Vec> corner;
    for (int s1 : {-1, 1})
        for (int s2 : {-1, 1}) {
            const double a = s1, b = s2 * phi;
            for (const Vec& v : {Vec{0, a, b}, Vec{a, b, 0}, Vec{b, 0, a}})
                corner.push_back(normalised({v[0], v[1] * std::cos(turn) - v[2] * std::sin(turn),
                                             v[1] * std::sin(turn) + v[2] * std::cos(turn)}));
        }
    for (Vec& v : corner)
        if (std::abs(v[0]) < 1e-12 && std::abs(v[1]) < 1e-12) v = {0, 0, v[2] > 0 ? 1.0 : -1.0};
    // Edges: corners 1.05 times the shortest distance apart or closer; faces: three such corners.
    const auto near = [&](int a, int b) {
        const double d =
            std::hypot(corner[a][0] - corner[b][0], corner[a][1] - corner[b][1], corner[a][2] - corner[b][2]);
        return d < 1.1; // edges are 1.0515 long, the next nearest corners 1.7013
    };
    std::array<std::array<int, 12>, 12> edge{};
    std::vector<std::array<int, 2>> edges;
    std::vector<std::array<int, 3>> faces;
    for (int a = 0; a < 12; ++a)
        for (int b = a + 1; b < 12; ++b)
            if (near(a, b)) {
                edge[a][b] = edge[b][a] = int(edges.size());
                edges.push_back({a, b});
                for (int c = b + 1; c < 12; ++c)
                    if (near(a, c) && near(b, c)) faces.push_back({a, b, c});
            }

    auto mesh = std::make_shared<strata::mesh::Mesh>();
    strata::mesh::Mesh& out = *mesh;
    out.form = "ICON";
    out.faceDim = "cell";
    out.nodeDim = "vertex";
    out.maxNodes = 3;
    const std::int64_t inEdge = m - 1, inFace = std::int64_t(m - 1) * (m - 2) / 2;
    const std::int64_t nodes = 12 + 30 * inEdge + 20 * inFace;
    std::vector<Vec> at(std::size_t(nodes), Vec{});
    const auto lerp = [&](const Vec& a, const Vec& b, const Vec& c, int i, int j) {
        Vec p;
        for (int d = 0; d < 3; ++d) p[d] = a[d] + (b[d] - a[d]) * i / m + (c[d] - a[d]) * j / m;
        return normalised(p);
    };
    for (int v = 0; v < 12; ++v) at[std::size_t(v)] = corner[std::size_t(v)];
    for (std::size_t e = 0; e < edges.size(); ++e)
        for (int t = 1; t < m; ++t)
            at[12 + e * std::size_t(inEdge) + std::size_t(t - 1)] =
                lerp(corner[std::size_t(edges[e][0])], corner[std::size_t(edges[e][1])], Vec{}, t, 0);
    // The node at i steps towards the face's second corner and j towards its third.
    const auto node = [&](int f, int i, int j) -> std::int64_t {
        const auto [a, b, c] = faces[std::size_t(f)];
        const auto onEdge = [&](int u, int v, int t) { // t steps from corner u to corner v
            const std::int64_t e = 12 + std::int64_t(edge[u][v]) * inEdge;
            return u < v ? e + t - 1 : e + (m - t) - 1;
        };
        if (i == 0 && j == 0) return a;
        if (i == m) return b;
        if (j == m) return c;
        if (j == 0) return onEdge(a, b, i);
        if (i == 0) return onEdge(a, c, j);
        if (i + j == m) return onEdge(b, c, j);
        const std::int64_t row = std::int64_t(i - 1) * (2 * m - i - 2) / 2; // interior rows before i
        return 12 + 30 * inEdge + f * inFace + row + (j - 1);
    };
    out.faceNodes.reserve(std::size_t(20) * std::size_t(m) * std::size_t(m) * 3);
    for (int f = 0; f < 20; ++f) {
        const auto [a, b, c] = faces[std::size_t(f)];
        for (int i = 1; i < m; ++i)
            for (int j = 1; i + j < m; ++j)
                at[std::size_t(node(f, i, j))] =
                    lerp(corner[std::size_t(a)], corner[std::size_t(b)], corner[std::size_t(c)], i, j);
        for (int i = 0; i < m; ++i)
            for (int j = 0; i + j < m; ++j) {
                out.faceNodes.insert(out.faceNodes.end(),
                                     {node(f, i, j), node(f, i + 1, j), node(f, i, j + 1)});
                if (i + j < m - 1)
                    out.faceNodes.insert(out.faceNodes.end(),
                                         {node(f, i + 1, j), node(f, i + 1, j + 1), node(f, i, j + 1)});
            }
    }
    const double deg = 180 / std::acos(-1.0);
    const auto lonLat = [&](const Vec& p, std::vector<double>& lon, std::vector<double>& lat) {
        lon.push_back(std::atan2(p[1], p[0]) * deg);
        lat.push_back(std::atan2(p[2], std::hypot(p[0], p[1])) * deg);
    };
    for (const Vec& p : at) lonLat(p, out.nodeLon, out.nodeLat);
    for (std::size_t f = 0; f < out.faceNodes.size(); f += 3) {
        Vec c{};
        for (std::size_t k = 0; k < 3; ++k)
            for (int d = 0; d < 3; ++d) c[d] += at[std::size_t(out.faceNodes[f + k])][d];
        lonLat(normalised(c), out.faceLon, out.faceLat);
    }
    return mesh;
}

} // namespace benchmesh
