#pragma once
// STRATA_HOST_DEVICE: a function the host loops and the CUDA kernels share (__host__ __device__
// under nvcc, plain C++ elsewhere), as the step functions of contours and flow are.
#if defined(__CUDACC__)
#define STRATA_HOST_DEVICE __host__ __device__
#else
#define STRATA_HOST_DEVICE
#endif
