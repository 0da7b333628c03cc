#pragma once
// RAII over CUDA's GL interop, for src/cuda only: one object registers a GL buffer with CUDA
// for its lifetime, one maps it for a scope. Both must die while the GL context is current.
#include <cuda_runtime.h>
// cuda_gl_interop.h wants the GL types declared first.
#include <GL/gl.h>
#include <cuda_gl_interop.h>

#include <cstddef>
#include <string>

namespace strata::detail {

// Throws CudaError naming the call and CUDA's message when `status` is not cudaSuccess.
void checkCuda(cudaError_t status, const char* call, const char* file, int line);
#define STRATA_RENDER_CUDA(call) ::strata::detail::checkCuda((call), #call, __FILE__, __LINE__)

class CudaGlRegistration {
public:
    // Registers `buffer` (write-discard: CUDA only writes it). Throws CudaError on refusal.
    CudaGlRegistration(GLuint buffer, unsigned flags);
    ~CudaGlRegistration();
    CudaGlRegistration(const CudaGlRegistration&) = delete;
    CudaGlRegistration& operator=(const CudaGlRegistration&) = delete;
    cudaGraphicsResource_t resource() const { return resource_; }

private:
    cudaGraphicsResource_t resource_ = nullptr;
};

class CudaGlMapping {
public:
    // Maps the registered buffer on `stream` (ordered after GL work already issued).
    CudaGlMapping(const CudaGlRegistration& registration, cudaStream_t stream);
    // Unmaps on the same stream: GL work issued afterwards waits for the stream's work.
    ~CudaGlMapping();
    CudaGlMapping(const CudaGlMapping&) = delete;
    CudaGlMapping& operator=(const CudaGlMapping&) = delete;
    void* data() const { return data_; }
    std::size_t size() const { return size_; }

private:
    cudaGraphicsResource_t resource_;
    cudaStream_t stream_;
    void* data_ = nullptr;
    std::size_t size_ = 0;
};

} // namespace strata::detail
