#include "strata/core/error.h"

#include <cstring>

#include "cuda_check.h"

namespace strata::detail {

std::string place(const char* file, int line) {
    const char* slash = std::strrchr(file, '/');
    return std::string(slash ? slash + 1 : file) + ":" + std::to_string(line);
}

#if STRATA_HAVE_CUDA
void throwCudaError(cudaError_t status, const char* call, const char* file, int line) {
    std::string message = std::string("CUDA error in ") + call + ": " + cudaGetErrorName(status) + " (" +
                          cudaGetErrorString(status) + ")";
    if (status == cudaErrorMemoryAllocation) throw OutOfMemoryError(message, place(file, line));
    throw CudaError(message, place(file, line));
}
#endif

} // namespace strata::detail
