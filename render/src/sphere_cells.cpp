#include "strata/render/sphere_cells.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <thread>

#include "healpix_map_backend.h"
#include "host_rows.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/face_locator.h"
#include "strata/core/runtime.h"

namespace strata {
namespace {

using detail::inRows;

// `index` (made on the host) into `out` on stream's device.
void place(const std::vector<std::int64_t>& index, std::int64_t* out, Stream stream) {
    if (stream.device().isHost()) {
        std::copy(index.begin(), index.end(), out);
        return;
    }
    copyBytes(out, stream.device(), index.data(), Device::host(), index.size() * sizeof(std::int64_t),
              stream);
    stream.synchronize(); // `index` is freed on return
}

class HealpixCells final : public SphereCells {
public:
    explicit HealpixCells(healpix::Grid g) : grid_(std::move(g)) {
        if (grid_.cells.empty()) return;
        std::vector<std::int64_t> order(grid_.cells.size());
        std::iota(order.begin(), order.end(), 0);
        std::sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
            return grid_.cells[std::size_t(a)] < grid_.cells[std::size_t(b)];
        });
        for (std::int64_t k : order) {
            const std::int64_t cell = grid_.cells[std::size_t(k)];
            STRATA_EXPECTS(sorted_.empty() || sorted_.back() != cell, ValueError,
                           "a HEALPix subset names cell " + std::to_string(cell) + " twice");
            sorted_.push_back(cell);
            positions_.push_back(k);
        }
    }

    const std::string& dim() const override { return grid_.dim; }
    std::int64_t size() const override {
        return grid_.cells.empty() ? healpix::cellCount(grid_.nside) : std::int64_t(grid_.cells.size());
    }
    std::string describe() const override {
        return "HEALPix nside " + std::to_string(grid_.nside) +
               (grid_.order == healpix::Order::Nest ? ", nest" : ", ring") +
               (grid_.cells.empty() ? std::string() : ", " + std::to_string(grid_.cells.size()) + " cells");
    }
    std::int64_t find(double lon, double lat) const override {
        const std::int64_t cell = healpix::cellOf(grid_.nside, grid_.order, lon, lat);
        if (cell < 0 || sorted_.empty()) return cell;
        const auto at = std::lower_bound(sorted_.begin(), sorted_.end(), cell);
        return at != sorted_.end() && *at == cell ? positions_[std::size_t(at - sorted_.begin())] : -1;
    }
    void centre(std::int64_t index, double& lon, double& lat) const override {
        healpix::centreOf(grid_.nside, grid_.order,
                          grid_.cells.empty() ? index : grid_.cells[std::size_t(index)], lon, lat);
    }
    void pixelIndex(const Projection& projection, const MapExtent& extent, int width, int height,
                    std::int64_t* out, Stream stream) const override {
        detail::HealpixMapProblem p = problem();
        p.params = projection.params();
        p.pixels = {extent.x0, extent.x1, extent.y0, extent.y1, width, height};
        p.n = std::int64_t(sorted_.size());
        if (stream.device().isHost()) {
            if (!sorted_.empty()) {
                p.sorted = sorted_.data();
                p.positions = positions_.data();
            }
            inRows(height, [&](std::int64_t j) {
                for (std::int64_t i = 0; i < width; ++i)
                    out[j * width + i] = detail::healpixIndexAt(p, p.pixels.x(i), p.pixels.y(j));
            });
            return;
        }
        // The subset's tables on the device for the kernel's time (the stream is waited for).
        Buffer sorted, positions;
        if (!sorted_.empty()) {
            const std::size_t bytes = sorted_.size() * sizeof(std::int64_t);
            sorted = Buffer(bytes, stream.device(), stream);
            positions = Buffer(bytes, stream.device(), stream);
            copyBytes(sorted.data(), stream.device(), sorted_.data(), Device::host(), bytes, stream);
            copyBytes(positions.data(), stream.device(), positions_.data(), Device::host(), bytes, stream);
            p.sorted = static_cast<const std::int64_t*>(sorted.data());
            p.positions = static_cast<const std::int64_t*>(positions.data());
        }
        p.stream = stream.handle();
        detail::healpixIndexCuda(p, out);
        stream.synchronize();
    }
    bool sameAs(const SphereCells& other) const override {
        const auto* o = dynamic_cast<const HealpixCells*>(&other);
        return o && o->grid_.nside == grid_.nside && o->grid_.order == grid_.order &&
               o->grid_.dim == grid_.dim && o->grid_.cells == grid_.cells;
    }

private:
    detail::HealpixMapProblem problem() const {
        detail::HealpixMapProblem p;
        p.nside = grid_.nside;
        p.order = grid_.order;
        return p;
    }
    healpix::Grid grid_;
    std::vector<std::int64_t> sorted_, positions_; // a subset's cells in order, and where each is
};

// A mesh's faces (data on them): found by the mesh's FaceLocator, on the host's threads.
class MeshFaces final : public SphereCells {
public:
    explicit MeshFaces(std::shared_ptr<const mesh::Mesh> m) : mesh_(m), locator_(std::move(m)) {}
    const std::string& dim() const override { return mesh_->faceDim; }
    std::int64_t size() const override { return mesh_->faces(); }
    std::string describe() const override {
        return mesh_->form + " mesh, " + std::to_string(mesh_->faces()) + " faces";
    }
    std::int64_t find(double lon, double lat) const override { return locator_.find(lon, lat); }
    void centre(std::int64_t index, double& lon, double& lat) const override {
        lon = mesh_->faceLon[std::size_t(index)];
        lat = mesh_->faceLat[std::size_t(index)];
    }
    // On a device: the pixels' longitudes/latitudes on the host's threads (the projection's
    // inverse: cheap), then the faces found there by the locator's kernel.
    void pixelIndex(const Projection& projection, const MapExtent& extent, int width, int height,
                    std::int64_t* out, Stream stream) const override {
        if (stream.device().isHost())
            return SphereCells::pixelIndex(projection, extent, width, height, out, stream);
        const detail::ProjParams& params = projection.params();
        const detail::MapPixels px{extent.x0, extent.x1, extent.y0, extent.y1, width, height};
        const std::size_t n = std::size_t(width) * std::size_t(height);
        Buffer lonLat(2 * n * sizeof(double), Device::host(), Stream::host(), HostMemory::Pinned);
        auto* lon = static_cast<double*>(lonLat.data());
        double* lat = lon + n;
        inRows(height, [&](std::int64_t j) {
            for (std::int64_t i = 0; i < width; ++i) {
                double a = 0, b = 0;
                const std::size_t k = std::size_t(j * width + i);
                if (detail::projInverse(params, px.x(i), px.y(j), a, b)) {
                    lon[k] = a * (180 / M_PI);
                    lat[k] = b * (180 / M_PI);
                } else {
                    lon[k] = lat[k] = std::nan("");
                }
            }
        });
        const Buffer onDevice = lonLat.copyTo(stream.device(), stream);
        const auto* dlon = static_cast<const double*>(onDevice.data());
        locator_.findOnDevice(dlon, dlon + n, std::int64_t(n), out, stream);
        stream.synchronize(); // the buffers are freed on return
    }
    bool sameAs(const SphereCells& other) const override {
        const auto* o = dynamic_cast<const MeshFaces*>(&other);
        return o && o->mesh_ == mesh_;
    }

private:
    std::shared_ptr<const mesh::Mesh> mesh_;
    mesh::FaceLocator locator_;
};

// A mesh's nodes (data on them): each pixel's value interpolated from its face's nodes.
class MeshNodes final : public SphereCells {
public:
    explicit MeshNodes(std::shared_ptr<const mesh::Mesh> m) : mesh_(m), locator_(std::move(m)) {
        STRATA_EXPECTS(mesh_->nodes() < INT32_MAX, ValueError,
                       "a " + mesh_->form + " mesh of " + std::to_string(mesh_->nodes()) +
                           " nodes: too many to interpolate across its faces");
    }
    const std::string& dim() const override { return mesh_->nodeDim; }
    std::int64_t size() const override { return mesh_->nodes(); }
    std::string describe() const override {
        return mesh_->form + " mesh, " + std::to_string(mesh_->nodes()) + " nodes (values across " +
               std::to_string(mesh_->faces()) + " faces)";
    }
    std::int64_t find(double lon, double lat) const override {
        std::vector<double> w(std::size_t(mesh_->maxNodes));
        const std::int64_t face = locator_.find(lon, lat);
        if (face < 0 || !locator_.weights(face, lon, lat, w.data())) return -1;
        const int n = mesh_->nodesOf(face);
        const int best = int(std::max_element(w.begin(), w.begin() + n) - w.begin());
        return mesh_->faceNodes[std::size_t(face * mesh_->maxNodes + best)];
    }
    void centre(std::int64_t index, double& lon, double& lat) const override {
        lon = mesh_->nodeLon[std::size_t(index)];
        lat = mesh_->nodeLat[std::size_t(index)];
    }
    bool sameAs(const SphereCells& other) const override {
        const auto* o = dynamic_cast<const MeshNodes*>(&other);
        return o && o->mesh_ == mesh_;
    }
    int interpolationNodes() const override { return mesh_->maxNodes; }
    void pixelWeights(const Projection& projection, const MapExtent& extent, int width, int height,
                      std::int32_t* nodes, float* weights) const override {
        const detail::ProjParams& params = projection.params();
        const detail::MapPixels px{extent.x0, extent.x1, extent.y0, extent.y1, width, height};
        const int k = mesh_->maxNodes;
        inRows(height, [&](std::int64_t j) {
            std::vector<double> w(static_cast<std::size_t>(k));
            for (std::int64_t i = 0; i < width; ++i) {
                const std::size_t at = std::size_t(j * width + i) * std::size_t(k);
                std::fill(nodes + at, nodes + at + k, -1);
                std::fill(weights + at, weights + at + k, 0.0f);
                double lon = 0, lat = 0;
                if (!detail::projInverse(params, px.x(i), px.y(j), lon, lat)) continue;
                lon *= 180 / M_PI;
                lat *= 180 / M_PI;
                const std::int64_t face = locator_.find(lon, lat);
                if (face < 0 || !locator_.weights(face, lon, lat, w.data())) continue;
                const int n = mesh_->nodesOf(face);
                for (int m = 0; m < n; ++m) {
                    nodes[at + std::size_t(m)] = std::int32_t(mesh_->faceNodes[std::size_t(face * k + m)]);
                    weights[at + std::size_t(m)] = float(w[std::size_t(m)]);
                }
            }
        });
    }

private:
    std::shared_ptr<const mesh::Mesh> mesh_;
    mesh::FaceLocator locator_;
};

} // namespace

void SphereCells::pixelWeights(const Projection&, const MapExtent&, int, int, std::int32_t*, float*) const {
    STRATA_FAIL(ValueError, "the cells of " + describe() + " are not interpolated");
}

void SphereCells::pixelIndex(const Projection& projection, const MapExtent& extent, int width, int height,
                             std::int64_t* out, Stream stream) const {
    const detail::ProjParams& params = projection.params();
    const detail::MapPixels px{extent.x0, extent.x1, extent.y0, extent.y1, width, height};
    std::vector<std::int64_t> index(std::size_t(width) * std::size_t(height), -1);
    inRows(height, [&](std::int64_t j) {
        for (std::int64_t i = 0; i < width; ++i) {
            double lon = 0, lat = 0;
            if (detail::projInverse(params, px.x(i), px.y(j), lon, lat))
                index[std::size_t(j * width + i)] = find(lon * (180 / M_PI), lat * (180 / M_PI));
        }
    });
    place(index, out, stream);
}

DataArray cellsAsRow(const DataArray& frame, const SphereCells& cells) {
    STRATA_EXPECTS(isAlong(frame, cells) && frame.variable().isLoaded(), ValueError,
                   "drawing '" + frame.name() + "' on its grid (" + cells.describe() +
                       "): the frame must be the " + std::to_string(cells.size()) + " values along " +
                       cells.dim());
    const Variable& v = frame.variable();
    const std::int64_t stride = v.strides().at(0);
    Variable row({kCellRowDim, cells.dim()}, Shape{1, frame.size()}, v.dtype(), v.buffer(),
                 {stride * frame.size(), stride}, v.offset(), v.attrs());
    return DataArray(frame.name(), std::move(row), frame.coords());
}

std::shared_ptr<const SphereCells> healpixCells(healpix::Grid grid) {
    return std::make_shared<const HealpixCells>(std::move(grid));
}

std::shared_ptr<const SphereCells> meshFaces(std::shared_ptr<const mesh::Mesh> mesh) {
    return std::make_shared<const MeshFaces>(std::move(mesh));
}

std::shared_ptr<const SphereCells> meshNodes(std::shared_ptr<const mesh::Mesh> mesh) {
    return std::make_shared<const MeshNodes>(std::move(mesh));
}

std::shared_ptr<const SphereCells> sphereCellsOf(const Dataset& ds, const DataArray& var,
                                                 const Dataset* grid) {
    if (std::optional<healpix::Grid> g = healpix::gridOf(ds, var)) {
        try {
            return healpixCells(std::move(*g));
        } catch (const ValueError& e) {
            STRATA_FAIL(ValueError, ds.path + ": " + var.name() + ": " + e.what());
        }
    }
    if (std::optional<mesh::Placement> m = mesh::meshOf(ds, var, grid)) {
        auto mesh = std::make_shared<const mesh::Mesh>(std::move(m->mesh));
        if (m->location == mesh::Location::Face) return meshFaces(std::move(mesh));
        try {
            return meshNodes(std::move(mesh));
        } catch (const ValueError& e) {
            STRATA_FAIL(ValueError, ds.path + ": " + var.name() + ": " + e.what());
        }
    }
    return nullptr;
}

bool isAlong(const DataArray& frame, const SphereCells& cells) {
    return frame.ndim() == 1 && frame.dims()[0] == cells.dim() && frame.size() == cells.size();
}

} // namespace strata
