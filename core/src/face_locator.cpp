#include "strata/core/face_locator.h"

#include <algorithm>
#include <cmath>
#include <thread>

#include "face_device.h"
#include "face_grid.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"

namespace strata::mesh {

FaceLocator::FaceLocator(std::shared_ptr<const Mesh> mesh)
    : mesh_(std::move(mesh)), devices_(std::make_shared<detail::FaceDeviceCache>()) {
    STRATA_EXPECTS(mesh_, ValueError, "FaceLocator: no mesh");
    // a thread for each 64 K faces, at most the host's
    const std::int64_t faces =
        mesh_->maxNodes > 0 ? std::int64_t(mesh_->faceNodes.size()) / mesh_->maxNodes : 0;
    const int threads = int(std::clamp<std::int64_t>(faces >> 16, 1, std::max(1, hostThreads())));
    grid_ = std::make_shared<const detail::FaceGrid>(detail::buildFaceGrid(*mesh_, threads));
}

int FaceLocator::binsAcross() const { return grid_->nx; }
int FaceLocator::binsDown() const { return grid_->ny; }

detail::FaceTables FaceLocator::tables() const { return grid_->tables(*mesh_); }

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
    const detail::FaceGrid& g = *grid_;
    const detail::FaceTableSizes sizes{g.xyz.size(), mesh_->faceNodes.size(), g.sign.size(),
                                       g.binStart.size(), g.binFaces.size()};
    detail::findFacesCuda(*devices_, tables(), sizes, lonDeg, latDeg, n, out, stream);
#else
    (void)lonDeg, (void)latDeg, (void)out, (void)stream;
    STRATA_FAIL(ValueError, "FaceLocator::findOnDevice: this build has no CUDA backend");
#endif
}

bool FaceLocator::weights(std::int64_t face, double lonDeg, double latDeg, double* w) const {
    const Mesh& m = *mesh_;
    if (face < 0 || face >= std::int64_t(grid_->sign.size())) return false;
    const auto xyz = [&](std::int64_t node) { return &grid_->xyz[std::size_t(node) * 3]; };
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
