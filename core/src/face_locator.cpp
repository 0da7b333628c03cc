#include "strata/core/face_locator.h"

#include <algorithm>
#include <thread>

#include "face_bounds.h"
#include "face_device.h"
#include "strata/core/error.h"

namespace strata::mesh {
namespace {

using detail::Box;

constexpr double kPad = 1e-7; // degrees a box is widened by, against rounding at bin edges

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::nth_element(v.begin(), v.begin() + std::ptrdiff_t(v.size() / 2), v.end());
    return v[v.size() / 2];
}

// The longitudes the boxes cover, as start and length (degrees): the circle less its widest gap.
std::pair<double, double> lonCover(const std::vector<Box>& boxes, const std::vector<std::int8_t>& sign) {
    std::vector<std::pair<double, double>> spans;
    spans.reserve(boxes.size());
    for (std::size_t f = 0; f < boxes.size(); ++f) {
        const Box& b = boxes[f];
        if (!sign[f]) continue; // no area: never found
        if (b.allLon) return {-180, 360};
        const double lo = b.lonLo - 360 * std::floor((b.lonLo + 180) / 360); // in [-180, 180)
        spans.emplace_back(lo, lo + (b.lonHi - b.lonLo));
    }
    if (spans.empty()) return {-180, 360};
    std::sort(spans.begin(), spans.end());
    double reach = spans[0].second, gap = 0, gapEnd = -180;
    for (std::size_t i = 1; i < spans.size(); ++i) {
        if (spans[i].first - reach > gap) gap = spans[i].first - reach, gapEnd = spans[i].first;
        reach = std::max(reach, spans[i].second);
    }
    const double around = spans[0].first + 360 - reach; // the gap across the wrap
    if (around > gap) gap = around, gapEnd = spans[0].first;
    if (gap <= 2 * kPad) return {-180, 360};
    return {gapEnd - kPad, 360 - gap + 2 * kPad};
}

} // namespace

FaceLocator::FaceLocator(std::shared_ptr<const Mesh> mesh)
    : mesh_(std::move(mesh)), devices_(std::make_shared<detail::FaceDeviceCache>()) {
    STRATA_EXPECTS(mesh_, ValueError, "FaceLocator: no mesh");
    const Mesh& m = *mesh_;
    const std::int64_t faces = m.maxNodes > 0 ? std::int64_t(m.faceNodes.size()) / m.maxNodes : 0;
    STRATA_EXPECTS(faces < std::int64_t(UINT32_MAX), ValueError,
                   "FaceLocator: a mesh of " + std::to_string(faces) + " faces, more than it can index");
    STRATA_EXPECTS(m.nodeLat.size() == m.nodeLon.size() &&
                       m.faceNodes.size() == std::size_t(faces * m.maxNodes),
                   ValueError, "FaceLocator: a mesh whose arrays' sizes disagree");
    for (const std::int64_t i : m.faceNodes)
        STRATA_EXPECTS(i < m.nodes(), ValueError,
                       "FaceLocator: a face names node " + std::to_string(i) + " of " +
                           std::to_string(m.nodes()));
    xyz_.resize(std::size_t(m.nodes()) * 3);
    for (std::int64_t i = 0; i < m.nodes(); ++i)
        detail::unitVector(m.nodeLon[std::size_t(i)], m.nodeLat[std::size_t(i)], &xyz_[std::size_t(i) * 3]);

    // Each face's winding and box.
    sign_.assign(std::size_t(faces), 0);
    std::vector<Box> boxes(static_cast<std::size_t>(faces));
    const double north[3] = {0, 0, 1}, south[3] = {0, 0, -1};
    for (std::int64_t f = 0; f < faces; ++f) {
        const std::int64_t* row = &m.faceNodes[std::size_t(f * m.maxNodes)];
        const int n = m.nodesOf(f);
        if (n < 3) continue;
        double c[3] = {0, 0, 0}, area[3] = {0, 0, 0};
        for (int k = 0; k < n; ++k) {
            double e[3];
            detail::cross(xyz(row[k]), xyz(row[(k + 1) % n]), e);
            for (int j = 0; j < 3; ++j) c[j] += xyz(row[k])[j], area[j] += e[j];
        }
        const double s = detail::dot(c, area);
        sign_[std::size_t(f)] = s > 0 ? 1 : s < 0 ? -1 : 0;
        Box& b = boxes[std::size_t(f)];
        b = detail::boxOf(
            n, [&](int k) { return xyz(row[k]); },
            [&](int k, double& lon, double& lat) {
                lon = std::remainder(m.nodeLon[std::size_t(row[k])], 360.0);
                lat = m.nodeLat[std::size_t(row[k])];
            });
        if (b.allLon && detail::insideFace(tables(), f, north)) b.latHi = 90;
        if (b.allLon && detail::insideFace(tables(), f, south)) b.latLo = -90;
        b.latLo -= kPad, b.latHi += kPad, b.lonLo -= kPad, b.lonHi += kPad;
    }

    // The bin grid: over the latitudes and longitudes the faces cover, bins about as large as
    // the typical face, at most a few per face.
    double latLo = 90, latHi = -90;
    std::vector<double> heights, widths;
    const std::int64_t every = std::max<std::int64_t>(1, faces / 100000);
    for (std::int64_t f = 0; f < faces; ++f) {
        const Box& b = boxes[std::size_t(f)];
        if (!sign_[std::size_t(f)]) continue;
        latLo = std::min(latLo, b.latLo), latHi = std::max(latHi, b.latHi);
        if (f % every || b.allLon) continue;
        heights.push_back(b.latHi - b.latLo);
        widths.push_back(b.lonHi - b.lonLo);
    }
    if (latHi < latLo) return; // no face: nothing is found
    latLo = std::max(latLo, -90.0), latHi = std::min(latHi, 90.0);
    const auto [lonStart, lonRange] = lonCover(boxes, sign_);
    lonStart_ = lonStart;
    allLon_ = lonRange >= 360;
    const double h = std::max(median(heights), 1e-6), w = std::max(median(widths), 1e-6);
    double rows = std::max(1.0, (latHi - latLo) / h), cols = std::max(1.0, std::min(lonRange, 360.0) / w);
    const double cap = std::min(double(1 << 26), std::max(64.0, 2.0 * double(faces)));
    if (rows * cols > cap) {
        const double shrink = std::sqrt(rows * cols / cap);
        rows = std::max(1.0, rows / shrink), cols = std::max(1.0, cols / shrink);
    }
    ny_ = int(std::ceil(rows)), nx_ = int(std::ceil(cols));
    latMin_ = latLo;

    // The bins a face's box covers: rows r0..r1, columns c0..c1 (past nx_ wrapping round).
    struct Span {
        std::int64_t r0, r1, c0, c1;
    };
    const auto spanOf = [&](const Box& b) {
        Span s{std::clamp<std::int64_t>(std::int64_t(std::floor((b.latLo - latMin_) / dLat_)), 0, ny_ - 1),
               std::clamp<std::int64_t>(std::int64_t(std::floor((b.latHi - latMin_) / dLat_)), 0, ny_ - 1), 0,
               nx_ - 1};
        if (!b.allLon && b.lonHi - b.lonLo < 360) {
            const double from = std::remainder(b.lonLo - lonStart_, 360.0);
            s.c0 =
                std::min<std::int64_t>(std::int64_t(std::floor((from < 0 ? from + 360 : from) / dLon_)), nx_);
            s.c1 =
                s.c0 + std::min<std::int64_t>(std::int64_t(std::floor((b.lonHi - b.lonLo) / dLon_)) + 1, nx_);
            if (s.c1 - s.c0 + 1 >= nx_ && allLon_) s.c0 = 0, s.c1 = nx_ - 1;
            if (!allLon_) s.c1 = std::min<std::int64_t>(s.c1, nx_ - 1);
        }
        return s;
    };
    // Faces whose boxes overlap (which no real mesh has, a hostile file may) would fill every
    // bin: coarser bins until the faces' places in them stay a few per face.
    for (;;) {
        dLat_ = (latHi - latLo) / ny_;
        dLon_ = std::min(lonRange, 360.0) / nx_;
        if (dLat_ <= 0) dLat_ = 1;
        double places = 0;
        for (std::int64_t f = 0; f < faces; ++f) {
            if (!sign_[std::size_t(f)]) continue;
            const Span s = spanOf(boxes[std::size_t(f)]);
            places += double(s.r1 - s.r0 + 1) * double(std::max<std::int64_t>(s.c1 - s.c0 + 1, 0));
        }
        if (places <= 16.0 * double(faces) + 65536 || (nx_ == 1 && ny_ == 1)) break;
        nx_ = std::max(1, nx_ / 2), ny_ = std::max(1, ny_ / 2);
    }

    // Faces into bins: count, then fill (faces in order within each bin).
    binStart_.assign(std::size_t(nx_) * std::size_t(ny_) + 1, 0);
    for (int pass = 0; pass < 2; ++pass) {
        std::vector<std::int64_t> next;
        if (pass == 1) {
            for (std::size_t i = 1; i < binStart_.size(); ++i) binStart_[i] += binStart_[i - 1];
            binFaces_.resize(std::size_t(binStart_.back()));
            next.assign(binStart_.begin(), binStart_.end() - 1);
        }
        for (std::int64_t f = 0; f < faces; ++f) {
            if (!sign_[std::size_t(f)]) continue;
            const Span s = spanOf(boxes[std::size_t(f)]);
            for (std::int64_t r = s.r0; r <= s.r1; ++r)
                for (std::int64_t c = s.c0; c <= s.c1; ++c) {
                    const std::size_t bin = std::size_t(r) * std::size_t(nx_) + std::size_t(c % nx_);
                    if (pass == 0)
                        ++binStart_[bin + 1];
                    else
                        binFaces_[std::size_t(next[bin]++)] = std::uint32_t(f);
                }
        }
    }
}

detail::FaceTables FaceLocator::tables() const {
    detail::FaceTables t;
    t.xyz = xyz_.data();
    t.faceNodes = mesh_->faceNodes.data();
    t.sign = sign_.data();
    t.binStart = binStart_.empty() ? nullptr : binStart_.data();
    t.binFaces = binFaces_.data();
    t.maxNodes = mesh_->maxNodes, t.nx = nx_, t.ny = ny_;
    t.latMin = latMin_, t.dLat = dLat_, t.lonStart = lonStart_, t.dLon = dLon_;
    t.allLon = allLon_;
    return t;
}

std::int64_t FaceLocator::find(double lonDeg, double latDeg) const {
    return detail::findFace(tables(), lonDeg, latDeg);
}

std::vector<std::int64_t> FaceLocator::findAll(const double* lon, const double* lat, std::size_t n) const {
    std::vector<std::int64_t> out(n);
    const std::size_t threads =
        std::clamp<std::size_t>(n / 4096, 1, std::max(1u, std::thread::hardware_concurrency()));
    const detail::FaceTables tables = this->tables();
    const auto run = [&](std::size_t t) {
        for (std::size_t i = n * t / threads; i < n * (t + 1) / threads; ++i)
            out[i] = detail::findFace(tables, lon[i], lat[i]);
    };
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(run, t);
    run(0);
    for (auto& th : pool) th.join();
    return out;
}

void FaceLocator::findOnDevice(const double* lonDeg, const double* latDeg, std::int64_t n, std::int64_t* out,
                               Stream stream) const {
    STRATA_EXPECTS(n >= 0, ValueError, "FaceLocator::findOnDevice: " + std::to_string(n) + " points");
#if STRATA_HAVE_CUDA
    STRATA_EXPECTS(stream.device().isCuda(), ValueError,
                   "FaceLocator::findOnDevice: needs a CUDA device's stream, got the " +
                       stream.device().toString() + "'s");
    if (n == 0) return;
    STRATA_EXPECTS(lonDeg && latDeg && out, ValueError, "FaceLocator::findOnDevice: an array is missing");
    const detail::FaceTableSizes sizes{xyz_.size(), mesh_->faceNodes.size(), sign_.size(), binStart_.size(),
                                       binFaces_.size()};
    detail::findFacesCuda(*devices_, tables(), sizes, lonDeg, latDeg, n, out, stream);
#else
    (void)lonDeg, (void)latDeg, (void)out, (void)stream;
    STRATA_FAIL(ValueError, "FaceLocator::findOnDevice: this build has no CUDA backend");
#endif
}

bool FaceLocator::weights(std::int64_t face, double lonDeg, double latDeg, double* w) const {
    const Mesh& m = *mesh_;
    if (face < 0 || face >= std::int64_t(sign_.size())) return false;
    const std::int64_t* row = &m.faceNodes[std::size_t(face * m.maxNodes)];
    const int n = m.nodesOf(face);
    if (n < 3) return false;
    if (n == 3) {
        double p[3], e[3], b[3];
        detail::unitVector(lonDeg, latDeg, p);
        for (int k = 0; k < 3; ++k) { // the triple product opposite corner k: [p, next, after]
            detail::cross(xyz(row[(k + 1) % 3]), xyz(row[(k + 2) % 3]), e);
            b[k] = detail::dot(p, e);
        }
        const double sum = b[0] + b[1] + b[2];
        if (!std::isfinite(sum) || std::abs(sum) < 1e-300) return false;
        for (int k = 0; k < m.maxNodes; ++k) w[k] = k < 3 ? b[k] / sum : 0;
        return true;
    }
    for (int k = 0; k < m.maxNodes; ++k) w[k] = k < n ? 1.0 / n : 0;
    return true;
}

} // namespace strata::mesh
