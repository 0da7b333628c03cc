#include "strata/render/frame_texture.h"

#include <GL/gl.h>
#include <GL/glext.h>

#include "interop.h"
#include "strata/core/error.h"
#include "strata/core/startup_trace.h"

namespace strata {

std::string_view name(FramePath p) {
    switch (p) {
    case FramePath::None:
        return "none";
    case FramePath::Interop:
        return "CUDA-GL interop";
    case FramePath::HostUpload:
        return "host upload";
    case FramePath::HostRaster:
        return "host raster";
    }
    return "?";
}

struct FrameTexture::Interop {
    std::unique_ptr<detail::RegisteredPbo> pbo;
};

namespace {

// Saves the GL state FrameTexture touches and puts it back on scope exit, so that a caller
// tracking GL state (VTK, Qt) finds it as it left it.
class GlStateGuard {
public:
    GlStateGuard() {
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &texture_);
        glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpackBuffer_);
        glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment_);
        glGetIntegerv(GL_UNPACK_ROW_LENGTH, &rowLength_);
    }
    ~GlStateGuard() {
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(texture_));
        glBindBuffer(GL_PIXEL_UNPACK_BUFFER, static_cast<GLuint>(unpackBuffer_));
        glPixelStorei(GL_UNPACK_ALIGNMENT, alignment_);
        glPixelStorei(GL_UNPACK_ROW_LENGTH, rowLength_);
    }
    GlStateGuard(const GlStateGuard&) = delete;
    GlStateGuard& operator=(const GlStateGuard&) = delete;

private:
    GLint texture_ = 0, unpackBuffer_ = 0, alignment_ = 4, rowLength_ = 0;
};

std::string glRenderer() {
    const auto* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return r ? r : "unknown GL renderer";
}

Stream frameStream(const DataArray& frame) {
    const auto& buffer = frame.variable().buffer();
    if (buffer && buffer->device() == frame.device()) return buffer->stream();
    return defaultStream(frame.device());
}

} // namespace

FrameTexture::FrameTexture() : FrameTexture(Options{}) {}
FrameTexture::FrameTexture(Options options) : options_(options) {}
FrameTexture::~FrameTexture() { release(); }

void FrameTexture::release() noexcept {
    interop_.reset(); // unregister before the buffer goes
    if (pbo_) glDeleteBuffers(1, &pbo_);
    if (texture_) glDeleteTextures(1, &texture_);
    pbo_ = texture_ = 0;
    width_ = height_ = 0;
}

void FrameTexture::resize(int width, int height) {
    if (texture_ && width == width_ && height == height_) return;
    interop_.reset();
    if (pbo_) glDeleteBuffers(1, &pbo_);
    pbo_ = 0;
    if (!texture_) glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    width_ = width;
    height_ = height;
}

bool FrameTexture::ensureInterop(const DataArray& frame) {
    if (interop_) return true;
    if (!interopProblem_.empty()) return false;
    if (!options_.allowInterop) {
        interopProblem_ = "interop turned off";
        return false;
    }
    const std::size_t bytes = static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4;
    glGenBuffers(1, &pbo_);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
    glBufferData(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), nullptr, GL_STREAM_DRAW);
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    std::string why;
    auto registered = detail::registerPbo(pbo_, bytes, frame.device(), glRenderer(), &why);
    if (!registered) {
        glDeleteBuffers(1, &pbo_);
        pbo_ = 0;
        interopProblem_ = why;
        return false;
    }
    interop_ = std::make_unique<Interop>();
    interop_->pbo = std::move(registered);
    ++registrations_;
    return true;
}

void FrameTexture::uploadFromHost(const DataArray& rgba, bool bgra) {
    STRATA_EXPECTS(rgba.device().isHost() && rgba.variable().isContiguous(), ValueError,
                   "FrameTexture: host upload needs contiguous host RGBA");
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, bgra ? GL_BGRA : GL_RGBA, GL_UNSIGNED_BYTE,
                    rgba.variable().view().data);
    startup::mark(startup::Milestone::Coloured); // on the GL path: colour-mapped here and uploaded
}

void FrameTexture::uploadFromPbo() {
    glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    startup::mark(startup::Milestone::Coloured); // colour-mapped on the device, into GL's buffer
}

void FrameTexture::updateRgba(const DataArray& rgba, bool bgra) {
    STRATA_EXPECTS(rgba.ndim() == 3 && rgba.dtype() == DType::UInt8 && rgba.shape()[2] == 4 &&
                       rgba.device().isHost() && rgba.isLoaded(),
                   ValueError, "FrameTexture: updateRgba needs uint8 {rows, columns, 4} on the host");
    const auto h = rgba.shape()[0], w = rgba.shape()[1];
    STRATA_EXPECTS(w > 0 && h > 0 && w <= 32768 && h <= 32768, ValueError,
                   "FrameTexture: cannot draw a frame of " + std::to_string(h) + " x " + std::to_string(w));
    GlStateGuard guard;
    resize(static_cast<int>(w), static_cast<int>(h));
    uploadFromHost(rgba, bgra);
    path_ = {FramePath::HostUpload, "the frame is on the host (computed on the CPU)"};
}

void FrameTexture::update(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                          const DataArray* deviceRange, const OffScaleColours& colours) {
    STRATA_EXPECTS(frame.ndim() == 2, ValueError,
                   "FrameTexture: the frame '" + frame.name() + "' must be 2-D, it has " +
                       std::to_string(frame.ndim()) + " dims");
    STRATA_EXPECTS(frame.isLoaded(), ValueError,
                   "FrameTexture: the frame '" + frame.name() + "' is not loaded");
    STRATA_EXPECTS(lut.device() == frame.device(), ValueError,
                   "FrameTexture: the LUT is on " + lut.device().toString() + ", the frame on " +
                       frame.device().toString());
    const auto h = frame.shape()[0], w = frame.shape()[1];
    STRATA_EXPECTS(w > 0 && h > 0 && w <= 32768 && h <= 32768, ValueError,
                   "FrameTexture: cannot draw a frame of " + std::to_string(h) + " x " + std::to_string(w));
    GlStateGuard guard;
    resize(static_cast<int>(w), static_cast<int>(h));

    if (frame.device().isHost()) {
        DataArray rgba = deviceRange ? colormap(frame, lut, *deviceRange, colours, Stream::host())
                                     : colormap(frame, lut, vmin, vmax, colours, Stream::host());
        uploadFromHost(rgba);
        path_ = {FramePath::HostUpload, "the frame is on the host (computed on the CPU)"};
        return;
    }
    const Stream stream = frameStream(frame);
    if (ensureInterop(frame)) {
        interop_->pbo->write(stream, [&](void* out, std::size_t) {
            colormapInto(frame, lut, vmin, vmax, deviceRange, colours, out, stream);
        });
        uploadFromPbo();
        path_ = {FramePath::Interop, "frame on " + frame.device().toString() + ", GL on " + glRenderer()};
        return;
    }
    // Interop unavailable: colour-map on the device, bring the RGBA over (counted), upload.
    DataArray rgba = deviceRange ? colormap(frame, lut, *deviceRange, colours, stream)
                                 : colormap(frame, lut, vmin, vmax, colours, stream);
    uploadFromHost(rgba.asHost());
    path_ = {FramePath::HostUpload, interopProblem_ + "; the RGBA frame crosses to the host"};
}

void FrameTexture::updateProjected(const DataArray& frame, const DataArray& lut, double vmin, double vmax,
                                   const OffScaleColours& colours, const Reprojection& map,
                                   std::uint64_t fill) {
    STRATA_EXPECTS(frame.ndim() == 2 && frame.isLoaded(), ValueError,
                   "FrameTexture: the frame '" + frame.name() + "' must be a loaded 2-D frame");
    STRATA_EXPECTS(lut.device() == frame.device(), ValueError,
                   "FrameTexture: the LUT is on " + lut.device().toString() + ", the frame on " +
                       frame.device().toString());
    GlStateGuard guard;
    resize(map.width(), map.height());
    // A mesh's node values: the map's pixels resampled from them first, then coloured.
    const auto values = [&](Stream s) { return map.interpolates() ? map.resample(frame, s) : frame; };
    if (frame.device().isHost()) {
        const DataArray rgba = colormap(values(Stream::host()), lut, vmin, vmax, colours, Stream::host());
        uploadFromHost(map.apply(rgba, fill, Stream::host()));
        path_ = {FramePath::HostUpload, "the frame is on the host (computed on the CPU)"};
        return;
    }
    const Stream stream = frameStream(frame);
    const DataArray rgba = colormap(values(stream), lut, vmin, vmax, colours, stream); // stays on the device
    if (ensureInterop(frame)) {
        interop_->pbo->write(stream, [&](void* out, std::size_t) { map.applyInto(rgba, out, fill, stream); });
        uploadFromPbo();
        path_ = {FramePath::Interop, "frame on " + frame.device().toString() + ", GL on " + glRenderer()};
        return;
    }
    uploadFromHost(map.apply(rgba, fill, stream).asHost());
    path_ = {FramePath::HostUpload, interopProblem_ + "; the RGBA map crosses to the host"};
}

} // namespace strata
