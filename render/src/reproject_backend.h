#pragma once
// The seam between Reprojection::apply and its device backend (cuda/reproject.cu): one
// problem struct, plain pointers and sizes.
#include <cstdint>
#include <string>

#include "projection_math.h"
#include "strata/core/coordinate.h"

namespace strata::detail {

struct ReprojectProblem {
    ProjParams params;
    SourceEdges edges; // on the device
    MapPixels pixels;  // the output image
    const void* src = nullptr;
    std::int64_t rowStride = 0, colStride = 0; // in cells of cellBytes
    void* dst = nullptr;                       // width × height cells, row 0 at the bottom
    int cellBytes = 4;                         // 4 or 8
    std::uint64_t fill = 0;                    // the low cellBytes bytes
    void* stream = nullptr;                    // cudaStream_t
};

// A map image's x or y coordinate: n pixel centres from v0 to v1 map metres.
Coordinate mapMetres(const std::string& name, std::int64_t n, double v0, double v1);

// Launches the resampling on the problem's stream (asynchronous). Throws CudaError when the
// launch fails; Error where CUDA was not compiled in.
void reprojectCuda(const ReprojectProblem& p);

// The resampling by a cell map worked out ahead (a source in its own CRS: PROJ placed each
// pixel on the host once): pixel k takes source cell cells[k] (row * ncol + column), or the fill
// where it is -1. `cells` on the device; the rest as in ReprojectProblem.
void gatherCuda(const ReprojectProblem& p, const std::int64_t* cells, std::int64_t ncol);

// A mesh's node values interpolated into n map pixels (interpolate_math.h): dst[k] from
// src[node * stride] over pixel k's `nodesPerPixel` nodes and weights; float32 or float64
// (`valueBytes` 4 or 8), all on the stream's device. Asynchronous; throws as above.
void interpolateCuda(const void* src, std::int64_t stride, int valueBytes, const std::int32_t* nodes,
                     const float* weights, int nodesPerPixel, std::int64_t n, void* dst, void* stream);

} // namespace strata::detail

namespace strata::detail {

// The projection's own inverse on the device for n points (x, y metres → lon, lat radians, NaN
// off the map), all pointers on the device: for checking the formulas there against PROJ.
void inverseCuda(const ProjParams& params, const double* x, const double* y, double* lon, double* lat,
                 std::int64_t n, void* stream);

} // namespace strata::detail
