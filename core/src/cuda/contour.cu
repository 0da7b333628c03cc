// Marching squares on the device: a cell a thread. Each cell counts the segments its crossing
// levels cut (contour_cell.h, as the host does), a scan gives every cell its first segment, the
// cells write their segments, and each segment end finds the one it meets in the neighbouring
// cell. Only the segments come to the host, never the frame.
#include <cub/device/device_scan.cuh>

#include <string>

#include "backend.h"
#include "contour_cell.h"
#include "cuda/device.cuh"
#include "cuda/launch.h"
#include "strata/core/error.h"

namespace strata::detail {
namespace {

using cuda::i64;
namespace mc = contour;

struct Frame {
    const void* data = nullptr;
    i64 ny = 0, nx = 0, sy = 0, sx = 0;
    bool wrapX = false;
    __host__ __device__ i64 cols() const { return mc::cellColumns(nx, wrapX); }
};

template <class T> __device__ __forceinline__ mc::Cell cellAt(const Frame& f, i64 j, i64 i) {
    const T* p = static_cast<const T*>(f.data) + j * f.sy;
    const i64 a = i * f.sx, b = mc::nextColumn(i, f.nx) * f.sx;
    return {double(p[a]), double(p[b]), double(p[f.sy + b]), double(p[f.sy + a])};
}

template <class T>
__global__ void __launch_bounds__(256) countKernel(Frame f, const double* levels, int n, i64* counts) {
    const i64 cells = (f.ny - 1) * f.cols();
    const i64 c = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c > cells) return;
    if (c == cells) { // the scan's last entry: the total
        counts[c] = 0;
        return;
    }
    const i64 j = c / f.cols(), i = c % f.cols();
    counts[c] = mc::segmentCount(cellAt<T>(f, j, i), levels, n);
}

struct Segments {
    double* xy = nullptr;
    std::int32_t* level = nullptr;
    std::uint8_t* sides = nullptr;
    i64* cell = nullptr;
    std::int32_t* link = nullptr;
};

template <class T>
__global__ void __launch_bounds__(256)
    emitKernel(Frame f, const double* levels, int n, const i64* offsets, Segments s) {
    const i64 cells = (f.ny - 1) * f.cols();
    const i64 c = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cells || offsets[c] == offsets[c + 1]) return;
    const i64 j = c / f.cols(), i = c % f.cols();
    const mc::Cell q = cellAt<T>(f, j, i);
    int first, last;
    mc::crossingLevels(q, levels, n, first, last);
    i64 at = offsets[c];
    for (int k = first; k < last; ++k) {
        std::uint8_t from[2], to[2];
        const int m = mc::segmentsAt(q, levels[k], from, to);
        for (int t = 0; t < m; ++t, ++at) {
            mc::crossing(q, levels[k], from[t], j, i, s.xy[4 * at], s.xy[4 * at + 1]);
            mc::crossing(q, levels[k], to[t], j, i, s.xy[4 * at + 2], s.xy[4 * at + 3]);
            s.level[at] = k;
            s.sides[2 * at] = from[t];
            s.sides[2 * at + 1] = to[t];
            s.cell[at] = c;
        }
    }
}

__global__ void __launch_bounds__(256) linkKernel(Frame f, const i64* offsets, Segments s, i64 count) {
    const i64 g = i64(blockIdx.x) * blockDim.x + threadIdx.x;
    if (g >= count) return;
    const i64 c = s.cell[g];
    const i64 j = c / f.cols(), i = c % f.cols();
    for (int e = 0; e < 2; ++e) {
        const std::uint8_t side = s.sides[2 * g + e];
        std::int32_t link = -1;
        i64 nj, ni;
        if (mc::neighbour(j, i, side, f.ny, f.nx, f.wrapX, nj, ni)) {
            const i64 nc = nj * f.cols() + ni;
            const std::uint8_t want = mc::facing(side);
            for (i64 t = offsets[nc]; t < offsets[nc + 1]; ++t) {
                if (s.level[t] != s.level[g]) continue;
                if (s.sides[2 * t] == want) link = std::int32_t(2 * t);
                if (s.sides[2 * t + 1] == want) link = std::int32_t(2 * t + 1);
            }
        }
        s.link[2 * g + e] = link;
    }
}

} // namespace

ContourSegments contourSegmentsCuda(const ArrayView& frame, const std::vector<double>& levels, bool wrapX,
                                    Stream stream) {
    cuda::DeviceGuard guard(stream);
    const cudaStream_t st = cuda::streamOf(stream);
    ContourSegments out;
    out.ny = frame.shape[0];
    out.nx = frame.shape[1];
    if (out.ny < 2 || out.nx < 2 || levels.empty()) return out;
    const Frame f{frame.data, out.ny, out.nx, frame.strides[0], frame.strides[1], wrapX};
    const i64 cells = (f.ny - 1) * f.cols();
    const int n = static_cast<int>(levels.size());
    const Device device = stream.device();

    cuda::Scratch lev(levels.size() * sizeof(double), stream);
    copyBytes(lev.as<double>(), device, levels.data(), Device::host(), levels.size() * sizeof(double),
              stream);
    cuda::Scratch counts(std::size_t(cells + 1) * sizeof(i64), stream);
    cuda::Scratch offsets(std::size_t(cells + 1) * sizeof(i64), stream);
    const unsigned blocks = unsigned(cuda::ceilDiv(cells + 1, 256));
    visitNumeric(frame.dtype, [&](auto tag) {
        using T = decltype(tag);
        countKernel<T><<<blocks, 256, 0, st>>>(f, lev.as<double>(), n, counts.as<i64>());
    });
    STRATA_CUDA_CHECK_LAUNCH("contour countKernel");
    std::size_t tempBytes = 0;
    STRATA_CUDA_TRY(cub::DeviceScan::ExclusiveSum(nullptr, tempBytes, counts.as<i64>(), offsets.as<i64>(),
                                                  cells + 1, st));
    cuda::Scratch temp(tempBytes, stream);
    STRATA_CUDA_TRY(cub::DeviceScan::ExclusiveSum(temp.as<void>(), tempBytes, counts.as<i64>(),
                                                  offsets.as<i64>(), cells + 1, st));
    i64 total = 0;
    copyBytes(&total, Device::host(), offsets.as<i64>() + cells, device, sizeof total, stream);
    stream.synchronize();
    STRATA_EXPECTS(total <= kMaxContourSegments, ValueError,
                   "contours: the levels cross the frame " + std::to_string(total) +
                       " times, more than can be drawn; choose fewer levels");
    if (total == 0) return out;

    cuda::Scratch xy(std::size_t(total) * 4 * sizeof(double), stream);
    cuda::Scratch level(std::size_t(total) * sizeof(std::int32_t), stream);
    cuda::Scratch sides(std::size_t(total) * 2, stream);
    cuda::Scratch cell(std::size_t(total) * sizeof(i64), stream);
    cuda::Scratch link(std::size_t(total) * 2 * sizeof(std::int32_t), stream);
    const Segments s{xy.as<double>(), level.as<std::int32_t>(), sides.as<std::uint8_t>(), cell.as<i64>(),
                     link.as<std::int32_t>()};
    visitNumeric(frame.dtype, [&](auto tag) {
        using T = decltype(tag);
        emitKernel<T><<<blocks, 256, 0, st>>>(f, lev.as<double>(), n, offsets.as<i64>(), s);
    });
    STRATA_CUDA_CHECK_LAUNCH("contour emitKernel");
    linkKernel<<<unsigned(cuda::ceilDiv(total, 256)), 256, 0, st>>>(f, offsets.as<i64>(), s, total);
    STRATA_CUDA_CHECK_LAUNCH("contour linkKernel");

    out.xy.resize(std::size_t(total) * 4);
    out.level.resize(std::size_t(total));
    out.link.resize(std::size_t(total) * 2);
    copyBytes(out.xy.data(), Device::host(), s.xy, device, out.xy.size() * sizeof(double), stream);
    copyBytes(out.level.data(), Device::host(), s.level, device, out.level.size() * sizeof(std::int32_t),
              stream);
    copyBytes(out.link.data(), Device::host(), s.link, device, out.link.size() * sizeof(std::int32_t),
              stream);
    stream.synchronize();
    return out;
}

} // namespace strata::detail
