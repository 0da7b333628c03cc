// FaceLocator's tables built on the host's threads (face_grid.h). Each step cuts its work into
// fixed ranges, one a thread, and joins their results in range order, so that the tables are
// those one thread builds: node vectors and face boxes per range; the grid's extent from the
// ranges' minima and maxima and a bucket sort of the faces' longitudes; then the faces into
// bins by a counting sort over bands of rows, each bin's faces in ascending order.
#include "face_grid.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "face_bounds.h"
#include "for_ranges.h"
#include "strata/core/error.h"

namespace strata::mesh::detail {
namespace {

using strata::detail::forRanges;

constexpr double kPad = 1e-7; // degrees a box is widened by, against rounding at bin edges

// Throws ValueError for a mesh FaceLocator cannot take; else its faces.
std::int64_t checkedFaces(const Mesh& m, int threads) {
    const std::int64_t faces = m.maxNodes > 0 ? std::int64_t(m.faceNodes.size()) / m.maxNodes : 0;
    STRATA_EXPECTS(faces < std::int64_t(UINT32_MAX), ValueError,
                   "FaceLocator: a mesh of " + std::to_string(faces) + " faces, more than it can index");
    STRATA_EXPECTS(m.nodeLat.size() == m.nodeLon.size() &&
                       m.faceNodes.size() == std::size_t(faces * m.maxNodes),
                   ValueError, "FaceLocator: a mesh whose arrays' sizes disagree");
    // the first entry naming a node past the last, as one thread would meet it
    std::vector<std::int64_t> bad(std::size_t(threads), -1);
    forRanges(threads, std::int64_t(m.faceNodes.size()), [&](int t, std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e && bad[std::size_t(t)] < 0; ++i)
            if (m.faceNodes[std::size_t(i)] >= m.nodes()) bad[std::size_t(t)] = i;
    });
    for (const std::int64_t i : bad)
        STRATA_EXPECTS(i < 0, ValueError,
                       "FaceLocator: a face names node " + std::to_string(m.faceNodes[std::size_t(i)]) +
                           " of " + std::to_string(m.nodes()));
    return faces;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// The longitudes the boxes cover, as start and length (degrees): the circle less its widest gap
// between the boxes' spans in order of their starts. The spans are sorted by buckets of their
// starts (a bucket's spans all start before the next's), and the widest gap is found per range
// of them, given the ends reached before it: as one sort and one pass over them would find it.
std::pair<double, double> lonCover(const Table<Box>& boxes, const Table<std::int8_t>& sign, int threads) {
    const std::int64_t faces = std::int64_t(boxes.size());
    const int buckets = int(std::clamp<std::int64_t>(faces / 8, 1, 1 << 16));
    const auto startOf = [](const Box& b) { return b.lonLo - 360 * std::floor((b.lonLo + 180) / 360); };
    const auto bucketOf = [&](double lo) { // never decreasing in lo; NaN in the first
        const double x = (lo + 180) * (buckets / 360.0);
        return x >= 0 ? std::size_t(std::min(x, double(buckets - 1))) : 0;
    };
    std::vector<std::int64_t> place(std::size_t(threads) * std::size_t(buckets), 0);
    std::vector<char> round(std::size_t(threads), 0);
    // Beside the counts, the cells of 1/16° each thread's spans cover whole: when the spans
    // together cover every cell, there is no gap (a global mesh), and nothing is sorted.
    constexpr int kCells = 360 * 16;
    std::vector<std::uint8_t> covered(std::size_t(threads) * kCells, 0);
    forRanges(threads, faces, [&](int t, std::int64_t b, std::int64_t e) {
        std::int64_t* count = &place[std::size_t(t) * std::size_t(buckets)];
        std::uint8_t* cells = &covered[std::size_t(t) * kCells];
        for (std::int64_t f = b; f < e; ++f) {
            if (!sign[std::size_t(f)]) continue; // no area: never found
            const Box& box = boxes[std::size_t(f)];
            if (box.allLon) {
                round[std::size_t(t)] = 1;
                return;
            }
            const double lo = startOf(box);
            ++count[bucketOf(lo)];
            const double c0 = std::ceil((lo + 180) * 16),
                         c1 = std::floor((lo + (box.lonHi - box.lonLo) + 180) * 16);
            if (!(c0 >= 0 && c1 >= c0)) continue; // no whole cell (or not finite)
            if (c1 - c0 >= kCells) {
                std::fill(cells, cells + kCells, std::uint8_t(1));
                continue;
            }
            for (auto c = std::int64_t(c0); c < std::int64_t(c1); ++c) cells[c % kCells] = 1;
        }
    });
    if (std::find(round.begin(), round.end(), 1) != round.end()) return {-180, 360};
    bool everywhere = true;
    for (int c = 0; c < kCells && everywhere; ++c) {
        bool any = false;
        for (int t = 0; t < threads && !any; ++t) any = covered[std::size_t(t) * kCells + std::size_t(c)];
        everywhere = any;
    }
    if (everywhere) return {-180, 360}; // no gap: as the sorted pass below would find
    std::vector<std::int64_t> bucketStart(std::size_t(buckets) + 1);
    std::int64_t n = 0;
    for (std::size_t k = 0; k < std::size_t(buckets); ++k) {
        bucketStart[k] = n;
        for (std::size_t t = 0; t < std::size_t(threads); ++t)
            n += std::exchange(place[t * std::size_t(buckets) + k], n);
    }
    bucketStart.back() = n;
    if (n == 0) return {-180, 360};
    struct Cover {
        double lo, hi;
        bool operator<(const Cover& o) const { return lo < o.lo || (!(o.lo < lo) && hi < o.hi); } // as pair's
    };
    Table<Cover> spans(static_cast<std::size_t>(n));
    forRanges(threads, faces, [&](int t, std::int64_t b, std::int64_t e) {
        std::int64_t* next = &place[std::size_t(t) * std::size_t(buckets)];
        for (std::int64_t f = b; f < e; ++f) {
            if (!sign[std::size_t(f)]) continue;
            const Box& box = boxes[std::size_t(f)];
            const double lo = startOf(box);
            spans[std::size_t(next[bucketOf(lo)]++)] = {lo, lo + (box.lonHi - box.lonLo)};
        }
    });
    forRanges(threads, n, [&](int, std::int64_t b, std::int64_t e) { // the buckets starting in b..e
        auto k = std::size_t(std::lower_bound(bucketStart.begin(), bucketStart.end() - 1, b) -
                             bucketStart.begin());
        for (; k < std::size_t(buckets) && bucketStart[k] < e; ++k)
            std::sort(spans.begin() + bucketStart[k], spans.begin() + bucketStart[k + 1]);
    });

    std::vector<double> reachOf(static_cast<std::size_t>(threads)), gapOf(static_cast<std::size_t>(threads)),
        gapEndOf(static_cast<std::size_t>(threads));
    forRanges(threads, n, [&](int t, std::int64_t b, std::int64_t e) {
        double reach = -std::numeric_limits<double>::infinity();
        for (std::int64_t i = b; i < e; ++i) reach = std::max(reach, spans[std::size_t(i)].hi);
        reachOf[std::size_t(t)] = reach;
    });
    forRanges(threads, n, [&](int t, std::int64_t b, std::int64_t e) {
        double reach = spans[0].hi, gap = 0, gapEnd = -180;
        for (int u = 0; u < t; ++u) reach = std::max(reach, reachOf[std::size_t(u)]);
        for (std::int64_t i = std::max<std::int64_t>(b, 1); i < e; ++i) {
            const auto [first, second] = spans[std::size_t(i)];
            if (first - reach > gap) gap = first - reach, gapEnd = first;
            reach = std::max(reach, second);
        }
        gapOf[std::size_t(t)] = gap, gapEndOf[std::size_t(t)] = gapEnd;
    });
    double reach = spans[0].hi, gap = 0, gapEnd = -180;
    for (std::size_t t = 0; t < std::size_t(threads); ++t) {
        if (gapOf[t] > gap) gap = gapOf[t], gapEnd = gapEndOf[t];
        reach = std::max(reach, reachOf[t]);
    }
    const double around = spans[0].lo + 360 - reach; // the gap across the wrap
    if (around > gap) gap = around, gapEnd = spans[0].lo;
    if (gap <= 2 * kPad) return {-180, 360};
    return {gapEnd - kPad, 360 - gap + 2 * kPad};
}

// The bins a face's box covers: rows r0..r1, columns c0..c1 (past nx wrapping round); none
// where r1 < r0.
struct Span {
    std::int32_t r0, r1, c0, c1;
};
constexpr Span kNoSpan{0, -1, 0, -1};

} // namespace

FaceTables FaceGrid::tables(const Mesh& m) const {
    FaceTables t;
    t.xyz = xyz.data();
    t.faceNodes = m.faceNodes.data();
    t.sign = sign.data();
    t.binStart = binStart.empty() ? nullptr : binStart.data();
    t.binFaces = binFaces.data();
    t.maxNodes = m.maxNodes, t.nx = nx, t.ny = ny;
    t.latMin = latMin, t.dLat = dLat, t.lonStart = lonStart, t.dLon = dLon;
    t.allLon = allLon;
    return t;
}

FaceGrid buildFaceGrid(const Mesh& m, int threads) {
    threads = std::max(threads, 1);
    const std::int64_t faces = checkedFaces(m, threads);
    FaceGrid g;
    g.xyz.resize(std::size_t(m.nodes()) * 3);
    forRanges(threads, m.nodes(), [&](int, std::int64_t b, std::int64_t e) {
        for (std::int64_t i = b; i < e; ++i)
            unitVector(m.nodeLon[std::size_t(i)], m.nodeLat[std::size_t(i)], &g.xyz[std::size_t(i) * 3]);
    });

    // Each face's winding and box, and the latitudes of the boxes of faces with an area.
    g.sign.resize(std::size_t(faces));
    Table<Box> boxes(static_cast<std::size_t>(faces));
    std::vector<std::pair<double, double>> lats(std::size_t(threads), {90, -90});
    const FaceTables tables = g.tables(m);
    forRanges(threads, faces, [&](int t, std::int64_t from, std::int64_t to) {
        const double north[3] = {0, 0, 1}, south[3] = {0, 0, -1};
        const auto xyz = [&](std::int64_t node) { return &g.xyz[std::size_t(node) * 3]; };
        auto& [latLo, latHi] = lats[std::size_t(t)];
        for (std::int64_t f = from; f < to; ++f) {
            const std::int64_t* row = &m.faceNodes[std::size_t(f * m.maxNodes)];
            const int n = m.nodesOf(f);
            if (n < 3) {
                g.sign[std::size_t(f)] = 0, boxes[std::size_t(f)] = Box{0, 0, 0, 0, false};
                continue;
            }
            double c[3] = {0, 0, 0}, area[3] = {0, 0, 0};
            for (int k = 0; k < n; ++k) {
                double e[3];
                cross(xyz(row[k]), xyz(row[(k + 1) % n]), e);
                for (int j = 0; j < 3; ++j) c[j] += xyz(row[k])[j], area[j] += e[j];
            }
            const double s = dot(c, area);
            g.sign[std::size_t(f)] = s > 0 ? 1 : s < 0 ? -1 : 0;
            Box& b = boxes[std::size_t(f)];
            b = boxOf(
                n, [&](int k) { return xyz(row[k]); },
                [&](int k, double& lon, double& lat) {
                    lon = remainder360(m.nodeLon[std::size_t(row[k])]);
                    lat = m.nodeLat[std::size_t(row[k])];
                });
            if (b.allLon && insideFace(tables, f, north)) b.latHi = 90;
            if (b.allLon && insideFace(tables, f, south)) b.latLo = -90;
            b.latLo -= kPad, b.latHi += kPad, b.lonLo -= kPad, b.lonHi += kPad;
            if (!g.sign[std::size_t(f)]) continue;
            latLo = std::min(latLo, b.latLo), latHi = std::max(latHi, b.latHi);
        }
    });

    // The bin grid: over the latitudes and longitudes the faces cover, bins about as large as
    // the typical face, at most a few per face.
    double latLo = 90, latHi = -90;
    for (const auto& [lo, hi] : lats) latLo = std::min(latLo, lo), latHi = std::max(latHi, hi);
    if (latHi < latLo) return g; // no face: nothing is found
    std::vector<double> heights, widths;
    const std::int64_t every = std::max<std::int64_t>(1, faces / 100000);
    for (std::int64_t f = 0; f < faces; f += every) {
        const Box& b = boxes[std::size_t(f)];
        if (!g.sign[std::size_t(f)] || b.allLon) continue;
        heights.push_back(b.latHi - b.latLo);
        widths.push_back(b.lonHi - b.lonLo);
    }
    latLo = std::max(latLo, -90.0), latHi = std::min(latHi, 90.0);
    const auto [lonStart, lonRange] = lonCover(boxes, g.sign, threads);
    g.lonStart = lonStart;
    g.allLon = lonRange >= 360;
    const double h = std::max(median(heights), 1e-6), w = std::max(median(widths), 1e-6);
    double rows = std::max(1.0, (latHi - latLo) / h), cols = std::max(1.0, std::min(lonRange, 360.0) / w);
    const double cap = std::min(double(1 << 26), std::max(64.0, 2.0 * double(faces)));
    if (rows * cols > cap) {
        const double shrink = std::sqrt(rows * cols / cap);
        rows = std::max(1.0, rows / shrink), cols = std::max(1.0, cols / shrink);
    }
    g.ny = int(std::ceil(rows)), g.nx = int(std::ceil(cols));
    g.latMin = latLo;

    const auto spanOf = [&](const Box& b) {
        const std::int64_t nx = g.nx, ny = g.ny;
        const std::int64_t r0 =
            std::clamp<std::int64_t>(std::int64_t(std::floor((b.latLo - g.latMin) / g.dLat)), 0, ny - 1);
        const std::int64_t r1 =
            std::clamp<std::int64_t>(std::int64_t(std::floor((b.latHi - g.latMin) / g.dLat)), 0, ny - 1);
        std::int64_t c0 = 0, c1 = nx - 1;
        if (!b.allLon && b.lonHi - b.lonLo < 360) {
            c0 = std::min<std::int64_t>(std::int64_t(std::floor(modulo360(b.lonLo - g.lonStart) / g.dLon)),
                                        nx);
            c1 = c0 + std::min<std::int64_t>(std::int64_t(std::floor((b.lonHi - b.lonLo) / g.dLon)) + 1, nx);
            if (c1 - c0 + 1 >= nx && g.allLon) c0 = 0, c1 = nx - 1;
            if (!g.allLon) c1 = std::min<std::int64_t>(c1, nx - 1);
        }
        return Span{std::int32_t(r0), std::int32_t(r1), std::int32_t(c0), std::int32_t(c1)};
    };
    // Faces whose boxes overlap (which no real mesh has, a hostile file may) would fill every
    // bin: coarser bins until the faces' places in them stay a few per face. Each face's span
    // is kept, and the places by groups of rows, to share the rows out below.
    Table<Span> spans(static_cast<std::size_t>(faces));
    std::int64_t groups = 0;
    std::vector<std::int64_t> weight;
    for (;;) {
        g.dLat = (latHi - latLo) / g.ny;
        g.dLon = std::min(lonRange, 360.0) / g.nx;
        if (g.dLat <= 0) g.dLat = 1;
        groups = std::min<std::int64_t>(g.ny, 64 * std::int64_t(threads));
        weight.assign(std::size_t(threads * groups), 0);
        std::vector<std::int64_t> places(std::size_t(threads), 0);
        forRanges(threads, faces, [&](int t, std::int64_t b, std::int64_t e) {
            std::int64_t* w = &weight[std::size_t(t * groups)];
            for (std::int64_t f = b; f < e; ++f) {
                Span& s = spans[std::size_t(f)];
                s = g.sign[std::size_t(f)] ? spanOf(boxes[std::size_t(f)]) : kNoSpan;
                const std::int64_t p = std::int64_t(s.r1 - s.r0 + 1) * std::max(s.c1 - s.c0 + 1, 0);
                places[std::size_t(t)] += p;
                w[s.r0 * groups / g.ny] += p + 1;
            }
        });
        std::int64_t sum = 0;
        for (const std::int64_t p : places) sum += p;
        if (double(sum) <= 16.0 * double(faces) + 65536 || (g.nx == 1 && g.ny == 1)) break;
        g.nx = std::max(1, g.nx / 2), g.ny = std::max(1, g.ny / 2);
    }

    // Faces into bins, in bands of rows (a thread each, about as many places each): each band's
    // faces listed in ascending order (counted, then filled, per range of faces), then each
    // band's bins counted, their offsets summed across bands, and filled from the band's list.
    const std::int64_t nx = g.nx, bands = threads;
    std::vector<std::int64_t> bandRow(std::size_t(bands) + 1, g.ny); // the first row of each band
    bandRow[0] = 0;
    {
        std::int64_t total = 0, cum = 0, band = 1;
        for (const std::int64_t w : weight) total += w;
        for (std::int64_t k = 0; k < groups && band < bands; ++k) {
            for (std::int64_t t = 0; t < threads; ++t) cum += weight[std::size_t(t * groups + k)];
            while (band < bands && cum * bands >= total * band)
                bandRow[std::size_t(band++)] = ((k + 1) * g.ny + groups - 1) / groups;
        }
    }
    const auto bandOf = [&](std::int64_t row) {
        return std::int64_t(std::upper_bound(bandRow.begin(), bandRow.end() - 1, row) - bandRow.begin()) - 1;
    };
    std::vector<std::int64_t> listed(std::size_t(threads * bands), 0);
    forRanges(threads, faces, [&](int t, std::int64_t b, std::int64_t e) {
        std::int64_t* count = &listed[std::size_t(t * bands)];
        for (std::int64_t f = b; f < e; ++f) {
            const Span s = spans[std::size_t(f)];
            if (s.r1 < s.r0) continue;
            for (std::int64_t k = bandOf(s.r0), last = bandOf(s.r1); k <= last; ++k) ++count[k];
        }
    });
    std::vector<std::int64_t> bandStart(std::size_t(bands) + 1);
    std::int64_t n = 0;
    for (std::int64_t k = 0; k < bands; ++k) {
        bandStart[std::size_t(k)] = n;
        for (std::int64_t t = 0; t < threads; ++t) n += std::exchange(listed[std::size_t(t * bands + k)], n);
    }
    bandStart.back() = n;
    Table<std::uint32_t> bandFaces(static_cast<std::size_t>(n));
    forRanges(threads, faces, [&](int t, std::int64_t b, std::int64_t e) {
        std::int64_t* next = &listed[std::size_t(t * bands)];
        for (std::int64_t f = b; f < e; ++f) {
            const Span s = spans[std::size_t(f)];
            if (s.r1 < s.r0) continue;
            for (std::int64_t k = bandOf(s.r0), last = bandOf(s.r1); k <= last; ++k)
                bandFaces[std::size_t(next[k]++)] = std::uint32_t(f);
        }
    });

    // Each bin's place in a band: its bins are those of rows bandRow[k] .. bandRow[k + 1] - 1.
    const auto forBins = [&](std::int64_t k, auto&& visit) {
        const std::int64_t rb = bandRow[std::size_t(k)], re = bandRow[std::size_t(k) + 1];
        for (std::int64_t i = bandStart[std::size_t(k)]; i < bandStart[std::size_t(k) + 1]; ++i) {
            const std::uint32_t f = bandFaces[std::size_t(i)];
            const Span s = spans[f];
            for (std::int64_t r = std::max<std::int64_t>(s.r0, rb); r <= std::min<std::int64_t>(s.r1, re - 1);
                 ++r)
                for (std::int64_t c = s.c0; c <= s.c1; ++c) visit(r * nx + c % nx, f);
        }
    };
    g.binStart.resize(std::size_t(nx) * std::size_t(g.ny) + 1);
    g.binStart[0] = 0;
    std::vector<std::int64_t> inBand(std::size_t(bands), 0);
    forRanges(threads, bands, [&](int, std::int64_t b, std::int64_t e) {
        for (std::int64_t k = b; k < e; ++k) {
            std::fill(g.binStart.begin() + bandRow[std::size_t(k)] * nx + 1,
                      g.binStart.begin() + bandRow[std::size_t(k) + 1] * nx + 1, 0);
            forBins(k, [&](std::int64_t bin, std::uint32_t) { ++g.binStart[std::size_t(bin) + 1]; });
            for (std::int64_t bin = bandRow[std::size_t(k)] * nx; bin < bandRow[std::size_t(k) + 1] * nx;
                 ++bin)
                inBand[std::size_t(k)] += g.binStart[std::size_t(bin) + 1];
        }
    });
    std::int64_t placed = 0;
    for (std::int64_t& c : inBand) placed += std::exchange(c, placed);
    g.binFaces.resize(std::size_t(placed));
    forRanges(threads, bands, [&](int, std::int64_t b, std::int64_t e) {
        for (std::int64_t k = b; k < e; ++k) {
            const std::int64_t first = bandRow[std::size_t(k)] * nx, end = bandRow[std::size_t(k) + 1] * nx;
            Table<std::int64_t> next(std::size_t(end - first));
            std::int64_t at = inBand[std::size_t(k)];
            for (std::int64_t bin = first; bin < end; ++bin) {
                next[std::size_t(bin - first)] = at;
                at += g.binStart[std::size_t(bin) + 1];
                g.binStart[std::size_t(bin) + 1] = at;
            }
            forBins(k, [&](std::int64_t bin, std::uint32_t f) {
                g.binFaces[std::size_t(next[std::size_t(bin - first)]++)] = f;
            });
        }
    });
    return g;
}

} // namespace strata::mesh::detail
