// CUDA-GL interop for FrameTexture: registration checks and the RAII classes of cuda_gl.h.
#include <algorithm>
#include <vector>

#include "../interop.h"
#include "cuda_gl.h"
#include "strata/core/error.h"

namespace strata::detail {

void checkCuda(cudaError_t status, const char* call, const char* file, int line) {
    if (status == cudaSuccess) return;
    throw CudaError(std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                        cudaGetErrorString(status) + ")",
                    place(file, line));
}

CudaGlRegistration::CudaGlRegistration(GLuint buffer, unsigned flags) {
    STRATA_RENDER_CUDA(cudaGraphicsGLRegisterBuffer(&resource_, buffer, flags));
}

CudaGlRegistration::~CudaGlRegistration() {
    if (resource_) (void)cudaGraphicsUnregisterResource(resource_); // never throws
}

CudaGlMapping::CudaGlMapping(const CudaGlRegistration& registration, cudaStream_t stream)
    : resource_(registration.resource()), stream_(stream) {
    STRATA_RENDER_CUDA(cudaGraphicsMapResources(1, &resource_, stream_));
    cudaError_t st = cudaGraphicsResourceGetMappedPointer(&data_, &size_, resource_);
    if (st != cudaSuccess) {
        (void)cudaGraphicsUnmapResources(1, &resource_, stream_);
        checkCuda(st, "cudaGraphicsResourceGetMappedPointer", __FILE__, __LINE__);
    }
}

CudaGlMapping::~CudaGlMapping() { (void)cudaGraphicsUnmapResources(1, &resource_, stream_); }

namespace {

class CudaRegisteredPbo final : public RegisteredPbo {
public:
    CudaRegisteredPbo(GLuint buffer, std::size_t bytes, int ordinal)
        : registration_(buffer, cudaGraphicsRegisterFlagsWriteDiscard), bytes_(bytes), ordinal_(ordinal) {}

    void write(Stream stream, const std::function<void(void*, std::size_t)>& fn) override {
        STRATA_RENDER_CUDA(cudaSetDevice(ordinal_));
        CudaGlMapping mapping(registration_, static_cast<cudaStream_t>(stream.handle()));
        STRATA_EXPECTS(mapping.size() >= bytes_, CudaError, "the mapped GL buffer is smaller than the frame");
        fn(mapping.data(), bytes_);
    }

private:
    CudaGlRegistration registration_;
    std::size_t bytes_;
    int ordinal_;
};

} // namespace

std::unique_ptr<RegisteredPbo> registerPbo(unsigned glBuffer, std::size_t bytes, Device device,
                                           const std::string& glRenderer, std::string* whyNot) {
    auto fail = [&](std::string why) -> std::unique_ptr<RegisteredPbo> {
        if (whyNot) *whyNot = std::move(why);
        (void)cudaGetLastError(); // clear a sticky-free error left by a refused call
        return nullptr;
    };
    if (!device.isCuda()) return fail("the frame is on the host");
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return fail("no CUDA device");
    unsigned glCount = 0;
    std::vector<int> glDevices(static_cast<std::size_t>(count));
    cudaError_t st =
        cudaGLGetDevices(&glCount, glDevices.data(), static_cast<unsigned>(count), cudaGLDeviceListAll);
    if (st != cudaSuccess || glCount == 0)
        return fail("the GL context (" + glRenderer + ") is not on a CUDA device");
    glDevices.resize(glCount);
    if (std::find(glDevices.begin(), glDevices.end(), device.ordinal) == glDevices.end())
        return fail("the GL context (" + glRenderer + ") is on CUDA device " + std::to_string(glDevices[0]) +
                    ", the frame on " + device.toString());
    try {
        STRATA_RENDER_CUDA(cudaSetDevice(device.ordinal));
        return std::make_unique<CudaRegisteredPbo>(glBuffer, bytes, device.ordinal);
    } catch (const CudaError& e) {
        return fail(e.what());
    }
}

} // namespace strata::detail
