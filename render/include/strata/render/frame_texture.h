#pragma once
// FrameTexture: the RGBA8 GL texture a colour-mapped frame is drawn from. With a frame on a
// CUDA device and a GL context on that device, the colour map writes straight into a GL pixel
// buffer registered once with CUDA, which is then copied into the texture on the GPU: no byte
// crosses to the host. Otherwise (CUDA off, data on the host, GL on another GPU or in
// software) the same texture is filled from host memory. path() says which and why.
// Every call, the destructor included, needs the GL context it was first used in to be current.
#include <memory>
#include <string>
#include <string_view>

#include "strata/core/data_array.h"
#include "strata/core/ops.h"
#include "strata/render/projection.h"

namespace strata {

enum class FramePath {
    None,       // nothing drawn yet
    Interop,    // CUDA wrote into a registered GL buffer
    HostUpload, // the texture was filled from host memory
    HostRaster, // no GL: a host frame painted into the window's raster backing store
};
std::string_view name(FramePath p); // "none", "CUDA-GL interop", "host upload", "host raster"

struct FramePathInfo {
    FramePath path = FramePath::None;
    std::string reason; // "frame on cuda:0, GL on NVIDIA H200/PCIe/SSE2", "no CUDA device: ..."
};

class FrameTexture {
public:
    struct Options {
        bool allowInterop = true; // false: always fill from the host (for comparisons)
    };
    FrameTexture();
    explicit FrameTexture(Options options);
    ~FrameTexture();
    FrameTexture(const FrameTexture&) = delete;
    FrameTexture& operator=(const FrameTexture&) = delete;

    // Colour-maps `frame` (2-D; row 0 becomes texture row 0, at t = 0) into the texture,
    // sized to the frame. `lut` (uint8 {n, 4}) must be on the frame's device. The range is
    // `deviceRange` when given (a minmax() result on the frame's device, read there), else
    // [vmin, vmax]. GL commands are queued, not finished.
    void update(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                const DataArray* deviceRange, const OffScaleColours& colours);

    // `frame` colour-mapped as update() maps it with [vmin, vmax], then resampled through `map`
    // (the texture is the map image, `fill` off the map): on a CUDA device the colours stay there
    // and the resampling kernel writes the registered GL buffer (the interop path).
    void updateProjected(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                         const OffScaleColours& colours, const Reprojection& map, std::uint64_t fill);

    // The texture filled with pixels already colour-mapped on the host (uint8 {rows, columns,
    // 4}, contiguous, bytes R, G, B, A or with `bgra` B, G, R, A): the host upload path
    // without the colour map.
    void updateRgba(const DataArray& rgba, bool bgra = false);

    unsigned texture() const { return texture_; } // GL name, 0 before the first update
    int width() const { return width_; }
    int height() const { return height_; }
    const FramePathInfo& path() const { return path_; }
    // GL buffers registered with CUDA so far: one per frame size on the interop path, none
    // on the host path (a registration is costly: it is made once and reused).
    int registrations() const { return registrations_; }

    // Frees the GL and interop objects (the context must be current); the next update
    // creates them again. Safe to call more than once.
    void release() noexcept;

private:
    struct Interop;
    void resize(int width, int height);
    bool ensureInterop(const DataArray& frame);
    void uploadFromHost(const DataArray& rgba, bool bgra = false);
    void uploadFromPbo();

    Options options_;
    unsigned texture_ = 0;
    unsigned pbo_ = 0;
    int width_ = 0, height_ = 0;
    int registrations_ = 0;
    std::unique_ptr<Interop> interop_;
    std::string interopProblem_; // set once registration failed: not tried again
    FramePathInfo path_;
};

} // namespace strata
