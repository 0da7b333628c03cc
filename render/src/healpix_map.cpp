#include "strata/render/healpix_map.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <thread>

#include "healpix_map_backend.h"
#include "reproject_backend.h"
#include "strata/core/buffer.h"
#include "strata/core/error.h"
#include "strata/core/runtime.h"

namespace strata {

struct HealpixMap::DeviceTables {
    Device device;
    std::shared_ptr<const Buffer> sorted, positions;
};

namespace {

std::shared_ptr<const Buffer> upload(const std::vector<std::int64_t>& v, Device device, Stream stream) {
    Buffer host(v.size() * sizeof(std::int64_t), Device::host(), Stream::host());
    std::memcpy(host.data(), v.data(), host.size());
    return std::make_shared<const Buffer>(host.copyTo(device, stream));
}

// `row(j)` for every j below `rows`, the rows shared among the CPU's threads.
void inRows(std::int64_t rows, const std::function<void(std::int64_t)>& row) {
    const int threads = int(std::max<std::int64_t>(1, std::min<std::int64_t>(hostThreads(), rows)));
    auto part = [&](int first) {
        for (std::int64_t j = first; j < rows; j += threads) row(j);
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(part, t);
    part(0);
    for (std::thread& t : pool) t.join();
}

} // namespace

const std::vector<std::int64_t>& HealpixMap::hostIndex(const detail::HealpixMapProblem& problem) const {
    const std::lock_guard lock(hostIndexMutex_);
    if (!hostIndex_.empty()) return hostIndex_;
    detail::HealpixMapProblem p = problem;
    if (!sorted_.empty()) {
        p.sorted = sorted_.data();
        p.positions = positions_.data();
    }
    std::vector<std::int64_t> index(std::size_t(width_) * std::size_t(height_));
    inRows(height_, [&](std::int64_t j) {
        for (std::int64_t i = 0; i < width_; ++i)
            index[std::size_t(j * width_ + i)] = detail::healpixIndexAt(p, p.pixels.x(i), p.pixels.y(j));
    });
    hostIndex_ = std::move(index);
    return hostIndex_;
}

HealpixMap::HealpixMap(Projection projection, healpix::Grid grid, MapExtent extent, int width, int height)
    : projection_(std::move(projection)), grid_(std::move(grid)), extent_(extent), width_(width),
      height_(height) {
    STRATA_EXPECTS(width > 0 && height > 0, ValueError,
                   "a map image needs pixels: " + std::to_string(width) + " x " + std::to_string(height));
    STRATA_EXPECTS(extent.width() > 0 && extent.height() > 0, ValueError, "a map image needs an extent");
    if (!grid_.cells.empty()) {
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
}

HealpixMap::~HealpixMap() = default;

DataArray HealpixMap::apply(const DataArray& frame, std::uint64_t fill, Stream stream) const {
    const std::int64_t cells =
        grid_.cells.empty() ? healpix::cellCount(grid_.nside) : std::int64_t(grid_.cells.size());
    STRATA_EXPECTS(frame.ndim() == 1 && frame.dims()[0] == grid_.dim && frame.size() == cells, ValueError,
                   "drawing '" + frame.name() + "' on its HEALPix grid: the frame must be the " +
                       std::to_string(cells) + " values along " + grid_.dim);
    const int bytes = int(sizeOf(frame.dtype()));
    STRATA_EXPECTS(bytes == 4 || bytes == 8, ValueError,
                   "drawing '" + frame.name() + "' on its HEALPix grid: 4- or 8-byte values only");
    const Device device = frame.device();
    STRATA_EXPECTS(stream.device() == device, ValueError,
                   "drawing '" + frame.name() + "': the stream is not on the frame's device");
    const ArrayView v = frame.variable().view();
    Buffer out(static_cast<std::size_t>(width_) * height_ * static_cast<std::size_t>(bytes), device, stream);
    detail::HealpixMapProblem p;
    p.params = projection_.params();
    p.pixels = {extent_.x0, extent_.x1, extent_.y0, extent_.y1, width_, height_};
    p.nside = grid_.nside;
    p.order = grid_.order;
    p.n = std::int64_t(sorted_.size());
    p.src = v.data;
    p.stride = v.strides[0];
    p.dst = out.data();
    p.cellBytes = bytes;
    p.fill = fill;
    if (device.isHost()) {
        if (!sorted_.empty()) {
            p.sorted = sorted_.data();
            p.positions = positions_.data();
        }
        // Each pixel's index in the frame, worked out once (the inverse projection and the
        // cell: most of the time) and kept: each later frame on this map is a gather.
        const std::vector<std::int64_t>& index = hostIndex(p);
        const auto* src = static_cast<const unsigned char*>(p.src);
        auto* dst = static_cast<unsigned char*>(p.dst);
        inRows(height_, [&](std::int64_t j) {
            for (std::int64_t i = 0; i < p.pixels.width; ++i) {
                const std::int64_t k = index[std::size_t(j * p.pixels.width + i)];
                const void* from =
                    k >= 0 ? src + k * p.stride * p.cellBytes : static_cast<const void*>(&p.fill);
                std::memcpy(dst + (j * p.pixels.width + i) * p.cellBytes, from, std::size_t(p.cellBytes));
            }
        });
    } else {
        if (!sorted_.empty()) {
            if (!device_ || device_->device != device)
                device_ = std::make_unique<DeviceTables>(DeviceTables{device, upload(sorted_, device, stream),
                                                                      upload(positions_, device, stream)});
            p.sorted = static_cast<const std::int64_t*>(device_->sorted->data());
            p.positions = static_cast<const std::int64_t*>(device_->positions->data());
        }
        p.stream = stream.handle();
        detail::healpixMapCuda(p);
    }
    Coordinates coords;
    coords.set(detail::mapMetres("y", height_, extent_.y0, extent_.y1));
    coords.set(detail::mapMetres("x", width_, extent_.x0, extent_.x1));
    Variable var({"y", "x"}, Shape{height_, width_}, frame.dtype(), std::move(out), frame.attrs());
    return DataArray(frame.name(), std::move(var), std::move(coords));
}

} // namespace strata
