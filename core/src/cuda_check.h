#pragma once
// STRATA_CUDA_TRY(call): throws CudaError (or OutOfMemoryError for cudaErrorMemoryAllocation)
// naming the call, the CUDA error and the source place. Host code of the CUDA backend only.
#if STRATA_HAVE_CUDA
#include <cuda_runtime.h>

#include <string>

#include "strata/core/error.h"

namespace strata::detail {
[[noreturn]] void throwCudaError(cudaError_t status, const char* call, const char* file, int line);
}

#define STRATA_CUDA_TRY(call)                                                                \
    do {                                                                                     \
        cudaError_t strata_status_ = (call);                                                 \
        if (strata_status_ != cudaSuccess)                                                   \
            ::strata::detail::throwCudaError(strata_status_, #call, __FILE__, __LINE__);    \
    } while (0)
#endif
