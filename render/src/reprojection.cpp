// Reprojection: the host path (PROJ inverse-projects every output pixel once, in batches of
// rows; each frame is then a gather) and the dispatch to the device kernel.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>

#include "host_rows.h"
#include "interpolate_math.h"
#include "native_map.h"
#include "reproject_backend.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/render/curvilinear_grid.h"
#include "strata/render/grid_geometry.h"
#include "strata/render/projection.h"
#include "strata/render/sphere_cells.h"

namespace strata {
namespace {

// A frame's layout as cells of 4 or 8 bytes: strides in cells.
struct Cells {
    int bytes = 0;
    std::int64_t rowStride = 0, colStride = 0;
};

Cells cellsOf(const DataArray& frame, std::int64_t nlat, std::int64_t nlon) {
    const Shape& s = frame.shape();
    const auto& strides = frame.variable().strides();
    const std::string what = "reprojecting '" + frame.name() + "': ";
    Cells c;
    if (frame.ndim() == 3 && frame.dtype() == DType::UInt8 && s[2] == 4) {
        STRATA_EXPECTS(strides[2] == 1 && strides[1] % 4 == 0 && strides[0] % 4 == 0, ValueError,
                       what + "its pixels must be whole 4-byte cells");
        c = {4, strides[0] / 4, strides[1] / 4};
    } else {
        STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                       what + "needs a 2-D frame (lat, lon) or its pixels (lat, lon, 4 bytes)");
        const std::size_t size = sizeOf(frame.dtype());
        STRATA_EXPECTS(size == 4 || size == 8, ValueError,
                       what + "needs 4- or 8-byte values, not " + std::string(name(frame.dtype())));
        c = {static_cast<int>(size), strides[0], strides[1]};
    }
    STRATA_EXPECTS(s[0] == nlat && s[1] == nlon, ValueError,
                   what + "its shape (" + std::to_string(s[0]) + ", " + std::to_string(s[1]) +
                       ") is not the grid's (" + std::to_string(nlat) + ", " + std::to_string(nlon) + ")");
    return c;
}

} // namespace

struct Reprojection::DeviceEdges {
    Device device;
    std::shared_ptr<const Buffer> lon, lat;
    std::shared_ptr<const Buffer> cells;          // a source CRS's cell map
    std::shared_ptr<const Buffer> nodes, weights; // an interpolating source's
};

namespace {

// The cell of monotonic `edges` (n + 1, either direction) holding v; -1 outside.
std::int64_t edgeCell(const std::vector<double>& edges, double v) {
    const std::size_t n = edges.size();
    if (n < 2 || !(v == v)) return -1;
    const bool up = edges.back() > edges.front();
    const auto at = up ? std::upper_bound(edges.begin(), edges.end(), v)
                       : std::upper_bound(edges.begin(), edges.end(), v, std::greater<double>());
    const std::int64_t k = std::int64_t(at - edges.begin()) - 1;
    return k >= 0 && k < std::int64_t(n) - 1 ? k : -1;
}

} // namespace

Reprojection::Reprojection(Projection projection, std::vector<double> lon, std::vector<double> lat,
                           MapExtent extent, int width, int height)
    : projection_(std::move(projection)), lonEdges_(cellEdges(lon)), latEdges_(cellEdges(lat)),
      extent_(extent), width_(width), height_(height) {
    STRATA_EXPECTS(width > 0 && height > 0, ValueError,
                   "a map image needs pixels: " + std::to_string(width) + " x " + std::to_string(height));
    STRATA_EXPECTS(extent.width() > 0 && extent.height() > 0, ValueError, "a map image needs an extent");
}

Reprojection::Reprojection(Projection projection, const MapCrs& source, std::vector<double> x,
                           std::vector<double> y, MapExtent extent, int width, int height)
    : Reprojection(std::move(projection), std::move(x), std::move(y), extent, width, height) {
    crs_ = source;
    native_ = std::make_shared<const detail::NativeMap>(source);
}

namespace {
std::vector<double> indexCentres(std::int64_t n) {
    std::vector<double> c(static_cast<std::size_t>(std::max<std::int64_t>(n, 1)));
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = double(i);
    return c;
}
} // namespace

Reprojection::Reprojection(Projection projection, std::shared_ptr<const CurvilinearGrid> source,
                           MapExtent extent, int width, int height)
    : Reprojection(std::move(projection), indexCentres(source->columns), indexCentres(source->rows), extent,
                   width, height) {
    curv_ = std::move(source);
    locator_ = std::make_shared<const CellLocator>(*curv_);
}

Reprojection::Reprojection(Projection projection, std::shared_ptr<const SphereCells> source, MapExtent extent,
                           int width, int height)
    : Reprojection(std::move(projection), indexCentres(1), indexCentres(1), extent, width, height) {
    // One row of cells: their edges as an index axis's ends only (a zoom 10 grid's 12.6 M
    // edges would be made and compared for nothing).
    const bool interpolated = source->interpolationNodes() > 0; // frames of the map's pixels
    lonEdges_ = {-0.5, double(interpolated ? std::int64_t(width) * height : source->size()) - 0.5};
    sphere_ = std::move(source);
}

bool Reprojection::interpolates() const { return sphere_ && sphere_->interpolationNodes() > 0; }

void Reprojection::hostWeights() const {
    if (!nodes_.empty()) return;
    const std::size_t n =
        std::size_t(width_) * std::size_t(height_) * std::size_t(sphere_->interpolationNodes());
    std::vector<std::int32_t> nodes(n);
    std::vector<float> weights(n);
    sphere_->pixelWeights(projection_, extent_, width_, height_, nodes.data(), weights.data());
    nodes_ = std::move(nodes);
    weights_ = std::move(weights);
}

DataArray Reprojection::resample(const DataArray& frame, Stream stream) const {
    STRATA_EXPECTS(interpolates(), ValueError,
                   "resampling '" + frame.name() + "': the map's source is not interpolated");
    STRATA_EXPECTS(frame.ndim() == 2 && frame.shape()[0] == 1 && frame.shape()[1] == sphere_->size(),
                   ValueError,
                   "resampling '" + frame.name() + "': it is not a row of " + sphere_->describe());
    STRATA_EXPECTS(frame.dtype() == DType::Float32 || frame.dtype() == DType::Float64, ValueError,
                   "resampling '" + frame.name() + "': node values must be float32 or float64, not " +
                       std::string(name(frame.dtype())));
    STRATA_EXPECTS(frame.variable().isLoaded() && stream.device() == frame.device(), ValueError,
                   "resampling '" + frame.name() + "': the frame must be loaded, on the stream's device");
    hostWeights();
    const int k = sphere_->interpolationNodes();
    const std::int64_t n = std::int64_t(width_) * height_;
    const std::size_t bytes = sizeOf(frame.dtype());
    const std::int64_t stride = frame.variable().strides().back();
    const ArrayView v = frame.variable().view();
    Buffer out(std::size_t(n) * bytes, frame.device(), stream);
    if (frame.device().isHost()) {
        const auto run = [&](auto* dst, const auto* src) {
            detail::inRows(height_, [&](std::int64_t j) {
                for (std::int64_t p = j * width_; p < (j + 1) * width_; ++p)
                    dst[p] = detail::interpolateNodes(src, stride, &nodes_[std::size_t(p * k)],
                                                      &weights_[std::size_t(p * k)], k);
            });
        };
        if (bytes == 8)
            run(static_cast<double*>(out.data()), static_cast<const double*>(v.data));
        else
            run(static_cast<float*>(out.data()), static_cast<const float*>(v.data));
    } else {
        onDevice(frame.device(), stream);
        if (!device_->nodes) {
            auto up = [&](const void* data, std::size_t size) {
                Buffer host(size, Device::host(), Stream::host());
                std::memcpy(host.data(), data, size);
                return std::make_shared<const Buffer>(host.copyTo(frame.device(), stream));
            };
            device_->nodes = up(nodes_.data(), nodes_.size() * sizeof(std::int32_t));
            device_->weights = up(weights_.data(), weights_.size() * sizeof(float));
        }
        detail::interpolateCuda(
            v.data, stride, int(bytes), static_cast<const std::int32_t*>(device_->nodes->data()),
            static_cast<const float*>(device_->weights->data()), k, n, out.data(), stream.handle());
    }
    Variable row({kCellRowDim, "pixel"}, Shape{1, n}, frame.dtype(), std::move(out), frame.attrs());
    return DataArray(frame.name(), std::move(row), Coordinates{});
}

Reprojection::~Reprojection() = default;

std::int64_t Reprojection::columns() const {
    if (interpolates()) return std::int64_t(width_) * height_; // the map's own pixels
    return sphere_ ? sphere_->size() : std::int64_t(lonEdges_.size()) - 1;
}

bool Reprojection::sourceCellAt(double lon, double lat, std::int64_t& row, std::int64_t& column) const {
    if (sphere_) {
        row = 0;
        column = sphere_->find(lon * (180 / M_PI), lat * (180 / M_PI));
        return column >= 0;
    }
    if (locator_) { // the grid's longitudes may run over any span: the point at each turn
        const double l = lon * (180 / M_PI), b = lat * (180 / M_PI);
        for (double shift : {0.0, 360.0, -360.0, 720.0}) {
            const std::int64_t k = locator_->find(l + shift, b);
            if (k >= 0) {
                row = k / curv_->columns;
                column = k % curv_->columns;
                return true;
            }
        }
        return false;
    }
    if (!native_) {
        const detail::SourceEdges edges{lonEdges_.data(), static_cast<std::int64_t>(lonEdges_.size()) - 1,
                                        latEdges_.data(), static_cast<std::int64_t>(latEdges_.size()) - 1};
        return detail::sourceCell(edges, lon, lat, row, column);
    }
    double x = 0, y = 0;
    if (!native_->forward(lon * (180 / M_PI), lat * (180 / M_PI), x, y)) return false;
    column = edgeCell(lonEdges_, x);
    row = edgeCell(latEdges_, y);
    return row >= 0 && column >= 0;
}

void Reprojection::onDevice(Device device, Stream stream) const {
    if (device_ && device_->device == device) return;
    auto upload = [&](const std::vector<double>& e) {
        Buffer host(e.size() * sizeof(double), Device::host(), Stream::host());
        std::memcpy(host.data(), e.data(), host.size());
        return std::make_shared<const Buffer>(host.copyTo(device, stream));
    };
    device_ = std::make_unique<DeviceEdges>(DeviceEdges{device, upload(lonEdges_), upload(latEdges_)});
}

const std::vector<std::int64_t>& Reprojection::hostCells() const {
    if (!cells_.empty()) return cells_;
    if (interpolates()) { // each pixel its own, where a face holds it
        hostWeights();
        const auto k = std::size_t(sphere_->interpolationNodes());
        std::vector<std::int64_t> cells(std::size_t(width_) * height_);
        for (std::size_t p = 0; p < cells.size(); ++p) cells[p] = nodes_[p * k] >= 0 ? std::int64_t(p) : -1;
        cells_ = std::move(cells);
        return cells_;
    }
    if (sphere_) {
        std::vector<std::int64_t> cells(static_cast<std::size_t>(width_) * height_);
        sphere_->pixelIndex(projection_, extent_, width_, height_, cells.data(), Stream::host());
        cells_ = std::move(cells);
        return cells_;
    }
    const detail::MapPixels px{extent_.x0, extent_.x1, extent_.y0, extent_.y1, width_, height_};
    const detail::SourceEdges edges{lonEdges_.data(), static_cast<std::int64_t>(lonEdges_.size()) - 1,
                                    latEdges_.data(), static_cast<std::int64_t>(latEdges_.size()) - 1};
    const std::size_t n = static_cast<std::size_t>(width_) * height_;
    std::vector<std::int64_t> cells(n, -1);
    std::vector<double> x(n), y(n);
    for (int j = 0; j < height_; ++j)
        for (int i = 0; i < width_; ++i) {
            x[static_cast<std::size_t>(j) * width_ + i] = px.x(i);
            y[static_cast<std::size_t>(j) * width_ + i] = px.y(j);
        }
    projection_.inverse(x, y); // degrees, NaN off the map (PROJ, in batches over the threads)
    for (std::size_t k = 0; k < n; ++k) {
        std::int64_t row = 0, col = 0;
        if (!std::isnan(x[k]) &&
            (native_ || locator_
                 ? sourceCellAt(x[k] * (M_PI / 180), y[k] * (M_PI / 180), row, col)
                 : detail::sourceCell(edges, x[k] * (M_PI / 180), y[k] * (M_PI / 180), row, col)))
            cells[k] = row * edges.nlon + col;
    }
    cells_ = std::move(cells);
    return cells_;
}

void Reprojection::applyInto(const DataArray& frame, void* dst, std::uint64_t fill, Stream stream) const {
    const std::int64_t nlat = rows(), nlon = columns();
    const Cells c = cellsOf(frame, nlat, nlon);
    const Device device = frame.device();
    STRATA_EXPECTS(stream.device() == device, ValueError,
                   "reprojecting '" + frame.name() + "': the stream is not on the frame's device");
    const std::size_t n = static_cast<std::size_t>(width_) * height_;
    const ArrayView v = frame.variable().view();
    if (device.isHost()) {
        const std::vector<std::int64_t>& cells = hostCells();
        const auto* src = static_cast<const unsigned char*>(v.data);
        auto* out = static_cast<unsigned char*>(dst);
        // A row of pixels a thread: a large source (a zoom 10 HEALPix frame) is read at random,
        // and one core waits on memory for most of the gather.
        detail::inRows(height_, [&](std::int64_t j) {
            for (std::size_t k = std::size_t(j) * std::size_t(width_);
                 k < std::size_t(j + 1) * std::size_t(width_); ++k) {
                const std::int64_t cell = cells[k];
                const void* from = &fill; // little-endian: the low bytes first
                if (cell >= 0)
                    from = src + ((cell / nlon) * c.rowStride + (cell % nlon) * c.colStride) * c.bytes;
                std::memcpy(out + k * static_cast<std::size_t>(c.bytes), from,
                            static_cast<std::size_t>(c.bytes));
            }
        });
        return;
    }
    onDevice(device, stream);
    if (sphere_ && !interpolates() && !device_->cells) { // the cells' index, made for this device
        auto cells = std::make_shared<Buffer>(n * sizeof(std::int64_t), device, stream);
        sphere_->pixelIndex(projection_, extent_, width_, height_, static_cast<std::int64_t*>(cells->data()),
                            stream);
        device_->cells = std::move(cells);
    }
    if ((native_ || locator_ || interpolates()) &&
        !device_->cells) { // placed on the host once, on this device
        const std::vector<std::int64_t>& cells = hostCells();
        Buffer host(cells.size() * sizeof(std::int64_t), Device::host(), Stream::host());
        std::memcpy(host.data(), cells.data(), host.size());
        device_->cells = std::make_shared<const Buffer>(host.copyTo(device, stream));
    }
    detail::ReprojectProblem p;
    p.params = projection_.params();
    p.edges = {static_cast<const double*>(device_->lon->data()), std::int64_t(lonEdges_.size()) - 1,
               static_cast<const double*>(device_->lat->data()), nlat};
    p.pixels = {extent_.x0, extent_.x1, extent_.y0, extent_.y1, width_, height_};
    p.src = v.data;
    p.rowStride = c.rowStride;
    p.colStride = c.colStride;
    p.dst = dst;
    p.cellBytes = c.bytes;
    p.fill = fill;
    p.stream = stream.handle();
    if (cellMapped())
        detail::gatherCuda(p, static_cast<const std::int64_t*>(device_->cells->data()), nlon);
    else
        detail::reprojectCuda(p);
}

DataArray Reprojection::apply(const DataArray& frame, std::uint64_t fill, Stream stream) const {
    const std::int64_t nlat = rows(), nlon = columns();
    const Cells c = cellsOf(frame, nlat, nlon);
    Buffer out(static_cast<std::size_t>(width_) * height_ * static_cast<std::size_t>(c.bytes), frame.device(),
               stream);
    applyInto(frame, out.data(), fill, stream);
    Coordinates coords;
    coords.set(detail::mapMetres("y", height_, extent_.y0, extent_.y1));
    coords.set(detail::mapMetres("x", width_, extent_.x0, extent_.x1));
    Shape shape{height_, width_};
    std::vector<std::string> dims{"y", "x"};
    if (frame.ndim() == 3) {
        shape.push_back(4);
        dims.push_back(frame.dims()[2]);
    }
    Variable var(dims, shape, frame.dtype(), std::move(out), frame.attrs());
    return DataArray(frame.name(), std::move(var), std::move(coords));
}

} // namespace strata

namespace strata::detail {

Coordinate mapMetres(const std::string& name, std::int64_t n, double v0, double v1) {
    Coordinate c;
    c.name = name;
    c.dims = {name};
    c.shape = {n};
    c.values.resize(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i)
        c.values[static_cast<std::size_t>(i)] = v0 + (i + 0.5) * (v1 - v0) / n;
    c.attrs.set({"units", DType::Char, std::string("m")});
    c.attrs.set({"long_name", DType::Char, std::string(name == "x" ? "map x" : "map y")});
    return c;
}

} // namespace strata::detail
